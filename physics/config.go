package physics

import "fmt"

// Config is the fixed configuration of a world. Start from DefaultConfig and
// override what differs.
type Config struct {
	Dt               float64 // step length, s; 1/64 is exact in binary
	Gravity          Vec3    // m/s²
	Iterations       int     // solver velocity iterations per step, 1 to 64
	GroundFriction   float64 // friction of the plane y = 0
	Margin           float64 // contacts are made this far before touching, m
	Slop             float64 // penetration left alone, m
	Baumgarte        float64 // fraction of the remaining penetration removed per step, in [0, 1]
	RestitutionSpeed float64 // approach speeds below this do not bounce, m/s
	AngularDamping   float64 // per second; the step multiplies ω by 1/(1+dt*AngularDamping)
	MaxBodies        int     // upper bound on bodies
}

// DefaultTickRate is the default number of steps per second.
const DefaultTickRate = 64

// DefaultConfig returns the configuration the demo and the tests use.
func DefaultConfig() Config {
	return Config{
		Dt:               1.0 / DefaultTickRate,
		Gravity:          Vec3{0, -9.81, 0},
		Iterations:       8,
		GroundFriction:   0.5,
		Margin:           0.02,
		Slop:             0.005,
		Baumgarte:        0.2,
		RestitutionSpeed: 1,
		AngularDamping:   0.05,
		MaxBodies:        1024,
	}
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
	case !finite(c.Baumgarte) || c.Baumgarte < 0 || c.Baumgarte > 1:
		return badValue("config Baumgarte %v must be in [0, 1]", c.Baumgarte)
	case !finite(c.RestitutionSpeed) || c.RestitutionSpeed < 0:
		return badValue("config RestitutionSpeed %v must be >= 0", c.RestitutionSpeed)
	case !finite(c.AngularDamping) || c.AngularDamping < 0:
		return badValue("config AngularDamping %v must be >= 0", c.AngularDamping)
	case c.MaxBodies < 1 || c.MaxBodies > 1<<16:
		return badValue("config MaxBodies %d must be in [1, 65536]", c.MaxBodies)
	}
	return nil
}

func (c Config) String() string {
	return fmt.Sprintf("dt=%v gravity=%v iterations=%d", c.Dt, c.Gravity, c.Iterations)
}
