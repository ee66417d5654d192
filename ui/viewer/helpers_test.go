package viewer

import (
	"bytes"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/record"
)

// session says how writeRecord drives a scene.
type session struct {
	scene     string
	ticks     int
	fullEvery uint32
	nudgeAt   int  // simulated tick index whose step starts from the player's vel.z raised by 1e-6 m/s, unrecorded; -1: none
	stages    bool // record each tick's stage hashes
}

// writeRecord drives a server-like world with the scene's script, with a
// skip of 5 ticks before every 100th tick and a nudge event before every
// 70th, records it, and reads it back.
func writeRecord(t testing.TB, s session) *record.Record {
	t.Helper()
	w, sc, err := game.Build(s.scene, physics.DefaultConfig(), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	h := record.Header{Physics: physics.DefaultConfig(), Scene: sc.ID, FullEvery: s.fullEvery, Stages: s.stages}
	w.Save(&h.Initial)
	w.HashStages(s.stages)
	wr, err := record.NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var ins []game.Input
	for k := 0; k < s.ticks; k++ {
		tick := w.Tick()
		if k%100 == 50 {
			must(wr.Skip(tick, tick+5))
			w.SkipTo(tick + 5)
			tick += 5
		}
		if k%70 == 35 {
			e := game.Event{Kind: game.Nudge, Impulse: physics.Vec3{X: 0.5, Y: 2, Z: -0.25}}
			must(wr.Event(tick, e))
			must(sc.ApplyEvent(w, e))
		}
		if k == s.nudgeAt {
			var st physics.State
			w.Save(&st)
			v := &st.Bodies[sc.Players[0]].Vel
			v.Z += 1e-6
			must(w.Restore(&st))
		}
		ins = sc.Scripted(w, ins)
		must(sc.Step(w, ins))
		if s.stages {
			must(wr.Stages(w.StageHashes()))
		}
		must(wr.Tick(tick, ins, w.Hash(), w.State()))
	}
	must(wr.Close())
	rec, err := record.Read(&buf, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// straight replays rec from the start without ever restoring a stored
// state, and returns the hash of the world at every position.
func straight(t testing.TB, rec *record.Record) []uint64 {
	t.Helper()
	w, sc, bd, err := build(rec)
	if err != nil {
		t.Fatal(err)
	}
	out := []uint64{w.Hash()}
	for i := range rec.Len() {
		st := rec.Step(i)
		if err := apply(w, sc, bd, &st); err != nil {
			t.Fatal(err)
		}
		out = append(out, w.Hash())
	}
	return out
}
