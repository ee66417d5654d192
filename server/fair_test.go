package server

import (
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/transport"
)

// hostRig is a host over the in-process transport with a fake clock that
// moves on by step each time it is read.
type hostRig struct {
	s     *Server
	sc    *game.Scene
	h     *Host
	net   *transport.MemServer
	clock time.Duration
	now   time.Duration
}

func newHostRig(t *testing.T, players int) *hostRig {
	t.Helper()
	s, sc := newServer(t, players, protocol.ModeState)
	net, err := transport.NewMemServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &hostRig{s: s, sc: sc, net: net}
	if r.h, err = NewHost(s, net, 64); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *hostRig) connect(t *testing.T, seed uint64) *transport.MemClient {
	t.Helper()
	c, err := r.net.Connect(seed)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// turn runs one turn a tick after the last.
func (r *hostRig) turn(t *testing.T) {
	t.Helper()
	r.now += tick.Duration(r.s.world.Config().Dt)
	if err := r.h.Turn(r.now); err != nil {
		t.Fatal(err)
	}
}

// join says Hello on c and runs turns until the server gives it a slot.
func (r *hostRig) join(t *testing.T, c *transport.MemClient, nonce uint64) {
	t.Helper()
	if err := c.Send(r.now, wire.AppendHello(nil, &wire.Hello{Nonce: nonce, Mode: uint8(r.s.mode), Scene: r.sc.ID})); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		r.turn(t)
	}
}

// TestBudgetTakesConnectionsInTurn: when a turn's budget runs out under a
// flood, what is dropped is the flood's tail: a quiet client's one input a
// tick is taken every turn, even though the flooding connection's
// datagrams arrive first.
func TestBudgetTakesConnectionsInTurn(t *testing.T) {
	r := newHostRig(t, 2)
	flood, quiet := r.connect(t, 1), r.connect(t, 2)
	r.join(t, flood, 1)
	r.join(t, quiet, 2)
	r.h.Clock = func() time.Duration { r.clock += 100 * time.Microsecond; return r.clock }
	r.h.Budget = 200 * time.Microsecond
	for k := range 200 {
		b, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: r.s.Tick(), Inputs: []game.Input{game.Left}})
		for range 60 {
			if err := flood.Send(r.now, b); err != nil {
				t.Fatal(err)
			}
		}
		in := game.Right
		if k%2 == 0 {
			in = game.Left
		}
		b, _ = wire.AppendInput(nil, &wire.Input{Player: 1, First: r.s.Tick() + 1, Inputs: []game.Input{in}})
		if err := quiet.Send(r.now, b); err != nil {
			t.Fatal(err)
		}
		r.turn(t)
	}
	st, _ := r.s.PlayerStats(1)
	if st.Applied < 190 || st.Repeated > 2 || r.h.OverBudget == 0 {
		t.Errorf("the quiet client had %d inputs applied, %d ticks repeated; %d datagrams over budget", st.Applied, st.Repeated, r.h.OverBudget)
	}
}

// TestHellosLimited: a connection without a slot that floods Hellos has
// most of them dropped unread, and gets at most one refusal for each it
// is allowed, while a client that joins meanwhile is answered.
func TestHellosLimited(t *testing.T) {
	r := newHostRig(t, 1)
	flood := r.connect(t, 1)
	other := r.sc.ID
	other.Hash++
	b := wire.AppendHello(nil, &wire.Hello{Nonce: 1, Mode: uint8(r.s.mode), Scene: other})
	for range 64 { // a second
		for range 50 {
			if err := flood.Send(r.now, b); err != nil {
				t.Fatal(err)
			}
		}
		r.turn(t)
	}
	if most := uint64(HelloBurst + HelloRate + 1); r.s.Stats.Refusals > most || r.h.HellosLimited == 0 {
		t.Errorf("%d refusals in a second (at most %d), %d Hellos limited", r.s.Stats.Refusals, most, r.h.HellosLimited)
	}
	player := r.connect(t, 2)
	r.join(t, player, 2)
	if r.s.Peers() != 1 {
		t.Error("a client could not join during the flood")
	}
}

// TestSlotsPerAddress: with PerAddress 1, a second connection from the
// same address is refused a slot, and takes it once the first leaves.
func TestSlotsPerAddress(t *testing.T) {
	r := newHostRig(t, 2)
	r.h.PerAddress = 1
	a, b := r.connect(t, 1), r.connect(t, 2) // both "mem"
	r.join(t, a, 1)
	r.join(t, b, 2)
	if r.s.Peers() != 1 {
		t.Fatalf("%d slots held by one address, want 1", r.s.Peers())
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	r.turn(t)
	r.join(t, b, 2)
	if r.s.Peers() != 1 || !r.s.Joined(uint32(2)) {
		t.Errorf("after the first left: %d peers, second joined %v", r.s.Peers(), r.s.Joined(2))
	}
}

// TestSlowTurnKeepsShares: a turn whose clock has run past the budget at
// once (a process preempted, a loaded machine) still takes each
// connection's first Share datagrams: four clients sending an input and
// an ack a tick, a few ticks' worth in a turn, lose nothing, while a
// flood's tail beyond its share is dropped.
func TestSlowTurnKeepsShares(t *testing.T) {
	r := newHostRig(t, 5)
	var clients []*transport.MemClient
	for i := range 4 {
		c := r.connect(t, uint64(i+1))
		r.join(t, c, uint64(i+1))
		clients = append(clients, c)
	}
	flood := r.connect(t, 9)
	r.join(t, flood, 9)
	r.h.Clock = func() time.Duration { r.clock += 10 * time.Millisecond; return r.clock }
	r.h.Budget = time.Millisecond
	for range 100 {
		for p, c := range clients {
			for k := range Share {
				b, _ := wire.AppendInput(nil, &wire.Input{Player: uint8(p), First: r.s.Tick() + 1 + uint32(k/2), Inputs: []game.Input{game.Left}})
				if err := c.Send(r.now, b); err != nil {
					t.Fatal(err)
				}
			}
		}
		b, _ := wire.AppendInput(nil, &wire.Input{Player: 4, First: r.s.Tick() + 1, Inputs: []game.Input{game.Right}})
		for range 3 * Share {
			if err := flood.Send(r.now, b); err != nil {
				t.Fatal(err)
			}
		}
		r.turn(t)
	}
	// The flood's tail is 2*Share a turn; up to 3 of it are taken
	// before the clock is read.
	if most, least := uint64(100*2*Share), uint64(100*(2*Share-3)); r.h.OverBudget < least || r.h.OverBudget > most {
		t.Errorf("%d datagrams over budget, want the flood's tail: %d to %d", r.h.OverBudget, least, most)
	}
	for p := range clients {
		st, _ := r.s.PlayerStats(p)
		if st.Repeated > 2 {
			t.Errorf("player %d: %d ticks repeated, %d applied", p, st.Repeated, st.Applied)
		}
	}
}
