// Package netsim simulates an unreliable network link between a game client
// and server running in one process.
//
// A Link is one direction. Send copies a payload onto it at the caller's
// virtual time; Receive returns the packets due by a later time, in
// delivery order. There are no goroutines, no wall clock and no global
// random source: the caller's clock drives everything and each link owns a
// xoshiro256** stream seeded by the caller, so a seed reproduces a run
// exactly. A Pair holds the two directions, Up (client to server) and
// Down (server to client), with different streams derived from one seed.
//
// # The model
//
// A packet passed to Send goes through these stages, under the Conditions
// in force at that moment:
//
//  1. Bandwidth (optional): the packet joins a FIFO serialised at
//     Bandwidth bytes per second. It departs at
//     max(now, previous departure) + len/Bandwidth. If the bytes not yet
//     departed plus its own would exceed QueueBytes, it is dropped
//     (Stats.QueueDropped).
//  2. Loss: with BurstLen 0 or 1 each packet is lost independently with
//     probability Loss. With BurstLen > 1 a two-state Gilbert-Elliott chain
//     decides: in the bad state every packet is lost, in the good state
//     none; bad runs last BurstLen packets on average and the long-run
//     loss rate is Loss (Stats.Lost).
//  3. Delay: departure + Latency + a jitter offset drawn uniformly from
//     [-Jitter, +Jitter] in whole nanoseconds, never less than the
//     departure. Packets sent d apart swap places when their offsets
//     differ by more than d, which needs 2*Jitter > d. With InOrder each
//     delivery time is raised to at least the latest one scheduled so far,
//     so jitter delays but never reorders.
//  4. Duplication: with probability Duplicate a second copy is put in
//     flight with its own jitter draw (Stats.Duplicated).
//
// Copies in flight sit in a binary heap keyed by (delivery time, copy
// number); the copy number grows in send order, so equal delivery times
// come out in send order and the order is total. Payloads are copied into
// buffers that the link keeps and reuses, so a link in steady state
// allocates nothing.
//
// Each Send draws exactly four numbers from the stream, whatever happens to
// the packet. With one seed the n-th packet therefore sees the same random
// numbers under any conditions: raising Loss removes packets but does not
// change the delays of the others.
//
// Changing conditions (SetConditions) affects packets sent afterwards only;
// those in flight keep their delivery times.
//
// The presets (Presets, PresetByName) reproduce the design's latency table,
// from "perfect" to "outage"; see Presets for the choices
// the table leaves open.
package netsim
