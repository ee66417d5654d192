package viewer

import (
	"fmt"
	"math"
)

// Speeds are the play speeds, slowest first; DefaultSpeed indexes 1x.
var Speeds = [...]float64{1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2, 1, 2, 4, 8}

// DefaultSpeed is the index of 1x in Speeds.
const DefaultSpeed = 4

// MaxStepsPerFrame bounds the positions Clock.Advance moves in one frame:
// a scene that cannot be simulated at the speed asked plays slower rather
// than freezing the window.
const MaxStepsPerFrame = 16

// Clock turns wall time into positions while the record plays.
type Clock struct {
	Playing bool
	Speed   int     // index into Speeds
	acc     float64 // ticks owed, fractional
}

// NewClock returns a paused clock at 1x.
func NewClock() Clock { return Clock{Speed: DefaultSpeed} }

// Faster and Slower change the speed by one step, within Speeds.
func (c *Clock) Faster() { c.Speed = min(c.Speed+1, len(Speeds)-1) }

// Slower lowers the speed by one step.
func (c *Clock) Slower() { c.Speed = max(c.Speed-1, 0) }

// Toggle plays or pauses.
func (c *Clock) Toggle() { c.Playing = !c.Playing; c.acc = 0 }

// Pause stops playing.
func (c *Clock) Pause() { c.Playing, c.acc = false, 0 }

// SpeedString formats the speed, e.g. "1x", "1/4x".
func (c *Clock) SpeedString() string {
	v := Speeds[c.Speed]
	if v < 1 {
		return fmt.Sprintf("1/%gx", 1/v)
	}
	return fmt.Sprintf("%gx", v)
}

// Advance returns how many positions to move after dt seconds of wall
// time, at tickDt seconds a tick: none when paused, at most
// MaxStepsPerFrame (the rest is dropped, not owed).
func (c *Clock) Advance(dt, tickDt float64) int {
	if !c.Playing || dt <= 0 || tickDt <= 0 {
		return 0
	}
	c.acc += dt * Speeds[c.Speed] / tickDt
	n := int(c.acc)
	c.acc -= float64(n)
	if n > MaxStepsPerFrame {
		n, c.acc = MaxStepsPerFrame, 0
	}
	return n
}

// Frac returns where position p lies on a timeline of positions 0 to n,
// from 0 to 1.
func Frac(p, n int) float64 {
	if n <= 0 {
		return 0
	}
	return float64(max(0, min(p, n))) / float64(n)
}

// PosAt returns the position under x on a timeline drawn from x0, w wide,
// for positions 0 to n: the nearest one, clamped to the ends.
func PosAt(x, x0, w float64, n int) int {
	if w <= 0 {
		return 0
	}
	f := (x - x0) / w
	return max(0, min(n, int(f*float64(n)+0.5)))
}

// SecondsToSteps converts a seek by seconds into positions at tickDt
// seconds a tick.
func SecondsToSteps(sec, tickDt float64) int {
	if tickDt <= 0 {
		return 0
	}
	return int(math.Round(sec / tickDt))
}
