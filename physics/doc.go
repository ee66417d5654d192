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
//   - no maps, goroutines, clocks or random numbers; contacts and solver rows are
//     ordered by body and feature index;
//   - everything that evolves lives in State (poses, velocities, accumulated
//     forces, the contact cache with its warm-start impulses, the tick), so Save
//     and Restore rewind exactly, and Hash covers it all.
//
// A World is built from a Config and box definitions, then stepped by hand with
// Step at a fixed dt. The ground is the plane y = 0.
package physics
