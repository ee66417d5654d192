package wire

import (
	"bytes"
	"math"
	"strings"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// corpusBase is the baseline view the corpus's snapshots are written
// against: a few bodies on the grid, so that quantised snapshots can use
// it too.
var corpusBase = func() []physics.BodyState {
	r := newRand(7)
	base := make([]physics.BodyState, 6)
	for i := range base {
		base[i] = randGridState(r)
	}
	return base
}()

// arenaID is the identity of the arena scene as built.
var arenaID = func() game.Identity {
	_, sc := game.MustBuild("arena")
	return sc.ID
}()

// named is a message and what it is.
type named struct {
	name string
	b    []byte
}

// corpusIdentity is a scene identity at the limits of the format.
var corpusIdentity = game.Identity{Name: strings.Repeat("n", game.MaxSceneName), Players: game.MaxPlayers,
	Bodies: game.MaxDropBodies, Quantize: true, Rule: int(maxUint32), Hash: math.MaxUint64}

// maxUint32 is a variable so that int(maxUint32) compiles on 32-bit CPUs
// too (where it is -1, sent as 2³²-1 all the same).
var maxUint32 uint32 = math.MaxUint32

// corpusRelay is a relay with a bit of everything: 3 players, skips at the
// start and at the end, events on the first and the last tick.
func corpusRelay() *Relay {
	r := newRand(11)
	m := &Relay{First: math.MaxUint32 - 5, Count: 40, Hash: 0xfeedface, Heard: 7, HeardInput: 3, Players: 3}
	m.Inputs = randInputs(r, m.Count*m.Players)
	m.Skips = []Span{{0, 2}, {10, 5}, {38, 2}}
	m.Events = []TickEvent{
		{0, game.Event{Kind: game.Nudge, Player: 0, Impulse: physics.Vec3{X: negZero, Y: 5e-324, Z: -math.MaxFloat64}}},
		{0, game.Event{Kind: game.Nudge, Player: 2, Impulse: physics.Vec3{X: 1, Y: 2, Z: 3}}},
		{39, game.Event{Kind: game.Nudge, Player: 1, Impulse: physics.Vec3{Y: 9.5}}},
	}
	return m
}

// corpusSnapshot writes a snapshot of some of corpusBase's bodies moved,
// quantised or not, with contacts or not.
func corpusSnapshot(quantized, contacts bool) []byte {
	r := newRand(13)
	h := Snapshot{Tick: 1000, Base: 990, Hash: 0x0123456789abcdef, Chain: 42, AllChain: 43, Events: 3, Skipped: 300, Heard: 999, HeardInput: 996}
	if quantized {
		h.Flags = Quantized
	}
	var w SnapshotWriter
	w.Begin(nil, &h)
	for _, i := range []int32{0, 2, 5} {
		var cur physics.BodyState
		if quantized {
			cur = nearGridState(r, &corpusBase[i])
		} else {
			cur = nearState(r, &corpusBase[i])
		}
		if ok, _ := w.Body(i, &cur, &corpusBase[i], MaxMessage); !ok {
			panic("corpus snapshot body refused")
		}
	}
	if contacts {
		for k := 0; k < 3; k++ {
			c := randContact(r)
			w.Contact(&c, MaxMessage)
		}
	}
	return w.Finish(true, contacts)
}

// validMessages returns valid messages of every kind.
func validMessages() []named {
	var out []named
	add := func(name string, b []byte) { out = append(out, named{name, b}) }
	add("hello", AppendHello(nil, &Hello{Nonce: 1, Mode: 0, Scene: arenaID}))
	add("hello limits", AppendHello(nil, &Hello{Nonce: math.MaxUint64, Mode: MaxMode, Scene: corpusIdentity}))
	add("welcome", AppendWelcome(nil, &Welcome{Nonce: 1, Result: Accepted, Player: 0, Tick: 0}))
	add("welcome transfer", AppendWelcome(nil, &Welcome{Nonce: 9, Result: OtherVersion, Player: 7, Tick: math.MaxUint32, Transfer: true}))
	in, _ := AppendInput(nil, &Input{Player: 1, Flags: AckValid | AckInSync, Ack: 5, First: 6, Inputs: randInputs(newRand(3), 100)})
	add("input", in)
	in, _ = AppendInput(nil, &Input{Player: 0, Flags: AskTransfer, First: math.MaxUint32, Inputs: []game.Input{game.Jump}})
	add("input one", in)
	in, _ = AppendInput(nil, &Input{Player: 2, Flags: AckValid, Ack: 50, Base: 48, Held: 0x1d, First: 52, Inputs: []game.Input{game.Left, game.Left}})
	add("input held views", in)
	in, _ = AppendInput(nil, &Input{Flags: AckValid, Ack: 3, Base: 2, Held: math.MaxUint64, First: 3, Inputs: []game.Input{0}})
	add("input every view held", in)
	held := make([]game.Input, MaxTicks)
	in, _ = AppendInput(nil, &Input{Inputs: held})
	add("input held", in)
	add("snapshot", corpusSnapshot(false, false))
	add("snapshot contacts", corpusSnapshot(false, true))
	add("snapshot quantized", corpusSnapshot(true, false))
	add("snapshot quantized contacts", corpusSnapshot(true, true))
	var w SnapshotWriter
	w.Begin(nil, &Snapshot{Tick: 1})
	add("snapshot empty", w.Finish(false, false))
	w.Begin(nil, &Snapshot{Tick: 100, Base: 90, Acks: 0x8000_0000_0000_0013, Flags: Quantized, Chain: 1, AllChain: 1})
	add("snapshot acks", w.Finish(true, false))
	m := corpusRelay()
	add("relay", AppendRelay(nil, m, m.Count))
	add("relay cut", AppendRelay(nil, m, 12))
	one := &Relay{First: 0, Count: 1, Players: 1, Inputs: []game.Input{game.Forward}}
	add("relay one", AppendRelay(nil, one, 1))
	data := make([]byte, 2*FragmentBytes+10)
	for i := range data {
		data[i] = byte(i * 7)
	}
	add("fragment first", AppendFragment(nil, 77, data, 0))
	add("fragment last", AppendFragment(nil, 77, data, 2))
	add("fragment only", AppendFragment(nil, 0, data[:1], 0))
	add("have", AppendHave(nil, &Have{Tick: 77, Count: 3, Got: []byte{5}}))
	add("have full", AppendHave(nil, &Have{Tick: 1, Count: 16, Got: []byte{0xff, 0xff}}))
	add("repair hashes", AppendRepairHashes(nil, &RepairHashes{Tick: 9, Size: 8, Bodies: 20, Whole: 0xfeed, Hashes: []uint64{1, 2, 3}}))
	hashes := make([]uint64, MaxBuckets)
	for i := range hashes {
		hashes[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	add("repair hashes most", AppendRepairHashes(nil, &RepairHashes{Tick: math.MaxUint32, Size: 100, Bodies: 12800, Whole: 1, Hashes: hashes}))
	add("repair want", AppendRepairWant(nil, &RepairWant{Tick: 9, Count: 3, Mask: []byte{2}}))
	add("repair want all", AppendRepairWant(nil, &RepairWant{Tick: 9, All: true}))
	add("repair want most", AppendRepairWant(nil, &RepairWant{Tick: 1, Count: MaxBuckets, Mask: bytes.Repeat([]byte{0xa5}, MaxBuckets/8)}))
	return out
}

// decodeAs decodes b with the decoder of kind, into fresh destinations.
func decodeAs(kind byte, b []byte) error {
	switch kind {
	case KindHello:
		var m Hello
		return DecodeHello(b, &m)
	case KindWelcome:
		var m Welcome
		return DecodeWelcome(b, &m)
	case KindInput:
		var m Input
		return DecodeInput(b, &m)
	case KindSnapshot:
		var m Snapshot
		return DecodeSnapshot(b, &m, corpusBase)
	case KindRelay:
		var m Relay
		return DecodeRelay(b, &m)
	case KindFragment:
		var m Fragment
		return DecodeFragment(b, &m)
	case KindHave:
		var m Have
		return DecodeHave(b, &m)
	case KindRepairHashes:
		var m RepairHashes
		return DecodeRepairHashes(b, &m)
	case KindRepairWant:
		var m RepairWant
		return DecodeRepairWant(b, &m)
	}
	panic("no such kind")
}

// allKinds lists the message kinds.
var allKinds = []byte{KindHello, KindWelcome, KindInput, KindSnapshot, KindRelay, KindFragment, KindHave, KindRepairHashes, KindRepairWant}
