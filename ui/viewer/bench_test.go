package viewer

import (
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/cubelab/cube/record"
)

// The seek benchmarks use a 10-minute cubes record: the file named by
// CUBE_VIEWER_RECORD (for example one written by
// `cube sim -scene cubes -preset perfect -seconds 600 -record FILE`), or
// else one written here by driving the cubes scene with its script for
// 38400 ticks (64 Hz, 10 minutes), which takes a minute or more.
var (
	cubesOnce sync.Once
	cubesRec  *record.Record
	cubesErr  error
)

// tenMinutes is 10 minutes of ticks at 64 Hz.
const tenMinutes = 10 * 60 * 64

func cubesRecord(b *testing.B) *record.Record {
	cubesOnce.Do(func() {
		if name := os.Getenv("CUBE_VIEWER_RECORD"); name != "" {
			f, err := os.Open(name)
			if err != nil {
				cubesErr = err
				return
			}
			defer f.Close()
			cubesRec, cubesErr = record.Read(f, 1<<30)
			return
		}
		cubesRec = writeRecord(b, session{scene: "cubes", ticks: tenMinutes, fullEvery: record.DefaultFullEvery, nudgeAt: -1})
	})
	if cubesErr != nil {
		b.Fatal(cubesErr)
	}
	if r := cubesRec; r.Header.Scene.Name != "cubes" || r.Len() < tenMinutes {
		b.Fatalf("want a 10-minute cubes record: %s, %d steps", r.Header.Scene.Name, r.Len())
	}
	return cubesRec
}

var (
	checkOnce  sync.Once
	cubesCheck *Checker
)

// checked returns the record's Checker, once it has checked it all, and
// reports how long that took and what it kept.
func checked(b *testing.B, rec *record.Record) *Checker {
	checkOnce.Do(func() {
		cubesCheck = Check(rec)
		cubesCheck.Wait()
	})
	st := cubesCheck.Status()
	if st.Err != nil || st.First != nil {
		b.Fatalf("check: %v, %v", st.Err, st.First)
	}
	return cubesCheck
}

// reportCheck reports how long the check took and what it kept (call it
// after the timed loop: ResetTimer drops reported metrics).
func reportCheck(b *testing.B, c *Checker) {
	n, bytes := c.Kept()
	b.ReportMetric(c.Status().Took.Seconds(), "check_s")
	b.ReportMetric(float64(n), "kept_states")
	b.ReportMetric(float64(bytes)/(1<<20), "kept_MiB")
}

// benchSeeks seeks to the positions pick gives, each from another segment
// (so the segment cache never helps), and reports the slowest seek; with
// kept, from the states the background check kept too, as the viewer does
// once the check is done.
func benchSeeks(b *testing.B, kept bool, pick func(s *Seeker, r *rand.Rand) int) {
	rec := cubesRecord(b)
	s, err := New(rec)
	if err != nil {
		b.Fatal(err)
	}
	var c *Checker
	if kept {
		c = checked(b, rec)
		s.UseDerived(c)
	}
	r := rand.New(rand.NewPCG(3, 4))
	var worst time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := pick(s, r)
		t0 := time.Now()
		if err := s.Seek(p); err != nil {
			b.Fatal(err)
		}
		worst = max(worst, time.Since(t0))
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "max_ms")
	if c != nil {
		reportCheck(b, c)
	}
}

// uniform picks a position anywhere in the record.
func uniform(s *Seeker, r *rand.Rand) int { return r.IntN(s.Len() + 1) }

// worst picks a keyframe position: with the record's keyframes alone it
// re-simulates a whole segment (FullEvery ticks) from the keyframe before,
// with the states the check kept half of one.
func worst(s *Seeker, r *rand.Rand) int {
	k := s.Keyframes()
	return k[1+r.IntN(len(k)-1)]
}

// BenchmarkSeekCubes10Min seeks to positions spread uniformly over a
// 10-minute cubes record, from its keyframes alone.
func BenchmarkSeekCubes10Min(b *testing.B) { benchSeeks(b, false, uniform) }

// BenchmarkSeekCubes10MinWorst seeks to the farthest positions from the
// keyframes before them.
func BenchmarkSeekCubes10MinWorst(b *testing.B) { benchSeeks(b, false, worst) }

// BenchmarkSeekCubes10MinKept seeks anywhere, from the keyframes and the
// states the check kept.
func BenchmarkSeekCubes10MinKept(b *testing.B) { benchSeeks(b, true, uniform) }

// BenchmarkSeekCubes10MinKeptWorst seeks to the farthest positions, from
// the keyframes and the states the check kept.
func BenchmarkSeekCubes10MinKeptWorst(b *testing.B) { benchSeeks(b, true, worst) }

// BenchmarkSeekNearCubes10Min is a scrub's seek on a 10-minute cubes
// record: the stored state at the keyframe before a random position.
func BenchmarkSeekNearCubes10Min(b *testing.B) {
	rec := cubesRecord(b)
	s, err := New(rec)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.SeekNear(r.IntN(s.Len() + 1)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStepBackCubes steps back one tick at a time from the end of a
// segment: after the first, each is a Load from the segment cache.
func BenchmarkStepBackCubes(b *testing.B) {
	rec := cubesRecord(b)
	s, err := New(rec)
	if err != nil {
		b.Fatal(err)
	}
	k := s.Keyframes()
	end := k[len(k)/2]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if s.Pos() <= end-60 || s.Pos() > end {
			b.StopTimer()
			if err := s.Seek(end); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		if err := s.Back(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenCubes10Min measures opening the record CUBE_VIEWER_RECORD
// names in the viewer: record.Read, then New (the scene built, the
// keyframe index, the segment cache); it reports the heap the open record
// holds (record_MiB). Without the variable it is skipped.
func BenchmarkOpenCubes10Min(b *testing.B) {
	name := os.Getenv("CUBE_VIEWER_RECORD")
	if name == "" {
		b.Skip("CUBE_VIEWER_RECORD names no record")
	}
	var heap uint64
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		f, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		rec, err := record.Read(f, 1<<30)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		s, err := New(rec)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&m1)
		heap = max(heap, m1.HeapAlloc-m0.HeapAlloc)
		runtime.KeepAlive(s)
		b.StartTimer()
	}
	b.ReportMetric(float64(heap)/(1<<20), "record_MiB")
}
