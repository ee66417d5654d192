package main

import (
	"os"
	"path/filepath"
)

// recordFlags are the -record flags sim and the window share.
type recordFlags struct {
	path      string
	fullEvery uint
}

func (rf *recordFlags) register(fs *flags) {
	fs.StringVar(&rf.path, "record", "", "write the server's session record to this file (replay it with 'cube replay FILE')")
	fs.UintVar(&rf.fullEvery, "full-every", 64, "with -record: store a full state every N ticks, 1 to 65536")
}

// check refuses, before the run, a -full-every out of range and a -record
// path that cannot be written, as -plot does (exit 2).
func (rf *recordFlags) check() error {
	if rf.fullEvery < 1 || rf.fullEvery > 65536 {
		return usagef("-full-every %d is out of range: want 1 to 65536", rf.fullEvery)
	}
	if rf.path == "" {
		return nil
	}
	if fi, err := os.Stat(rf.path); err == nil && fi.IsDir() {
		return usagef("-record %s is a folder: want a file name", rf.path)
	}
	dir := filepath.Dir(rf.path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usagef("-record %s: the folder %s does not exist", rf.path, dir)
	}
	if err := checkWritableDir(dir); err != nil {
		return usagef("-record %s: %v", rf.path, err)
	}
	return nil
}
