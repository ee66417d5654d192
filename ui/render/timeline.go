package render

import (
	"math"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// Timeline is the record viewer's bar along the bottom of the window: where
// the shown point lies in the record, how far a background check got, the
// spans that differ from the record and a mark at the first divergence.
// Every place on it is a fraction of the record, 0 (its start) to 1 (its
// end). When a Frame has one, the other panels keep above it.
type Timeline struct {
	At      float64      // the shown point
	Checked float64      // the check got this far
	Bad     [][2]float64 // spans (from, to) that differ from the record
	Mark    float64      // the first divergence; negative: none
	Left    string       // text above the bar's left end, e.g. the tick and time
	Right   string       // text above its right end, e.g. "paused 1x"
}

// Timeline colours.
var (
	trackColor   = color{0.22, 0.24, 0.28, 1}
	checkedColor = color{0.28, 0.42, 0.32, 1}
	badColor     = color{1.00, 0.22, 0.18, 1}
	handleColor  = color{0.97, 0.97, 1.00, 1}
)

// timelineBox is where the last build put the timeline: the panel, and the
// bar inside it that a click maps to a fraction.
type timelineBox struct {
	panel, bar rect
}

// timelineFonts picks the timeline's faces for a framebuffer height.
func timelineFonts(a *atlas, H float32) *fontSet {
	switch {
	case H >= 600:
		return &a.normal
	case H >= 300:
		return &a.compact
	}
	return &a.tiny
}

// layTimeline returns where the timeline goes in a W×H framebuffer with
// font set fs: across the bottom, one line of text above a bar.
func layTimeline(fs *fontSet, W, H float32) timelineBox {
	m, pad := margins(fs)
	m = float32(math.Round(float64(m) / 2))
	lh := fs.lh()
	barH := float32(math.Round(float64(lh) * 0.8))
	h := pad + lh + pad/2 + barH + pad
	p := rect{m, H - m - h, W - 2*m, h}
	return timelineBox{panel: p, bar: rect{p.x + pad, p.y + pad + lh + pad/2, p.w - 2*pad, barH}}
}

// drawTimeline draws t into the box.
func (h *hud) drawTimeline(fs *fontSet, t *Timeline, tb timelineBox) {
	p, r := tb.panel, tb.bar
	_, pad := margins(fs)
	h.b.rect(p.x, p.y, p.w, p.h, panelBg)
	rw := fs.text.width(t.Right)
	right := r.x + r.w - rw
	h.b.textFit(fs.text, r.x, p.y+pad, t.Left, max(0, right-r.x-fs.cw()*2), textColor)
	h.b.text(fs.text, right, p.y+pad, t.Right, dimColor)
	h.b.rect(r.x, r.y, r.w, r.h, trackColor)
	x := func(f float64) float32 { return r.x + r.w*float32(max(0, min(1, f))) }
	if t.Checked > 0 {
		h.b.rect(r.x, r.y, x(t.Checked)-r.x, r.h, checkedColor)
	}
	for _, s := range t.Bad {
		x0, x1 := x(s[0]), x(s[1])
		h.b.rect(x0, r.y, max(x1-x0, 2), r.h, badColor)
	}
	if t.Mark >= 0 {
		mx := x(t.Mark)
		h.b.rect(mx-1, r.y-pad/2, 3, r.h+pad, badColor)
	}
	hx := x(t.At)
	h.b.rect(hx-2, r.y-pad/2, 5, r.h+pad, handleColor)
}

// TimelineAt maps the cursor position (x, y), in window coordinates as
// Mouse returns them, onto the timeline the last Draw showed: the fraction
// of the record under x (clamped to 0..1 across the bar, wherever y is,
// so that a drag may leave the bar), and whether (x, y) is on the
// timeline's panel. Without a timeline it returns 0, false.
func (w *Window) TimelineAt(x, y float64) (float64, bool) {
	p, r := w.hud.timeline.panel, w.hud.timeline.bar
	if p.w <= 0 || r.w <= 0 {
		return 0, false
	}
	fx, fy := w.toFramebuffer(x, y)
	f := max(0, min(1, float64((fx-r.x)/r.w)))
	return f, fy >= p.y && fy <= p.y+p.h && fx >= p.x && fx <= p.x+p.w
}

// TimelinePoint returns the window coordinates of the point at fraction f
// of the timeline's bar, as the last Draw showed it: the inverse of
// TimelineAt, for scripted runs. Without a timeline it returns 0, 0.
func (w *Window) TimelinePoint(f float64) (x, y float64) {
	r := w.hud.timeline.bar
	if r.w <= 0 || w.fbW <= 0 || w.fbH <= 0 {
		return 0, 0
	}
	ww, wh := w.win.GetSize()
	fx, fy := float64(r.x)+f*float64(r.w), float64(r.y+r.h/2)
	return fx * float64(ww) / float64(w.fbW), fy * float64(wh) / float64(w.fbH)
}

// toFramebuffer converts window coordinates to framebuffer pixels.
func (w *Window) toFramebuffer(x, y float64) (float32, float32) {
	ww, wh := w.win.GetSize()
	if ww <= 0 || wh <= 0 {
		return float32(x), float32(y)
	}
	return float32(x * float64(w.fbW) / float64(ww)), float32(y * float64(w.fbH) / float64(wh))
}

// Mouse returns the cursor position in window coordinates and whether the
// left button is down.
func (w *Window) Mouse() (x, y float64, left bool) {
	x, y = w.win.GetCursorPos()
	return x, y, w.win.GetMouseButton(glfw.MouseButtonLeft) == glfw.Press
}
