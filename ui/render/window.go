// Package render draws the cube lab with OpenGL 4.1 core: the ground, the
// obstacles and cubes as lit, translucent or wireframe boxes with soft blob
// shadows (one instanced draw), a chase camera that keeps out of obstacles,
// and an overlay with status text, a banner, a scrolling graph and a help
// panel laid out so that none covers another, all from a Frame the caller
// fills.
//
// Threading: glfw and OpenGL must be used from the main OS thread. The
// package locks the main goroutine to it in init, so call Open and every
// Window method from the main goroutine (from main, not from a goroutine it
// starts). Only one Window may be open at a time.
//
// A frame goes: PollEvents, read Pressed and Held, update the game, Draw,
// optionally Screenshot, then Swap.
//
// The GL-free parts (camera and its collisions, text and overlay layout,
// graph and instance building, key table, PNG row flip) are plain functions
// tested without a GPU; LayoutProblems lets callers check their own Frame.
package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"runtime"
	"strings"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/go-gl/mathgl/mgl32"
)

func init() {
	// glfw needs the main thread; init runs on it.
	runtime.LockOSThread()
}

// Frame is everything to draw in one frame. Draw does not keep it.
type Frame struct {
	Boxes []Box // everything to draw; the ground plane y=0 is always drawn
	// Lines are the debug drawing's segments and points, drawn after the
	// boxes, depth tested.
	Lines []Line
	// Outlines are the debug drawing's boxes drawn as edges, with the
	// lines.
	Outlines []Outline
	Follow   mgl32.Vec3 // camera target (the displayed player cube); the camera eases toward it
	// HUD is the status lines, top left. Items within a line are separated
	// by two spaces; a line too long for the panel wraps between items,
	// never inside one.
	HUD []string
	// Help is the help panel's lines, "key\tdescription\tshort
	// description" (the short form is optional, for small windows) or a
	// heading without a tab; drawn when ShowHelp, beside the other panels
	// when there is room, else alone over the window.
	Help     []string
	ShowHelp bool
	// Banner, when not empty, is shown at the top in red: its first line
	// large (e.g. "DESYNC at tick 1234"), the lines after a newline smaller.
	Banner string
	Graph  []Sample // oldest first; the graph shows the 10 s ending at Now; nil hides the graph
	Now    float64  // seconds, on the samples' clock
	// Timeline, when not nil, is the record viewer's bar across the
	// bottom (timeline.go); the other panels keep above it.
	Timeline *Timeline
}

// Window is an OpenGL 4.1 core window with everything needed to draw a
// Frame. Create it with Open; all methods must be called from the main
// goroutine.
type Window struct {
	win     *glfw.Window
	scene   *sceneRenderer
	overlay *overlayRenderer
	lines   *lineRenderer
	lineB   lineBuild
	atlas   *atlas
	cam     camera
	build   sceneBuild
	hud     hud
	pressed []Key
	info    string
	shot    []byte // screenshot pixels, reused

	lastFree Rect       // the part of the window the panels left free in the last frame, where the camera frames
	viewProj mgl32.Mat4 // kept here: cgo would move a local to the heap
	fbW, fbH int        // framebuffer size, kept by a callback

	dragging     bool
	lastX, lastY float64
}

// Default window size in screen coordinates.
const (
	DefaultWidth  = 1280
	DefaultHeight = 720
)

// Open creates a resizable window of the given size (DefaultWidth and
// DefaultHeight when zero or less) with an OpenGL 4.1 core context made
// current and vsync on, and loads the shaders, meshes and font atlas. It
// fails with an error naming the cause, e.g. "render: no display: ..." or
// "render: OpenGL 4.1 core is not available: ...", and never panics.
func Open(title string, width, height int) (w *Window, err error) {
	if width <= 0 || height <= 0 {
		width, height = DefaultWidth, DefaultHeight
	}
	if usesX11() && os.Getenv("DISPLAY") == "" {
		return nil, errors.New("render: no display: DISPLAY is not set")
	}

	// go-gl/glfw logs platform errors (such as an X server that cannot be
	// reached) instead of returning them, and panics on the next call.
	// Capture the standard logger while Open runs to name the cause, and
	// turn panics into errors.
	logs := captureLog()
	initialized := false
	defer func() {
		if r := recover(); r != nil {
			if w != nil && w.win != nil {
				w.win.Destroy()
			}
			w = nil
			if c := logs.cause(); c != "" && !initialized {
				err = fmt.Errorf("render: no display%s", c)
			} else {
				err = fmt.Errorf("render: %s: %v%s", failureKind(initialized), r, c)
			}
		}
		if err != nil && initialized {
			glfw.Terminate()
		}
		logs.restore(err == nil)
	}()

	if err := glfw.Init(); err != nil {
		return nil, fmt.Errorf("render: no display: initialising glfw: %v", err)
	}
	glfw.GetTime() // panics (NotInitialized) when Init failed with a platform error
	initialized = true

	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.Resizable, glfw.True)
	glfw.WindowHint(glfw.Visible, glfw.False) // shown once everything is loaded
	w = &Window{cam: newCamera()}
	fail := func(err error) (*Window, error) {
		w.Close()
		return nil, err
	}
	// 4x multisampling smooths the edges of boxes on a GPU, but doubles the
	// frame time of a software renderer such as Mesa's llvmpipe; there the
	// window is made again without it.
	samples, err := w.createWindow(title, width, height, msaaSamples)
	if err != nil {
		return nil, fmt.Errorf("render: OpenGL 4.1 core is not available: %v%s", err, logs.cause())
	}
	if samples > 0 && softwareRenderer(w.info) {
		w.win.Destroy()
		w.win = nil
		if _, err = w.createWindow(title, width, height, 0); err != nil {
			return nil, fmt.Errorf("render: OpenGL 4.1 core is not available: %v%s", err, logs.cause())
		}
	}
	win := w.win
	glfw.SwapInterval(1)

	scale, _ := win.GetContentScale()
	if w.atlas, err = newAtlas(scale); err != nil {
		return fail(err)
	}
	if w.scene, err = newSceneRenderer(); err != nil {
		return fail(err)
	}
	if w.overlay, err = newOverlayRenderer(w.atlas); err != nil {
		return fail(err)
	}
	if w.lines, err = newLineRenderer(); err != nil {
		return fail(err)
	}

	win.SetKeyCallback(w.onKey)
	win.SetMouseButtonCallback(w.onMouseButton)
	win.SetCursorPosCallback(w.onCursor)
	win.SetScrollCallback(w.onScroll)
	win.SetFramebufferSizeCallback(w.onFramebufferSize)
	win.Show()
	w.fbW, w.fbH = win.GetFramebufferSize()
	return w, nil
}

// msaaSamples is the multisampling asked for on hardware renderers.
const msaaSamples = 4

// createWindow creates w.win with an OpenGL 4.1 core context, made current,
// asking for the given number of samples and falling back to none. It
// returns the number asked for that worked and sets w.info.
func (w *Window) createWindow(title string, width, height, samples int) (int, error) {
	glfw.WindowHint(glfw.Samples, samples)
	win, err := glfw.CreateWindow(width, height, title, nil, nil)
	if win == nil && samples > 0 {
		// Some drivers have no multisampled configurations.
		samples = 0
		glfw.WindowHint(glfw.Samples, 0)
		win, err = glfw.CreateWindow(width, height, title, nil, nil)
	}
	if win == nil {
		if err == nil {
			err = errors.New("window creation failed")
		}
		return 0, err
	}
	w.win = win
	win.MakeContextCurrent()
	if err := gl.Init(); err != nil {
		return 0, fmt.Errorf("loading GL functions: %v", err)
	}
	var major, minor int32
	gl.GetIntegerv(gl.MAJOR_VERSION, &major)
	gl.GetIntegerv(gl.MINOR_VERSION, &minor)
	w.info = fmt.Sprintf("%s; OpenGL %s; GLSL %s",
		gl.GoStr(gl.GetString(gl.RENDERER)), gl.GoStr(gl.GetString(gl.VERSION)),
		gl.GoStr(gl.GetString(gl.SHADING_LANGUAGE_VERSION)))
	if major < 4 || (major == 4 && minor < 1) {
		return 0, fmt.Errorf("got %d.%d (%s)", major, minor, w.info)
	}
	return samples, nil
}

// softwareRenderer reports whether the GL renderer string names a CPU
// rasteriser.
func softwareRenderer(info string) bool {
	info = strings.ToLower(info)
	for _, name := range []string{"llvmpipe", "softpipe", "swrast", "software rasterizer", "lavapipe", "swiftshader", "microsoft basic render"} {
		if strings.Contains(info, name) {
			return true
		}
	}
	return false
}

// usesX11 reports whether glfw talks to an X server on this system.
func usesX11() bool {
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		return true
	}
	return false
}

func failureKind(initialized bool) string {
	if initialized {
		return "OpenGL 4.1 core is not available"
	}
	return "no display"
}

// logCapture holds the standard logger's output while Open runs.
type logCapture struct {
	buf   bytes.Buffer
	prev  io.Writer
	flags int
}

func captureLog() *logCapture {
	c := &logCapture{prev: log.Writer(), flags: log.Flags()}
	log.SetOutput(&c.buf)
	log.SetFlags(0)
	return c
}

// cause returns the last captured line as ": line", or "".
func (c *logCapture) cause() string {
	lines := strings.Split(strings.TrimSpace(c.buf.String()), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	last = strings.TrimPrefix(last, "PlatformError: ")
	if last == "" {
		return ""
	}
	return ": " + last
}

// restore puts the logger back; after a success it passes on what was logged.
func (c *logCapture) restore(passOn bool) {
	log.SetOutput(c.prev)
	log.SetFlags(c.flags)
	if passOn && c.buf.Len() > 0 {
		_, _ = c.prev.Write(c.buf.Bytes())
	}
}

// Close frees the GL objects, destroys the window and terminates glfw.
// It is safe to call more than once.
func (w *Window) Close() {
	if w == nil || w.win == nil {
		return
	}
	if w.overlay != nil {
		w.overlay.delete()
		w.overlay = nil
	}
	if w.scene != nil {
		w.scene.delete()
		w.scene = nil
	}
	if w.lines != nil {
		w.lines.delete()
		w.lines = nil
	}
	w.win.Destroy()
	w.win = nil
	glfw.Terminate()
}

// ShouldClose reports whether the user asked to close the window.
func (w *Window) ShouldClose() bool { return w.win.ShouldClose() }

// SetShouldClose marks the window to be closed; ShouldClose then reports true.
func (w *Window) SetShouldClose() { w.win.SetShouldClose(true) }

// SetVSync turns waiting for the display's refresh in Swap on or off (on
// after Open). Turn it off to measure frame times.
func (w *Window) SetVSync(on bool) {
	if on {
		glfw.SwapInterval(1)
	} else {
		glfw.SwapInterval(0)
	}
}

// PollEvents processes pending window events. It clears the key presses
// reported by Pressed and collects the new ones.
func (w *Window) PollEvents() {
	w.pressed = w.pressed[:0]
	glfw.PollEvents()
}

// Pressed returns the keys pressed (not auto-repeated) during the last
// PollEvents, in order. The slice is reused by the next PollEvents.
func (w *Window) Pressed() []Key { return w.pressed }

// Held reports whether key k is down now.
func (w *Window) Held(k Key) bool {
	g := k.glfwKey()
	return g != glfw.KeyUnknown && w.win.GetKey(g) == glfw.Press
}

// Time returns the seconds since Open, from glfw's monotonic clock.
func (w *Window) Time() float64 { return glfw.GetTime() }

// Size returns the framebuffer size in pixels (the window size times the
// content scale on high-density screens); screenshots have this size.
func (w *Window) Size() (int, int) { return w.fbW, w.fbH }

// GLInfo returns the renderer, the OpenGL version and the GLSL version.
func (w *Window) GLInfo() string { return w.info }

// Draw draws frame f into the back buffer; it does not swap. dt is the wall
// time in seconds since the previous frame, for the camera's easing. The
// camera draws the followed point at the centre of the part of the window
// the panels leave free (FreeRect), easing there when the panels change.
// A nil f draws the empty ground.
func (w *Window) Draw(f *Frame, dt float64) {
	if f == nil {
		f = &Frame{}
	}
	fw, fh := w.fbW, w.fbH
	if fw <= 0 || fh <= 0 {
		return // minimised
	}
	w.hud.build(w.atlas, f, fw, fh)
	snap := !w.cam.placed
	w.cam.follow(f.Follow, dt)
	w.lastFree = w.hud.free(float32(fw), float32(fh), w.lastFree)
	w.cam.frameFree(w.lastFree, fw, fh, dt, snap)
	w.cam.avoid(f.Boxes, f.Follow, dt)
	eye := w.cam.eye()
	proj := w.cam.proj(fw, fh)
	w.viewProj = proj.Mul4(w.cam.view())
	w.build.build(f.Boxes, w.cam.target, eye)
	w.lineB.halfW, w.lineB.halfH = float32(fw)/2, float32(fh)/2
	w.lineB.build(f.Lines, f.Outlines, &w.viewProj, eye)

	gl.Viewport(0, 0, int32(fw), int32(fh))
	gl.ClearColor(skyColor[0], skyColor[1], skyColor[2], 1)
	gl.DepthMask(true)
	gl.Clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT)
	w.scene.draw(&w.build, &w.viewProj, eye)
	w.lines.draw(&w.lineB, &w.viewProj, proj.At(1, 1)*float32(fh)/2)
	w.overlay.draw(&w.hud.b, fw, fh)
}

// ResetCamera puts the camera back to its default angle and distance
// behind the followed point, undoing the mouse's orbit and zoom; the next
// Draw snaps to Frame.Follow instead of easing towards it.
func (w *Window) ResetCamera() { w.cam.reset() }

// Swap shows the frame drawn since the previous Swap; with vsync on it
// waits for the display's refresh.
func (w *Window) Swap() { w.win.SwapBuffers() }

// Input callbacks. Dragging with a mouse button held orbits the camera
// around the cube and the scroll wheel zooms.

func (w *Window) onKey(_ *glfw.Window, key glfw.Key, _ int, action glfw.Action, _ glfw.ModifierKey) {
	if action != glfw.Press {
		return
	}
	if k := keyFromGLFW(key); k != KeyUnknown {
		w.pressed = append(w.pressed, k)
	}
}

func (w *Window) onMouseButton(win *glfw.Window, _ glfw.MouseButton, action glfw.Action, _ glfw.ModifierKey) {
	switch action {
	case glfw.Press:
		w.lastX, w.lastY = win.GetCursorPos()
		_, onTimeline := w.TimelineAt(w.lastX, w.lastY)
		w.dragging = !onTimeline // a drag on the timeline seeks; the caller reads Mouse
	case glfw.Release:
		w.dragging = win.GetMouseButton(glfw.MouseButtonLeft) == glfw.Press ||
			win.GetMouseButton(glfw.MouseButtonRight) == glfw.Press
	}
}

func (w *Window) onCursor(_ *glfw.Window, x, y float64) {
	if w.dragging {
		w.cam.orbit(float32(w.lastX-x)*0.006, float32(y-w.lastY)*0.006)
	}
	w.lastX, w.lastY = x, y
}

func (w *Window) onFramebufferSize(_ *glfw.Window, width, height int) {
	w.fbW, w.fbH = width, height
}

func (w *Window) onScroll(_ *glfw.Window, _, dy float64) {
	w.cam.zoom(float32(math.Pow(0.9, dy)))
}
