// Package game holds the rules of the lab on top of the physics engine: the
// scenes (arena, cubes, pyramid, stack, drop), the players' input and the
// one rule that turns it into forces, the scripted inputs, and the
// autopilot. The engine in package physics knows none of this: it steps
// boxes; this package says which boxes are players and how keys push them.
//
// Everything here that feeds the simulation follows the engine's
// determinism rules (float64, explicit rounding of every product that
// feeds a sum, no transcendental functions, no map iteration, seeded
// randomness only), because client, server and replay must apply it
// bit-identically on every CPU.
package game
