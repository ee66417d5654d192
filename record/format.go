package record

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// Magic opens every record file.
const Magic = "CUBEREC\x00"

// Version is the newest format version this package writes and reads:
// a record with stage hashes (Header.Stages). One without them is written
// as version 3, which differs only in having no stage hashes, so that a
// program that reads version 3 reads it; this package reads both. Version
// 2 differs only in the slot that now holds the engine revision; its
// records were made by engine revision 0 and are refused with ErrEngine.
const Version = 4

// versionNoStages is the version of a record without stage hashes.
const versionNoStages = 3

// Limits of the format. A reader refuses anything larger before allocating.
const (
	MaxChunkLen      = 1 << 20 // payload bytes of one chunk
	MaxMeta          = 4 << 10 // bytes of Header.Meta
	MaxEventsPerTick = 255     // server-only events before one tick
	MaxContacts      = 1 << 16 // contacts in a stored state
	MaxSkip          = 1 << 31 // a skip jumps fewer ticks than this (wrap-safe order)
	MaxStages        = 1 << 14 // stage hashes of one tick

	// ChunkSteps is the number of steps after which the writer ends a chunk
	// on its own.
	ChunkSteps = 64
	// DefaultFullEvery is used when Header.FullEvery is 0.
	DefaultFullEvery = 64
	// DefaultMaxBytes is the size limit Read uses when given maxBytes <= 0:
	// about 15 hours of a session at 64 Hz with a full state every 64 ticks.
	DefaultMaxBytes = 64 << 20
)

// Chunk types.
const (
	chunkHeader byte = 'H'
	chunkSteps  byte = 'S'
	chunkEnd    byte = 'E'
)

// Frame sizes: type, length and head check before the payload, CRC after.
const (
	frameHead = 1 + 4 + 4
	frameTail = 4
	preamble  = len(Magic) + 4 // magic and version
)

// Step entry kinds and flags (the first byte of an entry in a steps chunk).
const (
	entryTick  = 0x01
	entrySkip  = 0x02
	flagEvents = 0x10 // a tick entry carries events
	flagFull   = 0x20 // a tick entry carries the full state after it
	flagStages = 0x40 // a tick entry carries its step's stage hashes (version 4)

	tickEntryFixed = 1 + 8 // kind and hash; one input byte per player comes between them
	skipEntryLen   = 1 + 4 // kind, to
	minEntryLen    = skipEntryLen
	eventHead      = 1 + 1                                     // kind, player
	nudgeLen       = 3 * 8                                     // a nudge's impulse
	stepsHeadLen   = 4 + 4 + 2                                 // start tick, end tick, step count
	stagesHead     = 2 + 8                                     // stage hashes: count, path
	endPayloadLen  = 8 + 8 + 4                                 // steps, simulated ticks, end tick
	engineOffset   = 4*8 + 4 + 3*8                             // the engine revision in the header's payload: after Dt, gravity, Iterations, GroundFriction, Margin and Slop
	configLen      = 14*8 + 4*4                                // physics.Config: thirteen float64 (gravity is three) and the engine revision (uint64), four uint32
	headerFixed    = configLen + 4 + 1 + 1 + 4 + 1 + 4 + 8 + 2 // config, full_every, scene (with an empty name), meta length
)

// Errors wrapped by Read, Replay and the Writer; test with errors.Is.
var (
	// ErrNotRecord: the input does not start with Magic.
	ErrNotRecord = errors.New("not a record")
	// ErrVersion: the record has a version this package does not read.
	ErrVersion = errors.New("unsupported version")
	// ErrShort: the input ends before its header is complete.
	ErrShort = errors.New("cut short before the header is complete")
	// ErrChecksum: a chunk's bytes do not match their CRC.
	ErrChecksum = errors.New("checksum mismatch")
	// ErrMalformed: a chunk passed its CRC but its content breaks the format.
	ErrMalformed = errors.New("malformed")
	// ErrTooLarge: the input is larger than the limit given to Read.
	ErrTooLarge = errors.New("too large")
	// ErrEngine: the record was made by another engine revision
	// (physics.EngineRevision), whose steps give other bits: replaying it
	// would only report that change as a divergence.
	ErrEngine = errors.New("made by engine revision")
)

// crcTable is the IEEE polynomial table used by every check.
var crcTable = crc32.IEEETable

// le is the byte order of every integer in the format.
var le = binary.LittleEndian

// beginChunk appends a frame head placeholder for a chunk of type typ and
// returns b and the offset of the frame.
func beginChunk(b []byte, typ byte) ([]byte, int) {
	off := len(b)
	b = append(b, typ, 0, 0, 0, 0, 0, 0, 0, 0)
	return b, off
}

// endChunk fills in the frame head of the chunk that starts at off and
// appends its CRC.
func endChunk(b []byte, off int) []byte {
	n := len(b) - off - frameHead
	le.PutUint32(b[off+1:], uint32(n))
	le.PutUint32(b[off+5:], crc32.Checksum(b[off:off+5], crcTable))
	c := crc32.Update(crc32.Checksum(b[off:off+5], crcTable), crcTable, b[off+frameHead:])
	return le.AppendUint32(b, c)
}

// payloadCRC is the CRC a chunk ends with: over its type, length and payload.
func payloadCRC(head, payload []byte) uint32 {
	return crc32.Update(crc32.Checksum(head[:5], crcTable), crcTable, payload)
}

// appendConfig appends the fields of a physics.Config but Workers, with
// the engine revision of this build after Slop.
func appendConfig(b []byte, c *physics.Config) []byte {
	f := func(x float64) { b = le.AppendUint64(b, math.Float64bits(x)) }
	f(c.Dt)
	f(c.Gravity.X)
	f(c.Gravity.Y)
	f(c.Gravity.Z)
	b = le.AppendUint32(b, uint32(c.Iterations))
	f(c.GroundFriction)
	f(c.Margin)
	f(c.Slop)
	b = le.AppendUint64(b, physics.EngineRevision)
	f(c.RestitutionSpeed)
	f(c.AngularDamping)
	b = le.AppendUint32(b, uint32(c.MaxBodies))
	f(c.ContactHertz)
	f(c.ContactDamping)
	f(c.MaxPushSpeed)
	noSleep := uint32(0)
	if c.NoSleep {
		noSleep = 1
	}
	b = le.AppendUint32(b, noSleep)
	f(c.SleepSpeed)
	return le.AppendUint32(b, uint32(c.SleepTicks))
}

// decodeConfig reads what appendConfig wrote, and the engine revision; p
// holds at least configLen bytes.
func decodeConfig(p []byte) (physics.Config, uint64) {
	f := func() float64 {
		x := math.Float64frombits(le.Uint64(p))
		p = p[8:]
		return x
	}
	u := func() int {
		x := le.Uint32(p)
		p = p[4:]
		return int(x)
	}
	var c physics.Config
	c.Dt = f()
	c.Gravity = physics.Vec3{X: f(), Y: f(), Z: f()}
	c.Iterations = u()
	c.GroundFriction = f()
	c.Margin = f()
	c.Slop = f()
	engine := le.Uint64(p)
	p = p[8:]
	c.RestitutionSpeed = f()
	c.AngularDamping = f()
	c.MaxBodies = u()
	c.ContactHertz = f()
	c.ContactDamping = f()
	c.MaxPushSpeed = f()
	c.NoSleep = u() != 0
	c.SleepSpeed = f()
	c.SleepTicks = u()
	return c, engine
}

// appendHeader appends the payload of the header chunk.
func appendHeader(b []byte, h *Header) []byte {
	b = appendConfig(b, &h.Physics)
	b = le.AppendUint32(b, h.FullEvery)
	b = append(b, byte(len(h.Scene.Name)))
	b = append(b, h.Scene.Name...)
	b = append(b, byte(h.Scene.Players))
	b = le.AppendUint32(b, uint32(h.Scene.Bodies))
	q := byte(0)
	if h.Scene.Quantize {
		q = 1
	}
	b = append(b, q)
	b = le.AppendUint32(b, uint32(h.Scene.Rule))
	b = le.AppendUint64(b, h.Scene.Hash)
	b = le.AppendUint16(b, uint16(len(h.Meta)))
	b = append(b, h.Meta...)
	return physics.AppendState(b, &h.Initial)
}

// decodeHeader reads the payload of the header chunk into h and checks it.
func decodeHeader(p []byte, h *Header) error {
	if len(p) < headerFixed {
		return fmt.Errorf("%d bytes, want at least %d", len(p), headerFixed)
	}
	h.Physics, h.Engine = decodeConfig(p)
	if h.Engine != physics.EngineRevision {
		return engineError(h.Engine)
	}
	if _, err := physics.New(h.Physics); err != nil {
		return fmt.Errorf("physics config: %w", err)
	}
	p = p[configLen:]
	h.FullEvery = le.Uint32(p)
	if h.FullEvery == 0 {
		return errors.New("full state interval is 0")
	}
	p = p[4:]
	name := int(p[0])
	if name == 0 || name > game.MaxSceneName || len(p) < headerFixed-configLen-4+name {
		return fmt.Errorf("scene name of %d bytes (1 to %d, %d left)", name, game.MaxSceneName, len(p)-1)
	}
	sc := &h.Scene
	sc.Name = string(p[1 : 1+name])
	p = p[1+name:]
	sc.Players, sc.Bodies = int(p[0]), int(le.Uint32(p[1:]))
	if p[5] > 1 {
		return fmt.Errorf("quantize flag %d", p[5])
	}
	sc.Quantize, sc.Rule = p[5] == 1, int(le.Uint32(p[6:]))
	sc.Hash = le.Uint64(p[10:])
	if sc.Players < 1 || sc.Players > game.MaxPlayers {
		return fmt.Errorf("%d players (1 to %d)", sc.Players, game.MaxPlayers)
	}
	n := int(le.Uint16(p[18:]))
	p = p[20:]
	if n > MaxMeta || n > len(p) {
		return fmt.Errorf("meta of %d bytes (at most %d, %d left)", n, MaxMeta, len(p))
	}
	h.Meta = string(p[:n])
	p = p[n:]
	k, err := physics.DecodeState(p, &h.Initial, maxBodies(&h.Physics), MaxContacts)
	if err != nil {
		return fmt.Errorf("initial state: %w", err)
	}
	if k != len(p) {
		return fmt.Errorf("%d bytes after the initial state", len(p)-k)
	}
	return nil
}

// eventLen returns the length of an event entry of kind k after its head,
// or -1 for a kind the format does not know.
func eventLen(k game.EventKind) int {
	switch k {
	case game.Nudge:
		return nudgeLen
	case game.Join, game.Leave:
		return 0
	}
	return -1
}

// maxBodies bounds the bodies of a stored state.
func maxBodies(c *physics.Config) int { return min(c.MaxBodies, 1<<16) }

// tickRange formats the ticks [start, end) a chunk covers.
func tickRange(start, end uint32) string {
	if end-start == 1 {
		return fmt.Sprintf("tick %d", start)
	}
	return fmt.Sprintf("ticks %d-%d", start, end-1)
}

// Header is what a record starts with: everything needed to rebuild the
// server's world before its first recorded tick. The tick rate is the
// configuration's step, Physics.Dt.
type Header struct {
	Engine    uint64         // the engine revision that made the record (physics.EngineRevision); the writer sets it
	Physics   physics.Config // the scene is built with it; zero means physics.DefaultConfig()
	Scene     game.Identity  // the scene the server built: replay refuses a record for a scene it cannot build alike
	FullEvery uint32         // a full state is stored every FullEvery simulated ticks; 0 means DefaultFullEvery
	Meta      string         // free text, e.g. JSON of the session flags; at most MaxMeta bytes
	Initial   physics.State  // the world state before the first recorded tick
	// Stages: the ticks may carry their step's stage hashes
	// (physics.World.HashStages, Writer.Stages); the record is then of
	// version 4. Not stored in the header: the version says it.
	Stages bool
}

// engineError is the error of a record made by engine revision rev.
func engineError(rev uint64) error {
	return fmt.Errorf("record: %w %d; this build runs revision %d", ErrEngine, rev, physics.EngineRevision)
}
