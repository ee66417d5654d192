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

// LayoutHidesCentre reports whether frame f's status panel, banner or
// graph, laid out for width×height, covers the window's centre, where the
// camera puts the followed cube (the help panel, shown on demand, aside).
func LayoutHidesCentre(f *Frame, width, height int) bool {
	checkAtlasOnce.Do(func() { checkAtlas, checkAtlasErr = newAtlas(1) })
	if checkAtlasErr != nil {
		return false
	}
	var h hud
	h.build(checkAtlas, f, width, height)
	cx, cy := float32(width)/2, float32(height)/2
	for _, r := range []rect{h.l.status, h.l.banner, h.l.graph} {
		if r.w > 0 && cx >= r.x && cx <= r.x+r.w && cy >= r.y && cy <= r.y+r.h {
			return true
		}
	}
	return false
}
