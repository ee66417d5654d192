package render

import (
	"math"
	"strings"
)

// The HUD is the overlay of a frame: status lines top-left, the banner top
// centre, the graph along the bottom and the help panel in the middle, on
// top of everything.

// HUD colours.
var (
	panelBg     = color{0.05, 0.06, 0.08, 0.62}
	helpBg      = color{0.04, 0.05, 0.07, 0.88}
	helpBorder  = color{1, 1, 1, 0.25}
	textColor   = color{0.92, 0.94, 0.96, 1}
	keyColor    = color{1.00, 0.85, 0.40, 1}
	bannerColor = color{1.00, 0.22, 0.18, 1}
	bannerBg    = color{0.08, 0.02, 0.02, 0.70}
)

// hud lays out and holds one frame's overlay. Its buffers are reused.
type hud struct {
	b batch
	g graph

	// Where the last build put each panel; zero when not drawn.
	status, banner, graph, help rect
}

// build lays out frame f for a framebuffer of w×h pixels.
func (h *hud) build(a *atlas, f *Frame, w, hgt int) {
	h.b.reset()
	h.status, h.banner, h.graph, h.help = rect{}, rect{}, rect{}, rect{}
	W, H := float32(w), float32(hgt)
	lh := a.text.height
	cw := a.text.glyphOf('0').adv
	m := float32(math.Round(float64(lh) * 0.7)) // margin to the window edges
	pad := float32(math.Round(float64(lh) * 0.5))

	// The graph along the bottom left.
	bottom := H - m
	if f.Graph != nil {
		gw := min(W-2*m, max(64*cw, W*0.5))
		gh := min(H*0.32, 11*lh)
		if gw > 30*cw && gh > 5*lh {
			h.graph = rect{m, H - m - gh, gw, gh}
			h.g.drawGraph(&h.b, a, f.Graph, f.Now, h.graph)
			bottom = h.graph.y - m*0.5
		}
	}

	// Status lines top left, wrapped to at most 45% of the width, cut off
	// above the graph.
	if len(f.HUD) > 0 {
		maxW := max(W*0.45-2*pad, 20*cw)
		var width float32
		n := 0
		for _, s := range f.HUD {
			for rest := s; ; {
				var line string
				line, rest = a.text.nextLine(rest, maxW)
				width = max(width, a.text.width(line))
				n++
				if rest == "" {
					break
				}
			}
		}
		maxLines := int((bottom - m - 2*pad) / lh)
		n = max(0, min(n, maxLines))
		if n > 0 {
			h.status = rect{m, m, width + 2*pad, float32(n)*lh + 2*pad}
			h.b.rect(h.status.x, h.status.y, h.status.w, h.status.h, panelBg)
			y := m + pad
			drawn := 0
		lines:
			for _, s := range f.HUD {
				for rest := s; ; {
					if drawn == n {
						break lines
					}
					var line string
					line, rest = a.text.nextLine(rest, maxW)
					h.b.text(a.text, m+pad, y, line, textColor)
					y += lh
					drawn++
					if rest == "" {
						break
					}
				}
			}
		}
	}

	// The banner, top centre.
	if f.Banner != "" {
		bf := a.banner
		line, _ := bf.nextLine(f.Banner, W-2*m-2*pad)
		bw := bf.width(line)
		h.banner = rect{float32(math.Round(float64((W-bw)/2 - pad))), m, bw + 2*pad, bf.height + pad}
		h.b.rect(h.banner.x, h.banner.y, h.banner.w, h.banner.h, bannerBg)
		h.b.text(bf, h.banner.x+pad, h.banner.y+pad*0.5, line, bannerColor)
	}

	if f.ShowHelp && len(f.Help) > 0 {
		h.drawHelp(a, f.Help, W, H, m, pad)
	}
}

// drawHelp draws the help lines as a centred panel. A line with a tab is a
// key and its description: the descriptions are aligned in a second column.
// When some lines have tabs, the lines without one are headings, in bold.
func (h *hud) drawHelp(a *atlas, lines []string, W, H, m, pad float32) {
	f := a.text
	lh := f.height
	gap := 2 * f.glyphOf(' ').adv
	var keyW, descW, plainW float32
	columns := false
	for _, s := range lines {
		if k, d, ok := strings.Cut(s, "\t"); ok {
			columns = true
			keyW = max(keyW, a.bold.width(k))
			descW = max(descW, f.width(d))
		} else {
			plainW = max(plainW, a.bold.width(s))
		}
	}
	width := max(plainW, keyW+gap+descW)
	width = min(width, W-2*m-2*pad)
	n := min(len(lines), int((H-2*m-2*pad)/lh))
	if n <= 0 || width <= 0 {
		return
	}
	ph := float32(n)*lh + 2*pad
	pw := width + 2*pad
	x := float32(math.Round(float64((W - pw) / 2)))
	y := float32(math.Round(float64((H - ph) / 2)))
	h.help = rect{x, y, pw, ph}
	h.b.rect(x-1, y-1, pw+2, ph+2, helpBorder)
	h.b.rect(x, y, pw, ph, helpBg)
	ty := y + pad
	descX := x + pad + keyW + gap
	for _, s := range lines[:n] {
		if k, d, ok := strings.Cut(s, "\t"); ok {
			h.b.text(a.bold, x+pad, ty, k, keyColor)
			d, _ = f.nextLine(d, x+pw-pad-descX)
			h.b.text(f, descX, ty, d, textColor)
		} else {
			face := f
			if columns {
				face = a.bold
			}
			s, _ = face.nextLine(s, width)
			h.b.text(face, x+pad, ty, s, textColor)
		}
		ty += lh
	}
}
