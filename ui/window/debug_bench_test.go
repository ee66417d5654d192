//go:build cgo

package window

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
)

// benchLab returns the cubes scene after the player's cube pulled the
// cubes into a heap for 150 ticks, paused: about 3,600 contacts, most of
// them the resting cubes' on the ground, and the heap's between cubes.
func benchLab(b *testing.B) *lab.Lab {
	b.Helper()
	cfg := session.DefaultConfig()
	cfg.Scene = "cubes"
	l, err := lab.New(cfg, false, 0)
	if err != nil {
		b.Fatal(err)
	}
	for range 150 {
		if err := l.Tick(game.Pull | game.Forward); err != nil {
			b.Fatal(err)
		}
	}
	l.Paused = true
	return l
}

// BenchmarkDebugGeometry measures what a frame of the window costs the
// CPU before OpenGL sees it, with every debug layer off and with every
// layer on, in the cubes scene of benchLab: the lab's frame (the views of
// the layers that are on) and the frame's boxes and lines (BuildFrame).
// The difference is what the debug drawing adds; the lines' vertices are
// render's BenchmarkLineBuild.
func BenchmarkDebugGeometry(b *testing.B) {
	l := benchLab(b)
	for _, all := range []bool{false, true} {
		name := "off"
		if all {
			name = "all"
		}
		b.Run(name, func(b *testing.B) {
			for k := range l.Debug.On {
				l.Debug.On[k] = all
			}
			var f render.Frame
			frame := func() {
				if err := l.Frame(1.0 / 60); err != nil {
					b.Fatal(err)
				}
				BuildFrame(l, &f)
			}
			frame()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				frame()
			}
			b.ReportMetric(float64(len(f.Lines)), "lines")
			b.ReportMetric(float64(len(f.Outlines)), "outlines")
			b.ReportMetric(float64(len(l.Debug.Contacts)), "contacts")
		})
	}
}
