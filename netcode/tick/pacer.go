package tick

import "time"

// Pacer runs turns in real time on a schedule of absolute times: the n-th
// turn is due at the sum of the intervals before it, so that sleeping a
// little too long never accumulates into drift. It never reads a clock;
// the caller passes the wall clock's elapsed time, so it is tested with
// synthetic times.
type Pacer struct {
	next    time.Duration // when the next turn is due, on the pacer's clock
	Lost    time.Duration // wall-clock time dropped after stalls
	Stalls  int           // times a debt was dropped
	MaxLate int           // turns run back to back at most; 0: MaxServerLate
}

// Wait returns how long to sleep before the next turn is due, given the
// wall clock's elapsed time since the pacer started: 0 means it is due.
// When the turn is more than maxLate intervals late, the debt beyond that
// is dropped.
func (p *Pacer) Wait(elapsed, interval time.Duration) time.Duration {
	now := elapsed - p.Lost
	if now < p.next {
		return p.next - now
	}
	maxLate := p.MaxLate
	if maxLate == 0 {
		maxLate = MaxServerLate
	}
	if late := now - p.next; late > time.Duration(maxLate)*interval {
		p.Lost += late - time.Duration(maxLate)*interval
		p.Stalls++
	}
	return 0
}

// Turn returns the time the due turn was scheduled for, on the pacer's
// clock, and schedules the next one interval later.
func (p *Pacer) Turn(interval time.Duration) time.Duration {
	t := p.next
	p.next += interval
	return t
}

// Next returns when the next turn is due, on the pacer's clock.
func (p *Pacer) Next() time.Duration { return p.next }
