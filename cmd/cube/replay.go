package main

import (
	"fmt"
	"io"
	"os"

	"github.com/cubelab/cube/record"
)

// maxRecordBytes bounds what replay reads by default.
const maxRecordBytes = 1 << 30

func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", "replay [-max-bytes N] FILE", stderr)
	maxBytes := fs.Int64("max-bytes", maxRecordBytes, "refuse records larger than this, 1 to 2^40")
	fs.allowArgs = 1
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("want exactly one record file")
	}
	if *maxBytes < 1 || *maxBytes > 1<<40 {
		return usagef("-max-bytes %d is out of range: want 1 to %d", *maxBytes, int64(1)<<40)
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return exitError{code: 2, msg: err.Error()}
	}
	defer f.Close()
	rec, err := record.Read(f, *maxBytes)
	if err != nil {
		return exitError{code: 2, msg: fmt.Sprintf("%s is not a valid record: %v", fs.Arg(0), err)}
	}
	if rec.Truncated {
		fmt.Fprintf(stderr, "cube replay: %s is cut short (%s); replaying its %d complete chunks\n", fs.Arg(0), rec.TruncatedWhy, rec.Chunks)
	}
	res, err := record.Replay(rec)
	if err != nil {
		return exitError{code: 2, msg: fmt.Sprintf("%s cannot be replayed: %v", fs.Arg(0), err)}
	}
	res.Report(stdout)
	if res.Divergence != nil {
		return exitError{code: 1}
	}
	return nil
}
