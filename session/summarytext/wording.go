package summarytext

import (
	"fmt"
	"math"
	"time"
)

// Plural returns "1 jump" or "n jumps": n and the noun, with an s unless n
// is 1.
func Plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Metres formats a length for a summary in a unit that shows its digits:
// "0 m" for an exact zero, µm below a millimetre, mm below a metre.
func Metres(v float64) string {
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0 m"
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Sprint(v)
	case a < 1e-3:
		return fmt.Sprintf("%.1f µm", v*1e6)
	case a < 1:
		return fmt.Sprintf("%.2f mm", v*1e3)
	}
	return fmt.Sprintf("%.3f m", v)
}

// ModeName is a sync mode given by its flag value, for SyncName.
type ModeName string

// String returns the flag value.
func (m ModeName) String() string { return string(m) }

// SyncName names a sync mode in prose: "state sync" or "input sync" (the
// -sync flag's value for the latter is "inputs").
func SyncName(mode fmt.Stringer) string {
	if mode.String() == "inputs" {
		return "input sync"
	}
	return mode.String() + " sync"
}

// JoinRoundTrip says the round trip a client measured at join. The client
// reads the server's answer at its next tick, so the figure counts whole
// ticks: on a fast link (loopback) it says "under a tick", not the tick's
// length as if it were the network's.
func JoinRoundTrip(rtt, tick time.Duration) string {
	if rtt <= tick {
		return fmt.Sprintf("RTT at join under a tick (%v)", tick.Round(100*time.Microsecond))
	}
	return fmt.Sprintf("RTT at join %v (whole ticks)", rtt.Round(time.Millisecond))
}
