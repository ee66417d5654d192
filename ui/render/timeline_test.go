package render

import "testing"

// With a timeline, the other panels keep above it, at every size the
// viewer is tested at; the timeline spans the bottom of the window.
func TestViewerTimelineLayout(t *testing.T) {
	f := &Frame{
		HUD:      []string{"damaged.rec  446 steps (0:07.0)", "arena  1 player  a full state every 64 ticks", "tick 192  paused 1x  step 192/446", "record: DIFFERS (stored state)", "check: diverged at tick 192  1 span differs  D: go there", "F1: keys"},
		Banner:   "DIVERGED: tick 192 differs from the record\n1 of 8 bodies differ (magenta); R: the field report",
		Timeline: &Timeline{At: 0.4, Checked: 1, Bad: [][2]float64{{0.4, 0.55}}, Mark: 0.4, Left: "tick 192  0:03.0 / 0:07.0", Right: "paused 1x"},
	}
	a, err := newAtlas(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{1280, 720}, {640, 360}} {
		W, H := size[0], size[1]
		if p := LayoutProblems(f, W, H); len(p) > 0 {
			t.Errorf("%dx%d: %v", W, H, p)
		}
		var h hud
		h.build(a, f, W, H)
		tl := h.timeline
		if tl.panel.y+tl.panel.h > float32(H) || tl.panel.y < float32(H)*0.8 || tl.panel.w < float32(W)*0.9 {
			t.Errorf("%dx%d: timeline panel %v", W, H, tl.panel)
		}
		if tl.bar.y < tl.panel.y || tl.bar.y+tl.bar.h > tl.panel.y+tl.panel.h || tl.bar.h < 4 {
			t.Errorf("%dx%d: bar %v outside the panel %v", W, H, tl.bar, tl.panel)
		}
		for _, r := range []rect{h.status, h.banner} {
			if r.h > 0 && r.y+r.h > tl.panel.y {
				t.Errorf("%dx%d: a panel %v reaches into the timeline %v", W, H, r, tl.panel)
			}
		}
	}
	// Without a timeline nothing is reserved.
	f.Timeline = nil
	var h hud
	h.build(a, f, 640, 360)
	if h.timeline.panel.w != 0 {
		t.Errorf("no timeline, but a panel %v", h.timeline.panel)
	}
}
