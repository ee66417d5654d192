package main

import "github.com/cubelab/cube/internal/cli"

// recordFlags are the -record flags sim and the window share.
type recordFlags struct {
	path      string
	fullEvery uint
}

func (rf *recordFlags) register(fs *cli.Flags) {
	fs.StringVar(&rf.path, "record", "", "write the server's session record to this file (replay it with 'cube replay FILE')")
	fs.UintVar(&rf.fullEvery, "full-every", 64, "with -record: store a full state every N ticks, 1 to 65536")
}

// check refuses, before the run, a -full-every out of range and a -record
// path that cannot be written, as -plot does (exit 2).
func (rf *recordFlags) check() error {
	if rf.fullEvery < 1 || rf.fullEvery > 65536 {
		return cli.Usagef("-full-every %d is out of range: want 1 to 65536", rf.fullEvery)
	}
	if rf.path == "" {
		return nil
	}
	return cli.CheckFile("-record", rf.path, "a file name")
}
