package record

import (
	"math"
	"sort"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// Memory budget of a record read back. A Step as a Go value takes 88
// bytes, and a skip takes 5 bytes in the file, so a record holding its
// steps as a []Step would cost up to 18 bytes per byte read, and twice
// that while the slice grows. Read keeps them packed instead:
//
//   - a step is 16 bytes (packedStep), in pages of pageSteps that are
//     never copied as the record grows;
//   - a tick's inputs are one byte per player, in one slice;
//   - events stay in their encoded form (2 bytes, 26 for a nudge) and are
//     decoded when a step is asked for;
//   - full states are decoded, each about as large as its encoding;
//   - stage hashes are kept as read, 8 bytes each.
//
// The worst case is a file packed with skips: 16 bytes for each 5, 3.2
// bytes per byte; a real record takes less than 2. MaxAllocPerByte states
// the bound and a test holds it.
const (
	// MaxAllocPerByte bounds what Read allocates in all, per byte of
	// input, beyond a fixed MiB or so for its buffers and the header.
	MaxAllocPerByte = 4

	pageShift = 12
	pageSteps = 1 << pageShift // steps in a page
	skipAux   = math.MaxUint32 // packedStep.aux of a skip
)

// packedStep is a Step in 16 bytes: a tick's hash and the index of its
// inputs, or a skip's destination.
type packedStep struct {
	tick uint32
	aux  uint32 // a tick: its index among the record's ticks; a skip: skipAux
	hash uint64 // a tick: its hash; a skip: the tick it jumps to
}

// stepRef ties something kept on the side to a step's position.
type stepRef struct {
	pos uint32 // the step's position in the record
	off uint32 // where its data starts (events: in packed.events; chunks: the chunk's number)
}

// fullRef is a full state stored after the step at pos.
type fullRef struct {
	pos uint32
	st  *physics.State
}

// packed holds the steps of a record read back.
type packed struct {
	pages   [][]packedStep
	n       int
	players int
	inputs  []game.Input // players a tick, in the order of the ticks
	events  []byte       // the encoded events of the ticks that have some
	evAt    []stepRef    // by position: the start of a tick's events; they end at the next one's start
	fulls   []fullRef    // by position
	stages  []uint64     // the stage hashes of the ticks that have some: each its path, then its hashes
	stAt    []stepRef    // by position: the start of a tick's stage hashes; they end at the next one's start
	chunks  []stepRef    // by position: the first step of each steps chunk and its number
}

// add appends a step.
func (p *packed) add(s packedStep) {
	if p.n&(pageSteps-1) == 0 {
		p.pages = append(p.pages, make([]packedStep, 0, pageSteps))
	}
	pg := &p.pages[len(p.pages)-1]
	*pg = append(*pg, s)
	p.n++
}

// at returns the packed step at position i.
func (p *packed) at(i int) packedStep { return p.pages[i>>pageShift][i&(pageSteps-1)] }

// search returns the index of the last ref at or before pos, or -1.
func search(refs []stepRef, pos int) int {
	return sort.Search(len(refs), func(k int) bool { return int(refs[k].pos) > pos }) - 1
}

// step unpacks the step at position i.
func (p *packed) step(i int) Step {
	ps := p.at(i)
	s := Step{Tick: ps.tick}
	if c := search(p.chunks, i); c >= 0 {
		s.Chunk = int(p.chunks[c].off)
	}
	if ps.aux == skipAux {
		s.Kind, s.To = StepSkip, uint32(ps.hash)
		return s
	}
	s.Kind, s.Hash = StepTick, ps.hash
	first := int(ps.aux) * p.players
	s.Inputs = p.inputs[first : first+p.players : first+p.players]
	if e := search(p.evAt, i); e >= 0 && int(p.evAt[e].pos) == i {
		end := len(p.events)
		if e+1 < len(p.evAt) {
			end = int(p.evAt[e+1].off)
		}
		s.Events = decodeEvents(p.events[p.evAt[e].off:end])
	}
	if k := search(p.stAt, i); k >= 0 && int(p.stAt[k].pos) == i {
		end := len(p.stages)
		if k+1 < len(p.stAt) {
			end = int(p.stAt[k+1].off)
		}
		w := p.stages[p.stAt[k].off:end:end]
		s.Stages = &physics.StageHashes{Tick: ps.tick, Path: w[0], Hashes: w[1:]}
	}
	if f := sort.Search(len(p.fulls), func(k int) bool { return int(p.fulls[k].pos) >= i }); f < len(p.fulls) && int(p.fulls[f].pos) == i {
		s.Full = p.fulls[f].st
	}
	return s
}

// hasFull reports whether the step at position i stores a full state.
func (p *packed) hasFull(i int) bool {
	return len(p.fulls) > 0 && int(p.fulls[len(p.fulls)-1].pos) == i
}

// decodeEvents decodes events the reader has checked.
func decodeEvents(b []byte) []game.Event {
	n := 0
	for off := 0; off < len(b); n++ {
		off += eventHead + max(0, eventLen(game.EventKind(b[off])))
	}
	out := make([]game.Event, 0, n)
	for off := 0; off < len(b); {
		e := game.Event{Kind: game.EventKind(b[off]), Player: b[off+1]}
		off += eventHead
		if e.Kind == game.Nudge {
			f := func(j int) float64 { return math.Float64frombits(le.Uint64(b[off+8*j:])) }
			e.Impulse = physics.Vec3{X: f(0), Y: f(1), Z: f(2)}
		}
		off += max(0, eventLen(e.Kind))
		out = append(out, e)
	}
	return out
}

// Len returns the number of steps in r.
func (r *Record) Len() int {
	if r.built != nil {
		return len(r.built) - r.first
	}
	return r.steps.n - r.first
}

// Step returns step i of r, 0 <= i < r.Len(). Its Inputs share r's memory
// and must not be changed; its Events are decoded anew on each call.
func (r *Record) Step(i int) Step {
	i += r.first
	if r.built != nil {
		return r.built[i]
	}
	return r.steps.step(i)
}

// Unpack returns every step of r as a slice of its own, for a program
// that edits a record (then NewRecord) or walks it many times. It costs 88
// bytes a step.
func (r *Record) Unpack() []Step {
	out := make([]Step, r.Len())
	for i := range out {
		out[i] = r.Step(i)
	}
	return out
}

// From returns a record that shares r's header and steps but starts at
// step i, 0 <= i <= r.Len(); its header is a copy, to be changed freely
// (a replay from a keyframe sets its Initial).
func (r *Record) From(i int) *Record {
	c := *r
	c.first += i
	return &c
}

// NewRecord returns a record of the header h and the steps, as a
// program builds or edits one: Replay and the viewer take it as they
// take one read back. It keeps steps, not a copy.
func NewRecord(h Header, steps []Step) *Record {
	if steps == nil {
		steps = []Step{}
	}
	return &Record{Header: h, built: steps}
}
