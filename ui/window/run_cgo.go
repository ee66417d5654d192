//go:build cgo

package window

import (
	"fmt"
	"time"

	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
)

// Supported reports whether this build has the window: it has.
const Supported = true

// Run opens the demo's window and runs its frame loop over l until the
// window closes, Esc, or the last of cfg.Frames: keys to the lab's
// actions, a frame of the lab each display refresh, F12 screenshots, and
// with cfg.Frames the mean frame time on cfg.Stdout at the end. A window
// that cannot open is an *OpenError. It returns nil when a lost server
// ends the game: the caller asks l.Lost.
//
// The simulation of the next frame runs beside the drawing of this one:
// the frame is built from the lab first, on this thread, and while OpenGL
// draws it another goroutine runs l.Frame. The lab is never touched by
// both at once (keys, actions and the frame's building wait for the
// simulation to end), and what is shown is one frame behind the keys, as
// in an engine with a render thread. On two cores a frame then takes the
// longer of the two instead of their sum.
func Run(l *lab.Lab, cfg Config) error {
	win, err := render.Open(cfg.Title, cfg.Width, cfg.Height)
	if err != nil {
		return &OpenError{Err: err}
	}
	defer win.Close()

	var frame render.Frame
	shots := shooter{dir: ".", stdout: cfg.Stdout, stderr: cfg.Stderr}
	last := win.Time()
	start, n := last, 0
	var simTime, drawTime float64 // seconds spent in lab.Frame and in drawing
	defer func() {
		if cfg.Frames > 0 && n > 1 {
			ms := 1000 * (win.Time() - start) / float64(n)
			sim, draw := 1000*simTime/float64(n), 1000*drawTime/float64(n)
			fmt.Fprintf(cfg.Stdout, "%d frames at %dx%d: mean frame time %.1f ms (%.0f fps): simulation %.1f ms beside drawing %.1f ms%s; on %s\n",
				n, cfg.Width, cfg.Height, ms, 1000/ms, sim, draw, l.PaceNote(), win.GLInfo())
		}
	}()
	sim := make(chan simulated, 1)
	for ; !win.ShouldClose(); n++ {
		win.PollEvents()
		shot := false
		for _, k := range win.Pressed() {
			switch a := keyActions[k]; a {
			case lab.ActQuit:
				win.SetShouldClose()
			case lab.ActScreenshot:
				shot = true
			default:
				if err := l.Act(a); err != nil {
					return err
				}
			}
		}
		l.SetKeys(heldInput(win))
		l.SetWindowSize(win.Size())
		now := win.Time()
		elapsed := now - last
		last = now
		BuildFrame(l, &frame)
		if l.CameraReset || n == 0 {
			frameSubject(win, l, &frame)
			l.CameraReset = false
		}
		//cube:allow goroutine the lab's one simulation, beside the drawing; the lab is touched by no one else until it ends (received below)
		go func() {
			t0 := time.Now()
			err := l.Frame(elapsed)
			sim <- simulated{err: err, took: time.Since(t0).Seconds()}
		}()
		win.Draw(&frame, elapsed)
		lastFrame := cfg.Frames > 0 && n+1 >= cfg.Frames
		var shotSaid string
		if shot {
			shotSaid = shots.take(time.Now(), win.Screenshot)
		}
		var shotErr error
		if lastFrame {
			shotErr = lastShot(win, &cfg)
		}
		win.Swap()
		drawTime += win.Time() - now
		r := <-sim
		simTime += r.took
		if r.err != nil {
			return r.err
		}
		if shotErr != nil {
			return shotErr
		}
		if shot {
			l.Say(shotSaid)
		}
		if lost := l.LostNews(); lost != nil {
			fmt.Fprintf(cfg.Stderr, "cube window: %v\n", lost)
		}
		if lastFrame {
			n++
			break
		}
	}
	return nil
}

// simulated is what one frame's simulation (lab.Frame) returned, and the
// seconds it took.
type simulated struct {
	err  error
	took float64
}

// frameSubject makes the camera's home the view that frames the lab's
// subject in the part of the window frame's panels leave free, and puts
// the camera there.
func frameSubject(win *render.Window, l *lab.Lab, frame *render.Frame) {
	pts, structure := l.Subject()
	fw, fh := win.Size()
	win.SetHome(render.FitView(frame.Follow, pts, structure, fw, fh, win.FreeRect(frame)))
}

// lastShot writes the last frame of a -frames run to cfg.Screenshot, when
// asked, and says so on cfg.Stdout.
func lastShot(win *render.Window, cfg *Config) error {
	if cfg.Screenshot == "" {
		return nil
	}
	if err := win.Screenshot(cfg.Screenshot); err != nil {
		return err
	}
	fmt.Fprintf(cfg.Stdout, "screenshot written to %s\n", cfg.Screenshot)
	return nil
}
