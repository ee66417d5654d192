package summarytext

import (
	"math"
	"testing"
	"time"
)

func TestWording(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Plural(0, "jump"), "0 jumps"}, {Plural(1, "jump"), "1 jump"}, {Plural(2, "jump"), "2 jumps"},
		{Metres(0), "0 m"}, {Metres(3.2e-7), "0.3 µm"}, {Metres(0.0004), "400.0 µm"}, {Metres(0.0123), "12.30 mm"},
		{JoinRoundTrip(15625*time.Microsecond, 15625*time.Microsecond), "RTT at join under a tick (15.6ms)"},
		{JoinRoundTrip(47*time.Millisecond, 15625*time.Microsecond), "RTT at join 47ms (whole ticks)"},
		{SyncName(ModeName("inputs")), "input sync"}, {SyncName(ModeName("state")), "state sync"},
		{Metres(1.5), "1.500 m"}, {Metres(-0.002), "-2.00 mm"}, {Metres(math.NaN()), "NaN"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
