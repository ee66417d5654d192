package physics

import (
	"fmt"
	"runtime"
)

// Config is the fixed configuration of a world. Start from DefaultConfig and
// override what differs.
type Config struct {
	Dt               float64 // step length, s; 1/64 is exact in binary
	Gravity          Vec3    // m/s²
	Iterations       int     // solver substeps per step, 1 to 64: each integrates, solves with soft position correction and relaxes
	GroundFriction   float64 // friction of the plane y = 0
	Margin           float64 // contacts are made this far before touching, m (plus the distance the bodies may close in one step)
	Slop             float64 // penetration the contacts leave alone, m
	RestitutionSpeed float64 // approach speeds below this do not bounce, m/s
	AngularDamping   float64 // per second; each substep multiplies ω by 1/(1+h*AngularDamping)
	MaxBodies        int     // upper bound on bodies

	// The fields below were added with the soft-contact solver; for each,
	// zero means the default (DefaultConfig's value), so that a
	// configuration stored before they existed still builds the same world.
	ContactHertz   float64 // stiffness of the soft contacts, Hz (capped at a quarter of the substep rate); static contacts use twice this
	ContactDamping float64 // damping ratio of the soft contacts
	MaxPushSpeed   float64 // fastest speed at which a contact pushes overlapping boxes apart, m/s
	NoSleep        bool    // switch sleeping off: by default bodies at rest sleep by island
	SleepSpeed     float64 // a body is at rest below this speed (its centre's plus its spin times its radius), m/s
	SleepTicks     int     // an island falls asleep once all its bodies were at rest this many steps, up to 1<<20

	// Workers is how many goroutines step the world, 0 to MaxWorkers: 0
	// means DefaultWorkers(), 1 the single-threaded step. Every count gives
	// the same bits (see pool.go); it is not part of a stored configuration.
	Workers int
}

// MaxWorkers is the largest Config.Workers.
const MaxWorkers = 64

// DefaultWorkers returns the worker count Config.Workers 0 stands for: the
// machine's logical CPUs, no more than GOMAXPROCS (which follows a
// container's CPU limit) and MaxWorkers.
func DefaultWorkers() int { return min(runtime.NumCPU(), runtime.GOMAXPROCS(0), MaxWorkers) }

// workers returns the number of workers c asks for, its default resolved.
func (c *Config) workers() int {
	if c.Workers == 0 {
		return DefaultWorkers()
	}
	return c.Workers
}

// DefaultTickRate is the default number of steps per second.
const DefaultTickRate = 64

// DefaultConfig returns the configuration the demo and the tests use.
func DefaultConfig() Config {
	return Config{
		Dt:               1.0 / DefaultTickRate,
		Gravity:          Vec3{0, -9.81, 0},
		Iterations:       4,
		GroundFriction:   0.5,
		Margin:           0.02,
		Slop:             0.002,
		RestitutionSpeed: 1,
		AngularDamping:   0,
		MaxBodies:        4096,
		ContactHertz:     defaultContactHertz,
		ContactDamping:   defaultContactDamping,
		MaxPushSpeed:     defaultMaxPushSpeed,
		SleepSpeed:       defaultSleepSpeed,
		SleepTicks:       defaultSleepTicks,
	}
}

// Defaults of the fields where zero means the default.
const (
	defaultContactHertz   = 30
	defaultContactDamping = 10
	defaultMaxPushSpeed   = 3
	defaultSleepSpeed     = 0.03
	defaultSleepTicks     = 48
)

// withDefaults returns c with every zero field that has a default set to it.
func (c Config) withDefaults() Config {
	if c.ContactHertz == 0 {
		c.ContactHertz = defaultContactHertz
	}
	if c.ContactDamping == 0 {
		c.ContactDamping = defaultContactDamping
	}
	if c.MaxPushSpeed == 0 {
		c.MaxPushSpeed = defaultMaxPushSpeed
	}
	if c.SleepSpeed == 0 {
		c.SleepSpeed = defaultSleepSpeed
	}
	if c.SleepTicks == 0 {
		c.SleepTicks = defaultSleepTicks
	}
	return c
}

// validate checks every field and names the first that is out of range.
func (c *Config) validate() error {
	switch {
	case !finite(c.Dt) || c.Dt <= 0 || c.Dt > 1:
		return badValue("config Dt %v must be in (0, 1] s", c.Dt)
	case !c.Gravity.Finite():
		return badValue("config Gravity %v must be finite", c.Gravity)
	case c.Iterations < 1 || c.Iterations > 64:
		return badValue("config Iterations %d must be in [1, 64]", c.Iterations)
	case !finite(c.GroundFriction) || c.GroundFriction < 0:
		return badValue("config GroundFriction %v must be >= 0", c.GroundFriction)
	case !finite(c.Margin) || c.Margin < 0 || c.Margin > 1:
		return badValue("config Margin %v must be in [0, 1] m", c.Margin)
	case !finite(c.Slop) || c.Slop < 0 || c.Slop > 1:
		return badValue("config Slop %v must be in [0, 1] m", c.Slop)
	case !finite(c.RestitutionSpeed) || c.RestitutionSpeed < 0:
		return badValue("config RestitutionSpeed %v must be >= 0", c.RestitutionSpeed)
	case !finite(c.AngularDamping) || c.AngularDamping < 0:
		return badValue("config AngularDamping %v must be >= 0", c.AngularDamping)
	case c.MaxBodies < 1 || c.MaxBodies > 1<<16:
		return badValue("config MaxBodies %d must be in [1, 65536]", c.MaxBodies)
	case !finite(c.ContactHertz) || c.ContactHertz <= 0:
		return badValue("config ContactHertz %v must be > 0", c.ContactHertz)
	case !finite(c.ContactDamping) || c.ContactDamping <= 0:
		return badValue("config ContactDamping %v must be > 0", c.ContactDamping)
	case !finite(c.MaxPushSpeed) || c.MaxPushSpeed <= 0:
		return badValue("config MaxPushSpeed %v must be > 0 m/s", c.MaxPushSpeed)
	case !finite(c.SleepSpeed) || c.SleepSpeed <= 0:
		return badValue("config SleepSpeed %v must be > 0 m/s", c.SleepSpeed)
	case c.SleepTicks < 1 || c.SleepTicks > 1<<20:
		return badValue("config SleepTicks %d must be in [1, 1048576]", c.SleepTicks)
	case c.Workers < 0 || c.Workers > MaxWorkers:
		return badValue("config Workers %d must be in [0, %d] (0: one per CPU)", c.Workers, MaxWorkers)
	}
	return nil
}

func (c Config) String() string {
	return fmt.Sprintf("dt=%v gravity=%v iterations=%d sleep=%v", c.Dt, c.Gravity, c.Iterations, !c.NoSleep)
}
