// Package record writes and reads session records, and replays them, for
// determinism debugging.
//
// The authoritative server writes, as it runs, everything needed to
// re-simulate its world on another machine: the physics configuration (whose
// step Dt is the tick rate), the scene's identity, the initial state, and
// for every tick the server-only events, every player's input and the hash
// of the state after the step, with a full state every FullEvery simulated
// ticks. Replay builds the scene with game.Build from the identity's name
// and options, refuses the record (ErrScene) unless the identity it gets is
// the recorded one (same rule version, same layout and initial state), and
// composes each step exactly as the server did:
//
//	simulated tick t: scene.ApplyEvent(w, e) for each event, in order;
//	                  scene.Step(w, inputs) (each player's input, then
//	                  w.Step()); then w.Hash() must equal the recorded hash
//	                  (the state after the step is labelled t+1)
//	skip from t to u: w.SkipTo(u), nothing simulated
//
// The first tick whose hash differs is therefore exact; the field diff is
// taken against the first full state stored at or after it.
//
// # Format, version 4 (and 3)
//
// All integers are little endian; float64 values are stored as their IEEE
// 754 bit patterns (uint64), so a record carries the exact bits.
//
//	file     = magic version chunk* ; a complete file ends with an end chunk
//	magic    = "CUBEREC\x00"                        8 bytes
//	version  = uint32                               4 with stage hashes, else 3
//	chunk    = type:uint8 length:uint32 headcrc:uint32 payload[length] crc:uint32
//
// headcrc is the CRC-32 (IEEE) of type and length, so that a damaged length
// is caught before it is used; crc is the CRC-32 (IEEE) of type, length and
// payload. A payload is at most MaxChunkLen (1 MiB) bytes. Chunks are
// numbered from 0, the header.
//
// Chunk 0, type 'H', the header:
//
//	physics.Config  Dt, Gravity.X, .Y, .Z: float64; Iterations: uint32;
//	                GroundFriction, Margin, Slop: float64;
//	                engine: uint64 (physics.EngineRevision: a record of
//	                another revision is refused with ErrEngine, as is one
//	                of version 2, made before revisions); RestitutionSpeed, AngularDamping: float64; MaxBodies: uint32;
//	                ContactHertz, ContactDamping, MaxPushSpeed: float64;
//	                NoSleep: uint32 (0 or 1); SleepSpeed: float64;
//	                SleepTicks: uint32
//	full_every      uint32, >= 1
//	scene           name_len: uint8 (1 to 32), name; players: uint8 (1 to 8);
//	                bodies: uint32 (drop's option, else 0); quantize: uint8
//	                (0 or 1); rule: uint32 (game.RuleVersion); identity:
//	                uint64 (game.Identity.Hash)
//	meta_len        uint16, <= 4096, then meta_len bytes of Meta
//	initial         a state (below), to the end of the payload
//
// Chunks 1 to n-1, type 'S', steps:
//
//	start   uint32   the world's tick before the chunk's first step; equal to
//	                 the previous chunk's end (the initial tick for chunk 1)
//	end     uint32   the world's tick after its last step
//	count   uint16   number of steps, >= 1
//	steps   count entries, filling the payload exactly:
//
//	tick    kind:uint8 = 0x01 | 0x10 (events) | 0x20 (full state)
//	                | 0x40 (stage hashes; version 4 only)
//	        inputs: one uint8 per player (bits 0-5: W A S D jump pull;
//	                bits 6-7 zero)
//	        hash:uint64 (physics.State.Hash of the state after the step)
//	        if 0x10: count:uint8 (1-255), then count events in the order
//	                 applied, each kind:uint8, player:uint8 (< players),
//	                 then for a nudge (kind 1) its impulse as three finite
//	                 float64 (x, y, z); a join (2) or a leave (3) has
//	                 nothing more
//	        if 0x40: count:uint16 (1 to MaxStages, 16384), path:uint64
//	                 (physics.StageHashes.Path), then count hashes, uint64:
//	                 the step's stage hashes (physics.World.HashStages)
//	        if 0x20: the state after the step (below), labelled tick+1,
//	                 whose hash must equal hash
//	skip    kind:uint8 = 0x02, to:uint32; to - tick, as uint32, is in
//	        [1, 2^31) so that ticks may wrap around 2^32
//
// The tick of each step is implicit: start for the first, then one more
// after a tick and to after a skip. A writer ends a chunk after ChunkSteps
// (64) steps, on Flush, or before an entry that would pass the size limit.
//
// Chunk n, type 'E', the end marker, last in the file:
//
//	steps   uint64   steps in the whole record
//	ticks   uint64   simulated ticks among them
//	end     uint32   the world's tick after the last step
//	final   optional: the state after the last step, when that step is a
//	        tick that did not store it, to the end of the payload
//
// A state is physics.AppendState's encoding: tick:uint32, bodies:uint32,
// per body 19 float64 (pos, rot w x y z, vel, angvel, force, torque) and
// rest, flags: uint32; contacts:uint32, per contact a, b, feature:uint32
// and pn, pt1, pt2: float64. A reader accepts at most min(MaxBodies, 65536) bodies and
// MaxContacts contacts, and exactly as many bodies as the initial state.
//
// # Damage
//
// Every byte is checked: the magic and the version by value, everything
// else by a CRC. A file cut short (a crash) reads as Truncated with every
// complete chunk; a file cut before its header is complete, or damaged
// anywhere, gives an error naming the header or the chunk number and the
// ticks it covers when they are known, for example
// "record: chunk 12 (ticks 704-767): checksum mismatch".
package record
