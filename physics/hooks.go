package physics

// Test hooks: switches that only the package's own tests turn, through
// export_test.go, to reach paths and breaches no world's configuration
// asks for. Their zero values, the only ones outside the tests, change
// nothing. They are package variables, so the tests that turn them do not
// run in parallel.
var (
	// testBreach adds to every active body's velocity, in each step, a
	// tiny amount that depends on how many bodies are active: a quantity
	// summed over the world, which breaks partial replay's invariant
	// (partial.go), so that the partial-against-full test can show it
	// catches one.
	testBreach bool

	// testSmallFollow, when not nil, stands for smallFollow, so that the
	// tests take every way through followPairs.
	testSmallFollow *int

	// testFollowWays, when not nil, counts the ways through followPairs
	// taken.
	testFollowWays *[followWays]int

	// testHeavyListMax, when not nil, stands for heavyListLen as the most
	// contacts relaxHeavy lists, so that a test takes its other way.
	testHeavyListMax *int
)

// followWay counts way k through followPairs when a test asks for it.
func followWay(k int) {
	if testFollowWays != nil {
		testFollowWays[k]++
	}
}
