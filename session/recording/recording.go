// Package recording writes a running server's session record to a file:
// it creates the file, attaches a record writer to the server with the
// server's current state as the initial one, and closes both. A write
// that fails cuts the record short and the server plays on (CutError).
package recording

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/server"
	"github.com/cubelab/cube/session"
)

// File is an open session record. It is the server's Recorder: it
// passes each call to the record's writer until a write fails, then cuts
// the file after its last complete chunk and records nothing more, so
// that the game goes on without its record.
type File struct {
	path string
	f    sink
	c    *counter // between the writer and f
	w    *record.Writer
	cut  *CutError // nil while the record is whole
	// world is the server's, whose steps hash their stages, when the
	// record stores them.
	world *physics.World
}

// sink is where a record goes: an *os.File.
type sink interface {
	io.WriteCloser
	Truncate(size int64) error
}

// Options say what a record holds besides every tick's inputs and hash.
type Options struct {
	FullEvery uint32 // a full state every this many ticks; 0: record.DefaultFullEvery
	// Stages: each tick's stage hashes (physics.World.HashStages), so
	// that a replay that diverges names the first stage of the step that
	// differs by itself. The server's step then runs on one worker and
	// costs more (docs/performance.md); off by default.
	Stages bool
}

// Session creates path and attaches a record writer to the session's
// server, with the server's current state as the initial one and the
// session's settings as the record's metadata.
func Session(path string, o Options, s *session.Session) (*File, error) {
	srv, missing := "clocked", server.RepeatLast.String() // the clocked server repeats
	if !s.Config.Clocked {
		srv, missing = "input-driven", s.Config.Missing.String()
	}
	return Server(path, o, s.Server, s.Config.Physics, struct {
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
func Server(path string, o Options, srv *server.Server, phys physics.Config, meta any) (*File, error) {
	m, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return attach(f, path, o, srv, phys, string(m))
}

// attach writes the record's header to f and makes the File srv's
// Recorder; it closes f if the header cannot be written.
func attach(f sink, path string, o Options, srv *server.Server, phys physics.Config, meta string) (*File, error) {
	h := record.Header{Physics: phys, Scene: srv.Scene().ID, FullEvery: o.FullEvery, Meta: meta, Stages: o.Stages}
	srv.World().Save(&h.Initial)
	c := &counter{out: f}
	w, err := record.NewWriter(c, h)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r := &File{path: path, f: f, c: c, w: w}
	if o.Stages {
		r.world = srv.World()
		r.world.HashStages(true)
	}
	srv.Recorder = r
	return r, nil
}

// Event implements server.Recorder.
func (r *File) Event(tick uint32, e game.Event) error {
	if r.cut != nil {
		return nil
	}
	return r.failed(r.w.Event(tick, e))
}

// Tick implements server.Recorder.
func (r *File) Tick(tick uint32, ins []game.Input, hashAfter uint64, after *physics.State) error {
	if r.cut != nil {
		return nil
	}
	if r.world != nil {
		if h := r.world.StageHashes(); h != nil && h.Tick == tick {
			if err := r.w.Stages(h); err != nil {
				return err
			}
		}
	}
	return r.failed(r.w.Tick(tick, ins, hashAfter, after))
}

// Skip implements server.Recorder.
func (r *File) Skip(from, to uint32) error {
	if r.cut != nil {
		return nil
	}
	return r.failed(r.w.Skip(from, to))
}

// failed passes on err, an error of the record's writer, unless it comes
// from a failed write: then it cuts the record and returns nil. Other
// errors (a call out of order, a state the record would refuse) are the
// server's and end its tick as before.
func (r *File) failed(err error) error {
	if err == nil || r.c.err == nil {
		return err
	}
	r.cut = &CutError{Path: r.path, Bytes: r.c.good, Err: err}
	// A partial chunk at the end would read as truncated too; cutting it
	// gives its space back to a full disk.
	_ = r.f.Truncate(r.c.good)
	return nil
}

// Cut returns why the record was cut short, or nil while it is whole.
func (r *File) Cut() *CutError {
	if r == nil {
		return nil
	}
	return r.cut
}

// Close ends the record and the file; a nil File has nothing to close. A
// record cut short, or cut by the end marker's own write, gives its
// *CutError.
func (r *File) Close() error {
	if r == nil {
		return nil
	}
	if r.world != nil {
		r.world.HashStages(false)
	}
	var err error
	if r.cut == nil {
		err = r.failed(r.w.Close())
	}
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	if err == nil && r.cut != nil {
		return r.cut
	}
	return err
}

var _ server.Recorder = (*File)(nil)
