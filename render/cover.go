package render

// LayoutCover lays out frame f's overlay for a framebuffer of
// width×height pixels at content scale 1, as Draw would, and returns the
// share of the window its panels (status, banner, graph, help) cover,
// from 0 to 1, overlaps counted once (they never overlap; LayoutProblems
// says so when they do). For tests of how much of the scene stays in view.
func LayoutCover(f *Frame, width, height int) float64 {
	checkAtlasOnce.Do(func() { checkAtlas, checkAtlasErr = newAtlas(1) })
	if checkAtlasErr != nil || width <= 0 || height <= 0 {
		return 0
	}
	var h hud
	h.build(checkAtlas, f, width, height)
	l := &h.l
	var area float32
	for _, r := range []rect{l.status, l.banner, l.graph, l.help} {
		if r.w > 0 && r.h > 0 {
			area += r.w * r.h
		}
	}
	return min(1, float64(area)/float64(width*height))
}
