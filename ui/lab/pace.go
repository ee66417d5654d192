package lab

import (
	"fmt"
	"math"
)

// paceHalfLife is how long, in wall-clock seconds, it takes the HUD's
// figure of the pace to forget half of what it measured.
const paceHalfLife = 0.5

// pace measures how fast the simulation runs against the wall clock: the
// ticks simulated over the ticks due, where the ticks due are those the
// wall clock owed, uncapped: the ones run, and the ones dropped by the
// clock's catch-up cap or by the frame's simulation budget. It keeps the
// figure since the start (the window's closing line) and a recent one that
// decays with wall-clock time, frame rate aside (the HUD), both computed
// the same way.
type pace struct {
	ran, due             float64 // since the start, ticks
	recentRan, recentDue float64 // decaying sums, ticks
}

// add counts a frame of elapsed wall-clock seconds that ran ticks and
// dropped dropped (whole and fractional ticks the wall clock owed but
// that will never run).
func (p *pace) add(elapsed float64, ran int, dropped float64) {
	if elapsed > 0 {
		k := math.Pow(0.5, elapsed/paceHalfLife)
		p.recentRan, p.recentDue = k*p.recentRan, k*p.recentDue
	}
	due := float64(ran) + max(0, dropped)
	p.ran, p.due = p.ran+float64(ran), p.due+due
	p.recentRan, p.recentDue = p.recentRan+float64(ran), p.recentDue+due
}

// total returns the share of the ticks due that ran since the start, 1
// when none was due yet.
func (p *pace) total() float64 { return share(p.ran, p.due) }

// recent returns the share of the ticks due that ran lately, 1 when none
// was due yet.
func (p *pace) recent() float64 { return share(p.recentRan, p.recentDue) }

// forget drops the recent figure, as a new session starts.
func (p *pace) forget() { p.recentRan, p.recentDue = 0, 0 }

// share returns ran/due, 1 when due is 0.
func share(ran, due float64) float64 {
	if due <= 0 {
		return 1
	}
	return ran / due
}

// paceNote returns the simulation's pace since the start for the window's
// closing line, ", speed P%", or "" against a remote server, whose client
// keeps its own pace.
func (l *Lab) PaceNote() string {
	_, total, ok := l.play.Speed()
	if !ok {
		return ""
	}
	return fmt.Sprintf(", speed %.0f%%", 100*total)
}
