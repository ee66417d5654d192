package render

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/cubelab/cube/ui/shaders"
)

// lineRenderer draws a lineBuild: one streamed vertex buffer a frame, and
// one of indices for the outlines' edges.
type lineRenderer struct {
	prog               uint32
	vao, vbo, ebo      uint32
	vboBytes, eboBytes int
	uViewProj, uPixels int32
}

func newLineRenderer() (*lineRenderer, error) {
	prog, err := compileProgram("lines", shaders.LinesVert, shaders.LinesFrag)
	if err != nil {
		return nil, err
	}
	r := &lineRenderer{prog: prog}
	r.uViewProj = uniform(prog, "uViewProj")
	r.uPixels = uniform(prog, "uPixels")
	gl.GenVertexArrays(1, &r.vao)
	gl.BindVertexArray(r.vao)
	gl.GenBuffers(1, &r.vbo)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.vbo)
	gl.GenBuffers(1, &r.ebo)
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, r.ebo)
	const stride = lineFloats * 4
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 3, gl.FLOAT, false, stride, 0)
	gl.EnableVertexAttribArray(1)
	gl.VertexAttribPointerWithOffset(1, 3, gl.FLOAT, false, stride, 3*4)
	gl.EnableVertexAttribArray(2)
	gl.VertexAttribPointerWithOffset(2, 1, gl.FLOAT, false, stride, 6*4)
	gl.BindVertexArray(0)
	if e := gl.GetError(); e != gl.NO_ERROR {
		r.delete()
		return nil, fmt.Errorf("render: setting up the line buffers: GL error 0x%x", e)
	}
	return r, nil
}

// draw draws b with the camera's viewProj; pixels is how many pixels a
// metre covers at distance 1.
func (r *lineRenderer) draw(b *lineBuild, viewProj *mgl32.Mat4, pixels float32) {
	n := len(b.verts) / lineFloats
	if n == 0 {
		return
	}
	gl.UseProgram(r.prog)
	gl.UniformMatrix4fv(r.uViewProj, 1, false, &viewProj[0])
	gl.Uniform1f(r.uPixels, pixels)
	gl.BindVertexArray(r.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.vbo)
	size := len(b.verts) * 4
	if size > r.vboBytes {
		r.vboBytes = max(size, 2*r.vboBytes, 1<<16)
	}
	gl.BufferData(gl.ARRAY_BUFFER, r.vboBytes, nil, gl.STREAM_DRAW)         // orphan
	gl.BufferSubData(gl.ARRAY_BUFFER, 0, size, unsafe.Pointer(&b.verts[0])) // gl.Ptr would allocate
	if len(b.index) > 0 {
		size := len(b.index) * 4
		if size > r.eboBytes {
			r.eboBytes = max(size, 2*r.eboBytes, 1<<14)
		}
		gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, r.eboBytes, nil, gl.STREAM_DRAW)
		gl.BufferSubData(gl.ELEMENT_ARRAY_BUFFER, 0, size, unsafe.Pointer(&b.index[0]))
	}
	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LEQUAL)
	gl.Disable(gl.BLEND)
	gl.Enable(gl.PROGRAM_POINT_SIZE)
	if b.nLines > 0 {
		gl.DrawArrays(gl.LINES, 0, int32(b.nLines))
	}
	if len(b.index) > 0 {
		gl.DrawElementsWithOffset(gl.LINES, int32(len(b.index)), gl.UNSIGNED_INT, 0)
	}
	if b.nPoints > 0 {
		gl.DrawArrays(gl.POINTS, int32(b.nLines), int32(b.nPoints))
	}
	gl.Disable(gl.PROGRAM_POINT_SIZE)
	gl.DepthFunc(gl.LESS)
	gl.BindVertexArray(0)
}

func (r *lineRenderer) delete() {
	gl.DeleteBuffers(1, &r.vbo)
	gl.DeleteBuffers(1, &r.ebo)
	gl.DeleteVertexArrays(1, &r.vao)
	gl.DeleteProgram(r.prog)
}
