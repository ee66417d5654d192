package lab

import (
	"fmt"
	"time"
)

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
