package lab

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/session"
)

// TestHUDValuesAreTheClients checks the HUD's numbers, not its words: after
// two seconds of play with a nudge (a real correction), the tick, the
// correction and resync counts, the last rewind's ticks and bodies and its
// error are the client's own figures, printed as the HUD prints them.
func TestHUDValuesAreTheClients(t *testing.T) {
	l, err := New(session.DefaultConfig(), false, 0)
	if err != nil {
		t.Fatal(err)
	}
	l.SetKeys(game.Forward)
	for i := 0; i < 64; i++ {
		if err := l.Frame(1.0 / 64); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Act(ActNudge); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 64; i++ {
		if err := l.Frame(1.0 / 64); err != nil {
			t.Fatal(err)
		}
	}
	c := l.Session().Client
	st, last := c.Stats, c.Last()
	if st.Corrections == 0 || last.Replayed == 0 {
		t.Fatalf("a nudge made %d corrections, the last replaying %d ticks: the test needs one", st.Corrections, last.Replayed)
	}
	// number returns the integer the pattern's group captures in the HUD.
	number := func(pattern string) int {
		t.Helper()
		re := regexp.MustCompile(pattern)
		for _, s := range l.HUD() {
			if m := re.FindStringSubmatch(s); m != nil {
				n, err := strconv.Atoi(m[1])
				if err != nil {
					t.Fatalf("%q: %v", m[1], err)
				}
				return n
			}
		}
		t.Fatalf("no HUD line matches %q:\n%v", pattern, l.HUD())
		return 0
	}
	for _, c := range []struct {
		pattern string
		want    int
	}{
		{`^tick (\d+)  acked`, int(c.Tick())},
		{`^corrections (\d+) \(`, int(st.Corrections)},
		{`resyncs (\d+)  offset`, int(st.Resyncs)},
		{`^last rewind: (\d+) ticks replayed`, last.Replayed},
		{`replayed  (\d+) of \d+ bodies`, st.LastReplay},
		{`of (\d+) bodies`, c.World().NumBodies()},
	} {
		if got := number(c.pattern); got != c.want {
			t.Errorf("HUD %q gives %d, the client %d", c.pattern, got, c.want)
		}
	}
	want := fmt.Sprintf("error %.3f m", math.Sqrt(last.Error.Pos2))
	if line := hudLine(l, "last rewind:"); !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(line) {
		t.Errorf("the rewind line %q does not give the last error as %q", line, want)
	}
}
