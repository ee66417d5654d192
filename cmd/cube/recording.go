package main

import (
	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/session/recording"
)

// recordFlags are the -record flags sim, server and the window share.
type recordFlags struct {
	path      string
	fullEvery uint
	stages    bool
}

func (rf *recordFlags) register(fs *cli.Flags) {
	fs.StringVar(&rf.path, "record", "", "write the server's session record to this file (replay it with 'cube replay FILE')")
	fs.UintVar(&rf.fullEvery, "full-every", 64, "with -record: store a full state every N ticks, 1 to 65536")
	fs.BoolVar(&rf.stages, "record-stages", false, "with -record: store each tick's stage hashes too, so that cube replay names the first stage of a divergent step by itself (the server's step then runs on one worker and costs about twice as much)")
}

// check refuses, before the run, a -full-every out of range, a
// -record-stages without -record and a -record path that cannot be
// written, as -plot does (exit 2).
func (rf *recordFlags) check() error {
	if rf.fullEvery < 1 || rf.fullEvery > 65536 {
		return cli.Usagef("-full-every %d is out of range: want 1 to 65536", rf.fullEvery)
	}
	if rf.path == "" {
		if rf.stages {
			return cli.Usagef("-record-stages stores stage hashes in the record: add -record FILE")
		}
		return nil
	}
	return cli.CheckFile("-record", rf.path, "a file name")
}

// options are the record's options the flags give.
func (rf *recordFlags) options() recording.Options {
	return recording.Options{FullEvery: uint32(rf.fullEvery), Stages: rf.stages}
}
