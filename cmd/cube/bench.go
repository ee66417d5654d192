package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/internal/stepbench"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// Bounds of the bench flags.
const (
	minBenchSteps = 33 // the replay figure needs 32 steps before the end
	maxBenchSteps = 1 << 20
)

func runBench(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("bench", "bench [-scene NAME] [-bodies N] [-ratio R] [-steps S] [-sleep=false] [-iterations K] [-workers N] [-json]", stderr)
	scene := fs.String("scene", "cubes", "scene to run: "+strings.Join(game.BenchNames(), ", "))
	bodies := fs.Int("bodies", 0, fmt.Sprintf("drop: boxes, 1 to %d (0: %d); tower: cubes, 1 to %d (0: %d)", game.MaxDropBodies, game.DefaultDropBodies, game.MaxTowerBodies, game.DefaultTowerBodies))
	ratio := fs.Int("ratio", 0, fmt.Sprintf("load only: the top cube's mass over the bottom one's, 1 to %d (0: %d)", game.MaxLoadRatio, game.DefaultLoadRatio))
	steps := fs.Int("steps", 1024, fmt.Sprintf("steps to run, %d to %d", minBenchSteps, maxBenchSteps))
	sleep := fs.Bool("sleep", true, "let bodies at rest sleep (the peers run with sleeping off)")
	iters := fs.Int("iterations", physics.DefaultConfig().Iterations, "solver substeps per step, 1 to 64")
	asJSON := fs.Bool("json", false, "print one JSON object instead of one line per figure")
	var workers workersFlag
	workers.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := workers.check(); err != nil {
		return err
	}
	if !slices.Contains(game.BenchNames(), *scene) {
		return cli.Usagef("-scene %q is not a scene: want one of %s", *scene, strings.Join(game.BenchNames(), ", "))
	}
	if err := checkBenchParams(*scene, *bodies, *ratio); err != nil {
		return err
	}
	if *scene == "load" {
		*bodies = *ratio
	}
	if *steps < minBenchSteps || *steps > maxBenchSteps {
		return cli.Usagef("-steps %d is out of range: want %d to %d", *steps, minBenchSteps, maxBenchSteps)
	}
	if *iters < 1 || *iters > 64 {
		return cli.Usagef("-iterations %d is out of range: want 1 to 64", *iters)
	}
	cfg := workers.config()
	cfg.NoSleep, cfg.Iterations = !*sleep, *iters
	r, err := stepbench.Run(*scene, cfg, game.Options{Bodies: *bodies}, *steps)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		return enc.Encode(r)
	}
	r.Print(stdout)
	return nil
}

// checkBenchParams checks -bodies and -ratio against the scene.
func checkBenchParams(scene string, bodies, ratio int) error {
	hi, def := game.MaxDropBodies, game.DefaultDropBodies
	if scene == "tower" {
		hi, def = game.MaxTowerBodies, game.DefaultTowerBodies
	}
	switch {
	case bodies < 0 || bodies > hi:
		return cli.Usagef("-bodies %d is out of range: want 1 to %d, or 0 for %d", bodies, hi, def)
	case bodies != 0 && scene != "drop" && scene != "tower":
		return cli.Usagef("-bodies is for the drop and tower scenes only; %s has a fixed number of bodies", scene)
	case ratio < 0 || ratio > game.MaxLoadRatio:
		return cli.Usagef("-ratio %d is out of range: want 1 to %d, or 0 for %d", ratio, game.MaxLoadRatio, game.DefaultLoadRatio)
	case ratio != 0 && scene != "load":
		return cli.Usagef("-ratio is for the load scene only")
	}
	return nil
}
