package transport

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// rig is one implementation under the shared suite: a server, a way to
// connect clients to it, and a clock.
type rig struct {
	srv     Server
	connect func() (Client, error)
	abandon func(Client)
	now     func() time.Duration
	step    func()        // let time pass: 1 ms, virtual or real
	limit   time.Duration // how long until gives up, on the rig's clock
	exact   bool          // the clock is virtual: timings are exact
	opts    Options
}

// memRig builds an in-process rig with options o.
func memRig(t *testing.T, o Options) *rig {
	srv, err := NewMemServer(&o)
	if err != nil {
		t.Fatal(err)
	}
	var clock time.Duration
	seed := uint64(0)
	r := &rig{
		srv: srv,
		connect: func() (Client, error) {
			seed++
			return srv.Connect(seed)
		},
		abandon: func(c Client) { c.(*MemClient).Abandon() },
		now:     func() time.Duration { return clock },
		step:    func() { clock += time.Millisecond },
		limit:   30 * time.Second,
		exact:   true,
		opts:    o,
	}
	t.Cleanup(func() { srv.Close() })
	return r
}

// quicRig builds a rig over QUIC on 127.0.0.1 with options o.
func quicRig(t *testing.T, o Options) *rig {
	srv, err := Listen("127.0.0.1:0", &o)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r := &rig{
		srv: srv,
		connect: func() (Client, error) {
			c, err := Dial(context.Background(), srv.BoundAddr(), srv.Pin(), false, &o)
			if err != nil {
				return nil, err
			}
			t.Cleanup(func() { c.Close() })
			return c, nil
		},
		abandon: func(c Client) { c.(*QUICClient).Abandon() },
		now:     func() time.Duration { return time.Since(start) },
		step:    func() { time.Sleep(time.Millisecond) },
		limit:   10 * time.Second,
		opts:    o,
	}
	t.Cleanup(func() { srv.Close() })
	return r
}

// eachRig runs f once per implementation, each with a new server.
func eachRig(t *testing.T, o Options, f func(t *testing.T, h *harness)) {
	t.Run("mem", func(t *testing.T) { f(t, newHarness(t, memRig(t, o))) })
	t.Run("quic", func(t *testing.T) { f(t, newHarness(t, quicRig(t, o))) })
}

// got is a datagram as the tests keep it.
type got struct {
	peer PeerID
	data string
	at   time.Duration
}

// harness polls a rig's server and clients and keeps what they receive.
type harness struct {
	t       *testing.T
	r       *rig
	evs     []PeerEvent
	srvGot  []got
	clients []Client
	cliGot  map[Client][]got
	dgs     []Datagram
	bufs    [][]byte
}

func newHarness(t *testing.T, r *rig) *harness {
	return &harness{t: t, r: r, cliGot: make(map[Client][]got)}
}

// poll calls Events then Receive on the server and Receive on every
// client, once.
func (h *harness) poll() {
	now := h.r.now()
	h.evs = h.r.srv.Events(h.evs)
	h.dgs = h.r.srv.Receive(now, h.dgs[:0])
	for _, d := range h.dgs {
		h.srvGot = append(h.srvGot, got{d.Peer, string(d.Data), now})
	}
	for _, c := range h.clients {
		h.bufs = c.Receive(now, h.bufs[:0])
		for _, b := range h.bufs {
			h.cliGot[c] = append(h.cliGot[c], got{0, string(b), now})
		}
	}
}

// until polls and steps until cond holds, or fails the test.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	start := h.r.now()
	for {
		h.poll()
		if cond() {
			return
		}
		if h.r.now()-start > h.r.limit {
			h.t.Fatalf("after %v: still waiting for %s", h.r.limit, what)
		}
		h.r.step()
	}
}

// connect connects a client and waits for its Connected event.
func (h *harness) connect() (Client, PeerID) {
	h.t.Helper()
	c, err := h.r.connect()
	if err != nil {
		h.t.Fatalf("connect: %v", err)
	}
	h.clients = append(h.clients, c)
	n := len(h.evs)
	var id PeerID
	h.until("a Connected event", func() bool {
		for _, ev := range h.evs[n:] {
			if ev.Kind == Connected {
				id = ev.Peer
				return true
			}
		}
		return false
	})
	return c, id
}

// event returns the first event of kind for peer, if any.
func (h *harness) event(kind EventKind, p PeerID) (PeerEvent, bool) {
	for _, ev := range h.evs {
		if ev.Kind == kind && ev.Peer == p {
			return ev, true
		}
	}
	return PeerEvent{}, false
}

// serverGot returns the payloads the server received from p.
func (h *harness) serverGot(p PeerID) []string {
	var out []string
	for _, g := range h.srvGot {
		if g.peer == p {
			out = append(out, g.data)
		}
	}
	return out
}

// clientGot returns the payloads c received.
func (h *harness) clientGot(c Client) []string {
	var out []string
	for _, g := range h.cliGot[c] {
		out = append(out, g.data)
	}
	return out
}

// peerStats returns p's counters on the server.
func (h *harness) peerStats(p PeerID) Counters {
	h.t.Helper()
	st := h.r.srv.Stats()
	i := slices.IndexFunc(st.Peers, func(ps PeerStats) bool { return ps.Peer == p })
	if i < 0 {
		h.t.Fatalf("peer %d not in the server's stats %+v", p, st.Peers)
	}
	return st.Peers[i].Counters
}

// pattern returns n bytes that differ from one datagram to the next.
func pattern(n int, tag byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7) ^ tag
	}
	return b
}

func numbered(i int) []byte { return fmt.Appendf(nil, "n%04d", i) }
