// Package window is the OpenGL side of the lab: the frame loops of the
// demo's window (cube, cube window) and of the record viewer (cube replay
// -window), the keys they bind, the drawing of a frame from the lab's and
// the viewer's state, and the F12 screenshots' names.
//
// The loops and the drawing need cgo (glfw and OpenGL through render); in
// a build without cgo, Run and Replay return ErrNoOpenGL, and the rest of
// the lab (ui/lab, ui/viewer) builds and runs headless.
// The caller (cmd/cube) owns the flags and the exit codes: it turns the
// errors of this package into its messages.
package window
