package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// View is where the camera looks from, around the followed point: its yaw
// (0 looks along -Z), its pitch above the horizon, in radians, and its
// distance in metres.
type View struct {
	Yaw, Pitch, Dist float32
}

// DefaultView returns the camera's view when nothing is to be framed.
func DefaultView() View { return View{Yaw: camYaw, Pitch: camPitch, Dist: camDist} }

// fitMargin is how far from the free rectangle's edges, in shares of its
// half size (1 is the edge), FitView keeps the points it frames.
const fitMargin = 0.85

// Rect is a rectangle of the framebuffer, in pixels from its top left
// corner.
type Rect struct{ X, Y, W, H float32 }

// FitView returns a view of the followed point target, in a framebuffer of
// width×height pixels whose part free is left free by the panels, that
// holds every one of points (the subject: the player's cube, a scene's
// structure, the other players' cubes) in free: from the least distance
// from the default one up (at most the farthest zoom), the camera putting
// target at free's centre as the window does. With turn, it looks from the
// side of target away from the points' centre, so that a followed cube at
// the edge of a block of bodies is seen in front of it; else from the
// default angle. Without points it returns DefaultView.
func FitView(target mgl32.Vec3, points []mgl32.Vec3, turn bool, width, height int, free Rect) View {
	v := DefaultView()
	if len(points) == 0 || !finite3(target) {
		return v
	}
	if turn {
		var centre mgl32.Vec3
		for _, p := range points {
			centre = centre.Add(p)
		}
		centre = centre.Mul(1 / float32(len(points)))
		if dx, dz := target[0]-centre[0], target[2]-centre[2]; dx*dx+dz*dz > 0.25 {
			v.Yaw = float32(math.Atan2(float64(dx), float64(dz))) // back points from the centre to the target
		}
	}
	for d := float32(camDist); d <= camMaxDist; d++ {
		v.Dist = d
		if holds(v, target, points, width, height, free) {
			return v
		}
	}
	v.Dist = camMaxDist
	return v
}

// viewCamera returns the camera of view v around target, framing into
// free of a width×height framebuffer.
func viewCamera(v View, target mgl32.Vec3, width, height int, free Rect) camera {
	c := camera{target: target, yaw: v.Yaw, pitch: v.Pitch, dist: v.Dist, placed: true}
	c.shift = freeCentre(free, width, height)
	return c
}

// Project returns where point p falls, in framebuffer pixels from the top
// left corner, with the camera at view v around target putting target at
// the centre of free, as the window does (before obstacles move it); ok is
// false for a point behind the camera.
func (v View) Project(target, p mgl32.Vec3, width, height int, free Rect) (x, y float32, ok bool) {
	c := viewCamera(v, target, width, height, free)
	q := c.proj(width, height).Mul4(c.view()).Mul4x1(p.Vec4(1))
	if q[3] <= camNear {
		return 0, 0, false
	}
	return (q[0]/q[3] + 1) / 2 * float32(width), (1 - q[1]/q[3]) / 2 * float32(height), true
}

// holds reports whether every point is in front of the camera of view v
// and within fitMargin of free's centre.
func holds(v View, target mgl32.Vec3, points []mgl32.Vec3, width, height int, free Rect) bool {
	if free.W <= 0 || free.H <= 0 {
		free = Rect{0, 0, float32(width), float32(height)}
	}
	cx, cy := free.X+free.W/2, free.Y+free.H/2
	hx, hy := fitMargin*free.W/2, fitMargin*free.H/2
	for _, p := range points {
		x, y, ok := v.Project(target, p, width, height, free)
		if !ok || x < cx-hx || x > cx+hx || y < cy-hy || y > cy+hy {
			return false
		}
	}
	return true
}

// freeCentre returns the centre of free in normalised device coordinates
// of a width×height framebuffer (y up); the window's centre for an empty
// free or framebuffer.
func freeCentre(free Rect, width, height int) mgl32.Vec2 {
	if free.W <= 0 || free.H <= 0 || width <= 0 || height <= 0 {
		return mgl32.Vec2{}
	}
	return mgl32.Vec2{
		(free.X+free.W/2)/float32(width)*2 - 1,
		1 - (free.Y+free.H/2)/float32(height)*2,
	}
}

// FreeRect lays out frame f's overlay for a framebuffer of width×height
// pixels at content scale 1, as Draw would, and returns the part of the
// window its panels leave free, where the camera frames its subject.
func FreeRect(f *Frame, width, height int) Rect {
	checkAtlasOnce.Do(func() { checkAtlas, checkAtlasErr = newAtlas(1) })
	if checkAtlasErr != nil {
		return Rect{0, 0, float32(width), float32(height)}
	}
	var h hud
	h.build(checkAtlas, f, width, height)
	return h.free(float32(width), float32(height), Rect{})
}

// FreeRect returns the part of the window that frame f's panels leave
// free, as Draw lays them out at the window's size and content scale (and
// as Draw chooses it, keeping to the part it framed in last).
func (w *Window) FreeRect(f *Frame) Rect {
	var h hud
	h.build(w.atlas, f, w.fbW, w.fbH)
	return h.free(float32(w.fbW), float32(w.fbH), w.lastFree)
}

// keepFree is how much larger another free part must be than one like
// the part framed in last to be taken instead: the panels' sizes change by
// a character as their numbers do, and two parts of nearly equal area
// (beside the status panel above the graph, or beside both) would
// otherwise take turns, the camera swinging between their centres.
const keepFree = 1.25

// free returns the largest rectangle of a W×H framebuffer that the
// panels, as last laid out, leave free, half a margin away from each (a
// help panel shown alone over the window aside: it hides the rest); the
// whole window when they cover nothing. A rectangle that holds most of
// prev (the part framed in last) counts keepFree times its area. Of
// rectangles of equal area, the first found wins: the candidates' edges are
// those of the window and the panels.
func (h *hud) free(W, H float32, prev Rect) Rect {
	l := &h.l
	g := float32(math.Round(float64(l.m) / 2))
	var obs [5]rect
	n := 0
	help := l.help
	if l.helpAlone {
		help = rect{}
	}
	for _, r := range [...]rect{l.status, l.banner, l.graph, h.timeline.panel, help} {
		if r.w > 0 && r.h > 0 {
			obs[n] = rect{r.x - g, r.y - g, r.w + 2*g, r.h + 2*g}
			n++
		}
	}
	whole := Rect{0, 0, W, H}
	if n == 0 {
		return whole
	}
	var xs, ys [2 + 2*len(obs)]float32
	xs[0], xs[1], ys[0], ys[1] = 0, W, 0, H
	for i, r := range obs[:n] {
		xs[2+2*i], xs[3+2*i] = mgl32.Clamp(r.x, 0, W), mgl32.Clamp(r.x+r.w, 0, W)
		ys[2+2*i], ys[3+2*i] = mgl32.Clamp(r.y, 0, H), mgl32.Clamp(r.y+r.h, 0, H)
	}
	k := 2 + 2*n
	best, bestScore := whole, float32(0)
	for _, x0 := range xs[:k] {
		for _, x1 := range xs[:k] {
			if x1 <= x0 {
				continue
			}
			for _, y0 := range ys[:k] {
				for _, y1 := range ys[:k] {
					if y1 <= y0 || keepFree*(x1-x0)*(y1-y0) <= bestScore {
						continue
					}
					c := rect{x0, y0, x1 - x0, y1 - y0}
					clear := true
					for _, r := range obs[:n] {
						if overlaps(c, r) {
							clear = false
							break
						}
					}
					score := c.w * c.h
					if like(c, prev) {
						score *= keepFree
					}
					if clear && score > bestScore {
						best, bestScore = Rect{c.x, c.y, c.w, c.h}, score
					}
				}
			}
		}
	}
	return best
}

// like reports whether c holds most (90 %) of p and is not much more than
// p (at most 1.25 times its area).
func like(c rect, p Rect) bool {
	if p.W <= 0 || p.H <= 0 {
		return false
	}
	w := min(c.x+c.w, p.X+p.W) - max(c.x, p.X)
	h := min(c.y+c.h, p.Y+p.H) - max(c.y, p.Y)
	return w > 0 && h > 0 && w*h >= 0.9*p.W*p.H && c.w*c.h <= 1.25*p.W*p.H
}

// SetHome makes v the camera's home, where ResetCamera (the Home key)
// puts it back, and puts the camera there now.
func (w *Window) SetHome(v View) {
	w.cam.home = v
	w.cam.reset()
}
