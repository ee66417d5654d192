package main

import (
	"github.com/cubelab/cube/internal/lab"
	"math"
	"testing"
	"time"
)

func TestWording(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{plural(0, "jump"), "0 jumps"}, {plural(1, "jump"), "1 jump"}, {plural(2, "jump"), "2 jumps"},
		{metres(0), "0 m"}, {metres(3.2e-7), "0.3 µm"}, {metres(0.0004), "400.0 µm"}, {metres(0.0123), "12.30 mm"},
		{lab.JoinRoundTrip(15625*time.Microsecond, 15625*time.Microsecond), "RTT at join under a tick (15.6ms)"},
		{lab.JoinRoundTrip(47*time.Millisecond, 15625*time.Microsecond), "RTT at join 47ms (whole ticks)"},
		{lab.SyncName(modeName("inputs")), "input sync"}, {lab.SyncName(modeName("state")), "state sync"},
		{metres(1.5), "1.500 m"}, {metres(-0.002), "-2.00 mm"}, {metres(math.NaN()), "NaN"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
