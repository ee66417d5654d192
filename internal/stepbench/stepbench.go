// Package stepbench measures the physics step on a bench scene, as
// `cube bench` reports it: the time and allocations of a step, the
// overlap and drift, the cost of a replay (full and partial), of save and
// restore, and the final hash.
package stepbench

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// Result is what `cube bench` measures; the JSON names are part of the
// command's interface (scripts that compare engines read ms_per_step).
type Result struct {
	Scene         string  `json:"scene"`
	Steps         int     `json:"steps"`
	Sleep         bool    `json:"sleep"`
	Iterations    int     `json:"iterations"`
	Workers       int     `json:"workers"` // goroutines that stepped the world (-workers, 0 resolved)
	MsPerStep     float64 `json:"ms_per_step"`
	P99StepMs     float64 `json:"p99_step_ms"`
	AllocsPerStep float64 `json:"allocs_per_step"`
	Bodies        int     `json:"bodies"`
	AwakeAtEnd    int     `json:"awake_at_end"`
	ContactsAtEnd int     `json:"contacts_at_end"`
	MaxOverlapM   float64 `json:"max_overlap_m"`
	MaxDriftM     float64 `json:"max_drift_m"`
	MaxSpeedLate  float64 `json:"max_speed_after_10s_mps"`
	Replay32Ms    float64 `json:"replay32_ms"`
	Partial32Ms   float64 `json:"replay32_partial_ms"` // the same 32 steps with the player's cube 1 cm off, partially
	PartialBodies int     `json:"partial_bodies"`      // the bodies that partial replay re-simulated
	SaveRestoreUs float64 `json:"save_restore_us"`     // Save then Load: what a rewind to a keyframe does
	RestoreUs     float64 `json:"restore_checked_us"`  // Restore alone, which checks the state first
	Hash          string  `json:"hash"`

	// The solver's colouring (physics.SolverStats) over the run's steps
	// with contacts, and the share of the solver's bodies and contacts
	// each worker ran (physics.World.WorkerItems; one worker: [1]).
	ColoursMean  float64   `json:"colours_mean"`
	ColoursMax   int       `json:"colours_max"`
	OverflowMean float64   `json:"overflow_mean"`
	OverflowMax  int       `json:"overflow_max"`
	WorkerShare  []float64 `json:"worker_share"`
}

// warmSteps are left out of allocs_per_step: the step's buffers grow to the
// scene's size in them (and so are the last 32 steps, which the bench
// records traces of).
const warmSteps = 64

// Run builds the scene and steps it `steps` times with its scripted input,
// timing every step (the input rule and the step) and checking the overlap
// after each, outside the timing.
func Run(name string, cfg physics.Config, o game.Options, steps int) (Result, error) {
	w, sc, err := game.Build(name, cfg, o)
	if err != nil {
		return Result{}, err
	}
	defer w.Close()
	n := w.NumBodies()
	start := make([]physics.Vec3, n)
	for i := range start {
		start[i] = w.Body(i).Pos
	}
	r := Result{Scene: name, Steps: steps, Sleep: !cfg.NoSleep, Iterations: cfg.Iterations, Workers: w.Workers(), Bodies: n}
	var ins []game.Input
	var mark physics.State
	traces := make([]physics.Trace, 32) // the last 32 steps', for the partial replay
	times := make([]float64, steps)
	var ms runtime.MemStats
	var allocs uint64
	withContacts := 0
	// Allocations are counted from warmSteps on, or from the start of a
	// short run, up to the last 32 steps, whose traces (for the partial
	// replay) the bench records.
	from := warmSteps
	if steps-32 <= warmSteps {
		from = 0
	}
	for t := 0; t < steps; t++ {
		if t == steps-32 {
			w.Save(&mark)
		}
		if k := t - (steps - 32); k >= 0 {
			w.Record(&traces[k])
		}
		ins = sc.Scripted(w, ins)
		runtime.ReadMemStats(&ms)
		a0 := ms.Mallocs
		t0 := time.Now()
		if err := sc.Step(w, ins); err != nil {
			return r, err
		}
		times[t] = float64(time.Since(t0).Nanoseconds()) / 1e6
		runtime.ReadMemStats(&ms)
		if t >= from && t < steps-32 {
			allocs += ms.Mallocs - a0
		}
		r.MaxOverlapM = math.Max(r.MaxOverlapM, physics.MaxOverlap(w))
		if st := w.SolverStats(); st.Contacts > 0 {
			withContacts++
			r.ColoursMean += float64(st.Colours)
			r.OverflowMean += float64(st.Overflow)
			r.ColoursMax, r.OverflowMax = max(r.ColoursMax, st.Colours), max(r.OverflowMax, st.Overflow)
		}
		if t >= 10*physics.DefaultTickRate {
			r.MaxSpeedLate = math.Max(r.MaxSpeedLate, maxSpeed(w))
		}
	}
	r.AllocsPerStep = float64(allocs) / float64(steps-32-from)
	if withContacts > 0 {
		r.ColoursMean /= float64(withContacts)
		r.OverflowMean /= float64(withContacts)
	}
	r.WorkerShare = share(w.WorkerItems(nil))
	sum := 0.0
	for _, x := range times {
		sum += x
	}
	r.MsPerStep = sum / float64(steps)
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	r.P99StepMs = sorted[min(steps-1, steps*99/100)]
	r.AwakeAtEnd = w.AwakeCount()
	r.ContactsAtEnd = len(w.Contacts())
	for i := 0; i < n; i++ {
		if w.Static(i) {
			continue
		}
		p := w.Body(i).Pos
		dx, dz := p.X-start[i].X, p.Z-start[i].Z
		r.MaxDriftM = math.Max(r.MaxDriftM, math.Sqrt(dx*dx+dz*dz))
	}
	want := w.Hash()
	r.Hash = fmt.Sprintf("%016x", want)

	// A rewind: restore the state of step S-32 and replay to S, in a world
	// of its own so the figure includes nothing but the replay.
	rw, _, err := game.Build(name, cfg, o)
	if err != nil {
		return r, err
	}
	defer rw.Close()
	best := math.Inf(1)
	for rep := 0; rep < 5; rep++ {
		t0 := time.Now()
		if err := rw.Restore(&mark); err != nil {
			return r, err
		}
		for k := 0; k < 32; k++ {
			ins = sc.Scripted(rw, ins)
			if err := sc.Step(rw, ins); err != nil {
				return r, err
			}
		}
		best = math.Min(best, float64(time.Since(t0).Nanoseconds())/1e6)
		if rw.Hash() != want {
			return r, fmt.Errorf("replaying the last 32 steps gave %016x, the run %016x", rw.Hash(), want)
		}
	}
	r.Replay32Ms = best
	if err := benchPartial(&r, rw, sc, &mark, traces); err != nil {
		return r, err
	}

	var s physics.State
	w.Save(&s)
	const reps = 1000
	// A rewind's save and load of a keyframe (the world's own state,
	// unchanged: Load need not check it).
	t0 := time.Now()
	for k := 0; k < reps; k++ {
		w.Save(&s)
		w.Load(&s)
	}
	r.SaveRestoreUs = float64(time.Since(t0).Nanoseconds()) / 1e3 / reps
	// Restore of a state from elsewhere, checked first.
	t0 = time.Now()
	for k := 0; k < reps; k++ {
		if err := w.Restore(&s); err != nil {
			return r, err
		}
	}
	r.RestoreUs = float64(time.Since(t0).Nanoseconds()) / 1e3 / reps
	return r, nil
}

// benchPartial times a partial replay of the last 32 steps (traces) from
// mark with the player's cube moved 1 cm along x, in world rw, and checks
// it against a full replay of the same.
func benchPartial(r *Result, rw *physics.World, sc *game.Scene, mark *physics.State, traces []physics.Trace) error {
	var moved physics.State
	moved.CopyFrom(mark)
	moved.Bodies[sc.Players[0]].Pos.X += 0.01
	var ins []game.Input
	if err := rw.Restore(&moved); err != nil {
		return err
	}
	for range traces {
		ins = sc.Scripted(rw, ins)
		if err := sc.Step(rw, ins); err != nil {
			return err
		}
	}
	want := rw.Hash()
	var set physics.Set
	best := math.Inf(1)
	for rep := 0; rep < 5; rep++ {
		t0 := time.Now()
		if err := rw.Restore(&moved); err != nil {
			return err
		}
		set.Reset(rw.NumBodies())
		set.AddDiff(mark, &moved)
		rw.Spread(&set, mark)
		for k := range traces {
			ins = sc.Scripted(rw, ins)
			if err := rw.Follow(&set, &traces[k]); err != nil {
				return err
			}
			if err := sc.Step(rw, ins); err != nil {
				return err
			}
		}
		best = math.Min(best, float64(time.Since(t0).Nanoseconds())/1e6)
		if rw.Hash() != want {
			return fmt.Errorf("the partial replay of the last 32 steps gave %016x, the full one %016x", rw.Hash(), want)
		}
	}
	r.Partial32Ms, r.PartialBodies = best, set.Len()
	return nil
}

// maxSpeed returns the speed of the fastest dynamic body.
func maxSpeed(w *physics.World) float64 {
	m := 0.0
	for i := 0; i < w.NumBodies(); i++ {
		if !w.Static(i) {
			m = math.Max(m, w.Body(i).Vel.Len())
		}
	}
	return m
}

// share returns each worker's part of the items, [1] when no worker
// counted any.
func share(items []int64) []float64 {
	total := int64(0)
	for _, n := range items {
		total += n
	}
	if total == 0 {
		return []float64{1}
	}
	out := make([]float64, len(items))
	for k, n := range items {
		out[k] = float64(n) / float64(total)
	}
	return out
}
