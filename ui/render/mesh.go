package render

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/cubelab/cube/ui/shaders"
)

// cubeVertices returns the 36 vertices (12 triangles, counter-clockwise
// seen from outside) of the cube with corners at -1 and +1, each as
// position then face normal: 6 floats.
func cubeVertices() []float32 {
	// For each face: its normal axis and sign; the two other axes span it.
	v := make([]float32, 0, 36*6)
	for axis := range 3 {
		for _, sign := range [2]float32{1, -1} {
			u, w := (axis+1)%3, (axis+2)%3
			if sign < 0 {
				u, w = w, u // keep the winding counter-clockwise from outside
			}
			corner := func(a, b float32) {
				var p, n [3]float32
				p[axis], p[u], p[w] = sign, a, b
				n[axis] = sign
				v = append(v, p[0], p[1], p[2], n[0], n[1], n[2])
			}
			corner(-1, -1)
			corner(1, -1)
			corner(1, 1)
			corner(-1, -1)
			corner(1, 1)
			corner(-1, 1)
		}
	}
	return v
}

// Scene lighting and fog.
var (
	lightDir = mgl32.Vec3{0.45, 1.0, 0.3}.Normalize() // towards the light
	skyColor = mgl32.Vec3{0.60, 0.70, 0.82}
)

const (
	fogStart = 60.0  // metres from the eye
	fogEnd   = 220.0 // metres from the eye
)

// sceneRenderer owns the GL objects that draw a sceneBuild.
type sceneRenderer struct {
	prog      uint32
	vao       uint32
	cubeVBO   uint32
	instVBO   uint32
	instBytes int // capacity of instVBO

	uViewProj, uLightDir, uEye, uSky, uFog, uNumCasters, uCasters, uShadowBounds int32
}

func newSceneRenderer() (*sceneRenderer, error) {
	prog, err := compileProgram("scene", shaders.SceneVert, shaders.SceneFrag)
	if err != nil {
		return nil, err
	}
	r := &sceneRenderer{prog: prog}
	r.uViewProj = uniform(prog, "uViewProj")
	r.uLightDir = uniform(prog, "uLightDir")
	r.uEye = uniform(prog, "uEye")
	r.uSky = uniform(prog, "uSky")
	r.uFog = uniform(prog, "uFog")
	r.uNumCasters = uniform(prog, "uNumCasters")
	r.uCasters = uniform(prog, "uCasters")
	r.uShadowBounds = uniform(prog, "uShadowBounds")

	gl.GenVertexArrays(1, &r.vao)
	gl.BindVertexArray(r.vao)

	verts := cubeVertices()
	gl.GenBuffers(1, &r.cubeVBO)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.cubeVBO)
	gl.BufferData(gl.ARRAY_BUFFER, len(verts)*4, gl.Ptr(verts), gl.STATIC_DRAW)
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 3, gl.FLOAT, false, 6*4, 0)
	gl.EnableVertexAttribArray(1)
	gl.VertexAttribPointerWithOffset(1, 3, gl.FLOAT, false, 6*4, 3*4)

	gl.GenBuffers(1, &r.instVBO)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.instVBO)
	for loc := uint32(2); loc <= 6; loc++ {
		gl.EnableVertexAttribArray(loc)
		gl.VertexAttribDivisor(loc, 1)
	}
	r.pointInstances(0)
	gl.BindVertexArray(0)
	if e := gl.GetError(); e != gl.NO_ERROR {
		r.delete()
		return nil, fmt.Errorf("render: setting up the scene buffers: GL error 0x%x", e)
	}
	return r, nil
}

// pointInstances points the instance attributes at instance number first of
// instVBO; it must be called with the VAO and instVBO bound.
func (r *sceneRenderer) pointInstances(first int) {
	const stride = instFloats * 4
	base := uintptr(first * stride)
	gl.VertexAttribPointerWithOffset(2, 3, gl.FLOAT, false, stride, base+0)
	gl.VertexAttribPointerWithOffset(3, 3, gl.FLOAT, false, stride, base+3*4)
	gl.VertexAttribPointerWithOffset(4, 4, gl.FLOAT, false, stride, base+6*4)
	gl.VertexAttribPointerWithOffset(5, 4, gl.FLOAT, false, stride, base+10*4)
	gl.VertexAttribPointerWithOffset(6, 1, gl.FLOAT, false, stride, base+14*4)
}

// draw draws s: the opaque instances with depth writes, then the
// translucent ones blended, without depth writes, in the order given.
// viewProj is a pointer because cgo would move a local copy to the heap.
func (r *sceneRenderer) draw(s *sceneBuild, viewProj *mgl32.Mat4, eye mgl32.Vec3) {
	n := len(s.inst) / instFloats
	if n == 0 {
		return
	}
	gl.UseProgram(r.prog)
	gl.UniformMatrix4fv(r.uViewProj, 1, false, &viewProj[0])
	gl.Uniform3f(r.uLightDir, lightDir[0], lightDir[1], lightDir[2])
	gl.Uniform3f(r.uEye, eye[0], eye[1], eye[2])
	gl.Uniform3f(r.uSky, skyColor[0], skyColor[1], skyColor[2])
	gl.Uniform2f(r.uFog, fogStart, fogEnd)
	nc := len(s.casters) / 4
	gl.Uniform1i(r.uNumCasters, int32(nc))
	if nc > 0 {
		gl.Uniform4fv(r.uCasters, int32(nc), &s.casters[0])
	}
	gl.Uniform4f(r.uShadowBounds, s.bounds[0], s.bounds[1], s.bounds[2], s.bounds[3])

	gl.BindVertexArray(r.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.instVBO)
	size := len(s.inst) * 4
	if size > r.instBytes {
		r.instBytes = max(size, 2*r.instBytes, 64*instFloats*4)
		gl.BufferData(gl.ARRAY_BUFFER, r.instBytes, nil, gl.STREAM_DRAW)
	} else {
		// Orphan the old storage so the driver need not wait for the GPU.
		gl.BufferData(gl.ARRAY_BUFFER, r.instBytes, nil, gl.STREAM_DRAW)
	}
	gl.BufferSubData(gl.ARRAY_BUFFER, 0, size, unsafe.Pointer(&s.inst[0])) // gl.Ptr would allocate

	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LESS)
	gl.Enable(gl.CULL_FACE)
	gl.CullFace(gl.BACK)
	gl.Disable(gl.BLEND)
	gl.DepthMask(true)
	r.pointInstances(0)
	gl.DrawArraysInstanced(gl.TRIANGLES, 0, 36, int32(s.nOpaque))

	if n > s.nOpaque {
		gl.Enable(gl.BLEND)
		gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
		gl.DepthMask(false)
		r.pointInstances(s.nOpaque)
		gl.DrawArraysInstanced(gl.TRIANGLES, 0, 36, int32(n-s.nOpaque))
		gl.DepthMask(true)
		gl.Disable(gl.BLEND)
	}
	gl.BindVertexArray(0)
}

func (r *sceneRenderer) delete() {
	gl.DeleteBuffers(1, &r.instVBO)
	gl.DeleteBuffers(1, &r.cubeVBO)
	gl.DeleteVertexArrays(1, &r.vao)
	gl.DeleteProgram(r.prog)
}
