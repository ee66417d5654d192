package wire

import (
	"encoding/binary"
	"math"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// relayHead is the fixed part of a Relay: kind, version, first, hash and
// players.
const relayHead = 2 + 4 + 8 + 1

// Span is a run of ticks, as an offset from a message's first tick and a
// length.
type Span struct {
	Offset, Len uint32
}

// TickEvent is a server-only event and the tick it was applied before, as
// an offset from a message's first tick.
type TickEvent struct {
	Offset uint32
	Event  game.Event
}

// Relay is an input-sync message: what the server applied for Count ticks
// from First, and the hash of its world after them.
type Relay struct {
	First uint32
	Count int
	Hash  uint64
	Heard uint32 // first+count plus the client's input buffer when its newest message arrived
	// HeardInput is the tick of the newest input in that message: which of
	// the client's messages Heard speaks of.
	HeardInput uint32
	Players    int
	// Inputs holds Count inputs per player, player by player: player p's
	// input for tick First+t is Inputs[p*Count+t]. The inputs of skipped
	// ticks mean nothing.
	Inputs []game.Input
	Skips  []Span      // ticks the server skipped, in order, neither overlapping nor touching
	Events []TickEvent // in tick order
}

// eventSize is the encoded size of an event after its offset.
func eventSize(e *game.Event) int {
	if e.Kind == game.Nudge {
		return 2 + 24
	}
	return 2
}

// RelaySize returns the size of m's message if it covered only its first
// count ticks (and the skips and events within them).
func RelaySize(m *Relay, count int) int {
	last := m.First + uint32(count)
	n := relayHead + uvarintLen(uint64(count)) + zigzagLen(int32(m.Heard-last)) + zigzagLen(int32(m.HeardInput-last))
	for p := 0; p < m.Players; p++ {
		n += runsSize(m.Inputs[p*m.Count : p*m.Count+count])
	}
	ns, prev := 0, uint32(0)
	for _, s := range m.Skips {
		if int(s.Offset) >= count {
			break
		}
		l := min(s.Len, uint32(count)-s.Offset)
		n += uvarintLen(uint64(s.Offset-prev)) + uvarintLen(uint64(l))
		prev = s.Offset + l
		ns++
	}
	n += uvarintLen(uint64(ns))
	ne := 0
	for i := range m.Events {
		e := &m.Events[i]
		if int(e.Offset) >= count {
			break
		}
		n += uvarintLen(uint64(e.Offset)) + eventSize(&e.Event)
		ne++
	}
	return n + uvarintLen(uint64(ne))
}

// FitRelay returns the largest count, at most m.Count, whose message fits in
// MaxMessage bytes (0 if not even one tick fits).
func FitRelay(m *Relay) int {
	lo, hi := 0, m.Count
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if RelaySize(m, mid) <= MaxMessage {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// AppendRelay appends m's message covering its first count ticks (1 to
// m.Count; see FitRelay). Hash must be the hash after those ticks.
func AppendRelay(b []byte, m *Relay, count int) []byte {
	b = append(b, KindRelay, Version)
	b = binary.LittleEndian.AppendUint32(b, m.First)
	b = binary.AppendUvarint(b, uint64(count))
	b = binary.LittleEndian.AppendUint64(b, m.Hash)
	end := m.First + uint32(count)
	b = appendZigzag(b, int32(m.Heard-end))
	b = appendZigzag(b, int32(m.HeardInput-end))
	b = append(b, byte(m.Players))
	for p := 0; p < m.Players; p++ {
		b = appendRuns(b, m.Inputs[p*m.Count:p*m.Count+count])
	}
	ns := 0
	for _, s := range m.Skips {
		if int(s.Offset) < count {
			ns++
		}
	}
	b = binary.AppendUvarint(b, uint64(ns))
	prev := uint32(0)
	for _, s := range m.Skips[:ns] {
		l := min(s.Len, uint32(count)-s.Offset)
		b = binary.AppendUvarint(b, uint64(s.Offset-prev))
		b = binary.AppendUvarint(b, uint64(l))
		prev = s.Offset + l
	}
	ne := 0
	for ne < len(m.Events) && int(m.Events[ne].Offset) < count {
		ne++
	}
	b = binary.AppendUvarint(b, uint64(ne))
	for _, e := range m.Events[:ne] {
		b = binary.AppendUvarint(b, uint64(e.Offset))
		b = append(b, byte(e.Event.Kind), e.Event.Player)
		if e.Event.Kind == game.Nudge {
			for _, x := range [3]float64{e.Event.Impulse.X, e.Event.Impulse.Y, e.Event.Impulse.Z} {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
			}
		}
	}
	return b
}

// DecodeRelay parses a Relay message into m, reusing its slices.
func DecodeRelay(b []byte, m *Relay) error {
	r := start(b, KindRelay)
	first := r.u32()
	count := int(r.uvarint())
	hash := r.u64()
	last := first + uint32(count)
	heard := last + uint32(r.zigzag())
	heardInput := last + uint32(r.zigzag())
	players := int(r.u8())
	if r.err == nil && (count < 1 || count > MaxTicks) {
		r.fail(invalid("%d ticks, want 1 to %d", count, MaxTicks))
	}
	if r.err == nil && (players < 1 || players > game.MaxPlayers) {
		r.fail(invalid("%d players", players))
	}
	ins := m.Inputs[:0]
	if r.err == nil && cap(ins) < count*players {
		ins = make([]game.Input, 0, MaxTicks*game.MaxPlayers)
	}
	for p := 0; p < players && r.err == nil; p++ {
		n := len(ins)
		ins = r.runs(ins, count)
		if r.err == nil && len(ins)-n != count {
			r.fail(ErrShort)
		}
	}
	ns := int(r.uvarint())
	if r.err == nil && ns > count {
		r.fail(invalid("%d skip runs in %d ticks", ns, count))
	}
	skips := m.Skips[:0]
	end := uint32(0)
	for k := 0; k < ns && r.err == nil; k++ {
		off, l := r.uvarint(), r.uvarint()
		// In 64 bits: end+off in 32 would wrap back into the runs before.
		if r.err == nil && (l == 0 || uint64(end)+uint64(off)+uint64(l) > uint64(count) || (k > 0 && off == 0)) {
			r.fail(invalid("skip run %d out of range", k))
			break
		}
		s := Span{Offset: end + off, Len: l}
		skips = append(skips, s)
		end = s.Offset + l
	}
	ne := int(r.uvarint())
	if r.err == nil && ne > (len(b)-r.off)/3 {
		r.fail(ErrShort)
	}
	events := m.Events[:0]
	prev := uint32(0)
	for k := 0; k < ne && r.err == nil; k++ {
		off := r.uvarint()
		e := game.Event{Kind: game.EventKind(r.u8()), Player: r.u8()}
		switch {
		case r.err != nil:
		case off < prev || off >= uint32(count): // int(off) is negative past 2³¹ on 32-bit CPUs
			r.fail(invalid("event %d at offset %d", k, off))
		case int(e.Player) >= players:
			r.fail(invalid("event %d for player %d of %d", k, e.Player, players))
		case e.Kind == game.Nudge:
			v := physics.Vec3{X: math.Float64frombits(r.u64()), Y: math.Float64frombits(r.u64()), Z: math.Float64frombits(r.u64())}
			if r.err == nil && !v.Finite() {
				r.fail(invalid("event %d: a nudge that is not finite", k))
			}
			e.Impulse = v
		case e.Kind == game.Join || e.Kind == game.Leave:
		default:
			r.fail(invalid("event %d of unknown kind %d", k, e.Kind))
		}
		events = append(events, TickEvent{Offset: off, Event: e})
		prev = off
	}
	if err := r.end(); err != nil {
		return err
	}
	*m = Relay{First: first, Count: count, Hash: hash, Heard: heard, HeardInput: heardInput, Players: players, Inputs: ins, Skips: skips, Events: events}
	return nil
}
