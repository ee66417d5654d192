// Package recording writes a running server's session record to a file:
// it creates the file, attaches a record writer to the server with the
// server's current state as the initial one, and closes both.
package recording

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/server"
	"github.com/cubelab/cube/session"
)

// File is an open session record: the server writes into it.
type File struct {
	f *os.File
	w *record.Writer
}

// Session creates path and attaches a record writer to the session's
// server, with the server's current state as the initial one and the
// session's settings as the record's metadata.
func Session(path string, fullEvery uint32, s *session.Session) (*File, error) {
	srv, missing := "clocked", server.RepeatLast.String() // the clocked server repeats
	if !s.Config.Clocked {
		srv, missing = "input-driven", s.Config.Missing.String()
	}
	return Server(path, fullEvery, s.Server, s.Config.Physics, struct {
		Preset     string `json:"preset"`
		Seed       uint64 `json:"seed"`
		SnapshotHz int    `json:"snapshot_hz"`
		Server     string `json:"server"`
		Missing    string `json:"missing"`
		StartTick  uint32 `json:"start_tick"`
	}{s.Config.Preset, s.Config.Seed, s.Config.SnapshotHz, srv, missing, s.Config.StartTick})
}

// Server creates path and attaches a record writer to srv, whose
// world steps with configuration phys, with its current state as the
// initial one and meta, in JSON, as the record's free-form metadata.
func Server(path string, fullEvery uint32, srv *server.Server, phys physics.Config, meta any) (*File, error) {
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
	return &File{f: f, w: w}, nil
}

// Close ends the record and the file; a nil File has nothing to close.
func (r *File) Close() error {
	if r == nil {
		return nil
	}
	err := r.w.Close()
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	return err
}
