// Command demo opens a render.Window and draws a made-up scene: obstacles,
// the player cube, the server and snapshot ghosts, HUD lines, a fake graph
// and the help panel. It is a manual test and an example of the frame loop.
//
//	go run ./cmd/renderdemo -screenshot /tmp/demo.png
//	xvfb-run -a -s "-screen 0 1280x720x24" go run ./cmd/renderdemo -frames 300 -novsync
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/cubelab/cube/ui/render"
)

func main() {
	shot := flag.String("screenshot", "", "write the last frame to this PNG file and exit")
	frames := flag.Int("frames", 0, "draw this many frames, print the mean frame time and exit (0: run until closed)")
	novsync := flag.Bool("novsync", false, "turn vsync off")
	help := flag.Bool("help-panel", true, "show the help panel")
	many := flag.Int("cubes", 0, "add this many small shadow-casting cubes (Fiedler's demo has 900)")
	flag.Parse()

	w, err := render.Open("cube render demo", 0, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer w.Close()
	fmt.Println(w.GLInfo())
	if *novsync {
		w.SetVSync(false)
	}

	obstacles := []render.Box{
		{Center: mgl32.Vec3{0, 1.5, -12}, Half: mgl32.Vec3{8, 1.5, 0.5}, Color: mgl32.Vec4{0.55, 0.55, 0.60, 1}},                                                               // wall
		{Center: mgl32.Vec3{8, 0.9, -4}, Half: mgl32.Vec3{2, 0.15, 4}, Rot: mgl32.QuatRotate(0.25, mgl32.Vec3{1, 0, 0}), Color: mgl32.Vec4{0.45, 0.60, 0.45, 1}},               // ramp
		{Center: mgl32.Vec3{-7, 0.25, -3}, Half: mgl32.Vec3{2.5, 0.25, 2.5}, Color: mgl32.Vec4{0.60, 0.50, 0.40, 1}},                                                           // step
		{Center: mgl32.Vec3{-3, 0.6, -7}, Half: mgl32.Vec3{0.6, 0.6, 0.6}, Rot: mgl32.QuatRotate(0.6, mgl32.Vec3{0, 1, 0}), Color: mgl32.Vec4{0.5, 0.5, 0.7, 1}, Shadow: true}, // crate
	}
	for i := range *many {
		x, z := float32(i%30)-15, float32(i/30)-8
		obstacles = append(obstacles, render.Box{
			Center: mgl32.Vec3{x * 1.1, 0.2, z * 1.1}, Half: mgl32.Vec3{0.2, 0.2, 0.2},
			Rot:   mgl32.QuatRotate(float32(i), mgl32.Vec3{0, 1, 0}),
			Color: mgl32.Vec4{0.3 + 0.5*float32(i%3)/2, 0.5, 0.8 - 0.4*float32(i%5)/4, 1}, Shadow: true,
		})
	}
	var graph []render.Sample
	for i := range 640 {
		t := float64(i) / 64
		e := 0.0
		if i%37 == 0 {
			e = 0.002 + 0.3*math.Abs(math.Sin(t))
		} else if i%5 == 0 {
			e = 0.0003
		}
		graph = append(graph, render.Sample{T: t, Error: e, Correction: e > 0.001, InFlight: 8 + 4*math.Sin(t*1.3)})
	}
	helpLines := []string{
		"Keys",
		"W A S D\tpush the cube",
		"Space\tjump",
		"1 … 7\tlatency preset (perfect … outage)",
		"[ ]\tsnapshot rate down / up",
		"C\ttoggle correction smoothing",
		"M\ttoggle server and snapshot ghosts",
		"P\tpause; . steps one tick",
		"F12\tscreenshot",
		"H F1\tthis help",
		"Esc\tquit",
	}
	boxes := make([]render.Box, 0, len(obstacles)+3)
	hud := make([]string, 0, 16)
	start := w.Time()
	prev := start
	var times []float64 // frame times, seconds
	n := 0
	for !w.ShouldClose() {
		w.PollEvents()
		for _, k := range w.Pressed() {
			switch k {
			case render.KeyEscape:
				w.SetShouldClose()
			case render.KeyH, render.KeyF1:
				*help = !*help
			}
		}
		now := w.Time()
		dt := now - prev
		prev = now
		if n > 10 { // past the first frames, which compile shaders
			times = append(times, dt)
		}
		t := 9.5 + float64(n)/60 // by frame, so that screenshots repeat
		player := mgl32.Vec3{float32(3 * math.Cos(t*0.5)), 0.75 + float32(math.Max(0, math.Sin(t*2))), float32(3 * math.Sin(t*0.5))}
		rot := mgl32.QuatRotate(float32(t), mgl32.Vec3{0, 1, 0})
		boxes = append(boxes[:0], obstacles...)
		boxes = append(boxes,
			render.Box{Center: player, Half: mgl32.Vec3{0.75, 0.75, 0.75}, Rot: rot, Color: mgl32.Vec4{0.95, 0.45, 0.15, 1}, Shadow: true},
			render.Box{Center: player.Add(mgl32.Vec3{0.6, 0, 0.9}), Half: mgl32.Vec3{0.75, 0.75, 0.75}, Rot: rot, Color: mgl32.Vec4{1, 0.9, 0.1, 0.35}, Style: render.Translucent},
			render.Box{Center: player.Add(mgl32.Vec3{-1.2, 0, 1.5}), Half: mgl32.Vec3{0.75, 0.75, 0.75}, Rot: rot, Color: mgl32.Vec4{0.2, 0.5, 1, 1}, Style: render.Wireframe},
		)
		hud = append(hud[:0],
			"cube lab — render demo",
			fmt.Sprintf("frame %d   t %.2f s", n, t),
			"tick 1234   server 1229   ack 1227",
			"preset 4 average: 100 ms ±15 ms, 2% loss",
			"snapshots 16 Hz   inputs in flight 9",
			"corrections 17   last 0.042 m",
			"smoothing on   ghosts on",
			"hash c0ffee1234567890 MATCH",
			"W A S D push · Space jump · H help",
		)
		f := render.Frame{
			Boxes: boxes, Follow: player, HUD: hud, Help: helpLines, ShowHelp: *help,
			Banner: "DESYNC at tick 1234", Graph: graph, Now: 9.99,
		}
		w.Draw(&f, dt)
		n++
		if *frames > 0 && n == *frames {
			el := w.Time() - start
			fmt.Printf("%d frames in %.3f s: %.2f ms a frame (%.0f fps)\n", n, el, 1000*el/float64(n), float64(n)/el)
			if len(times) > 0 {
				slices.Sort(times)
				fmt.Printf("frame time after frame 10: min %.2f ms, median %.2f ms, 90th percentile %.2f ms\n",
					1000*times[0], 1000*times[len(times)/2], 1000*times[len(times)*9/10])
			}
		}
		if (*frames > 0 && n == *frames) || (*frames == 0 && *shot != "" && n == 3) {
			if *shot != "" {
				t0 := time.Now()
				if err := w.Screenshot(*shot); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				fmt.Printf("wrote %s in %v\n", *shot, time.Since(t0).Round(time.Millisecond))
			}
			w.SetShouldClose()
		}
		w.Swap()
	}
}
