package render

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/cubelab/cube/ui/shaders"
)

// The overlay is everything drawn flat over the 3D view: text, panels,
// the graph. It is one batch of textured, coloured triangles in framebuffer
// pixels (origin top-left), drawn with one call. Glyphs sit on whole pixels
// and the atlas is sampled 1:1 (nearest texel); solid shapes are marked by
// negative atlas coordinates and skip the texture.

// color is linear RGBA in 0..1.
type color [4]float32

// vertex2D is one overlay vertex: position, atlas coordinates, colour.
type vertex2D struct {
	x, y, u, v float32
	c          color
}

const vertex2DFloats = 8

// batch collects overlay triangles. Its slice is reused from frame to frame.
type batch struct {
	verts []vertex2D
}

func (b *batch) reset() { b.verts = b.verts[:0] }

// quad appends an axis-aligned textured quad from (x0, y0) to (x1, y1).
func (b *batch) quad(x0, y0, x1, y1, u0, v0, u1, v1 float32, c color) {
	b.verts = append(b.verts,
		vertex2D{x0, y0, u0, v0, c}, vertex2D{x1, y0, u1, v0, c}, vertex2D{x1, y1, u1, v1, c},
		vertex2D{x0, y0, u0, v0, c}, vertex2D{x1, y1, u1, v1, c}, vertex2D{x0, y1, u0, v1, c})
}

// solidUV marks a vertex of a solid shape: the overlay shader skips the
// texture lookup for it, which matters on software renderers.
const solidUV = -1

// rect appends a solid rectangle with its top-left corner at (x, y).
func (b *batch) rect(x, y, w, h float32, c color) {
	if w <= 0 || h <= 0 {
		return
	}
	b.quad(x, y, x+w, y+h, solidUV, solidUV, solidUV, solidUV, c)
}

// line appends a segment from (x0, y0) to (x1, y1) as a quad width pixels
// wide (core profile OpenGL has no wide lines).
func (b *batch) line(x0, y0, x1, y1, width float32, c color) {
	dx, dy := x1-x0, y1-y0
	l := float32(math.Hypot(float64(dx), float64(dy)))
	if l == 0 {
		return
	}
	nx, ny := -dy/l*width/2, dx/l*width/2
	const u, v = solidUV, solidUV
	b.verts = append(b.verts,
		vertex2D{x0 + nx, y0 + ny, u, v, c}, vertex2D{x1 + nx, y1 + ny, u, v, c}, vertex2D{x1 - nx, y1 - ny, u, v, c},
		vertex2D{x0 + nx, y0 + ny, u, v, c}, vertex2D{x1 - nx, y1 - ny, u, v, c}, vertex2D{x0 - nx, y0 - ny, u, v, c})
}

// overlayRenderer owns the GL objects that draw a batch.
type overlayRenderer struct {
	prog     uint32
	vao, vbo uint32
	vboBytes int
	tex      uint32
	uScreen  int32
	uAtlas   int32
}

func newOverlayRenderer(a *atlas) (*overlayRenderer, error) {
	prog, err := compileProgram("overlay", shaders.OverlayVert, shaders.OverlayFrag)
	if err != nil {
		return nil, err
	}
	r := &overlayRenderer{prog: prog}
	r.uScreen = uniform(prog, "uScreen")
	r.uAtlas = uniform(prog, "uAtlas")

	gl.GenVertexArrays(1, &r.vao)
	gl.BindVertexArray(r.vao)
	gl.GenBuffers(1, &r.vbo)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.vbo)
	const stride = vertex2DFloats * 4
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 2, gl.FLOAT, false, stride, 0)
	gl.EnableVertexAttribArray(1)
	gl.VertexAttribPointerWithOffset(1, 2, gl.FLOAT, false, stride, 2*4)
	gl.EnableVertexAttribArray(2)
	gl.VertexAttribPointerWithOffset(2, 4, gl.FLOAT, false, stride, 4*4)
	gl.BindVertexArray(0)

	gl.GenTextures(1, &r.tex)
	gl.BindTexture(gl.TEXTURE_2D, r.tex)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	b := a.img.Bounds()
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.R8, int32(b.Dx()), int32(b.Dy()), 0, gl.RED, gl.UNSIGNED_BYTE, gl.Ptr(a.img.Pix))
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
	if e := gl.GetError(); e != gl.NO_ERROR {
		r.delete()
		return nil, fmt.Errorf("render: setting up the overlay: GL error 0x%x", e)
	}
	return r, nil
}

// draw draws the batch over the whole framebuffer of the given size.
func (r *overlayRenderer) draw(b *batch, width, height int) {
	if len(b.verts) == 0 {
		return
	}
	gl.Disable(gl.DEPTH_TEST)
	gl.Disable(gl.CULL_FACE)
	gl.Enable(gl.BLEND)
	gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
	gl.UseProgram(r.prog)
	gl.Uniform2f(r.uScreen, float32(width), float32(height))
	gl.ActiveTexture(gl.TEXTURE0)
	gl.BindTexture(gl.TEXTURE_2D, r.tex)
	gl.Uniform1i(r.uAtlas, 0)

	gl.BindVertexArray(r.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.vbo)
	size := len(b.verts) * vertex2DFloats * 4
	if size > r.vboBytes {
		r.vboBytes = max(size, 2*r.vboBytes, 1<<16)
	}
	gl.BufferData(gl.ARRAY_BUFFER, r.vboBytes, nil, gl.STREAM_DRAW)         // orphan
	gl.BufferSubData(gl.ARRAY_BUFFER, 0, size, unsafe.Pointer(&b.verts[0])) // gl.Ptr would allocate
	gl.DrawArrays(gl.TRIANGLES, 0, int32(len(b.verts)))
	gl.BindVertexArray(0)
	gl.Disable(gl.BLEND)
	gl.Enable(gl.DEPTH_TEST)
}

func (r *overlayRenderer) delete() {
	gl.DeleteTextures(1, &r.tex)
	gl.DeleteBuffers(1, &r.vbo)
	gl.DeleteVertexArrays(1, &r.vao)
	gl.DeleteProgram(r.prog)
}
