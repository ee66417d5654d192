package physics

import "testing"

// The test hooks of hooks.go, each turned for one test and turned back
// by its cleanup.

// breachForTest switches testBreach on for t.
func breachForTest(t testing.TB) {
	testBreach = true
	t.Cleanup(func() { testBreach = false })
}

// smallFollowForTest makes followPairs switch to the sweep past n
// followed bodies instead of smallFollow, until t ends.
func smallFollowForTest(t testing.TB, n int) {
	testSmallFollow = &n
	t.Cleanup(func() { testSmallFollow = nil })
}

// countFollowWays counts into ways how often each way through followPairs
// is taken, until t ends.
func countFollowWays(t testing.TB, ways *[followWays]int) {
	testFollowWays = ways
	t.Cleanup(func() { testFollowWays = nil })
}

// heavyListMaxForTest makes relaxHeavy list at most n contacts instead of
// heavyListLen, until t ends.
func heavyListMaxForTest(t testing.TB, n int) {
	testHeavyListMax = &n
	t.Cleanup(func() { testHeavyListMax = nil })
}
