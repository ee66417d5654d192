// Package shaders holds the GLSL sources used by package render.
//
// The sources are plain files beside this one (GLSL 4.10 core), embedded
// with the embed package, so the package needs no cgo and can be read by
// tools and tests that never open a window. Each exported string is the file's text as is;
// render appends the NUL terminator OpenGL expects before compiling.
package shaders

import "embed"

// FS holds every shader file of the package (*.vert and *.frag).
//
//go:embed *.vert *.frag
var FS embed.FS

// Scene shaders draw the lit 3D world: the ground plane (checker pattern),
// boxes (lit or flat coloured) and the soft blob shadows cast onto them.
// Each box is one instance of a unit cube.
var (
	//go:embed scene.vert
	SceneVert string
	//go:embed scene.frag
	SceneFrag string
)

// Overlay shaders draw the 2D layer in framebuffer pixels: HUD text from the
// font atlas, panels, the graph and the help overlay.
var (
	//go:embed overlay.vert
	OverlayVert string
	//go:embed overlay.frag
	OverlayFrag string
)

// Line shaders draw the debug drawing's segments (one pixel wide) and
// points (squares that shrink with distance), unlit, depth tested.
var (
	//go:embed lines.vert
	LinesVert string
	//go:embed lines.frag
	LinesFrag string
)
