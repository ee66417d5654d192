package record

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// MaxUlps bounds a perturbation's size in units in the last place.
const MaxUlps = 1 << 20

// PerturbKind is what a Perturbation changes.
type PerturbKind uint8

// The kinds of perturbation.
const (
	PerturbBody    PerturbKind = iota // a float field of a body
	PerturbContact                    // an impulse of a contact cache entry
	PerturbInput                      // a player's recorded input
)

// Perturbation is one value of a record changed on purpose, to make a
// divergence: a body's or a contact's field in the state labelled Tick,
// moved by Ulps units in the last place, the run going on from there as
// the server's would have; or the input recorded for player Player at tick
// Tick, replaced by Input while the hashes stay those of the input that
// was simulated (a record that lies about what the server applied).
type Perturbation struct {
	Kind   PerturbKind
	Tick   uint32
	Index  int // the body, the contact (its place in the state's contact list) or the player
	Field  int // the body's word (physics.BodyField) or the contact's word (3 to 5: pn, pt1, pt2)
	Ulps   int64
	Input  game.Input
	source string // as given, for messages
}

// String returns the perturbation as ParsePerturbation reads it.
func (p Perturbation) String() string { return p.source }

// contactFloatFields are the contact words a perturbation may change.
var contactFloatFields = []string{"pn", "pt1", "pt2"}

// ParsePerturbation reads a perturbation:
//
//	TICK:BODY:FIELD[:ULPS]         a body's field: pos.x ... torque.z
//	TICK:contact:N:FIELD[:ULPS]    the Nth contact of the state: pn, pt1 or pt2
//	TICK:input:PLAYER:BITS         the input recorded for tick TICK, 0 to 63
//
// ULPS defaults to 1 and may be negative, from -MaxUlps to MaxUlps, not 0.
// A state field is changed in the state labelled TICK (after tick TICK-1
// was simulated), so `cube replay` of the copy names tick TICK.
func ParsePerturbation(s string) (Perturbation, error) {
	p := Perturbation{Ulps: 1, source: s}
	parts := strings.Split(s, ":")
	bad := func(why string, a ...any) (Perturbation, error) {
		return Perturbation{}, fmt.Errorf("-perturb %q: %s; want TICK:BODY:FIELD[:ULPS], TICK:contact:N:FIELD[:ULPS] or TICK:input:PLAYER:BITS", s, fmt.Sprintf(why, a...))
	}
	if len(parts) < 3 {
		return bad("too few parts")
	}
	t, err := strconv.ParseUint(parts[0], 10, 32)
	if err != nil {
		return bad("tick %q is not a number from 0 to %d", parts[0], uint32(math.MaxUint32))
	}
	p.Tick = uint32(t)
	num := func(what, v string, lo, hi int64) (int64, error) {
		n, err := strconv.ParseInt(v, 0, 64)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("%s %q is not a number from %d to %d", what, v, lo, hi)
		}
		return n, nil
	}
	ulps := func(rest []string) error {
		if len(rest) > 1 {
			return fmt.Errorf("too many parts")
		}
		if len(rest) == 1 {
			n, err := num("ulps", rest[0], -MaxUlps, MaxUlps)
			if err != nil {
				return err
			}
			if n == 0 {
				return fmt.Errorf("ulps 0 changes nothing")
			}
			p.Ulps = n
		}
		return nil
	}
	switch parts[1] {
	case "input":
		p.Kind = PerturbInput
		if len(parts) != 4 {
			return bad("an input takes a player and the bits")
		}
		pl, err := num("player", parts[2], 0, game.MaxPlayers-1)
		if err != nil {
			return bad("%v", err)
		}
		bits, err := num("bits", parts[3], 0, int64(game.InputMask))
		if err != nil {
			return bad("%v", err)
		}
		p.Index, p.Input = int(pl), game.Input(bits)
	case "contact":
		p.Kind = PerturbContact
		if len(parts) < 4 {
			return bad("a contact takes its index and a field")
		}
		n, err := num("contact", parts[2], 0, math.MaxInt32)
		if err != nil {
			return bad("%v", err)
		}
		p.Index = int(n)
		k := slices.Index(contactFloatFields, parts[3])
		if k < 0 {
			return bad("contact field %q is not one of %s", parts[3], strings.Join(contactFloatFields, ", "))
		}
		p.Field = 3 + k
		if err := ulps(parts[4:]); err != nil {
			return bad("%v", err)
		}
	default:
		p.Kind = PerturbBody
		n, err := num("body", parts[1], 0, math.MaxInt32)
		if err != nil {
			return bad("%v", err)
		}
		p.Index = int(n)
		p.Field = -1
		for k := range 19 {
			if physics.BodyField(k) == parts[2] {
				p.Field = k
			}
		}
		if p.Field < 0 {
			names := make([]string, 19)
			for k := range names {
				names[k] = physics.BodyField(k)
			}
			return bad("body field %q is not one of %s", parts[2], strings.Join(names, " "))
		}
		if err := ulps(parts[3:]); err != nil {
			return bad("%v", err)
		}
	}
	return p, nil
}

// Change is what Perturb changed: the value's bits before and after.
type Change struct {
	Where          string // "body 412 vel.y", "contact 3 pn", "player 0's input"
	Before, After  uint64
	Float          bool
	StoredAtChange bool // the copy stores the full state of the changed tick
}

// Perturb writes to out a copy of rec with p applied: it re-simulates rec
// as Replay does, changes the value when it reaches p's tick, and records
// what the run then gives (hashes and full states, every full state at
// the header's cadence plus the changed one). The copy replays to a
// divergence at p's tick (an input's at the tick after it). A record with
// stage hashes gets those of the copy's run, the same up to the change,
// which comes between steps: a replay of the copy finds every stage of
// the divergent tick's step as recorded. It refuses a
// record that does not replay to its end, and a perturbation whose tick
// the record never reaches or whose body, contact or player it lacks.
func Perturb(rec *Record, p Perturbation, out io.Writer) (Change, error) {
	var ch Change
	res, err := Replay(rec)
	if err != nil {
		return ch, err
	}
	if res.Divergence != nil {
		return ch, fmt.Errorf("record: perturb: the record itself diverges at tick %d; perturb one that replays", res.Divergence.Tick)
	}
	w, sc, bd, err := Build(&rec.Header)
	if err != nil {
		return ch, fmt.Errorf("record: perturb: %w", err)
	}
	if p.Kind != PerturbInput && p.Tick == w.Tick() {
		return ch, fmt.Errorf("record: perturb %s: tick %d is the record's initial state, the scene's own; perturb a later tick", p, p.Tick)
	}
	wr, err := NewWriter(out, rec.Header)
	if err != nil {
		return ch, err
	}
	w.HashStages(rec.Header.Stages)
	done := false
	var st physics.State
	for i := range rec.Len() {
		s := rec.Step(i)
		if s.Kind == StepSkip {
			if err := wr.Skip(s.Tick, s.To); err != nil {
				return ch, err
			}
			w.SkipTo(s.To)
			continue
		}
		for _, e := range s.Events {
			if err := wr.Event(s.Tick, e); err != nil {
				return ch, err
			}
		}
		s.Full = nil // the copy stores its own
		if _, err := apply(w, sc, bd, &s); err != nil {
			return ch, err
		}
		ins := s.Inputs
		if !done && p.Kind == PerturbInput && s.Tick == p.Tick {
			if p.Index >= len(ins) {
				return ch, fmt.Errorf("record: perturb %s: the scene has %d players", p, len(ins))
			}
			if ins[p.Index] == p.Input {
				return ch, fmt.Errorf("record: perturb %s: player %d's input at tick %d is already %#02x", p, p.Index, p.Tick, uint8(p.Input))
			}
			ins = append([]game.Input(nil), ins...)
			ch = Change{Where: fmt.Sprintf("player %d's input at tick %d", p.Index, p.Tick), Before: uint64(ins[p.Index]), After: uint64(p.Input)}
			ins[p.Index], done = p.Input, true
		}
		if !done && p.Kind != PerturbInput && w.Tick() == p.Tick {
			w.Save(&st)
			if ch, err = p.apply(&st); err != nil {
				return ch, err
			}
			if err := w.Restore(&st); err != nil {
				return ch, fmt.Errorf("record: perturb %s: the changed state is refused: %w", p, err)
			}
			done, ch.StoredAtChange = true, true
			wr.sinceFull = wr.fullEvery // store the changed state
		}
		if h := w.StageHashes(); h != nil && s.Stages != nil {
			if err := wr.Stages(h); err != nil {
				return ch, err
			}
		}
		if err := wr.Tick(s.Tick, ins, w.Hash(), w.State()); err != nil {
			return ch, err
		}
	}
	if !done {
		return ch, fmt.Errorf("record: perturb %s: the record never reaches tick %d (it simulates up to tick %d)", p, p.Tick, w.Tick())
	}
	return ch, wr.Close()
}

// apply changes the value p names in st.
func (p Perturbation) apply(st *physics.State) (Change, error) {
	move := func(bits uint64) (uint64, error) {
		x := math.Float64frombits(bits)
		dir := math.Inf(1)
		if p.Ulps < 0 {
			dir = math.Inf(-1)
		}
		for range max(p.Ulps, -p.Ulps) {
			x = math.Nextafter(x, dir)
		}
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return 0, fmt.Errorf("record: perturb %s: the value leaves the finite numbers", p)
		}
		return math.Float64bits(x), nil
	}
	switch p.Kind {
	case PerturbBody:
		if p.Index >= len(st.Bodies) {
			return Change{}, fmt.Errorf("record: perturb %s: the state has %d bodies", p, len(st.Bodies))
		}
		b := &st.Bodies[p.Index]
		words := physics.BodyWords(b)
		after, err := move(words[p.Field])
		if err != nil {
			return Change{}, err
		}
		ch := Change{Where: fmt.Sprintf("body %d %s at tick %d", p.Index, physics.BodyField(p.Field), p.Tick), Before: words[p.Field], After: after, Float: true}
		words[p.Field] = after
		physics.SetBodyWords(b, &words)
		return ch, nil
	default:
		if p.Index >= len(st.Contacts) {
			return Change{}, fmt.Errorf("record: perturb %s: the state at tick %d has %d contacts", p, p.Tick, len(st.Contacts))
		}
		c := &st.Contacts[p.Index]
		words := physics.ContactWords(c)
		after, err := move(words[p.Field])
		if err != nil {
			return Change{}, err
		}
		ch := Change{Where: fmt.Sprintf("contact %d %s at tick %d", p.Index, contactFloatFields[p.Field-3], p.Tick), Before: words[p.Field], After: after, Float: true}
		words[p.Field] = after
		*c = physics.ContactFromWords(&words)
		return ch, nil
	}
}
