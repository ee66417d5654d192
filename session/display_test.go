package session

import (
	"math"
	"testing"

	"github.com/cubelab/cube/predict"
)

// TestDisplayTrackDecaysAndMeasures: a correction of 0.5 m shows as an
// offset that shrinks to SmoothKeep per 1/60 s frame; the track keeps the
// largest frame-to-frame move, and the displayed pose is the physics pose
// plus the offset.
func TestDisplayTrackDecaysAndMeasures(t *testing.T) {
	s, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	c := s.Client
	b := c.World().Body(c.Body())
	moved := b.Pos
	moved.X += 0.5
	c.Smooth.Correct(moved, b.Pos, b.Rot, b.Rot)
	var d DisplayTrack
	d.Frame(c, 1.0/60)
	off, _ := c.Smooth.Offset()
	if math.Abs(off.Len()-0.5*predict.SmoothKeep) > 1e-9 {
		t.Fatalf("offset %v after a frame, want %v", off.Len(), 0.5*predict.SmoothKeep)
	}
	if math.Abs(d.MaxMove-0.5*predict.SmoothKeep) > 1e-9 {
		t.Errorf("largest move %v, want the first frame's %v", d.MaxMove, 0.5*predict.SmoothKeep)
	}
	pos, _ := DisplayPose(c)
	if math.Abs(pos.X()-(b.Pos.X+off.X())) > 1e-12 {
		t.Errorf("displayed x %v, want physics %v plus offset %v", pos.X(), b.Pos.X, off.X())
	}
	first := d.MaxMove
	d.Frame(c, 1.0/60)
	if d.MaxMove != first {
		t.Errorf("a smaller move changed the largest: %v then %v", first, d.MaxMove)
	}
}
