package server

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// lagClient is a state-sync client cut down to its views: it takes the
// snapshots sent to it lag ticks late (a round trip of lag snapshots),
// keeps its views as predict.Client does, and acknowledges the newest it
// took every tick, with the views it holds before it (masks) or without
// them, as protocol version 4 did.
type lagClient struct {
	lag     int
	masks   bool
	views   protocol.Views
	queue   [][]byte
	newest  uint32
	bodies  []physics.BodyState
	m       wire.Snapshot
	carried []int          // per body, the snapshots that carried it
	knownAt []uint32       // per body, the newest snapshot the server had sent when the client first took it
	sent    uint32         // the newest snapshot the server has sent
	resent  int            // bodies carried by a snapshot sent after the ack of one that carried them
	taken   int            // snapshots taken
	acked   int            // of them, sent with an ack mask
	round   int            // snapshots taken until every body had been carried
	done    bool           // a complete snapshot was taken
	world   *physics.World // the server's
	moved   []int          // the bodies of the backlog
}

// take decodes snapshot b as the client does and keeps its view.
func (c *lagClient) take(t *testing.T, b []byte) {
	t.Helper()
	T, B, acks, err := wire.SnapshotBase(b)
	if err != nil {
		t.Fatal(err)
	}
	held := c.views.Get(B)
	if held == nil {
		t.Fatalf("snapshot %d against view %d, which the client does not hold", T, B)
	}
	base, _, missing := c.views.Baseline(held, acks)
	if base == nil {
		t.Fatalf("snapshot %d names view %d, which the client does not hold", T, missing)
	}
	c.bodies = base.Fill(c.bodies)
	if err := wire.DecodeSnapshot(b, &c.m, c.bodies); err != nil {
		t.Fatal(err)
	}
	var idx []int32
	for _, u := range c.m.Bodies {
		c.bodies[u.Index] = u.State
		// The client acknowledges what it takes in its next Input, before
		// the server's next snapshot: a snapshot sent later than the
		// newest one now has had the ack.
		if c.carried[u.Index] > 0 && tick.After(T, c.knownAt[u.Index]) {
			c.resent++
		}
		if c.carried[u.Index] == 0 {
			c.knownAt[u.Index] = c.sent
		}
		c.carried[u.Index]++
		idx = append(idx, u.Index)
	}
	c.views.Derive(T, base, idx, c.bodies)
	c.newest = T
	c.taken++
	if c.round == 0 && !slices.ContainsFunc(c.moved, func(i int) bool { return c.carried[i] == 0 }) {
		c.round = c.taken
	}
	if acks != 0 {
		c.acked++
	}
	if c.m.Flags&wire.Complete != 0 {
		c.done = true
	}
}

// input is the client's Input message for tick first: no key held, its
// newest snapshot acknowledged, in step.
func (c *lagClient) input(first uint32) []byte {
	m := wire.Input{First: first, Inputs: []game.Input{0}, Flags: wire.AckValid | wire.AckInSync, Ack: c.newest, Base: c.newest}
	if c.masks {
		m.Held = c.views.Newer(c.views.Get(c.newest))
	}
	b, _ := wire.AppendInput(nil, &m)
	return b
}

// backlogRun builds the cubes scene asleep, joins a lagClient, moves every
// small cube by a millimetre (they stay asleep: a backlog of 900 bodies
// that then stay as they are) and runs the server until the client took a
// complete snapshot, or for limit ticks. It returns the client and the
// ticks it took.
func backlogRun(t *testing.T, lag int, masks bool, limit int) (*lagClient, int) {
	t.Helper()
	return backlogRunWith(t, game.Options{}, lag, masks, limit)
}

// backlogRunWith is backlogRun with the scene's options o.
func backlogRunWith(t *testing.T, o game.Options, lag int, masks bool, limit int) (*lagClient, int) {
	t.Helper()
	w, sc, err := game.Build("cubes", physics.DefaultConfig(), o)
	if err != nil {
		t.Fatal(err)
	}
	idle := make([]game.Input, len(sc.Players))
	for k := 0; k < 500 && w.AwakeCount() > 0; k++ {
		// The scene's step, which puts the bodies on the grid when it
		// is quantised, as the server's does.
		if err := sc.Step(w, idle); err != nil {
			t.Fatal(err)
		}
	}
	if w.AwakeCount() > 0 {
		t.Fatal("the cubes scene does not fall asleep")
	}
	s := New(w, sc, protocol.ModeState, DefaultConfig())
	now := time.Duration(0)
	if wl := hello(t, s, sc, now, 1, 1); wl.Result != wire.Accepted || wl.Transfer {
		t.Fatalf("welcome %+v", wl)
	}
	c := &lagClient{lag: lag, masks: masks, newest: s.Tick(), carried: make([]int, w.NumBodies()), knownAt: make([]uint32, w.NumBodies())}
	c.world = w
	c.views.Reset(s.Tick(), w.State())
	var st physics.State
	w.Save(&st)
	player := sc.Players[0]
	for i := range st.Bodies {
		if !w.Static(i) && i != player {
			st.Bodies[i].Pos.X += 1.0 / 1024 // 4 units of the quantisation grid: still on it
			c.moved = append(c.moved, i)
		}
	}
	w.Load(&st)
	d := tick.Duration(w.Config().Dt)
	ticks := 0
	for ; ticks < limit && !c.done; ticks++ {
		now += d
		if err := s.Receive(now, 1, c.input(s.Tick())); err != nil {
			t.Fatal(err)
		}
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
		s.Send(now, true, func(_ uint32, b []byte) {
			if k, _ := wire.Kind(b); k == wire.KindSnapshot {
				c.queue = append(c.queue, append([]byte(nil), b...))
				c.sent, _, _, _ = wire.SnapshotBase(b)
			}
		})
		for len(c.queue) > lag {
			c.take(t, c.queue[0])
			c.queue = c.queue[1:]
		}
	}
	if w.AwakeCount() > 0 {
		t.Fatalf("%d bodies woke up: the backlog did not stay as it was", w.AwakeCount())
	}
	return c, ticks
}

// TestAckedBodyNotResent: with a round trip of 12 snapshots, the server
// sends the backlog's bodies; once the ack of the snapshot that carried a
// body arrives, no later snapshot carries it again, even while the
// snapshots sent since are still on their way, unacknowledged, and hold
// views that lack it (they were encoded against an older baseline). The
// client's views end the server's world. A client that does not say which
// views it holds (no masks, as in protocol version 4) gets bodies again
// after their ack.
func TestAckedBodyNotResent(t *testing.T) {
	const lag = 12
	c, ticks := backlogRun(t, lag, true, 400)
	if !c.done {
		t.Fatalf("no complete snapshot after %d ticks", ticks)
	}
	if c.resent != 0 {
		t.Errorf("%d bodies carried again after the ack of a snapshot that carried them", c.resent)
	}
	if c.acked == 0 {
		t.Error("no snapshot named the views acknowledged before its baseline")
	}
	// What the client holds is the server's world (asleep since the
	// backlog): both ends derived the same views.
	v := c.views.Get(c.newest)
	for i, b := range c.world.State().Bodies {
		if physics.BodyWords(v.Body(i)) != physics.BodyWords(&b) {
			t.Fatalf("body %d: the client's view differs from the server's world", i)
		}
	}
	old, _ := backlogRun(t, lag, false, 400)
	if old.resent == 0 {
		t.Error("without masks no body was carried again after its ack: the test shows nothing")
	}
	t.Logf("with masks: %d ticks, %d snapshots named acks; without: %d bodies carried again after their ack", ticks, c.acked, old.resent)
}

// TestBacklogDrainsAtBudget: the cubes scene's 900 moved cubes reach the
// client (a complete snapshot) one round trip after the budget has let
// every one of them be sent, for the server's proof that the client has
// them all, and one more for the complete snapshot to arrive: far less
// than chaining views only through the baseline took.
func TestBacklogDrainsAtBudget(t *testing.T) {
	const lag = 12
	c, ticks := backlogRun(t, lag, true, 2000)
	old, oldTicks := backlogRun(t, lag, false, 2000)
	if !c.done || !old.done {
		t.Fatalf("complete: %v after %d ticks with masks, %v after %d without", c.done, ticks, old.done, oldTicks)
	}
	pace := c.round + 2*lag + 2
	if ticks > pace || 2*ticks > oldTicks {
		t.Errorf("drained in %d ticks (the budget's pace %d: every body sent in %d snapshots), without masks in %d", ticks, pace, c.round, oldTicks)
	}
	t.Logf("drained in %d ticks with masks (every body sent in %d snapshots), %d without", ticks, c.round, oldTicks)
}

// TestAcksOnTheQuantizeGrid: the ack masks with the scene on the
// quantisation grid (-quantize), where a body is coded as a difference in
// grid units from the reference the masks name: no body is carried again
// after its ack, the backlog drains at the same pace as off the grid, and
// the client's views end bit for bit the server's world.
func TestAcksOnTheQuantizeGrid(t *testing.T) {
	const lag = 12
	c, ticks := backlogRunWith(t, game.Options{Quantize: true}, lag, true, 2000)
	if !c.done {
		t.Fatalf("no complete snapshot after %d ticks: taken %d, acked %d, resent %d, round %d, flags %b, bodies in the last %d", ticks, c.taken, c.acked, c.resent, c.round, c.m.Flags, len(c.m.Bodies))
	}
	if c.m.Flags&wire.Quantized == 0 {
		t.Fatal("the snapshots are not on the grid: the test shows nothing")
	}
	if c.resent != 0 || c.acked == 0 {
		t.Errorf("%d bodies carried again after their ack; %d snapshots named acks", c.resent, c.acked)
	}
	if pace := c.round + 2*lag + 2; ticks > pace {
		t.Errorf("drained in %d ticks, the budget's pace is %d", ticks, pace)
	}
	v := c.views.Get(c.newest)
	for i, b := range c.world.State().Bodies {
		if physics.BodyWords(v.Body(i)) != physics.BodyWords(&b) {
			t.Fatalf("body %d: the client's view differs from the server's world", i)
		}
	}
	t.Logf("on the grid: drained in %d ticks (every body sent in %d snapshots), %d snapshots named acks", ticks, c.round, c.acked)
}

// TestUnknownViewsCounted: an Input that says the client holds views the
// server never sent (a client gone wrong, or hostile) has them counted and
// left out: the next snapshot names none of them.
func TestUnknownViewsCounted(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	hello(t, s, sc, 0, 1, 1)
	d := tick.Duration(s.world.Config().Dt)
	now := d
	start := s.Tick()
	b, _ := wire.AppendInput(nil, &wire.Input{First: start, Inputs: []game.Input{0}, Flags: wire.AckValid,
		Ack: start, Base: start, Held: 1<<63 | 1<<5 | 1})
	if err := s.Receive(now, 1, b); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(now); err != nil {
		t.Fatal(err)
	}
	if got := s.peerOf(1).stats.UnknownViews; got != 3 {
		t.Errorf("%d unknown views counted, want 3", got)
	}
	var acks uint64 = 1
	s.Send(now, true, func(_ uint32, b []byte) {
		if k, _ := wire.Kind(b); k == wire.KindSnapshot {
			_, _, acks, _ = wire.SnapshotBase(b)
		}
	})
	if acks != 0 {
		t.Errorf("the snapshot names views %#x", acks)
	}
}

// TestOtherVersionRefused: a Hello of protocol version 4 (before the ack
// masks) is refused with an error that names both versions, and gets no
// Welcome: its client could not read one.
func TestOtherVersionRefused(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	b := wire.AppendHello(nil, &wire.Hello{Nonce: 1, Mode: uint8(protocol.ModeState), Scene: sc.ID})
	b[1] = 4
	err := s.Receive(0, 1, b)
	if !errors.Is(err, protocol.ErrRejected) ||
		!strings.Contains(err.Error(), fmt.Sprintf("version 4, this program speaks %d", wire.Version)) {
		t.Fatalf("a version 4 Hello: %v", err)
	}
	s.Send(0, false, func(c uint32, _ []byte) { t.Errorf("sent a datagram to connection %d", c) })
	if s.Joined(1) {
		t.Error("the connection holds a slot")
	}
}

// TestInputSyncCountsNoViews: an input-sync server keeps no snapshot
// views, so the acks and bases of its clients' Inputs (which every client
// sends, whatever its mode) are not views it failed to hold.
func TestInputSyncCountsNoViews(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeInputs)
	hello(t, s, sc, 0, 1, 1)
	d := tick.Duration(s.world.Config().Dt)
	now := d
	for k := range 8 {
		at := s.Tick()
		b, _ := wire.AppendInput(nil, &wire.Input{First: at, Inputs: []game.Input{0}, Flags: wire.AckValid, Ack: at, Base: at})
		if err := s.Receive(now, 1, b); err != nil {
			t.Fatalf("input %d: %v", k, err)
		}
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
		now += d
	}
	if got := s.peerOf(1).stats.UnknownViews; got != 0 {
		t.Errorf("an input-sync server counted %d unknown views", got)
	}
}
