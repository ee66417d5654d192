package render

import (
	"cmp"
	"slices"

	"github.com/go-gl/mathgl/mgl32"
)

// Style says how a Box is drawn.
type Style int

const (
	// Solid boxes are opaque and lit by the directional light.
	Solid Style = iota
	// Translucent boxes are lit, blended with Color's alpha (0.3 to 0.5
	// reads well) and outlined by their edges in the opaque colour. They
	// are ghosts of other boxes: each is drawn slightly larger than given,
	// the n-th translucent box of a frame by n times its edge thickness on
	// every side, so that a ghost that coincides with a solid box or with
	// another ghost stays readable instead of z-fighting with it (striped
	// faces and edges), and coinciding ghosts show both outlines side by
	// side.
	Translucent
	// Wireframe boxes are drawn as their twelve edges, unlit, ignoring alpha.
	Wireframe
)

// Box is one oriented box to draw.
type Box struct {
	Center mgl32.Vec3 // world position of the centre, metres (y is up)
	Half   mgl32.Vec3 // half extents along the box's own axes, metres
	Rot    mgl32.Quat // orientation; the zero Quat counts as the identity
	Color  mgl32.Vec4 // linear RGB in 0..1 and alpha (used by Translucent)
	Style  Style
	// Shadow makes the box cast a soft round blob shadow straight down onto
	// the upward-facing surfaces below it (ground, obstacles). Meant for the
	// moving cubes; when more boxes ask for one, only the maxCasters
	// nearest to the camera target cast a shadow.
	Shadow bool
	// Blocks marks an obstacle (a wall, a static box): the camera keeps out
	// of it and does not let it hide the followed point.
	Blocks bool
	// Fades marks a solid box that is drawn faded (translucent, without
	// outline) while it comes within fadeReach of the line from the camera
	// to the followed point, so that a pile of moving bodies does not hide
	// the followed one. Not for the followed box itself.
	Fades bool
}

// Instance modes, matching scene.frag.
const (
	modeLit    = 0
	modeGround = 1
	modeFlat   = 2
)

const (
	instFloats = 15 // per instance: centre 3, half 3, rotation 4, colour 4, mode 1
	// maxCasters is at most MAX_CASTERS in scene.frag. Each caster costs
	// every lit pixel in the shadows' bounds, which grow with the casters'
	// spread: with the cubes scene's 900 casters, the 16 nearest took 10 ms
	// more a frame than the 8 nearest at 1280x720 under llvmpipe.
	maxCasters = 8
	groundHalf = 300 // metres; the ground is a slab this wide around the camera target
	groundDrop = 0.5 // half thickness of the ground slab, metres; its top is y=0
	fadeAlpha  = 0.12
	// fadeReach is how close to the line of sight a box with Fades must
	// come to fade, metres: about the followed cube's half size, so that
	// what hides part of it fades too.
	fadeReach = 0.6
)

// sceneBuild turns a frame's boxes into instance data for one instanced
// draw of the unit cube. Its slices are reused from frame to frame.
type sceneBuild struct {
	inst    []float32   // opaque instances, the ground last of them, then translucent ones back to front
	nOpaque int         // number of opaque instances at the start of inst
	casters []float32   // blob shadow casters, 4 floats each: bottom centre, radius
	bounds  [4]float32  // x0, z0, x1, z1 around every caster's widest shadow
	order   []transItem // scratch for sorting the translucent boxes
	shadows []transItem // scratch for choosing the shadow casters
}

// transItem is a box to sort by distance.
type transItem struct {
	dist2 float32    // squared distance from the eye or the camera target
	index int        // into the frame's boxes
	half  mgl32.Vec3 // half extents to draw (translucent boxes grow)
	alpha float32    // alpha to draw with; 0: the box's own
}

// build fills s from boxes, with the ground centred under the point around
// and the translucent boxes sorted farthest first as seen from eye.
func (s *sceneBuild) build(boxes []Box, around, eye mgl32.Vec3) {
	s.inst = s.inst[:0]
	s.casters = s.casters[:0]
	s.order = s.order[:0]
	s.shadows = s.shadows[:0]
	s.bounds = [4]float32{1, 1, -1, -1} // empty

	ghosts := 0
	sight := around.Sub(eye)
	sightLen := sight.Len()
	if sightLen > 0 {
		sight = sight.Mul(1 / sightLen)
	}
	for i := range boxes {
		b := &boxes[i]
		rot := unitQuat(b.Rot)
		style := b.Style
		if b.Fades && style == Solid && sightLen > 0 {
			if t, hit, inside := rayBox(eye, sight, b, fadeReach); inside || (hit && t < sightLen) {
				s.order = append(s.order, transItem{b.Center.Sub(eye).LenSqr(), i, b.Half, fadeAlpha})
				style = -1 // drawn with the translucent boxes only
			}
		}
		switch style {
		case -1:
		case Translucent:
			ghosts++
			s.order = append(s.order, transItem{b.Center.Sub(eye).LenSqr(), i, ghostHalf(b.Half, ghosts), 0})
			opaque := mgl32.Vec4{b.Color[0], b.Color[1], b.Color[2], 1}
			s.inst = appendEdges(s.inst, b.Center, ghostHalf(b.Half, ghosts), rot, opaque)
		case Wireframe:
			s.inst = appendEdges(s.inst, b.Center, b.Half, rot, mgl32.Vec4{b.Color[0], b.Color[1], b.Color[2], 1})
		default:
			c := b.Color
			c[3] = 1
			s.inst = appendInstance(s.inst, b.Center, b.Half, rot, c, modeLit)
		}
		if b.Shadow {
			s.shadows = append(s.shadows, transItem{b.Center.Sub(around).LenSqr(), i, b.Half, 0})
		}
	}
	s.inst = appendInstance(s.inst,
		mgl32.Vec3{around[0], -groundDrop, around[2]},
		mgl32.Vec3{groundHalf, groundDrop, groundHalf},
		mgl32.QuatIdent(), mgl32.Vec4{1, 1, 1, 1}, modeGround)
	s.nOpaque = len(s.inst) / instFloats

	if len(s.shadows) > maxCasters {
		slices.SortFunc(s.shadows, func(a, b transItem) int {
			if c := cmp.Compare(a.dist2, b.dist2); c != 0 {
				return c
			}
			return cmp.Compare(a.index, b.index)
		})
		s.shadows = s.shadows[:maxCasters]
	}
	for _, it := range s.shadows {
		b := &boxes[it.index]
		s.casters = appendCaster(s.casters, b.Center, b.Half, unitQuat(b.Rot))
		s.growBounds(s.casters[len(s.casters)-4:])
	}

	slices.SortFunc(s.order, func(a, b transItem) int {
		if c := cmp.Compare(b.dist2, a.dist2); c != 0 {
			return c
		}
		return cmp.Compare(a.index, b.index)
	})
	for _, it := range s.order {
		b := &boxes[it.index]
		c := b.Color
		if it.alpha > 0 {
			c[3] = it.alpha
		}
		s.inst = appendInstance(s.inst, b.Center, it.half, unitQuat(b.Rot), c, modeLit)
	}
}

// ghostHalf returns the half extents the n-th translucent box (from 1) is
// drawn with: larger by n edge thicknesses (1.2 to 6 cm), far more than the
// depth buffer resolves at the camera's distances (0.1 mm at 14 m, 4 mm at
// 80 m), little enough not to misplace the ghost.
func ghostHalf(half mgl32.Vec3, n int) mgl32.Vec3 {
	g := edgeThickness(half) * float32(n)
	return mgl32.Vec3{half[0] + g, half[1] + g, half[2] + g}
}

// growBounds widens s.bounds to hold the widest shadow of caster c: its
// radius grows to 2.5 times at the height where it fades out (scene.frag).
func (s *sceneBuild) growBounds(c []float32) {
	r := 2.5 * c[3]
	x0, z0, x1, z1 := c[0]-r, c[2]-r, c[0]+r, c[2]+r
	if s.bounds[0] > s.bounds[2] {
		s.bounds = [4]float32{x0, z0, x1, z1}
		return
	}
	s.bounds = [4]float32{min(s.bounds[0], x0), min(s.bounds[1], z0), max(s.bounds[2], x1), max(s.bounds[3], z1)}
}

// appendInstance appends one instance in the layout scene.vert reads.
func appendInstance(dst []float32, center, half mgl32.Vec3, rot mgl32.Quat, color mgl32.Vec4, mode int) []float32 {
	return append(dst,
		center[0], center[1], center[2],
		half[0], half[1], half[2],
		rot.V[0], rot.V[1], rot.V[2], rot.W,
		color[0], color[1], color[2], color[3],
		float32(mode))
}

// edgeThickness returns the half thickness of a wireframe edge for a box of
// the given half extents: thin, but thick enough to see from afar.
func edgeThickness(half mgl32.Vec3) float32 {
	m := max(half[0], half[1], half[2])
	return mgl32.Clamp(0.01+0.025*m, 0.012, 0.06)
}

// appendEdges appends the twelve edges of a box as thin flat-coloured bars.
func appendEdges(dst []float32, center, half mgl32.Vec3, rot mgl32.Quat, color mgl32.Vec4) []float32 {
	t := edgeThickness(half)
	for axis := range 3 {
		// The two other axes give the four parallel edges along this one.
		a1, a2 := (axis+1)%3, (axis+2)%3
		for _, s1 := range [2]float32{-1, 1} {
			for _, s2 := range [2]float32{-1, 1} {
				var local, h mgl32.Vec3
				local[a1] = s1 * half[a1]
				local[a2] = s2 * half[a2]
				h[axis] = half[axis] + t
				h[a1], h[a2] = t, t
				dst = appendInstance(dst, center.Add(rot.Rotate(local)), h, rot, color, modeFlat)
			}
		}
	}
	return dst
}

// appendCaster appends the blob shadow caster of a box: the centre of its
// lowest point's level and a radius wider than its footprint, so that the
// shadow shows around a box resting on the ground.
func appendCaster(dst []float32, center, half mgl32.Vec3, rot mgl32.Quat) []float32 {
	m := rot.Mat4()
	var ext mgl32.Vec3 // world-axis half extents of the rotated box
	for row := range 3 {
		for col := range 3 {
			v := m.At(row, col) * half[col]
			if v < 0 {
				v = -v
			}
			ext[row] += v
		}
	}
	r := 1.6*max(ext[0], ext[2]) + 0.1
	return append(dst, center[0], center[1]-ext[1], center[2], r)
}

// unitQuat returns q normalised, or the identity for a zero or invalid q.
func unitQuat(q mgl32.Quat) mgl32.Quat {
	l := q.Len()
	if !(l > 1e-6) || l > 1e30 {
		return mgl32.QuatIdent()
	}
	if l > 0.9999 && l < 1.0001 {
		return q
	}
	return q.Scale(1 / l)
}
