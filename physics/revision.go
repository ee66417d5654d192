package physics

// EngineRevision numbers the step's bits: it changes with every change to
// the engine that changes what a step computes (and so the golden hashes),
// and with nothing else. A session record carries the revision of the
// build that wrote it; a build of another revision refuses to replay it
// rather than report a divergence that is only the engine's change, and
// World.Layout covers it, so that two ends of other revisions see that
// they built different worlds.
//
// Revisions: 1, contacts that lost one point's feature warm-started
// evenly (prepare.go's spreadImpulses); the engine before it is revision 0.
// 2, a body woken by a contact keeps its rest count (World.wakeTouched).
// 3, the shock pass solves the rows its block solve cannot by enumeration
// instead of one point after the other (block.go's enumBlock).
// 4, the solver's passes solve the overflow, then the contacts colour by
// colour (graph.go, stages.go), instead of every contact in key order.
// 5, the contacts under a stack of tallLoad like boxes get heavy.go's
// extra relax passes, as those under a heavy box do.
const EngineRevision = 5
