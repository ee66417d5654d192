package lab

import "github.com/cubelab/cube/predict"

// replayRate measures the shown client's replays over the last second of
// session time: how many, and the ticks and bodies they re-simulated.
type replayRate struct {
	samples []replaySample // one a tick, the oldest a second old or more
}

// replaySample is the client's replay counters at time t.
type replaySample struct {
	t                      float64
	replays, ticks, bodies uint64
}

// add takes the counters of st at time now (seconds).
func (r *replayRate) add(now float64, st *predict.ClientStats) {
	r.samples = append(r.samples, replaySample{now, st.PartialReplays + st.FullReplays, st.Resimulated, st.ResimulatedBodies})
	k := 0
	for k+1 < len(r.samples) && r.samples[k+1].t <= now-1 {
		k++ // keep the newest sample a second old or more as the base
	}
	if k > 0 {
		r.samples = append(r.samples[:0], r.samples[k:]...)
	}
}

// perSecond returns the replays, re-simulated ticks and re-simulated
// bodies (summed over the ticks) per second over the samples held.
func (r *replayRate) perSecond() (replays, ticks, bodies float64) {
	if len(r.samples) < 2 {
		return 0, 0, 0
	}
	a, b := r.samples[0], r.samples[len(r.samples)-1]
	d := b.t - a.t
	if d <= 0 {
		return 0, 0, 0
	}
	return float64(b.replays-a.replays) / d, float64(b.ticks-a.ticks) / d, float64(b.bodies-a.bodies) / d
}

// reset forgets the samples (a new session).
func (r *replayRate) reset() { r.samples = r.samples[:0] }
