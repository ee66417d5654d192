package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/ui/viewer"
	"github.com/cubelab/cube/ui/window"
)

// maxRecordBytes bounds what replay reads by default.
const maxRecordBytes = 1 << 30

func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("replay", "replay [-max-bytes N] [-workers N] [-window [-width W] [-height H] [-frames N] [-screenshot FILE.png] [-keys K,K,...] | -perturb SPEC -o OUT | -trace TICK -o OUT] FILE | replay -diff-trace A B", stderr)
	maxBytes := fs.Int64("max-bytes", maxRecordBytes, "refuse records larger than this, 1 to 2^40")
	var workers workersFlag
	workers.register(fs)
	var vf viewerFlags
	vf.register(fs)
	var pf perturbFlags
	pf.register(fs)
	var tf traceFlags
	tf.register(fs)
	fs.AllowArgs = 2
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			viewer.PrintKeys(stderr)
		}
		if fs.NArg() > 1 && strings.HasPrefix(fs.Arg(1), "-") {
			return cli.Usagef("%s after the file: flags go before it, cube replay [flags] FILE", fs.Arg(1))
		}
		return err
	}
	if tf.diff {
		if fs.NArg() != 2 || tf.tick != "" || pf.spec != "" || pf.out != "" || vf.window {
			return cli.Usagef("-diff-trace compares two trace files and takes nothing else: cube replay -diff-trace A B")
		}
		return diffTraces(fs.Arg(0), fs.Arg(1), stdout)
	}
	if fs.NArg() != 1 {
		return cli.Usagef("want exactly one record file")
	}
	if tf.tick != "" && (pf.spec != "" || vf.window || pf.out == "") {
		return cli.Usagef("-trace TICK writes a trace to -o FILE, alone: cube replay -trace TICK -o OUT FILE")
	}
	if *maxBytes < 1 || *maxBytes > 1<<40 {
		return cli.Usagef("-max-bytes %d is out of range: want 1 to %d", *maxBytes, int64(1)<<40)
	}
	if err := workers.check(); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := vf.check(set); err != nil {
		return err
	}
	var pt record.Perturbation
	if tf.tick == "" {
		var err error
		if pt, err = pf.check(vf.window); err != nil {
			return err
		}
	}
	name := fs.Arg(0)
	f, err := os.Open(name)
	if err != nil {
		return exitError{code: 2, msg: err.Error()}
	}
	defer f.Close()
	rec, err := record.Read(f, *maxBytes)
	if err != nil {
		return exitError{code: 2, msg: fmt.Sprintf("%s: %s", name, strings.TrimPrefix(err.Error(), "record: "))}
	}
	if rec.Truncated {
		fmt.Fprintf(stderr, "cube replay: %s is cut short (%s); replaying the steps of its %d complete chunks\n", name, rec.TruncatedWhy, rec.Chunks-1)
	}
	rec.Header.Physics.Workers = workers.n // not part of the record: the bits are the same for any
	if vf.window {
		return runViewer(name, rec, &vf, stdout, stderr)
	}
	if pf.spec != "" {
		return writePerturbed(name, pf.out, rec, pt, stdout)
	}
	if tf.tick != "" {
		return writeTrace(name, pf.out, tf.tick, rec, stdout)
	}
	res, err := record.Replay(rec)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "record: replay: ")
		if errors.Is(err, record.ErrScene) {
			msg = strings.TrimPrefix(msg, record.ErrScene.Error()+": ")
		}
		return exitError{code: 2, msg: fmt.Sprintf("%s cannot be replayed here: %s", name, msg)}
	}
	res.File = name
	res.Report(stdout)
	if res.Divergence != nil {
		return exitError{code: 1}
	}
	return nil
}

// runViewer is `cube replay -window`: the record viewer.
func runViewer(name string, rec *record.Record, vf *viewerFlags, stdout, stderr io.Writer) error {
	cfg := vf.frame.config("cube: record viewer, "+name, stdout, stderr)
	return windowError(window.Replay(name, rec, vf.keys, cfg), " for -window; rebuild with CGO_ENABLED=1, or run 'cube replay FILE' without -window for the text report")
}
