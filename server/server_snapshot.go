package server

import (
	"slices"
	"time"

	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// Importance of a body in the snapshot priority accumulator (Fiedler's
// demo: the player's cube 1e6, cubes interacting with it 100, cubes at
// rest 1). A body that changed gains its importance every snapshot it is
// left out of, and goes back to 0 when sent.
const (
	importancePlayer   = 1e6
	importanceTouching = 100
	importanceAwake    = 10
	importanceAsleep   = 1
)

// appendSnapshot appends a state-sync snapshot of the server's world for p:
// the bodies that differ from p's baseline view, most important first,
// within the byte budget; with the contacts of their islands when p's
// prediction cannot be trusted (a server event, a skipped or repeated tick
// since the state p acknowledged, or p out of step).
func (s *Server) appendSnapshot(p *peer, now time.Duration, b []byte) []byte {
	T := s.Tick()
	held, acks := p.st.views.Get(p.base), p.held
	if held == nil || !p.haveAck {
		held, acks = p.st.views.Start(), 0
	}
	// The baseline takes, besides held's bodies, those of every snapshot
	// the client holds in the MaskBits ticks before it: a body is known to
	// the client once any snapshot it acknowledged carried it, not only
	// once a snapshot encoded against that one comes back.
	// Only the views that give a body are named (a byte of mask costs 64
	// bytes a second).
	base, acks, _ := p.st.views.Baseline(held, acks)
	if base == nil { // a view named has left the ring since the ack
		base, acks = held, 0
	}
	limit := s.budget(p, now)
	flags := uint8(0)
	if s.scene.Options.Quantize {
		flags |= wire.Quantized
	}
	w := &p.st.writer
	pl := &s.players[p.player]
	heard, input := s.heard(p, T)
	w.Begin(b, &wire.Snapshot{Tick: T, Base: base.Tick(), Acks: acks, Flags: flags, Hash: s.hist.hash(T), Chain: pl.chain, AllChain: s.sim.allChain,
		Events: s.sim.nevents, Skipped: s.sim.skipped, Heard: heard, HeardInput: input})
	// The bodies that changed since the baseline, by priority.
	p.st.cand = p.st.cand[:0]
	st := s.world.State()
	player := s.scene.Players[p.player]
	// The other players' cubes and the bodies touching the client's cube
	// rank next to it, marked once for this snapshot.
	if len(s.buf.near) != len(st.Bodies) {
		s.buf.near = make([]bool, len(st.Bodies))
	}
	for i, b := range s.scene.Players {
		if i != p.player {
			s.buf.near[b] = true
		}
	}
	for _, c := range s.world.Contacts() {
		switch {
		case int(c.A) == player && int(c.B) >= 0:
			s.buf.near[c.B] = true
		case int(c.B) == player && int(c.A) >= 0:
			s.buf.near[c.A] = true
		}
	}
	defer clear(s.buf.near)
	for i := range st.Bodies {
		if s.world.Static(i) {
			continue
		}
		if physics.BodyWords(&st.Bodies[i]) == physics.BodyWords(base.Body(i)) {
			p.st.acc[i] = 0
			continue
		}
		p.st.acc[i] += s.importance(i, player)
		p.st.cand = append(p.st.cand, int32(i))
	}
	slices.SortFunc(p.st.cand, func(a, b int32) int {
		switch {
		case p.st.acc[a] > p.st.acc[b]:
			return -1
		case p.st.acc[a] < p.st.acc[b]:
			return 1
		}
		return int(a - b)
	})
	p.st.sel = p.st.sel[:0]
	used := w.Len()
	for _, i := range p.st.cand {
		var ok bool
		p.st.scr, ok = wire.AppendBody(p.st.scr[:0], &st.Bodies[i], base.Body(int(i)), flags&wire.Quantized != 0)
		if !ok {
			continue
		}
		if size := len(p.st.scr) + 3; used+size <= limit {
			used += size
			p.st.sel = append(p.st.sel, i)
		}
	}
	slices.Sort(p.st.sel)
	sent := 0
	for _, i := range p.st.sel {
		if ok, _ := w.Body(i, &st.Bodies[i], base.Body(int(i)), limit); ok {
			p.st.acc[i] = 0
			p.st.sel[sent] = i
			sent++
		}
	}
	p.st.sel = p.st.sel[:sent]
	complete := sent == len(p.st.cand)
	contactsComplete := false
	if s.untrusted(p) && sent > 0 {
		contactsComplete = s.appendIslands(p, w, limit)
	}
	b = w.Finish(complete, contactsComplete)
	s.Stats.BodiesSent += uint64(sent)
	if !complete {
		s.Stats.Incomplete++
	}
	p.st.views.Derive(T, base, p.st.sel, st.Bodies)
	p.st.tokens -= float64(len(b))
	return b
}

// budget returns the bytes the next snapshot for p may take: the token
// bucket refilled at BytesPerSecond since the last snapshot, at least
// enough for the player's cube and at most a datagram.
func (s *Server) budget(p *peer, now time.Duration) int {
	if s.BytesPerSecond <= 0 {
		return wire.MaxMessage
	}
	if p.st.snapped {
		p.st.tokens += float64(s.BytesPerSecond * (now - p.st.lastSnap).Seconds())
	}
	p.st.lastSnap, p.st.snapped = now, true
	p.st.tokens = min(p.st.tokens, wire.MaxMessage)
	return max(int(p.st.tokens), minSnapshot)
}

// minSnapshot is the least a snapshot may take, whatever the budget: the
// header and the player's cube at full precision.
const minSnapshot = 256

// importance returns body i's importance for the priority accumulator:
// the client's own cube first, then the other players' cubes and what
// touches the client's cube (marked in s.buf.near).
func (s *Server) importance(i, player int) float64 {
	if i == player {
		return importancePlayer
	}
	if s.buf.near[i] {
		return importanceTouching
	}
	if s.world.Awake(i) {
		return importanceAwake
	}
	return importanceAsleep
}

// untrusted reports whether p's prediction may differ from the server's
// state in what a snapshot's bodies do not say (warm-start impulses): a
// server event, a skipped or repeated tick since the state p acknowledged,
// p not in step there, or another player's input changed recently.
//
// p predicted the ticks since its ack with the other players' inputs it
// knew then, which lag behind by about the round trip: a change up to
// twice the span since the ack (plus a margin) before now may not have
// been known.
func (s *Server) untrusted(p *peer) bool {
	if !p.haveAck || !p.inSync || (s.sim.deviated && !tick.After(p.ack, s.sim.deviation)) ||
		(p.deviated && !tick.After(p.ack, p.deviation)) {
		return true
	}
	now := s.Tick()
	window := 2*(now-p.ack) + remoteMargin
	for q := range s.sim.ins {
		if pl := &s.players[q]; q != p.player && pl.hasChanged && now-pl.changed <= window {
			return true
		}
	}
	return false
}

// remoteMargin is the ticks added to the window in which another player's
// input change makes a client's prediction untrusted (jitter, the input
// buffer).
const remoteMargin = 8

// appendIslands appends the contact entries of every island of the bodies
// just sent (bodies joined by contacts between moving bodies), as many as
// fit, and reports whether all did.
func (s *Server) appendIslands(p *peer, w *wire.SnapshotWriter, limit int) bool {
	n := s.world.NumBodies()
	if cap(p.st.roots) < n {
		p.st.roots, p.st.inIsl = make([]int32, n), make([]bool, n)
	}
	roots, in := p.st.roots[:n], p.st.inIsl[:n]
	for i := range roots {
		roots[i] = int32(i)
	}
	find := func(i int32) int32 {
		for roots[i] != i {
			roots[i] = roots[roots[i]]
			i = roots[i]
		}
		return i
	}
	moving := func(i int32) bool { return i >= 0 && !s.world.Static(int(i)) }
	cs := s.world.Contacts()
	for _, c := range cs {
		if moving(c.A) && moving(c.B) {
			if ra, rb := find(c.A), find(c.B); ra != rb {
				roots[max(ra, rb)] = min(ra, rb)
			}
		}
	}
	clear(in)
	for _, i := range p.st.sel {
		in[find(i)] = true
	}
	// And every island awake: a body the snapshot leaves out, unchanged
	// since the baseline, may still have contacts the client got wrong
	// while it mispredicted (their impulses converge at rest).
	for i := range n {
		if moving(int32(i)) && s.world.Awake(i) {
			in[find(int32(i))] = true
		}
	}
	all := true
	for k := range cs {
		c := &cs[k]
		body := c.A
		if !moving(body) {
			body = c.B
		}
		if !moving(body) || !in[find(body)] {
			continue
		}
		if !w.Contact(c, limit) {
			all = false
		}
	}
	return all
}
