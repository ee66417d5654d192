package game

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/cubelab/cube/physics"
)

// Limits of the scene options.
const (
	MaxPlayers    = 8    // player cubes in one scene
	MaxSceneName  = 32   // bytes of a scene's name
	MaxDropBodies = 4096 // boxes in the drop scene
	// DefaultDropBodies is the drop scene's size when Options.Bodies is 0,
	// the size the peer engines are timed with.
	DefaultDropBodies = 1000
)

// Options choose the variable parts of a scene.
type Options struct {
	Players int // player cubes, 1 to MaxPlayers; 0 means 1
	Bodies  int // drop only: boxes, 1 to MaxDropBodies; 0 means DefaultDropBodies
	// Quantize puts every moving body on the grid of quantize.go after
	// every step, so that a quantised state sent over the network is
	// exactly the state both ends simulate.
	Quantize bool
}

// Scene is one of the lab's scenes as built: which bodies are the players'
// cubes, the rule their input follows, the scripted input and the scene's
// identity. The world it was built with holds the bodies; a Scene holds no
// evolving state, so one Scene serves every copy of its world (client,
// server, replay).
type Scene struct {
	Name    string
	Options Options
	Players []int // body index of each player's cube, by player number
	Rules   Rules
	// ID identifies the scene as built: its name and options, the input
	// rule, the world's configuration and fixed body definitions, and the
	// initial state (see Identity). Records and sessions compare it.
	ID Identity

	spawn   []physics.BodyState // each player's cube as built, where a Join puts it back
	script  []segment
	area    area // where the autopilot goes
	targets []physics.Vec3
	pulls   bool // the autopilot holds pull near its target
}

// Identity says which scene a world was built as. Two worlds built from the
// same Identity evolve bit for bit alike under the same inputs.
type Identity struct {
	Name     string
	Players  int
	Bodies   int
	Quantize bool
	Rule     int    // RuleVersion of the builder
	Hash     uint64 // FNV-1a over the rest, the rule's numbers, the world's layout and its initial state
}

func (id Identity) String() string {
	s := fmt.Sprintf("%s (players %d", id.Name, id.Players)
	if id.Bodies > 0 {
		s += fmt.Sprintf(", bodies %d", id.Bodies)
	}
	if id.Quantize {
		s += ", quantized"
	}
	return s + fmt.Sprintf(", rule %d, %016x)", id.Rule, id.Hash)
}

// builder is one scene's construction.
type builder struct {
	name, about string
	build       func(w *physics.World, sc *Scene) error
}

var builders = []builder{
	{"arena", "one cube among a wall, a ramp and a step inside a fence", buildArena},
	{"cubes", "900 small cubes in a 30x30 grid and a large player cube that rolls through them; pull draws them in", buildCubes},
	{"pyramid", "55 boxes in a pyramid with a base of 10, and an idle player cube", buildPyramid},
	{"stack", "a stack of 10 boxes, and an idle player cube", buildStack},
	{"drop", "N unit cubes dropped in 10x10 layers, body 0 pushed (the peers' benchmark scene)", buildDrop},
}

// Names returns the scene names in a fixed order.
func Names() []string {
	out := make([]string, len(builders))
	for i, b := range builders {
		out[i] = b.name
	}
	return out
}

// About returns a one-line description of the named scene, or "".
func About(name string) string {
	for _, b := range append(builders[:len(builders):len(builders)], benchBuilders...) {
		if b.name == name {
			return b.about
		}
	}
	return ""
}

// Build builds the named scene in a new world with configuration cfg.
func Build(name string, cfg physics.Config, o Options) (*physics.World, *Scene, error) {
	var b *builder
	for i := range builders {
		if builders[i].name == name {
			b = &builders[i]
		}
	}
	bench := false
	for i := range benchBuilders {
		if benchBuilders[i].name == name {
			b, bench = &benchBuilders[i], true
		}
	}
	if b == nil {
		return nil, nil, fmt.Errorf("game: no scene %q: want one of %s", name, strings.Join(Names(), ", "))
	}
	if o.Players == 0 {
		o.Players = 1
	}
	if o.Players < 1 || o.Players > MaxPlayers {
		return nil, nil, fmt.Errorf("game: %d players: want 1 to %d", o.Players, MaxPlayers)
	}
	if bench {
		if err := benchOption(name, &o); err != nil {
			return nil, nil, err
		}
	} else if name == "drop" {
		if o.Bodies == 0 {
			o.Bodies = DefaultDropBodies
		}
		if o.Bodies < o.Players || o.Bodies > MaxDropBodies {
			return nil, nil, fmt.Errorf("game: drop with %d bodies: want %d to %d", o.Bodies, o.Players, MaxDropBodies)
		}
	} else if o.Bodies != 0 {
		return nil, nil, fmt.Errorf("game: scene %s has a fixed number of bodies; Options.Bodies is for drop", name)
	}
	w, err := physics.New(cfg)
	if err != nil {
		return nil, nil, err
	}
	sc := &Scene{Name: name, Options: o}
	if err := b.build(w, sc); err != nil {
		return nil, nil, fmt.Errorf("game: building %s: %w", name, err)
	}
	if o.Quantize {
		if err := sc.quantize(w); err != nil {
			return nil, nil, fmt.Errorf("game: quantising %s: %w", name, err)
		}
	}
	for _, i := range sc.Players {
		sc.spawn = append(sc.spawn, w.Body(i))
	}
	sc.ID = identify(sc, w)
	return w, sc, nil
}

// MustBuild is Build with the default configuration and options, for tests
// and benchmarks; it panics only if a built-in scene is broken.
func MustBuild(name string) (*physics.World, *Scene) {
	w, sc, err := Build(name, physics.DefaultConfig(), Options{})
	if err != nil {
		panic(err)
	}
	return w, sc
}

// identify computes the scene's identity from what was built.
func identify(sc *Scene, w *physics.World) Identity {
	id := Identity{Name: sc.Name, Players: sc.Options.Players, Bodies: sc.Options.Bodies, Quantize: sc.Options.Quantize, Rule: RuleVersion}
	var b []byte
	b = append(b, id.Name...)
	b = append(b, 0)
	if id.Quantize {
		b = append(b, 'q')
	}
	for _, x := range []uint32{uint32(id.Players), uint32(id.Bodies), uint32(id.Rule)} {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	r := &sc.Rules
	for _, x := range []float64{r.PushAccel, r.MaxPushVel, r.RollAccel, r.JumpSpeed, r.PullRadius, r.PullAccel} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	for _, p := range sc.Players {
		b = binary.LittleEndian.AppendUint32(b, uint32(p))
	}
	b = binary.LittleEndian.AppendUint64(b, w.Layout())
	b = binary.LittleEndian.AppendUint64(b, w.Hash())
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	id.Hash = h
	return id
}

// area is a rectangle of the ground, for the autopilot.
type area struct{ x0, z0, x1, z1 float64 }
