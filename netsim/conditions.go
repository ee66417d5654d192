package netsim

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// MaxDelay bounds Latency and Jitter. An hour is far beyond any network a
// game would survive, and the bound keeps every delivery time far from
// overflowing time.Duration.
const MaxDelay = time.Hour

// Conditions describe one direction of a link. The zero value is a perfect
// link: no delay, no loss, no duplication, unlimited bandwidth.
//
// Conditions apply to packets at the moment they are sent; changing them
// (Link.SetConditions) leaves packets already in flight untouched.
type Conditions struct {
	// Latency is the one-way base delay, in [0, MaxDelay].
	Latency time.Duration
	// Jitter spreads each packet's delay uniformly over
	// [Latency-Jitter, Latency+Jitter] (whole nanoseconds), clamped at 0;
	// in [0, MaxDelay]. Two packets sent d apart can swap places when
	// 2*Jitter > d, unless InOrder is set. When Jitter > Latency the clamp
	// at 0 raises the mean delay above Latency.
	Jitter time.Duration
	// Loss is the average probability that a packet is lost, in [0, 1].
	Loss float64
	// BurstLen selects the loss model. 0 or 1: each packet is lost
	// independently with probability Loss. Above 1: a Gilbert-Elliott
	// two-state chain whose bad state (every packet lost) lasts BurstLen
	// packets on average and whose long-run loss rate is still Loss.
	// A good-state run cannot be shorter than one packet, so when
	// Loss > BurstLen/(BurstLen+1) the mean burst is raised to
	// Loss/(1-Loss) to keep the average at Loss. Valid: 0 or [1, +Inf).
	BurstLen float64
	// Duplicate is the probability, in [0, 1], that a packet that is not
	// lost arrives twice. The copy gets its own jitter draw.
	Duplicate float64
	// InOrder clamps each delivery time to be no earlier than the latest
	// one scheduled before it, so jitter delays packets but never reorders
	// them (a duplicate then arrives at or after its original).
	InOrder bool
	// Bandwidth limits the link to this many bytes per second; 0 means
	// unlimited. A packet's payload is serialised after the ones queued
	// before it, and its delay starts when its last byte has left.
	Bandwidth int64
	// QueueBytes bounds the bytes waiting for, or in, serialisation when
	// Bandwidth > 0. A packet that would exceed the bound is dropped and
	// counted in Stats.QueueDropped. 0 means unbounded. Ignored when
	// Bandwidth is 0.
	QueueBytes int
}

// Validate reports every field that is out of range, each error naming
// the field, its value and the valid range, for example
//
//	netsim: Loss is 1.5, want a probability in [0, 1]
//
// It returns nil for valid conditions.
func (c Conditions) Validate() error {
	var errs []error
	delay := func(name string, d time.Duration) {
		if d < 0 || d > MaxDelay {
			errs = append(errs, fmt.Errorf("netsim: %s is %v, want a duration in [0, %v]", name, d, MaxDelay))
		}
	}
	prob := func(name string, p float64) {
		if !(p >= 0 && p <= 1) { // also catches NaN
			errs = append(errs, fmt.Errorf("netsim: %s is %v, want a probability in [0, 1]", name, p))
		}
	}
	delay("Latency", c.Latency)
	delay("Jitter", c.Jitter)
	prob("Loss", c.Loss)
	if !(c.BurstLen == 0 || (c.BurstLen >= 1 && !math.IsInf(c.BurstLen, 1))) {
		errs = append(errs, fmt.Errorf("netsim: BurstLen is %v, want 0 (independent loss) or a finite mean burst length >= 1 packet", c.BurstLen))
	}
	prob("Duplicate", c.Duplicate)
	if c.Bandwidth < 0 {
		errs = append(errs, fmt.Errorf("netsim: Bandwidth is %d, want bytes per second >= 0 (0 = unlimited)", c.Bandwidth))
	}
	if c.QueueBytes < 0 {
		errs = append(errs, fmt.Errorf("netsim: QueueBytes is %d, want bytes >= 0 (0 = unbounded)", c.QueueBytes))
	}
	return errors.Join(errs...)
}

// String summarises the conditions in one line for logs and HUDs, for
// example "100ms ±15ms, loss 2%". Fields at their zero value are omitted.
func (c Conditions) String() string {
	var b strings.Builder
	b.WriteString(c.Latency.String())
	if c.Jitter > 0 {
		b.WriteString(" ±")
		b.WriteString(c.Jitter.String())
	}
	if c.Loss > 0 {
		b.WriteString(", loss ")
		b.WriteString(percent(c.Loss))
		if c.BurstLen > 1 {
			b.WriteString(" in bursts of ")
			b.WriteString(strconv.FormatFloat(c.BurstLen, 'g', -1, 64))
		}
	}
	if c.Duplicate > 0 {
		b.WriteString(", dup ")
		b.WriteString(percent(c.Duplicate))
	}
	if c.InOrder {
		b.WriteString(", in order")
	}
	if c.Bandwidth > 0 {
		b.WriteString(", ")
		b.WriteString(strconv.FormatInt(c.Bandwidth, 10))
		b.WriteString(" B/s")
		if c.QueueBytes > 0 {
			b.WriteString(" queue ")
			b.WriteString(strconv.Itoa(c.QueueBytes))
			b.WriteString(" B")
		}
	}
	return b.String()
}

func percent(p float64) string {
	return strconv.FormatFloat(p*100, 'g', 4, 64) + "%"
}
