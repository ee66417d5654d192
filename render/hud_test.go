package render

import (
	"math"
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

func TestHUDLayout(t *testing.T) {
	a := testAtlas(t)
	f := &Frame{
		HUD:      []string{"tick 1234", "rtt 200 ms", strings.Repeat("a very long status line ", 20)},
		Help:     []string{"Keys", "W A S D\tpush the cube", "Space\tjump", "", "F12\tscreenshot"},
		ShowHelp: true,
		Banner:   "DESYNC at tick 1234",
		Graph:    []Sample{{T: 9, Error: 0.1}, {T: 10, Error: 0.01}},
		Now:      10,
	}
	var h hud
	const w, hgt = 1280, 720
	h.build(a, f, w, hgt)
	for name, r := range map[string]rect{"status": h.status, "banner": h.banner, "graph": h.graph, "help": h.help} {
		if r.w <= 0 || r.h <= 0 {
			t.Errorf("%s panel not drawn: %+v", name, r)
		}
		if !inside(r, w, hgt) {
			t.Errorf("%s panel %+v is not inside the %dx%d window", name, r, w, hgt)
		}
	}
	// Help is centred.
	if cx := h.help.x + h.help.w/2; math.Abs(float64(cx-w/2)) > 1 {
		t.Errorf("help panel centre x = %v, want %v", cx, w/2)
	}
	if cy := h.help.y + h.help.h/2; math.Abs(float64(cy-hgt/2)) > 1 {
		t.Errorf("help panel centre y = %v, want %v", cy, hgt/2)
	}
	// The long status line wraps: the panel keeps within 45% of the width
	// and holds more than three lines.
	if h.status.w > 0.45*w+1 {
		t.Errorf("status panel %v px wide, want at most 45%% of %d", h.status.w, w)
	}
	if lines := (h.status.h - a.text.height) / a.text.height; lines < 4 {
		t.Errorf("status panel holds %v lines, want the long line wrapped", lines)
	}
	// The status panel stays above the graph.
	if h.status.y+h.status.h > h.graph.y {
		t.Errorf("status panel %+v overlaps the graph %+v", h.status, h.graph)
	}
	if len(h.b.verts)%6 != 0 || len(h.b.verts) == 0 {
		t.Errorf("%d overlay vertices, want a non-zero multiple of 6", len(h.b.verts))
	}
	for _, v := range h.b.verts {
		if (v.u < 0 || v.u > 1 || v.v < 0 || v.v > 1) && (v.u != solidUV || v.v != solidUV) {
			t.Fatalf("vertex %+v has atlas coordinates outside 0..1", v)
		}
	}

	// Hidden help and an empty frame draw nothing of them.
	h.build(a, &Frame{Help: f.Help}, w, hgt)
	if h.help.w != 0 || h.status.w != 0 || h.graph.w != 0 || len(h.b.verts) != 0 {
		t.Errorf("an empty frame drew something: %+v, %d vertices", h, len(h.b.verts))
	}
	// A tiny window does not panic and keeps the panels inside.
	h.build(a, f, 200, 120)
	for name, r := range map[string]rect{"status": h.status, "banner": h.banner, "graph": h.graph, "help": h.help} {
		if r.w > 0 && !inside(r, 200, 120) {
			t.Errorf("tiny window: %s panel %+v is outside", name, r)
		}
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
}
