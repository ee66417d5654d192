package record

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// absurdRecord writes, byte by byte (a Writer would refuse it), a record
// of the arena built with cfg whose first tick carries the nudge imp (none
// if zero): a hostile file with correct checksums, scene identity and
// hashes, so that a replay simulates it to the end unless it refuses it.
func absurdRecord(t *testing.T, cfg physics.Config, imp physics.Vec3) []byte {
	t.Helper()
	w, sc, err := game.Build("arena", cfg, game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := Header{Physics: cfg, Scene: sc.ID, FullEvery: DefaultFullEvery}
	w.Save(&h.Initial)
	b := append([]byte(Magic), 0, 0, 0, 0)
	le.PutUint32(b[len(Magic):], Version)
	b, off := beginChunk(b, chunkHeader)
	b = appendHeader(b, &h)
	b = endChunk(b, off)
	const ticks = 8
	p := le.AppendUint32(nil, 0)
	p = le.AppendUint32(p, ticks)
	p = le.AppendUint16(p, ticks)
	for k := 0; k < ticks; k++ {
		var events []game.Event
		if k == 0 && imp != (physics.Vec3{}) {
			events = append(events, nudge(imp))
		}
		for _, e := range events {
			if err := sc.ApplyEvent(w, e); err != nil {
				t.Fatal(err)
			}
		}
		if err := sc.Step(w, one(game.Forward)); err != nil {
			t.Fatal(err)
		}
		kind := byte(entryTick)
		if len(events) > 0 {
			kind |= flagEvents
		}
		p = append(p, kind, byte(game.Forward))
		p = le.AppendUint64(p, w.Hash())
		if len(events) > 0 {
			p = append(p, byte(len(events)))
			for _, e := range events {
				p = append(p, byte(e.Kind), e.Player)
				p = appendVec(p, e.Impulse)
			}
		}
	}
	b = append(b, chunkBytes(chunkSteps, p)...)
	e := le.AppendUint64(nil, ticks)
	e = le.AppendUint64(e, ticks)
	e = le.AppendUint32(e, ticks)
	return append(b, chunkBytes(chunkEnd, e)...)
}

// TestReplayRefusesAbsurdValues: a record whose stored configuration or
// nudges no server of this program would use (gravity of -1e300, a nudge
// of 1e300 N·s) is refused by the replay, naming the value, as the viewer
// refuses it; the same record with sane values replays.
func TestReplayRefusesAbsurdValues(t *testing.T) {
	sane := physics.DefaultConfig()
	if _, err := Replay(readOK(t, absurdRecord(t, sane, physics.Vec3{X: 1}))); err != nil {
		t.Fatalf("a sane record: %v", err)
	}
	heavy := sane
	heavy.Gravity.Y = -1e300
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"gravity", absurdRecord(t, heavy, physics.Vec3{}), "gravity"},
		{"nudge", absurdRecord(t, sane, physics.Vec3{X: 1e300}), "nudge impulse"},
		{"pushes", func() []byte { c := sane; c.MaxPushSpeed = 1e300; return absurdRecord(t, c, physics.Vec3{}) }(), "MaxPushSpeed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Replay(readOK(t, tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "record: replay") {
				t.Fatalf("replay: %+v, %v; want an error naming %q", res, err, tc.want)
			}
		})
	}
}

// TestWriterRefusesNonFiniteStates: a state to be stored with a NaN or an
// infinity is refused with an error (and the tick can be given again), and
// so is the final state at Close and a header whose initial state holds
// one.
func TestWriterRefusesNonFiniteStates(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(-1)} {
		w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var init physics.State
		w.Save(&init)
		var buf bytes.Buffer
		wr, err := NewWriter(&buf, Header{Scene: sc.ID, Initial: init, FullEvery: 2})
		if err != nil {
			t.Fatal(err)
		}
		var st physics.State
		for k := uint32(0); k < 2; k++ {
			if err := sc.Step(w, one(game.Forward)); err != nil {
				t.Fatal(err)
			}
			w.Save(&st)
			st.Bodies[0].Vel.Z = bad
			if k == 1 { // a full state falls due
				if err := wr.Tick(k, one(game.Forward), st.Hash(), &st); err == nil || !strings.Contains(err.Error(), "not finite") {
					t.Fatalf("tick %d with a velocity of %v: %v, want an error", k, bad, err)
				}
			}
			if err := wr.Tick(k, one(game.Forward), w.Hash(), w.State()); err != nil {
				t.Fatalf("tick %d, the real state: %v", k, err)
			}
		}
		if err := sc.Step(w, one(game.Forward)); err != nil {
			t.Fatal(err)
		}
		w.Save(&st)
		st.Bodies[0].Vel.Z = bad
		if err := wr.Tick(2, one(game.Forward), st.Hash(), &st); err != nil {
			t.Fatalf("tick 2, not stored: %v", err)
		}
		if err := wr.Close(); err == nil || !strings.Contains(err.Error(), "not finite; not stored") {
			t.Fatalf("close with a final state holding %v: %v", bad, err)
		}
		if _, err := Replay(readOK(t, buf.Bytes())); err != nil {
			t.Fatalf("replay: %v", err)
		}
		init.Bodies[0].Pos.Y = bad
		if _, err := NewWriter(&buf, Header{Scene: sc.ID, Initial: init}); err == nil {
			t.Fatalf("a header whose initial state holds %v: no error", bad)
		}
	}
}
