package recording

import (
	"bytes"
	"errors"
	"strings"
	"syscall"
	"testing"

	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/session"
)

// fullDisk is a file on a disk that fills after n bytes: a write that
// does not fit writes what does and fails with ENOSPC, as write(2) does.
type fullDisk struct {
	n      int
	buf    bytes.Buffer
	closed bool
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if room := d.n - d.buf.Len(); len(p) > room {
		d.buf.Write(p[:max(room, 0)])
		return max(room, 0), syscall.ENOSPC
	}
	return d.buf.Write(p)
}

func (d *fullDisk) Truncate(size int64) error {
	d.buf.Truncate(int(size))
	return nil
}

func (d *fullDisk) Close() error {
	d.closed = true
	return nil
}

// TestAFullDiskCutsTheRecordNotTheGame: when the record's file cannot
// take a chunk, the server's ticks go on without error and its client
// keeps getting its messages; the file ends after its last complete chunk
// and reads back as truncated, and its ticks replay; Close says where the
// record was cut and why.
func TestAFullDiskCutsTheRecordNotTheGame(t *testing.T) {
	for _, room := range []int{20_000, 40_000} {
		cfg := session.DefaultConfig()
		s, err := session.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		disk := &fullDisk{n: room}
		f, err := attach(disk, "disk.rec", Options{FullEvery: 16}, s.Server, s.Config.Physics, "{}")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 640; i++ {
			if err := s.Tick(0); err != nil {
				t.Fatalf("room %d: tick %d: %v", room, i, err)
			}
		}
		c := f.Cut()
		if c == nil {
			t.Fatalf("room %d: the record was not cut (%d bytes written)", room, disk.buf.Len())
		}
		if !errors.Is(c, syscall.ENOSPC) || c.Bytes != int64(disk.buf.Len()) || c.Bytes > int64(room) {
			t.Fatalf("room %d: cut %v at %d bytes, the file holds %d", room, c, c.Bytes, disk.buf.Len())
		}
		heard, _ := s.Client.Newest()
		if heard < 600 {
			t.Errorf("room %d: the client heard the server up to tick %d of 640", room, heard)
		}
		var cut *CutError
		if err := f.Close(); !errors.As(err, &cut) || !disk.closed || !strings.Contains(err.Error(), "truncated") {
			t.Fatalf("room %d: close: %v (file closed %v)", room, err, disk.closed)
		}
		rec, err := record.Read(bytes.NewReader(disk.buf.Bytes()), 1<<30)
		if err != nil {
			t.Fatalf("room %d: read: %v", room, err)
		}
		if !rec.Truncated || rec.Len() == 0 || rec.Len() >= 640 {
			t.Fatalf("room %d: truncated %v (%s), %d steps", room, rec.Truncated, rec.TruncatedWhy, rec.Len())
		}
		res, err := record.Replay(rec)
		if err != nil || res.Divergence != nil {
			t.Fatalf("room %d: replay: %v, %v", room, err, res)
		}
		t.Logf("room %d: cut at %d bytes, %d steps kept: %v", room, c.Bytes, rec.Len(), c.Err)
	}
}

// TestWriteErrorsOtherThanTheDisksPassOn: an error of the server's own
// calls (a tick out of order) is not a cut: it reaches the server.
func TestWriteErrorsOtherThanTheDisksPassOn(t *testing.T) {
	s, err := session.New(session.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	f, err := attach(&fullDisk{n: 1 << 20}, "x.rec", Options{FullEvery: 16}, s.Server, s.Config.Physics, "{}")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Skip(s.Server.Tick()+5, s.Server.Tick()+9); err == nil || f.Cut() != nil {
		t.Fatalf("a skip out of order: %v, cut %v", err, f.Cut())
	}
	if _, err := attach(&fullDisk{n: 10}, "x.rec", Options{FullEvery: 16}, s.Server, s.Config.Physics, "{}"); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("a header that does not fit: %v", err)
	}
}
