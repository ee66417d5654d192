package predict

import (
	"errors"
	"math"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// stepTolerant steps the client, taking ErrNonFinite as the report it is.
func (h *harness) stepTolerant(in game.Input) error {
	h.t.Helper()
	err := h.c.Step(in, func(b []byte) { h.up = append(h.up, append([]byte(nil), b...)) })
	if err != nil && !errors.Is(err, ErrNonFinite) {
		h.t.Fatal(err)
	}
	h.now += 15625 * 1000
	return err
}

// predictingFinite fails unless the client, when it predicts, holds a
// world that is valid and within the scene's bounds.
func predictingFinite(t *testing.T, c *Client) {
	t.Helper()
	if !c.Joined() {
		return // holding, waiting for a transfer
	}
	s := c.World().State()
	if err := c.World().Check(s); err != nil {
		t.Fatalf("the client predicts from an invalid world: %v", err)
	}
	for i := range s.Bodies {
		if err := c.bounds.Check(&s.Bodies[i]); err != nil {
			t.Fatalf("the client predicts body %d beyond the bounds: %v", i, err)
		}
	}
}

// FuzzClientBounds puts a value at, within or beyond a bound (position,
// velocity, spin, force or torque, scale times the bound) in the server's
// state of the
// client's cube and delivers the snapshot: beyond a bound it is refused,
// counted under RejectBounds, and changes nothing; within, it is taken;
// either way the client never predicts from a non-finite world.
func FuzzClientBounds(f *testing.F) {
	for field := range uint8(5) {
		for comp := range uint8(3) {
			for _, scale := range []float64{1, -1, 0.5, math.Nextafter(1, 2), -math.Nextafter(1, 2), 2, 1e300} {
				f.Add(field, comp, scale)
			}
		}
	}
	f.Fuzz(func(t *testing.T, field, comp uint8, scale float64) {
		if math.IsNaN(scale) || math.IsInf(scale, 0) {
			return // the server's world cannot hold it (SetBody refuses it)
		}
		h := newHarness(t, "arena", game.Options{}, StateSync, 0)
		h.run(20, 0)
		bd := h.c.bounds
		lim := [5]float64{bd.Pos, bd.Speed, bd.Spin, bd.Force, bd.Torque}[field%5]
		v := scale * lim
		if math.IsInf(v, 0) {
			return
		}
		h.stepTolerant(0)
		h.deliverUp() // the server steps
		w, i := h.s.World(), h.c.Body()
		b := w.Body(i)
		vec := [5]*physics.Vec3{&b.Pos, &b.Vel, &b.AngVel, &b.Force, &b.Torque}[field%5]
		*[3]*float64{&vec.X, &vec.Y, &vec.Z}[comp%3] = v
		if err := w.SetBody(i, b); err != nil {
			t.Skip(err)
		}
		h.serverSend(true)
		before, hash := h.c.Stats.Rejected[protocol.RejectBounds], h.c.World().Hash()
		beyond := !(math.Abs(v) <= lim)
		for _, m := range h.down {
			err := h.c.Receive(m)
			if err != nil && !errors.Is(err, protocol.ErrRejected) && !errors.Is(err, ErrNonFinite) {
				t.Fatal(err)
			}
			if beyond && (!errors.Is(err, protocol.ErrRejected) || h.c.World().Hash() != hash) {
				t.Fatalf("a value of %g beyond the bound %g: error %v, world changed %v", v, lim, err, h.c.World().Hash() != hash)
			}
		}
		h.down = h.down[:0]
		if got := h.c.Stats.Rejected[protocol.RejectBounds] - before; beyond != (got == 1) {
			t.Fatalf("a value of %g against the bound %g: %d refused for bounds", v, lim, got)
		}
		predictingFinite(t, h.c)
		for range 10 {
			h.stepTolerant(game.Forward)
			predictingFinite(t, h.c)
		}
	})
}

// TestNonFiniteStepEndsInATransfer: a step that leaves a NaN in the
// client's world is reported (ErrNonFinite, counted), the client stops
// predicting from it, asks for the server's state and starts again from
// the transfer, in sync.
func TestNonFiniteStepEndsInATransfer(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	h.run(20, 0)
	poison := h.c.Tick() + 1
	var s physics.State
	h.c.Perturb = func(w *physics.World, tk uint32, body int) {
		if tk == poison {
			w.Save(&s)
			s.Bodies[body].Pos.X = math.NaN()
			w.Load(&s)
		}
	}
	var reported error
	for k := 0; k < 200 && (reported == nil || !h.c.Joined()); k++ {
		if err := h.stepTolerant(script(h.c.Tick())); err != nil {
			reported = err
		}
		predictingFinite(t, h.c)
		h.deliverUp()
		h.serverSend(true)
		h.deliverDown()
	}
	if !errors.Is(reported, ErrNonFinite) || h.c.Stats.NonFinite != 1 {
		t.Fatalf("reported %v, %d non-finite counted", reported, h.c.Stats.NonFinite)
	}
	if !h.c.Joined() || h.c.Stats.Transfers == 0 {
		t.Fatalf("after the NaN: predicting %v, %d transfers", h.c.Joined(), h.c.Stats.Transfers)
	}
	h.c.Perturb = nil
	h.run(20, 0)
	predictingFinite(t, h.c)
	if h.c.World().Hash() != h.s.World().Hash() && h.c.Tick() == h.s.Tick() {
		t.Error("the client is not in step with the server after the transfer")
	}
}

// TestRelayNudgeBeyondBoundsRefused: an input-sync relay whose nudge
// carries an impulse of 1e300 (a hostile server) is refused, counted under
// RejectBounds, and changes nothing; the client goes on in step with the
// server's next relays.
func TestRelayNudgeBeyondBoundsRefused(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, InputSync, 0)
	h.run(20, 0)
	h.clientStep(0) // a tick the server has not relayed yet
	first := h.c.in.confirmed
	m := wire.Relay{First: first, Count: 1, Players: 1, Inputs: []game.Input{0}, Heard: first + 1, HeardInput: first,
		Events: []wire.TickEvent{{Offset: 0, Event: game.Event{Kind: game.Nudge, Impulse: physics.Vec3{X: 1e300}}}}}
	b := wire.AppendRelay(nil, &m, 1)
	before, hash := h.c.Stats.Rejected[protocol.RejectBounds], h.c.World().Hash()
	if err := h.c.Receive(b); !errors.Is(err, protocol.ErrRejected) || h.c.Stats.Rejected[protocol.RejectBounds] != before+1 || h.c.World().Hash() != hash {
		t.Fatalf("a nudge of 1e300: %v, %d refused for bounds, world changed %v", err, h.c.Stats.Rejected[protocol.RejectBounds]-before, h.c.World().Hash() != hash)
	}
	h.run(20, 0)
	if h.c.World().Hash() != h.s.World().Hash() || h.c.Tick() != h.s.Tick() {
		t.Error("not in step after the refused relay")
	}
}
