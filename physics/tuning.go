package physics

// The engine's tuning constants, each with why it has its value. They are
// part of the step's bits: a change to any of them changes the goldens and
// EngineRevision (revision.go). The configurable ones (contact stiffness,
// push-out speed, sleep) are Config's defaults, in config.go.

// # Solver passes (solver.go, load.go, heavy.go, shock.go)

// relaxIterations is how many relax passes each substep runs (solve
// without the position correction), before the shock pass (shock.go):
// the impulses of a tall tower or of a heavy box on a light one must
// travel through every contact of the pile, one contact a pass
// (Gauss-Seidel). With one pass (and the shock pass) 1000 kg on 1 kg
// walks 5 cm; with two it stays within 0.1 mm for 10 s (validation_test.go),
// but rocks itself off at 15 s without the extra passes of heavy.go. Each
// pass costs about as much as the pass with bias.
const relaxIterations = 2

// heavyRatio is the mass ratio from which a weight-bearing contact marks
// its lower body as bearing a heavy load. With the two relax passes of
// every contact, 50:1 and 100:1 held 60 s (1e-13 and 5e-12 m aside),
// 200:1 walked 0.8 mm and 300:1 was squeezed out; 64 leaves the cubes
// scene (3.375 kg players on 0.064 kg cubes, 53:1) as it was, and so its
// golden hashes.
const heavyRatio = 64

// tallLoad is the load, in weights of a weight-bearing contact's upper
// body, from which the contact marks its lower body as bearing a heavy
// load too (heavy.go): the contacts under a stack of tallLoad like boxes
// or more get the extra relax passes. Measured on a tower of 30 unit
// cubes each set off 1 cm (lean_test.go): with 8 it stands (its top
// leans 0.84 m, at rest); with 4 and with 16 it still fell, and so does a
// tower of 33 with 8; below 8 more contacts pay the passes.
const tallLoad = 8

// heavyRelax is how many more relax passes the contacts around a heavily
// loaded body get in each substep, eight in all with relaxIterations: with
// six passes for every contact the rocking of 1000 kg on 1 kg still grew
// (by e every 9 s), with eight and twelve it did not (heavy.go's measures).
const heavyRelax = 6

// blockEps is the relative regularisation of the rigid passes: it keeps
// the block matrix of four points on a face (of rank three) invertible
// without changing what the impulses move (block.go).
const blockEps = 1e-6

// loadOverlap is the overlap beyond the slop a contact settles at under
// any steady load, m: load.go stiffens a loaded contact so that it does.
const loadOverlap = 0.001

// maxStiffen bounds how much smaller than the configured compliance a
// load may make the compliance of a contact whose other side does not
// move (the ground, a static or a sleeping box), and maxStiffenPair that
// of a contact between two moving bodies. Measured (docs/engine.md, "The solver"):
// without the shock pass (shock.go) stiffer contacts than four times kept
// the 1000-cube drop buzzing and let a 1000 kg cube squeeze a 1 kg one
// out, since Gauss-Seidel cannot carry a stiff contact's impulse through
// a light box; with it, the contacts between moving bodies hold 1000 kg
// on 1 kg at 64 times (6 mm deep; 16 times: 2 cm), while a light box's
// ground contact stiffer than eight to twelve times lets the pair rock
// and walk (16: 11 cm in 10 s). Six held the ground contact under 1001
// kg at 1.35 cm, 1.7 cm at the worst of the first steps, before heavy.go
// (eight: 1.1 and 1.6 cm, but two cubes of the cubes scene then kept each
// other awake after a pull, session's TestSnapshotBudgetAndPriority); with
// heavy.go's extra passes, 1.35 cm at the worst over 60 s.
const (
	maxStiffen     = 6
	maxStiffenPair = 64
)

// # Fast motion (solver.go, redo.go, clip.go)

// fastTurn is how far (m) the vertices of a body may turn in a step before
// its contacts become exactCons: beyond it the arc a vertex swings leaves
// the linear estimate of its separation by more than a slop (solver.go).
const fastTurn = 0.01

// redoMin is the closing distance (m) of a pair in a step above which its
// contact is made again at the start of every substep (see redo): a pair
// closing faster can bring a face or corner into reach within the step.
const redoMin = 0.08

// extMin is the least relative motion in a step for which faceContact
// looks beyond the reference face's border (m): a part of the incident box
// coming over the face by less cannot overlap it by more than that.
const extMin = 0.01

// # Contact generation (manifold.go, clip.go)

// clipTol is how far beyond a side plane of the reference face a vertex
// of the incident face may lie and still count as inside, m (2⁻²⁰, about
// 1 µm). Two aligned faces of the same size have their corners on the
// side planes, and the rounding of a step puts some of them a few ulps
// outside: clipped there, a corner came back as two crossing points with
// new features, which lost their warm start and gave the contact an
// uneven push (a 100 kg cube on a 1 kg one started rocking after 4 steps
// and walked 7 cm; a tower of 30 fell). Any threshold has corners that
// sit on it within rounding; with none, those are the aligned faces every
// scene builds, with clipTol faces set off by exactly 2⁻²⁰ m (measured: a
// tower of 20 set off so drifts 2 cm; set off by 0.1 µm to 1 cm, 2 mm
// at most). A corner kept up to 1 µm beyond the face moves the lever
// arm of its impulse by as much.
const clipTol = 1.0 / (1 << 20)

// SAT tolerances: an axis of B's faces replaces the best of A's, and an edge
// axis the best face axis, only when it separates more by absAxisTol plus a
// fraction of the separation's size (beats). Near-equal axes thus resolve
// the same way every step, towards A's faces, then B's, which give stable
// manifolds.
const (
	relFaceTol = 0.02
	relEdgeTol = 0.10
	absAxisTol = 0.001 // m
)

// minGap is the least separation for which nearEdges is asked, m: below
// it the boxes touch and the faces' clipping finds the contact.
const minGap = 1e-6 // m
