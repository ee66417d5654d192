package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/cli"
)

// maxHashTicks bounds -ticks: a day of simulated time at 64 Hz.
const maxHashTicks = 64 * 60 * 60 * 24

func runHash(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("hash", "hash [-scene NAME] [-ticks N] [-workers N]", stderr)
	scene := fs.String("scene", "arena", "scene to run: "+strings.Join(game.Names(), ", "))
	ticks := fs.Int("ticks", 10000, fmt.Sprintf("ticks to simulate, 0 to %d", maxHashTicks))
	var workers workersFlag
	workers.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := workers.check(); err != nil {
		return err
	}
	if !slices.Contains(game.Names(), *scene) {
		return cli.Usagef("-scene %q is not a scene: want one of %s", *scene, strings.Join(game.Names(), ", "))
	}
	if *ticks < 0 || *ticks > maxHashTicks {
		return cli.Usagef("-ticks %d is out of range: want 0 to %d", *ticks, maxHashTicks)
	}
	w, sc, err := game.Build(*scene, workers.config(), game.Options{})
	if err != nil {
		return err
	}
	if err := sc.RunScript(w, *ticks); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%016x\n", w.Hash())
	return nil
}
