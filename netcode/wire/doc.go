// Package wire is the byte layout of every message between a cube client
// and a cube server: one place, versioned, with encoders that append to the
// caller's slice and decoders that check every length before reading,
// never panic and do not allocate once the destination is sized. A
// message's type, its encoder AppendX and its decoder DecodeX sit together
// in the file of its exchange (input.go: Input, AppendInput, DecodeInput;
// hello.go: Hello and Welcome).
//
// # Common rules
//
// Every message is one datagram of at most MaxMessage (1200) bytes and
// starts with a kind byte and the version byte (Version). Integers are
// little endian; uvarint is encoding/binary's unsigned varint in its
// shortest form (at most 5 bytes here: values above 2³²-1 and overlong
// encodings such as 0x80 0x00 are refused), zigzag a signed value mapped
// to a uvarint. Ticks are uint32 and wrap (compare with tick.After, in
// netcode/tick).
// Inputs are six bits (game.Input: W A S D jump pull).
//
// Input runs (in Input and Relay): the inputs of consecutive ticks as runs
// of equal inputs. A run is one byte: the low six bits are the input, the
// high two bits n give the length n+1 for n < 3; n = 3 is followed by a
// uvarint e and the length is 4+e. The lengths add up to the count
// exactly, and two runs in a row have different inputs (one encoding per
// message: a decoder refuses two runs of the same input).
//
// Ack masks (in Input and Snapshot, each behind a flag, sent only when not
// zero): a set of snapshot views before a tick base, bit i naming the view
// of tick base-1-i (64 ticks at most, protocol.MaskBits), as a byte n (1
// to 8) then the mask's n low bytes, little endian, the top one not zero.
//
// # Hello (kind 1), client to server: asking to join
//
//	nonce uint64        echoed by Welcome, so that a stale Welcome is ignored
//	echo  uint32        the client's clock in ms, echoed by Welcome: a round
//	                    trip measured before the first tick
//	mode  uint8         0 state sync, 1 input sync
//	scene               name_len uint8 (1-32), name, players uint8,
//	                    bodies uint32, quantize uint8 (0 or 1), rule uint32,
//	                    identity uint64 (game.Identity)
//
// # Welcome (kind 2), server to client
//
//	nonce  uint64       the Hello's
//	echo   uint32       the Hello's
//	result uint8        0 accepted; 1 another scene; 2 another mode;
//	                    3 the server is full; 4 another protocol version
//	player uint8        the client's player number (its cube)
//	tick   uint32       the server's tick: the client starts predicting from
//	                    its world at this tick, which it has if the server's
//	                    world is still the scene's initial state at this tick
//	                    (flag bit 0 clear), or receives by a transfer
//	flags  uint8        bit 0: a transfer of the state at tick follows
//	                    bit 1: what the server runs follows (a refusal
//	                    only, when the Welcome stays no larger than the
//	                    Hello it answers):
//	mode   uint8        0 state sync, 1 input sync
//	scene               name_len uint8 (1-32), name, players uint8,
//	                    bodies uint32, quantize uint8 (a Hello's scene
//	                    without its rule and identity)
//
// # Input (kind 3), client to server, every tick
//
//	player uint8
//	flags  uint8        bit 0: ack is valid; bit 1: the client's state at
//	                    ack is the server's, bit for bit; bit 2: the client
//	                    asks for a transfer (its state cannot be repaired
//	                    otherwise); bit 3: held follows
//	first  uint32       tick of the first input
//	count  uint16       1 to 1024
//	ack    uvarint      first minus the tick of the newest server message
//	                    (snapshot, relay or transfer) the client has taken
//	base   uvarint      ack minus the tick of the newest snapshot view the
//	                    client holds (state sync; else 0)
//	held   (bit 3) mask the views before base the client holds whose
//	                    snapshots carried a body in a state newer than
//	                    base's view has (state sync): those a baseline
//	                    can take bodies from
//	runs                count inputs, for ticks first..first+count-1
//
// # Snapshot (kind 4), server to client, state sync
//
//	tick    uint32      the state after the server applied tick-1's inputs
//	base    uvarint     tick minus the baseline (mod 2^32): a tick whose
//	                    view (below) both ends hold, the newest the client
//	                    acknowledged
//	flags   uint8       bit 0: complete (every body whose state differs from
//	                    the reference is here); bit 1: quantized body
//	                    encoding; bit 2: contacts follow; bit 3: the
//	                    contacts of every island of the bodies here follow;
//	                    bit 4: all equals chain and is left out (one
//	                    player); it must be set when they are equal;
//	                    bit 5: acks follows
//	acks    (bit 5) mask  the views before base, among those the client
//	                    said it holds, whose bodies the reference takes
//	hash    uint64      physics.State.Hash of the server's world at tick
//	chain   uint64      digest of the inputs the server applied for this
//	                    client's cube (protocol.FoldInput, from
//	                    protocol.ChainStart)
//	all     uint64      (without bit 4) digest of every player's inputs,
//	                    player by player each tick (protocol.FoldAll,
//	                    from protocol.ChainStart)
//	events  uvarint     server-only events so far
//	skipped uvarint     ticks the server skipped so far
//	heard   zigzag      heard minus tick (mod 2^32), where heard is tick
//	                    plus the client's input buffer: how many ticks ahead
//	                    of the server's next tick the newest input of the
//	                    client's newest message was when it arrived
//	input   zigzag      that newest input's tick minus tick (mod 2^32): which
//	                    message heard speaks of
//	bodies  uint16 count, then per body: gap uvarint (the body index minus
//	        the previous one's minus one; for the first, the index), then
//	        its words (below)
//	contacts (bit 2) uint16 count, then per contact: a uvarint, b+1 uvarint
//	        (0: the ground), feature uvarint, then its float64 words raw
//
// A view is what the client holds of the server's dynamic bodies: the
// session's first view is the world it starts from; the view of a snapshot
// is its reference with the bodies it carries replaced. The reference is
// the baseline's view, then the bodies the snapshots of the views acks
// names carried, each where its state comes from a newer snapshot than the
// one the reference holds: the bodies of all those snapshots applied in
// tick order. So a body is known to the client once any snapshot it
// acknowledged carried it, even while the snapshots sent since, encoded
// against an older baseline, are on their way. The server keeps the same
// views, so a delta against a reference means the same at both ends
// (protocol.Views keeps them and makes references; this package only
// reads the reference's bodies it is given). A client refuses a snapshot
// whose acks name a view it does not hold (protocol.RejectTick), and asks
// for a transfer when that goes on. Bodies missing from a snapshot that is
// not complete may have changed: the client keeps its own prediction of
// them.
//
// Body words, full precision: for each of the physics.BodyWordCount words,
// x = word XOR the baseline's word, and n = the number of bytes up to and
// including x's highest non-zero byte (0 for an unchanged word; a top byte
// of 0 is refused). The words form seven groups: position (words 0-2),
// rotation (3-6), velocity (7-9), angular velocity (10-12), force (13-15),
// torque (16-18), rest count and flags (19-20). First a byte with bit g set
// when group g holds a word with n > 0 (and clear otherwise), then the n of
// every word of the groups set, as nibbles two a byte (low first, a last
// odd one padded with 0), then each of those words' n low bytes of x.
// Quantized (every body and its baseline on the game.Quantize
// grid, bit for bit: -0 is not on it, and a decoder refuses a body whose
// baseline is off it): position, velocity and angular velocity as zigzag
// deltas of grid units against the baseline's; the rotation as a byte
// (bits 0-1: the largest component's index; bit 2: the three follow as
// zigzag deltas against the baseline's code, else as zigzag values) and
// three zigzag varints (smallest three); then the words from force.x on as
// in full precision, with the groups of force, torque and rest only (bits
// 0-3 of the group byte clear).
//
// # Relay (kind 5), server to client, input sync
//
//	first   uint32      first tick covered
//	count   uvarint     ticks covered, 1 to 1024
//	hash    uint64      the hash of the server's world at first+count
//	heard   zigzag      heard minus (first+count), heard being first+count
//	                    plus the client's input buffer (as in a snapshot)
//	input   zigzag      the tick of the newest input of the message heard
//	                    speaks of, minus (first+count)
//	players uint8       then, per player, count inputs as runs
//	skips   uvarint n, then n runs of skipped ticks: offset uvarint (from
//	        the end of the previous run, or from first), length uvarint;
//	        runs are not empty and neither overlap nor touch (an offset of
//	        0 only for the first)
//	events  uvarint n, then n events: offset uvarint (tick - first,
//	        non-decreasing), kind uint8 (1 nudge, 2 join, 3 leave), player
//	        uint8, and for a nudge three float64
//
// # Fragment (kind 6), server to client: a piece of a transfer
//
//	tick   uint32       the transferred state's label
//	index  uint16, count uint16 (1 to MaxFragments)
//	size   uint32       bytes of the whole transfer, compressed
//	bytes  the piece: every fragment but the last carries FragmentBytes
//
// The fragments carry a transfer compressed with DEFLATE (RFC 1951,
// compress/flate), at most MaxTransferBytes once decompressed (see
// compress.go). Decompressed, a transfer starts with a kind byte. 0, a whole state: chain uint64 (the
// client's), all uint64 (every player's), events uint32, skipped uint32,
// then the whole physics.State (physics.AppendState). 1, a patch (a
// repair by buckets, below): the same chain, all, events and skipped,
// then
//
//	tick   uint32       the state's tick (the repair's)
//	bodies uint32       the state's body count
//	size   uint16       bodies a bucket: BucketBodies(bodies), no other
//	mask   ceil(buckets/8) bytes, bit k%8 of byte k/8: bucket k follows;
//	       no bit past the last bucket
//	then for each bucket named, in order, a physics.State
//	(physics.AppendState) of the repair's tick holding the bucket's bodies
//	(all of them) and its contacts, each with its first body A in the
//	bucket, in the state's order
//
// Bucket k of a state holds the bodies k*size up to (k+1)*size (the last
// one fewer) and the contacts whose body A is one of them (A is always a
// body, the ground being a contact's B, -1; the contacts are ordered by
// A: a run). A patch is taken only against the
// client's own state at its tick, with the same body count and bucket
// size; the client puts the named buckets in place of its own and takes
// the result only if its hash (physics.State.Hash) is the whole hash of
// the RepairHashes.
//
// # Have (kind 7), client to server: fragments received
//
//	tick   uint32, count uint16, then ceil(count/8) bytes of bitmap (bit i
//	of byte i/8: fragment i arrived)
//
// A client that asks for a transfer again after putting one together goes
// on sending that one's Have, every bit set: the server then knows the
// request is a new one.
//
// # RepairHashes (kind 8), server to client: a repair by buckets begins
//
//	tick   uint32       the repair's: the server's state at this tick
//	size   uint16       bodies a bucket: BucketBodies(bodies), that is
//	                    MinBucketBodies (8), or more so that there are at
//	                    most MaxBuckets (128) buckets
//	bodies uint32       the state's body count (1 or more)
//	whole  uint64       physics.State.Hash of the whole state
//	count  uint16       buckets: ceil(bodies/size)
//	hashes count uint64: each bucket's hash, FNV-1a 64 over words as
//	                    physics.State.Hash: the bucket's body count, its
//	                    bodies' words (physics.BodyWords), its contact
//	                    count and its contacts' words (physics.ContactWords)
//
// Sent when a client asks for a transfer (its prediction went wrong and
// snapshots did not mend it), not when it joins (it has no state) nor when
// it is further behind than the server's history (the whole state then);
// sent again every 16 ticks until the answer comes, 8 times at most, after
// which the server sends the whole state at the tick.
//
// # RepairWant (kind 9), client to server: the answer
//
//	tick   uint32       the repair's
//	all    uint8        1: the client cannot rebuild its state at tick
//	                    (send the whole state), count 0 and no mask; 0:
//	count  uint16       the buckets (1 to MaxBuckets), then
//	mask   ceil(count/8) bytes: bit k%8 of byte k/8, bucket k differs;
//	       no bit past the last bucket
//
// The server answers a mask with a patch of those buckets, "all" with the
// whole state at the tick, both as a transfer of that tick (Fragment,
// Have). The client answers each RepairHashes it gets (the same answer
// again when its answer was lost); after a patch that does not give the
// whole hash, it answers "all" and counts the mismatch.
//
// # Bounds: what a client takes
//
// A body state that decodes is not yet a state the engine can produce. A
// client refuses a snapshot or a transfer in which any body has a value
// beyond its scene's bounds (game.BoundsOf, the one place they are
// stated), counting it under protocol.RejectBounds and changing nothing:
//
//	position         |x|, |y|, |z| <= Pos: the farthest coordinate of the
//	                 scene as built, half extents included, plus 100 km
//	                 (game.BoundsTravel)
//	velocity         each component <= Speed: a fall through 2*Pos under the
//	                 world's gravity, plus 100 m/s (game.BoundsPush); about
//	                 2,081 m/s in every scene
//	angular velocity each component <= Spin: Speed over the smallest half
//	                 extent of a moving body (4,162 rad/s in the arena)
//	force            each component <= Force: Impulse in one tick
//	torque           each component <= Torque: Force at the largest half
//	                 extent of a moving body
//
// and, with the same count, a contact whose normal or friction impulse,
// or a relay whose nudge, is beyond Impulse: the speed bound times the
// mass of every moving body of the scene, what would stop them all.
//
// A quantised scene's bounds are its grid's: 4096 m, 64 m/s, 64 rad/s.
// NaN and infinities are beyond every bound. Within the bounds no step
// overflows; should one still leave a non-finite value in the client's
// world, the client reports it (predict.ErrNonFinite), stops predicting
// from that world and starts again from a transfer of the server's.
package wire
