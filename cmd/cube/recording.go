package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/server"
	"github.com/cubelab/cube/session"
)

// recording is an open session record: the server writes into it.
type recording struct {
	f *os.File
	w *record.Writer
}

// startRecording creates path and attaches a record writer to the session's
// server, with the server's current state as the initial one.
func startRecording(path string, fullEvery uint32, s *session.Session) (*recording, error) {
	srv, missing := "clocked", server.RepeatLast.String() // the clocked server repeats
	if !s.Config.Clocked {
		srv, missing = "input-driven", s.Config.Missing.String()
	}
	return recordServer(path, fullEvery, s.Server, s.Config.Physics, struct {
		Preset     string `json:"preset"`
		Seed       uint64 `json:"seed"`
		SnapshotHz int    `json:"snapshot_hz"`
		Server     string `json:"server"`
		Missing    string `json:"missing"`
		StartTick  uint32 `json:"start_tick"`
	}{s.Config.Preset, s.Config.Seed, s.Config.SnapshotHz, srv, missing, s.Config.StartTick})
}

// recordServer creates path and attaches a record writer to srv, whose
// world steps with configuration phys, with its current state as the
// initial one and meta, in JSON, as the record's free-form metadata.
func recordServer(path string, fullEvery uint32, srv *server.Server, phys physics.Config, meta any) (*recording, error) {
	m, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	h := record.Header{Physics: phys, Scene: srv.Scene().ID, FullEvery: fullEvery, Meta: string(m)}
	srv.World().Save(&h.Initial)
	w, err := record.NewWriter(f, h)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	srv.Recorder = w
	return &recording{f: f, w: w}, nil
}

// close ends the record and the file.
func (r *recording) close() error {
	if r == nil {
		return nil
	}
	err := r.w.Close()
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	return err
}

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
