package render

import (
	"strings"
	"testing"
)

func testAtlas(t testing.TB) *atlas {
	t.Helper()
	a, err := newAtlas(1)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func inside(r rect, w, h int) bool {
	return r.x >= 0 && r.y >= 0 && r.x+r.w <= float32(w) && r.y+r.h <= float32(h)
}

// testHUD and testHelp are like what the demo shows.
var (
	testHUD = []string{
		"terrible  one-way 500ms ±50ms  loss 25.0%  RTT 1s",
		"scene cubes, 901 bodies  snapshots 64 Hz",
		"tick 4294967295  acked 4294967290  in flight 1023",
		"corrections 1234 (12/s)  resyncs 5678",
		"last rewind: 64 ticks replayed  error 1.234 m  jump 1.234 m",
		"mispredicted: input 123  server 45  unverified 6789  nondeterminism 1",
		"rejected: client 0  server 0",
		"last second: up 1.2 kB/s  down 27.87 MB/s",
		"smoothing offset 0.123 m",
		"frame 16.7 ms  60 fps  running  autopilot",
		"C corrections on  M smoothing on  R redundancy on",
		"Y server on  B snapshot on  V predicted off",
		"F1 or H: help  Tab: hide this  N: next scene",
	}
	testHelp = func() []string {
		out := []string{"Keys and mouse (F1 or H closes this help)"}
		for i := 0; i < 23; i++ {
			out = append(out, "mouse drag\t"+strings.Repeat("d", 40+i%13)+"\tshort text "+strings.Repeat("s", i%7))
		}
		return out
	}()
	testBanner = "DESYNC at tick 4294967295\nnondeterminism between ticks 4294967200 and 4294967295: same state, same inputs, other bits; report in cube-desync-tick4294967295.txt"
)

func testFrame(help, banner bool) *Frame {
	f := &Frame{HUD: testHUD, Help: testHelp, ShowHelp: help, Graph: []Sample{{T: 9, Error: 0.1, Correction: true}, {T: 9.5, Resync: true}, {T: 10, Error: 0.01}}, Now: 10}
	if banner {
		f.Banner = testBanner
	}
	return f
}

func TestOverlayLayoutFromSmallToLarge(t *testing.T) {
	sizes := [][2]int{{640, 360}, {720, 405}, {800, 450}, {800, 600}, {960, 540}, {1024, 768}, {1280, 720}, {1366, 768}, {1600, 900}, {1920, 1080}, {2560, 1440}, {640, 800}, {1200, 360}}
	for _, sz := range sizes {
		for _, help := range []bool{false, true} {
			for _, banner := range []bool{false, true} {
				probs := LayoutProblems(testFrame(help, banner), sz[0], sz[1])
				for _, p := range probs {
					// The help may have to show alone in a small window.
					if p == HelpAlone && sz[0]*sz[1] < 1024*600 {
						continue
					}
					t.Errorf("%dx%d help %v banner %v: %s", sz[0], sz[1], help, banner, p)
				}
			}
		}
	}
	// At 1280x720 the help leaves the status panel and the graph whole
	// and in view: the window's default size.
	var h hud
	a := testAtlas(t)
	h.build(a, testFrame(true, true), 1280, 720)
	if h.l.helpAlone || h.status.h == 0 || h.graph.h == 0 || h.l.statusMore || h.l.fs != &a.normal || h.l.helpFS != &a.normal || h.l.helpShort {
		t.Errorf("1280x720 with help: status %+v graph %+v alone %v", h.status, h.graph, h.l.helpAlone)
	}
	// The banner does not push the status panel down where it fits
	// beside it.
	if h.status.y != h.l.m || h.banner.x < h.status.x+h.status.w {
		t.Errorf("1280x720: banner %+v, status %+v", h.banner, h.status)
	}
}

func TestOverlayDegradesBelow640x360(t *testing.T) {
	a := testAtlas(t)
	var h hud
	for _, sz := range [][2]int{{560, 315}, {480, 270}, {320, 200}, {200, 120}, {64, 64}, {1, 1}, {2000, 64}, {64, 2000}} {
		for _, help := range []bool{false, true} {
			for _, banner := range []bool{false, true} {
				f := testFrame(help, banner)
				h.build(a, f, sz[0], sz[1])
				for _, p := range LayoutProblems(f, sz[0], sz[1]) {
					// Below 640x360 parts may be cut or left out, but none
					// leaves the window or covers another.
					if strings.Contains(p, "overlap") || strings.Contains(p, "leaves") || strings.Contains(p, "outside") {
						t.Errorf("%dx%d help %v banner %v: %s", sz[0], sz[1], help, banner, p)
					}
				}
			}
		}
	}
	// 320x200: the tiny faces, the status panel first.
	h.build(a, testFrame(false, false), 320, 200)
	if h.l.fs != &a.tiny || h.status.h == 0 {
		t.Errorf("320x200: tiny faces %v, status %+v", h.l.fs == &a.tiny, h.status)
	}
}

// insideWideItem reports whether piece is part of an item wider than maxW,
// which wraps between its words.
func insideWideItem(f *face, items map[string]bool, piece string, maxW float32) bool {
	for it := range items {
		if f.width(it) > maxW && strings.Contains(it, piece) {
			return true
		}
	}
	return false
}

// TestALongNoteWrapsBetweenWords: a note or a reason wider than the panel
// (a connection lost, a screenshot that could not be written) is wrapped
// between its words, whole, never cut with "…".
func TestALongNoteWrapsBetweenWords(t *testing.T) {
	a := testAtlas(t)
	fs := &a.normal
	note := "screenshot not written: open /read-only/cube-20261124-194500-123.png: read-only file system"
	maxW := 30 * fs.cw()
	var got []string
	for rest := note; rest != ""; {
		line, r, cut := nextItems(fs.text, rest, maxW)
		if cut && (strings.Contains(line, " ") || fs.text.width(line) <= maxW) {
			t.Fatalf("%q cut, though it is not one word wider than the line", line)
		}
		if !cut && fs.text.width(line) > maxW {
			t.Fatalf("%q is wider than the line", line)
		}
		got = append(got, line)
		rest = r
	}
	if len(got) < 3 || strings.Join(got, " ") != note {
		t.Errorf("wrapped as %q, want the whole note over 3 lines or more", got)
	}
	// Only a word wider than the line is cut, and the rest goes on.
	long := "/a/very/long/path/that/does/not/fit/anywhere/at/all.png"
	line, rest, cut := nextItems(fs.text, long+" now", 10*fs.cw())
	if !cut || line != long || rest != "now" {
		t.Errorf("%q (cut %v) then %q, want %q cut then \"now\"", line, cut, rest, long)
	}
}

func TestStatusLinesWrapBetweenItems(t *testing.T) {
	a := testAtlas(t)
	fs := &a.normal
	cw := fs.cw()
	items := map[string]bool{}
	for _, s := range testHUD {
		for _, it := range strings.Split(s, hudSep) {
			items[strings.TrimSpace(it)] = true
		}
	}
	for chars := 8; chars <= 80; chars++ {
		maxW := float32(chars) * cw
		for _, s := range testHUD {
			for rest := s; rest != ""; {
				var line string
				var cut bool
				line, rest, cut = nextItems(fs.text, rest, maxW)
				if cut {
					if strings.Contains(line, " ") || fs.text.width(line) <= maxW {
						t.Errorf("%d chars: %q cut but is not one word wider than the line", chars, line)
					}
					continue
				}
				if fs.text.width(line) > maxW {
					t.Errorf("%d chars: %q is wider than the line", chars, line)
				}
				for _, it := range strings.Split(line, hudSep) {
					if !items[it] && !insideWideItem(fs.text, items, it, maxW) {
						t.Errorf("%d chars: line %q breaks inside an item (%q) that fits the line", chars, line, it)
					}
				}
			}
		}
	}
	// The values stay with their names.
	line, rest, _ := nextItems(fs.text, "snapshots 64 Hz  tick 212  acked 206", 20*cw)
	if line != "snapshots 64 Hz" || rest != "tick 212  acked 206" {
		t.Errorf("%q + %q", line, rest)
	}
}

func TestGraphLabelsAndLegendNeverCollide(t *testing.T) {
	a := testAtlas(t)
	samples := testFrame(false, false).Graph
	for _, fs := range []*fontSet{&a.normal, &a.compact} {
		for w := 30 * fs.cw(); w <= 1400; w += 37 {
			for h := graphMinHeight(fs, w); h <= 400; h += 23 {
				var g graph
				var b batch
				p := rect{10, 10, w, h}
				g.drawGraph(&b, fs, samples, 10, p)
				for i, r := range g.labels {
					if r.x < p.x || r.y < p.y || r.x+r.w > p.x+p.w+0.5 || r.y+r.h > p.y+p.h+0.5 {
						t.Fatalf("%vx%v: label %+v outside the graph", w, h, r)
					}
					// No label over the curves: the axis labels are left
					// of the plot, the legend above it, the time below.
					if len(g.pts) > 0 && overlaps(r, g.plotArea) {
						t.Fatalf("%vx%v: label %+v over the plot %+v", w, h, r, g.plotArea)
					}
					for _, q := range g.labels[i+1:] {
						if overlaps(r, q) {
							t.Fatalf("%vx%v: labels %+v and %+v overlap", w, h, r, q)
						}
					}
				}
			}
		}
	}
	// The legend names the resync mark.
	var g graph
	var b batch
	g.drawGraph(&b, &a.normal, samples, 10, rect{0, 0, 640, 200})
	found := false
	for _, it := range legendItems {
		found = found || it.label == "resync"
	}
	if !found {
		t.Error("no resync entry in the legend")
	}
}

func TestHelpPanelIsOpaque(t *testing.T) {
	if helpBg[3] < 0.95 {
		t.Errorf("help background alpha %v: the status text would show through", helpBg[3])
	}
}

func TestHUDBuildDoesNotAllocateOnceWarm(t *testing.T) {
	a := testAtlas(t)
	samples := make([]Sample, 640)
	for i := range samples {
		samples[i] = Sample{T: float64(i) / 64, Error: 0.001 * float64(i%7), Correction: i%50 == 0, InFlight: float64(i % 13)}
	}
	f := &Frame{
		HUD:      []string{"tick 1234", "rtt 200 ms", strings.Repeat("wrapped ", 40)},
		Help:     []string{"Keys", "W\tforward"},
		ShowHelp: true,
		Banner:   "DESYNC",
		Graph:    samples,
		Now:      10,
	}
	var h hud
	h.build(a, f, 1280, 720)
	if n := testing.AllocsPerRun(10, func() { h.build(a, f, 1280, 720) }); n != 0 {
		t.Errorf("hud.build allocates %v times a frame, want 0", n)
	}
	// Every layout path: help beside, alone, cut; banner beside, above, cut.
	f = testFrame(true, true)
	for _, sz := range [][2]int{{1280, 720}, {640, 360}, {320, 200}, {100, 80}} {
		h.build(a, f, sz[0], sz[1])
		if n := testing.AllocsPerRun(10, func() { h.build(a, f, sz[0], sz[1]) }); n != 0 {
			t.Errorf("%dx%d: hud.build allocates %v times a frame, want 0", sz[0], sz[1], n)
		}
	}
}

func TestTextWrapping(t *testing.T) {
	a := testAtlas(t)
	f := a.text
	cw := f.glyphOf('x').adv
	if f.width("hello") != 5*cw {
		t.Fatalf("Go Mono is monospaced: width(hello) = %v, want %v", f.width("hello"), 5*cw)
	}
	var got []string
	for rest := "the quick brown fox jumps"; rest != ""; {
		var line string
		line, rest = f.nextLine(rest, 10*cw)
		got = append(got, line)
	}
	want := []string{"the quick", "brown fox", "jumps"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrapped into %q, want %q", got, want)
	}
	// A word longer than the width is broken inside it.
	line, rest := f.nextLine("abcdefghij", 4*cw)
	if line != "abcd" || rest != "efghij" {
		t.Errorf("long word: %q + %q, want abcd + efghij", line, rest)
	}
	// Newlines break lines.
	if line, rest := f.nextLine("a\nb", 100*cw); line != "a" || rest != "b" {
		t.Errorf("newline: %q + %q", line, rest)
	}
	if n := f.lineCount("the quick brown fox jumps", 10*cw); n != 3 {
		t.Errorf("lineCount = %d, want 3", n)
	}
	// Unknown runes fall back to '?', known extras do not.
	if f.glyphOf('☃') != f.glyphOf('?') || f.glyphOf('→') == f.glyphOf('?') {
		t.Errorf("fallback glyphs wrong")
	}
}

func TestHUDLayoutAtDoubleScale(t *testing.T) {
	a1, a2 := testAtlas(t), func() *atlas {
		a, err := newAtlas(2)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}()
	if a2.text.height < 2*a1.text.height-2 {
		t.Errorf("line height %v at scale 2, want about twice %v", a2.text.height, a1.text.height)
	}
	f := &Frame{HUD: []string{"tick 1"}, Help: []string{"K\tkey"}, ShowHelp: true, Banner: "B",
		Graph: []Sample{{T: 1, Error: 0.1}}, Now: 1}
	var h hud
	h.build(a2, f, 2560, 1440)
	for name, r := range map[string]rect{"status": h.status, "banner": h.banner, "graph": h.graph, "help": h.help} {
		if r.w <= 0 || !inside(r, 2560, 1440) {
			t.Errorf("%s panel %+v missing or outside 2560x1440", name, r)
		}
	}
	// The layout scales with the faces: the same frame at double scale in
	// a double-size window has the same problems as at 1280x720 (none).
	var h1 hud
	h1.build(a1, testFrame(true, true), 1280, 720)
	h.build(a2, testFrame(true, true), 2560, 1440)
	if h.l.helpAlone != h1.l.helpAlone || h.l.statusMore || h.graph.h == 0 {
		t.Errorf("double scale: help alone %v (%v at scale 1), status cut %v, graph %+v", h.l.helpAlone, h1.l.helpAlone, h.l.statusMore, h.graph)
	}
}
