package viewer

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/record"
)

// The record's framing, from record/doc.go: written here from the
// documented format, not taken from the package, so that the fuzzer also
// checks the document.
const (
	preambleLen = 12 // magic and version
	frameHead   = 9  // type, length, CRC of both
	kindTick    = 0x01
	kindSkip    = 0x02
	withEvents  = 0x10
	withFull    = 0x20
)

// chunk appends a chunk of type typ holding payload, with both CRCs right.
func chunk(b []byte, typ byte, payload []byte) []byte {
	head := binary.LittleEndian.AppendUint32([]byte{typ}, uint32(len(payload)))
	b = append(b, head...)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(head))
	b = append(b, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32.Update(crc32.ChecksumIEEE(head), crc32.IEEETable, payload))
}

// ops reads the fuzzer's bytes as the structure of a record, and a zero
// once they run out.
type ops struct{ b []byte }

func (o *ops) byte() byte {
	if len(o.b) == 0 {
		return 0
	}
	c := o.b[0]
	o.b = o.b[1:]
	return c
}

func (o *ops) u32() uint32 {
	return uint32(o.byte()) | uint32(o.byte())<<8 | uint32(o.byte())<<16 | uint32(o.byte())<<24
}

// f64 is a value a record could hold, or an absurd one: zero, a small
// number, a large one, infinities and NaN.
func (o *ops) f64() float64 {
	switch k := o.byte(); k % 8 {
	case 0:
		return 0
	case 1:
		return float64(int8(o.byte())) / 8
	case 2:
		return 1e300
	case 3:
		return math.Inf(1)
	case 4:
		return math.NaN()
	case 5:
		return -float64(o.u32())
	default:
		return math.Float64frombits(uint64(o.u32())<<32 | uint64(o.u32()))
	}
}

// buildFuzzed writes a record of the arena from the fuzzer's structure: the
// header the writer makes (its bytes changed where the fuzzer says, CRC
// made again), then steps chunks of ticks (inputs, events, full states
// that hash right, values changed where the fuzzer says), skips and
// chunk ends whose start, end and count fields are right unless the
// fuzzer changes them, and an end marker that agrees or not.
func buildFuzzed(t testing.TB, seed []byte) []byte {
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	h := record.Header{Physics: physics.DefaultConfig(), Scene: sc.ID, FullEvery: 16}
	w.Save(&h.Initial)
	var head bytes.Buffer
	if _, err := record.NewWriter(&head, h); err != nil {
		t.Fatal(err)
	}
	o := &ops{b: seed}
	out := head.Bytes()[:preambleLen]
	hp := bytes.Clone(head.Bytes()[preambleLen+frameHead : head.Len()-4])
	first := o.byte()
	for n := first % 4; n > 0; n-- { // change up to 3 bytes of the header
		hp[int(o.u32())%len(hp)] = o.byte()
	}
	out = chunk(out, 'H', hp)

	players := len(sc.Players)
	tick, steps, ticks := h.Initial.Tick, uint64(0), uint64(0)
	var p []byte // the open steps chunk's payload
	start, count := tick, 0
	flush := func() {
		if count == 0 {
			return
		}
		pre := binary.LittleEndian.AppendUint32(nil, start)
		pre = binary.LittleEndian.AppendUint32(pre, tick)
		pre = binary.LittleEndian.AppendUint16(pre, uint16(count))
		if o.byte() == 0xff { // a wrong field in the chunk's head
			pre[o.byte()%10] ^= 1 << (o.byte() % 8)
		}
		out = chunk(out, 'S', append(pre, p...))
		p, start, count = p[:0], tick, 0
	}
	var st physics.State
	var ins []game.Input
	// At most 1,024 ticks, each simulated here, in the replay and in the
	// viewer, so that an input costs the fuzzer under a second.
	for len(o.b) > 0 && len(out)+len(p) < 1<<20 && ticks < 1024 && steps < 1<<16 {
		switch o.byte() % 4 {
		case 0, 1: // a tick, simulated so that its hash is right
			flags := o.byte()
			p = append(p, kindTick|flags&(withEvents|withFull))
			ins = ins[:0]
			for range players {
				ins = append(ins, game.Input(o.byte()&0x3f))
				p = append(p, byte(ins[len(ins)-1]))
			}
			hashAt := len(p)
			p = binary.LittleEndian.AppendUint64(p, 0)
			if flags&withEvents != 0 {
				n := 1 + o.byte()%3
				p = append(p, n)
				for range n {
					e := game.Event{Kind: game.EventKind(1 + o.byte()%3), Player: o.byte() % uint8(players+1)}
					p = append(p, byte(e.Kind), e.Player)
					if e.Kind == game.Nudge {
						e.Impulse = physics.Vec3{X: o.f64(), Y: o.f64(), Z: o.f64()}
						p = binary.LittleEndian.AppendUint64(p, math.Float64bits(e.Impulse.X))
						p = binary.LittleEndian.AppendUint64(p, math.Float64bits(e.Impulse.Y))
						p = binary.LittleEndian.AppendUint64(p, math.Float64bits(e.Impulse.Z))
					}
					_ = sc.ApplyEvent(w, e) // one the replay refuses is refused there
				}
			}
			_ = sc.Step(w, ins)
			hash := w.Hash()
			if flags&0x80 != 0 { // a hash the replay will not find
				hash = uint64(o.u32())
			}
			if flags&withFull != 0 {
				w.Save(&st)
				if len(st.Bodies) > 0 && flags&0x40 != 0 { // a state the engine would not give
					b := &st.Bodies[int(o.byte())%len(st.Bodies)]
					b.Pos.Y, b.Vel.X, b.Force.Z = o.f64(), o.f64(), o.f64()
				}
				hash = st.Hash()
				p = physics.AppendState(p, &st)
			}
			binary.LittleEndian.PutUint64(p[hashAt:], hash)
			tick++
			ticks++
		case 2: // a skip
			to := tick + 1 + o.u32()%1000
			if o.byte() == 0xff {
				to = tick + o.u32() // backwards, or none at all
			}
			p = append(p, kindSkip)
			p = binary.LittleEndian.AppendUint32(p, to)
			w.SkipTo(to)
			tick = to
		case 3:
			flush()
			continue
		}
		steps++
		count++
		if count == 1<<16-1 {
			flush()
		}
	}
	flush()
	if first&0x10 == 0 { // else cut short
		e := binary.LittleEndian.AppendUint64(nil, steps)
		e = binary.LittleEndian.AppendUint64(e, ticks)
		e = binary.LittleEndian.AppendUint32(e, tick)
		out = chunk(out, 'E', e)
	}
	return out
}

// fuzzSeeds are structures of records (see buildFuzzed): a first byte
// (header bytes to change, bit 4: no end marker), then operations: 0 or
// 1 a tick (flags: 0x10 events, 0x20 a full state, 0x40 a changed one,
// 0x80 a wrong hash; an input a player; the events; the changes), 2 a
// skip, 3 the end of a chunk.
var fuzzSeeds = [][]byte{
	{},
	{0, 0, 0x20, 1, 2, 0, 0, 3, 4, 0, 0x20, 5, 6, 3, 0},                  // ticks and full states
	{0, 0, 0x10, 0, 0, 0, 0, 0, 1, 8, 1, 16, 1, 0xf8, 0, 0, 1, 1},        // a nudge
	{0, 0, 0x10, 0, 0, 1, 1, 1, 2, 0, 0, 0, 2, 2},                        // a join and a leave
	{0, 2, 5, 0, 0, 0, 0, 0, 0x20, 1, 1, 2, 200, 0, 0, 0, 0, 0, 0, 0, 0}, // skips
	{0x10, 0, 0x20, 1, 2, 3, 0, 0, 3, 4},                                 // cut short
	{0, 0, 0x80, 1, 2, 9, 9, 9, 9, 0, 0, 1, 1},                           // a wrong hash
	{0, 0, 0x60, 1, 1, 0, 4, 2, 3},                                       // a full state of NaN, 1e300, +Inf
	{0, 0, 0x10, 0, 0, 0, 0, 0, 2, 2, 2},                                 // a nudge of 1e300
	{1, 7, 0, 0, 0, 0xff, 0, 0, 0, 0},                                    // a damaged header
	{0, 0, 0, 1, 1, 3, 0xff, 4, 0},                                       // a wrong chunk head
	{0, 2, 0, 0, 0, 0, 0xff, 0, 0, 0, 0x80},                              // a skip backwards
	append([]byte{0}, bytes.Repeat([]byte{2, 9, 0, 0, 0, 0}, 2000)...),   // skips only: the reader's worst case
	append([]byte{0}, bytes.Repeat([]byte{0, 0x20, 1, 2}, 100)...),       // a full state every tick
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// FuzzRecordStructure builds records whose checksums are right from a
// fuzzed structure and reads each, replays it and loads it as the viewer
// does, seeking to its end: no panic, a refusal is an error that says
// whose it is, and reading allocates at most record.MaxAllocPerByte
// bytes per byte of the record beyond a fixed cost; the replay and the
// viewer, at most a fixed cost beyond that.
func FuzzRecordStructure(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed []byte) {
		data := buildFuzzed(t, seed)
		// Read's fixed cost: its buffered reader, one chunk and its CRC,
		// the header.
		const readFixed = 4096 + 1<<20 + 4 + 64<<10
		var rec *record.Record
		var err error
		alloc := allocated(func() { rec, err = record.Read(bytes.NewReader(data), 1<<30) })
		if alloc > readFixed+record.MaxAllocPerByte*uint64(len(data)) {
			t.Fatalf("reading %d bytes allocated %d, more than %d a byte beyond %d", len(data), alloc, record.MaxAllocPerByte, readFixed)
		}
		if err != nil {
			if rec != nil || !strings.HasPrefix(err.Error(), "record: ") {
				t.Fatalf("a read error %q, record %v", err, rec != nil)
			}
			return
		}
		// The replay's and the viewer's fixed cost: their worlds, the
		// viewer's cache of up to maxCache states and its keyframe lists.
		state := uint64(rec.Header.Initial.EncodedSize())
		fixed := 1<<20 + (maxCache+8)*2*state
		alloc = allocated(func() {
			if _, err := record.Replay(rec); err != nil && !strings.HasPrefix(err.Error(), "record: ") {
				t.Fatalf("a replay error without its context: %v", err)
			}
		})
		if alloc > fixed+uint64(len(data)) {
			t.Fatalf("replaying %d bytes allocated %d, more than a byte a byte beyond %d", len(data), alloc, fixed)
		}
		alloc = allocated(func() {
			s, err := New(rec)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "viewer: ") {
					t.Fatalf("a viewer error without its context: %v", err)
				}
				return
			}
			if err := s.Seek(s.Len()); err != nil && !strings.HasPrefix(err.Error(), "viewer: ") {
				t.Fatalf("a seek error without its context: %v", err)
			}
		})
		if alloc > fixed+uint64(len(data)) {
			t.Fatalf("loading %d bytes in the viewer allocated %d, more than a byte a byte beyond %d", len(data), alloc, fixed)
		}
	})
}

// TestRecordFuzzSeedsReachEveryPart: the seeds give records the reader
// refuses in the header and in the steps, one cut short, replays that
// match, one that diverges and one the replay refuses, and records the
// viewer loads and one it refuses, so that the fuzzer starts from every
// outcome.
func TestRecordFuzzSeedsReachEveryPart(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range fuzzSeeds {
		rec, err := record.Read(bytes.NewReader(buildFuzzed(t, s)), 1<<30)
		switch {
		case err != nil && strings.Contains(err.Error(), "header"):
			seen["header refused"] = true
			continue
		case err != nil:
			seen["steps refused"] = true
			continue
		case rec.Truncated:
			seen["cut short"] = true
		}
		res, err := record.Replay(rec)
		switch {
		case err != nil:
			seen["replay refused"] = true
		case res.Divergence != nil:
			seen["diverges"] = true
		case res.Ticks > 0:
			seen["replays"] = true
		}
		if _, err := New(rec); err != nil {
			seen["viewer refused"] = true
		} else {
			seen["viewer loads"] = true
		}
	}
	for _, want := range []string{"header refused", "steps refused", "cut short", "replay refused", "diverges", "replays", "viewer refused", "viewer loads"} {
		if !seen[want] {
			t.Errorf("no seed gives a record that is %s", want)
		}
	}
}
