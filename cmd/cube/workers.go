package main

import (
	"fmt"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/physics"
)

// workersFlag is -workers, on every subcommand that steps physics: how
// many goroutines step each world. Every count gives the same bits.
type workersFlag struct{ n int }

func (f *workersFlag) register(fs *cli.Flags) {
	fs.IntVar(&f.n, "workers", 0, fmt.Sprintf("goroutines that step the physics, 1 to %d (0: one per CPU, %d here); every count gives the same bits",
		physics.MaxWorkers, physics.DefaultWorkers()))
}

// check refuses a count out of range.
func (f *workersFlag) check() error {
	if f.n < 0 || f.n > physics.MaxWorkers {
		return cli.Usagef("-workers %d is out of range: want 1 to %d, or 0 for one per CPU", f.n, physics.MaxWorkers)
	}
	return nil
}

// config returns physics.DefaultConfig with the flag's worker count.
func (f *workersFlag) config() physics.Config {
	cfg := physics.DefaultConfig()
	cfg.Workers = f.n
	return cfg
}
