package lab

import "github.com/cubelab/cube/netcode/tick"

// maxCatchUp caps the ticks one frame may run (see tick.MaxFrameTicks).
const maxCatchUp = tick.MaxFrameTicks

// stepClock is a fixed-timestep accumulator: it turns elapsed wall-clock
// time into whole ticks of dt seconds. It never reads a clock itself; the
// caller passes the time, so it is tested with synthetic timestamps.
type stepClock struct {
	dt  float64 // seconds per tick
	acc float64 // time owed, less than dt after each advance unless capped
}

// advance adds elapsed seconds and returns how many ticks to run now, and
// the debt the cap dropped, in ticks (whole and fractional): those due by
// the wall clock that will never run.
func (c *stepClock) advance(elapsed float64) (n int, dropped float64) {
	if elapsed > 0 {
		c.acc += elapsed
	}
	for c.acc >= c.dt && n < maxCatchUp {
		c.acc -= c.dt
		n++
	}
	if n == maxCatchUp && c.acc >= c.dt {
		dropped = c.acc / c.dt
		c.acc = 0 // drop the debt we will not pay
	}
	return n, dropped
}

// alpha returns how far the clock is into the next tick, in [0, 1).
func (c *stepClock) alpha() float64 { return c.acc / c.dt }
