package render

import (
	"strings"
)

// The HUD is the overlay of a frame: status lines top-left, the banner top
// right or across the top, the graph along the bottom and the help panel
// beside them or alone (layout.go says where).

// HUD colours. The help panel is nearly opaque: nothing shows through it.
var (
	panelBg     = color{0.05, 0.06, 0.08, 0.62}
	helpBg      = color{0.04, 0.05, 0.07, 0.96}
	helpBorder  = color{1, 1, 1, 0.25}
	textColor   = color{0.92, 0.94, 0.96, 1}
	dimColor    = color{0.70, 0.73, 0.78, 1}
	keyColor    = color{1.00, 0.85, 0.40, 1}
	bannerColor = color{1.00, 0.22, 0.18, 1}
	bannerBg    = color{0.08, 0.02, 0.02, 0.78}
)

// hud lays out and holds one frame's overlay. Its buffers are reused.
type hud struct {
	b batch
	g graph
	l layout

	// Where the last build put each panel; zero when not drawn.
	status, banner, graph, help rect
	timeline                    timelineBox
}

// build lays out frame f for a framebuffer of w×h pixels.
func (h *hud) build(a *atlas, f *Frame, w, hgt int) {
	h.b.reset()
	W, H := float32(w), float32(hgt)
	l := &h.l
	h.timeline = timelineBox{}
	if f.Timeline != nil {
		fs := timelineFonts(a, H)
		h.timeline = layTimeline(fs, W, H)
		defer h.drawTimeline(fs, f.Timeline, h.timeline)
		H = h.timeline.panel.y // the other panels keep above it
	}
	l.lay(a, f, W, H)
	h.status, h.banner, h.graph, h.help = l.status, l.banner, l.graph, l.help

	if l.graph.h > 0 {
		h.g.drawGraph(&h.b, l.fs, f.Graph, f.Now, l.graph)
	}
	if l.status.h > 0 {
		h.drawStatus(f.HUD)
	}
	if l.banner.h > 0 {
		h.drawBanner(f.Banner)
	}
	if l.help.h > 0 {
		h.drawHelp(f.Help)
	}
}

// drawStatus draws the status panel: the lines wrapped between items,
// continuation lines indented, cut with "…" when the layout says so.
func (h *hud) drawStatus(lines []string) {
	l := &h.l
	fs, r, pad := l.fs, l.status, l.pad
	lh, ind := fs.lh(), statusIndent(fs)
	h.b.rect(r.x, r.y, r.w, r.h, panelBg)
	y := r.y + pad
	drawn := 0
	for _, s := range lines {
		x, maxW := r.x+pad, l.statusMaxW
		for rest := s; ; {
			if drawn == l.statusLines {
				return
			}
			if l.statusMore && drawn == l.statusLines-1 {
				h.b.text(fs.text, r.x+pad, y, ellipsis, dimColor)
				return
			}
			var line string
			var cut bool
			line, rest, cut = nextItems(fs.text, rest, maxW)
			if cut {
				h.b.textFit(fs.text, x, y, line, maxW, textColor)
			} else {
				h.b.text(fs.text, x, y, line, textColor)
			}
			y += lh
			drawn++
			if rest == "" {
				break
			}
			x, maxW = r.x+pad+ind, l.statusMaxW-ind
		}
	}
}

// drawBanner draws the banner: its first line large, the rest below.
func (h *hud) drawBanner(s string) {
	l := &h.l
	r, pad := l.banner, l.pad
	h.b.rect(r.x, r.y, r.w, r.h, bannerBg)
	first, rest, _ := strings.Cut(s, "\n")
	y := r.y + pad*0.5
	h.b.textFit(l.bannerTitle, r.x+pad, y, first, l.bannerMaxW, bannerColor)
	y += l.bannerTitle.height
	for n := 0; rest != "" && n < l.bannerLines; n++ {
		var line string
		line, rest = l.fs.text.nextLine(rest, l.bannerMaxW)
		h.b.textFit(l.fs.text, r.x+pad, y, line, l.bannerMaxW, textColor)
		y += l.fs.text.height
	}
}

// drawHelp draws the help panel: in columns, each a column of keys and one
// of descriptions; a line without a tab is a heading, in bold.
func (h *hud) drawHelp(lines []string) {
	l := &h.l
	fs, r := l.helpFS, l.help
	_, pad := margins(fs)
	keyGap, colGap := helpGap(fs)
	lh := fs.lh()
	h.b.rect(r.x-1, r.y-1, r.w+2, r.h+2, helpBorder)
	h.b.rect(r.x, r.y, r.w, r.h, helpBg)
	x := r.x + pad
	rows := l.helpRows // per column; when cut, the last ones are left out
	for c := 0; c < l.helpCols; c++ {
		from, to := c*rows, min(len(lines), (c+1)*rows)
		if from >= to {
			break
		}
		var keyW, descW float32
		for i := from; i < to; i++ {
			if k, d, heading := helpEntry(lines[i], l.helpShort); !heading {
				keyW = max(keyW, fs.bold.width(k))
				descW = max(descW, fs.text.width(d))
			}
		}
		colW := keyW + keyGap + descW
		right := r.x + r.w - pad
		y := r.y + pad
		for i := from; i < to; i++ {
			if l.helpMore && i == to-1 && c == l.helpCols-1 {
				h.b.text(fs.text, x, y, ellipsis, dimColor)
				break
			}
			k, d, heading := helpEntry(lines[i], l.helpShort)
			if heading {
				h.b.textFit(fs.bold, x, y, k, right-x, textColor)
			} else {
				h.b.textFit(fs.bold, x, y, k, right-x, keyColor)
				if dx := x + keyW + keyGap; dx < right {
					h.b.textFit(fs.text, dx, y, d, right-dx, textColor)
				}
			}
			y += lh
		}
		for i := from; i < to; i++ {
			if k, _, heading := helpEntry(lines[i], l.helpShort); heading {
				colW = max(colW, fs.bold.width(k))
			}
		}
		x += colW + colGap
	}
}
