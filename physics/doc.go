// Package physics is a small deterministic rigid-body engine for boxes.
//
// The same inputs give the same bits on every CPU Go targets. The engine keeps
// to a few rules to make that true:
//
//   - all arithmetic is float64 and uses only + - * / and math.Sqrt;
//   - every product that feeds a sum is rounded explicitly, float64(x*y), so the
//     compiler cannot fuse it into a multiply-add (it does on arm64 and on amd64
//     with GOAMD64=v3); the vector, quaternion and matrix helpers do this, and the
//     rest of the engine calls them;
//   - no maps, clocks or random numbers; contacts and solver rows are
//     ordered by body and feature index; the only goroutines are the
//     world's workers (Config.Workers, pool.go), which fill per-pair
//     slots that the step reads back in index order, or run blocks of a
//     solver stage that write disjoint data, so every worker count gives
//     the same bits;
//   - everything that evolves lives in State (poses, velocities, accumulated
//     forces, rest counts, sleep and enabled flags, the contact cache with its
//     warm-start impulses and feature ids, the tick), so Save and Restore
//     rewind exactly, and Hash covers it all; what is derived (rotations,
//     bounds, the broad phase's order) is a function of the state;
//   - the hash is FNV-1a 64 over the bit patterns of the whole state in the
//     codec's order, in its word-wise variant: each 64-bit word (a float64,
//     or two uint32 fields side by side) is xored in whole and then
//     multiplied by the FNV prime, one multiply per word instead of eight
//     (State.Hash lists the words). Client and server hash every tick, and
//     the byte-wise hash of the cubes scene's state cost as much as a step.
//
// A World is built from a Config and box definitions, then stepped by hand with
// Step at a fixed dt. The ground is the plane y = 0. Contacts come from a
// sort-and-sweep broad phase and SAT over the 15 axes of two boxes with face
// clipping (manifold.go, clip.go), speculative up to the distance the pair may
// close in during the step; the contacts of a pair that closes in fast are
// made again in every substep, and those of a body that turns fast have their
// separations computed from the poses (redo.go, prepare.go). The solver is a soft step
// with substeps (solver.go), run as one list of stages (stages.go) over
// blocks of bodies and of contacts coloured so that no body appears twice
// in a colour (graph.go), the same list for every worker count; bodies at
// rest sleep by island (island.go). On more than one worker the narrow
// phase runs by pair (narrow.go) and the stages' blocks on the workers;
// call Close when a world is done with.
// MaxOverlap measures penetration independently of all that. The engine knows
// no player.
package physics
