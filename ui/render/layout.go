package render

import (
	"fmt"
	"math"
	"strings"
	"sync"
)

// The overlay's layout: where the status panel (HUD), the banner, the graph
// and the help panel go for a framebuffer size, so that none covers another.
// It is plain arithmetic on text widths, tested without a GPU, and it does
// not allocate.
//
// The status panel sits top left, at most about half the width, so that the
// followed cube at the centre stays in view; the graph along the bottom
// left, under the status panel; the banner top right of the status panel
// when it fits there, else across the top above it; the help panel where it
// fits beside the others, else over the whole window with the status panel
// and the graph hidden while it is shown. In windows too small for the
// normal text, everything uses the compact faces, then the tiny ones; in
// windows too small even for those (below 640x360), the graph goes first, then the status
// panel's last lines (ending with "…"), then the help's last rows.

// hudSep separates the items of a status line; lines wrap only there.
const hudSep = "  "

// Layout limits.
const (
	statusShare   = 0.45 // of the width at most, for the status panel: the cube at the centre stays in view
	graphShare    = 0.5  // of the width, at least, for the graph
	graphChars    = 72   // characters, at least, for the graph's width, in windows wide enough
	graphMaxShare = 0.6  // of the width, at most, for those graphChars: a small window keeps its view
	graphLines    = 11   // line heights: the graph's preferred height
	graphHShare   = 0.32 // of the height, at most, for the graph
	bannerDetail  = 4    // lines of banner detail at most
	helpMaxCols   = 3
	// viewClear is the room, in shares of the height, kept clear around
	// the window's centre, where the camera puts the followed cube.
	viewClear = 0.1
)

// layout is where the last build put each part of the overlay. A zero rect
// is a part not drawn.
type layout struct {
	fs     *fontSet // faces of the status panel, graph and help
	m, pad float32  // margin to the window edges, padding inside panels

	status      rect
	statusLines int  // status lines drawn (wrapped lines count)
	statusMore  bool // lines left out for want of room: the last one drawn is "…"
	statusMaxW  float32

	banner      rect
	bannerTitle *face // face of the banner's first line
	bannerMaxW  float32
	bannerLines int // detail lines drawn

	graph rect

	help      rect
	helpFS    *fontSet
	helpShort bool // the short descriptions
	helpCols  int
	helpRows  int  // rows drawn per column
	helpMore  bool // rows left out for want of room
	helpAlone bool // the help covers the window: status and graph hidden
}

// margins returns the window margin and the panel padding for a font set.
func margins(fs *fontSet) (m, pad float32) {
	lh := float64(fs.lh())
	return float32(math.Round(lh * 0.7)), float32(math.Round(lh * 0.5))
}

// nextItems splits a status line: it returns the longest run of whole
// items (separated by hudSep) from the start of s that is at most maxW
// wide, and the rest after the separator. An item wider than maxW on its own
// is wrapped between its words (a note, a long reason); a word wider than
// maxW comes back alone with cut set: draw it with textFit.
func nextItems(f *face, s string, maxW float32) (line, rest string, cut bool) {
	sepW := f.width(hudSep)
	var w float32
	end := 0 // s[:end] is the run that fits so far
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], hudSep)
		item := s[i:]
		if j >= 0 {
			item = s[i : i+j]
		}
		iw := f.width(item)
		if end > 0 {
			iw += sepW
		}
		if w+iw > maxW {
			if end == 0 {
				if head, _ := f.nextLine(item, maxW); len(head) < len(item) && item[len(head)] == ' ' {
					return head, trimLeadingSpaces(s[len(head):]), false // wrapped at a space
				}
				word, _, _ := strings.Cut(item, " ") // a word wider than the line
				return word, trimLeadingSpaces(s[len(word):]), true
			}
			return s[:end], trimLeadingSpaces(s[end:]), false
		}
		w += iw
		end = i + len(item)
		if j < 0 {
			break
		}
		i = end + len(hudSep)
	}
	return s[:end], trimLeadingSpaces(s[end:]), false
}

// statusIndent returns the indent of a status line's continuation lines.
func statusIndent(fs *fontSet) float32 { return 2 * fs.cw() }

// measureStatus returns how many wrapped lines the status lines take at
// maxW and the widest one.
func measureStatus(fs *fontSet, lines []string, maxW float32) (n int, width float32) {
	ind := statusIndent(fs)
	for _, s := range lines {
		x, w := float32(0), maxW
		for rest := s; ; {
			var line string
			line, rest, _ = nextItems(fs.text, rest, w)
			width = max(width, x+min(fs.text.width(line), w))
			n++
			if rest == "" {
				break
			}
			x, w = ind, maxW-ind
		}
	}
	return n, width
}

// measureBanner measures banner s in a region maxW wide: the first line in
// title (cut to fit), at most maxLines detail lines after it in detail,
// wrapped. It returns the width and height of the text and the number of
// detail lines.
func measureBanner(title, detail *face, s string, maxW float32, maxLines int) (w, h float32, lines int) {
	first, rest, _ := strings.Cut(s, "\n")
	w, h = min(title.width(first), maxW), title.height
	for rest != "" && lines < maxLines {
		var line string
		line, rest = detail.nextLine(rest, maxW)
		w = max(w, detail.width(line))
		h += detail.height
		lines++
	}
	return w, h, lines
}

// placeBanner puts the banner in the region from x0 to x1 at y, above
// yMax: the title in the large face when it fits on one line there, else
// in bold. It reports false when even then the title or the detail does not
// fit whole.
func (l *layout) placeBanner(a *atlas, s string, x0, x1, y, yMax float32) bool {
	maxW := x1 - x0 - 2*l.pad
	first, detail, _ := strings.Cut(s, "\n")
	title := a.banner
	if title.width(first) > maxW {
		title = l.fs.bold
	}
	if title.width(first) > maxW || maxW <= 0 {
		return false
	}
	if detail != "" && l.fs.text.lineCount(detail, maxW) > bannerDetail {
		return false
	}
	w, h, n := measureBanner(title, l.fs.text, s, maxW, bannerDetail)
	if y+h+l.pad > yMax {
		return false
	}
	l.banner = rect{float32(math.Round(float64((x0+x1)/2 - w/2 - l.pad))), y, w + 2*l.pad, h + l.pad}
	l.bannerTitle, l.bannerMaxW, l.bannerLines = title, maxW, n
	return true
}

// cutBanner puts the banner across the top of a window too small for it
// whole: the title in bold, cut to the width, and the detail lines that fit
// the height; nothing when not even the title does.
func (l *layout) cutBanner(s string, W, H float32) {
	m, pad := l.m, l.pad
	maxW := W - 2*m - 2*pad
	title := l.fs.bold
	room := H - 2*m - pad - title.height
	if maxW <= 0 || room < 0 {
		return
	}
	w, h, n := measureBanner(title, l.fs.text, s, maxW, min(bannerDetail, int(room/l.fs.text.height)))
	l.banner = rect{m, m, w + 2*pad, h + pad}
	l.bannerTitle, l.bannerMaxW, l.bannerLines = title, maxW, n
}

// graphMinHeight returns the smallest graph panel that still shows a plot
// with its labels, for width w.
func graphMinHeight(fs *fontSet, w float32) float32 {
	lh := fs.lh()
	rows := legendRows(fs, w-2*graphPad(fs))
	// The legend, half a line, a plot of three strips (the error's a line
	// high, the others half a line, 0.6 line apart), the time labels.
	return float32(rows)*lh + 5*lh + graphPad(fs) + 2
}

// graphPad returns the graph panel's inner padding.
func graphPad(fs *fontSet) float32 { return float32(math.Round(float64(fs.lh()) * 0.4)) }

// layoutPanels lays out the status panel, the banner and the graph with
// font set fs; it reports whether they all fit complete.
func (l *layout) layoutPanels(a *atlas, f *Frame, fs *fontSet, W, H float32) bool {
	*l = layout{fs: fs}
	l.m, l.pad = margins(fs)
	m, pad, lh, cw := l.m, l.pad, fs.lh(), fs.cw()
	gap := float32(math.Round(float64(m) / 2))

	l.statusMaxW = W*statusShare - 2*pad
	n, sw := 0, float32(0)
	if len(f.HUD) > 0 && l.statusMaxW > 4*cw {
		n, sw = measureStatus(fs, f.HUD, l.statusMaxW)
	}
	statusW := sw + 2*pad
	if n == 0 {
		statusW = 0
	}

	// The banner right of the status panel, else across the top.
	top := m
	if f.Banner != "" {
		x0 := m
		if n > 0 {
			x0 = m + statusW + m
		}
		if !l.placeBanner(a, f.Banner, x0, W-m, m, H-m) {
			if !l.placeBanner(a, f.Banner, m, W-m, m, H-m) {
				l.cutBanner(f.Banner, W, H) // too small even for that
			}
			if l.banner.h > 0 {
				top = l.banner.y + l.banner.h + gap
			}
		}
	}

	// The graph under the status panel (and under the banner where that
	// reaches over it), as high as it likes if there is room, at least as
	// high as it needs, else left out.
	fits := true
	statusH := float32(0)
	if n > 0 {
		statusH = float32(n)*lh + 2*pad
	}
	if f.Graph != nil {
		gw := min(W-2*m, max(min(graphChars*cw, W*graphMaxShare), W*graphShare))
		gMin := graphMinHeight(fs, gw)
		gPref := max(gMin, min(H*graphHShare, graphLines*lh))
		floor := top
		if n > 0 {
			floor = top + statusH + gap
		}
		if l.banner.h > 0 && l.banner.x < m+gw {
			floor = max(floor, l.banner.y+l.banner.h+gap)
		}
		if m+gw > W*0.5-viewClear*H {
			// A graph reaching the centre stays below the followed cube.
			floor = max(floor, H*(0.5+viewClear))
		}
		if room := H - m - floor; gw >= 30*cw && room >= gMin {
			gh := min(gPref, room)
			l.graph = rect{m, H - m - gh, gw, gh}
		} else {
			fits = false
		}
	}
	// The status panel, cut when it does not fit above the graph.
	if n > 0 {
		bottom := H - m
		if l.graph.h > 0 {
			bottom = l.graph.y - gap
		}
		rows := int((bottom - top - 2*pad) / lh)
		if rows < n {
			fits = false
			l.statusMore = true
			n = max(0, rows)
		}
		if n > 0 {
			l.statusLines = n
			l.status = rect{m, top, statusW, float32(n)*lh + 2*pad}
		}
	}
	return fits
}

// helpEntry splits a help line "key\tdescription\tshort" into its parts; a
// line without a tab is a heading.
func helpEntry(s string, short bool) (key, desc string, heading bool) {
	key, rest, ok := strings.Cut(s, "\t")
	if !ok {
		return s, "", true
	}
	long, sh, ok := strings.Cut(rest, "\t")
	if short && ok && sh != "" {
		return key, sh, false
	}
	return key, long, false
}

// helpGap returns the space between the key and description columns and
// between columns.
func helpGap(fs *fontSet) (keyGap, colGap float32) { return 2 * fs.cw(), 3 * fs.cw() }

// helpSize measures the help panel for lines in fs with cols columns of
// rows lines (0: as many as it takes to hold all in cols), the short or the
// long descriptions.
func helpSize(fs *fontSet, lines []string, short bool, cols, rows int) (w, h float32, rowsOut int) {
	keyGap, colGap := helpGap(fs)
	if rows <= 0 {
		rows = (len(lines) + cols - 1) / cols
	}
	for c := 0; c < cols; c++ {
		var keyW, descW, headW float32
		for i := c * rows; i < min(len(lines), (c+1)*rows); i++ {
			k, d, heading := helpEntry(lines[i], short)
			if heading {
				headW = max(headW, fs.bold.width(k))
				continue
			}
			keyW = max(keyW, fs.bold.width(k))
			descW = max(descW, fs.text.width(d))
		}
		colW := max(headW, keyW+keyGap+descW)
		if c > 0 {
			w += colGap
		}
		w += colW
	}
	_, pad := margins(fs)
	return w + 2*pad, float32(rows)*fs.lh() + 2*pad, rows
}

// helpVariant is one way to set the help.
type helpVariant struct {
	set   int // index into atlas.sets
	short bool
	cols  int
}

// helpVariants in order of preference: the full descriptions in the normal
// or the compact faces, then the short ones, then the tiny faces; fewer
// columns before more.
var helpVariants = [...]helpVariant{
	{0, false, 1}, {0, false, 2}, {1, false, 1}, {1, false, 2},
	{0, true, 1}, {0, true, 2}, {0, true, 3},
	{1, true, 1}, {1, true, 2}, {1, true, 3},
	{2, false, 1}, {2, false, 2}, {2, true, 1}, {2, true, 2}, {2, true, 3},
}

// fitHelp tries every variant in the region and places the first that fits,
// centred across and at the top, so that the rest of the region stays free
// for the camera's subject; it reports whether one did.
func (l *layout) fitHelp(a *atlas, lines []string, r rect) bool {
	if r.w <= 0 || r.h <= 0 {
		return false
	}
	for _, v := range helpVariants {
		fs := a.sets()[v.set]
		w, h, rows := helpSize(fs, lines, v.short, v.cols, 0)
		if w <= r.w && h <= r.h {
			l.help = rect{float32(math.Round(float64(r.x + (r.w-w)/2))), r.y, w, h}
			l.helpFS, l.helpShort, l.helpCols, l.helpRows = fs, v.short, v.cols, rows
			return true
		}
	}
	return false
}

// layoutHelp places the help panel: right of the status panel and the
// graph, else right of the status panel above the graph, else over the
// window below the banner with the status panel and the graph hidden, cut
// to the rows that fit when even that is too small.
func (l *layout) layoutHelp(a *atlas, lines []string, W, H float32) {
	m := l.m
	gap := float32(math.Round(float64(m) / 2))
	top := m
	if l.banner.h > 0 {
		top = l.banner.y + l.banner.h + gap
	}
	right := func(rs ...rect) float32 {
		x := m
		for _, r := range rs {
			if r.w > 0 {
				x = max(x, r.x+r.w+gap)
			}
		}
		return x
	}
	// Beside both, over the whole height.
	x0 := right(l.status, l.graph)
	if l.fitHelp(a, lines, rect{x0, top, W - m - x0, H - m - top}) {
		return
	}
	// Beside the status panel, above the graph.
	if l.graph.h > 0 {
		x0 = right(l.status)
		if l.fitHelp(a, lines, rect{x0, top, W - m - x0, l.graph.y - gap - top}) {
			return
		}
	}
	// Alone.
	l.helpAlone = true
	if l.fitHelp(a, lines, rect{m, top, W - 2*m, H - m - top}) {
		return
	}
	// Nothing fits: the short descriptions in the tiny faces, in as many
	// columns as the width holds, cut to the rows the height holds.
	fs := &a.tiny
	_, pad := margins(fs)
	fitRows := int((H - m - top - 2*pad) / fs.lh())
	if fitRows < 1 {
		return
	}
	cols, rows := 1, min(len(lines), fitRows)
	for c := helpMaxCols; c > 1; c-- {
		r := min((len(lines)+c-1)/c, fitRows)
		if w, _, _ := helpSize(fs, lines, true, c, r); w <= W-2*m {
			cols, rows = c, r
			break
		}
	}
	l.helpMore = rows*cols < len(lines)
	w, _, _ := helpSize(fs, lines, true, cols, rows)
	w = min(w, W-2*m)
	l.help = rect{float32(math.Round(float64((W - w) / 2))), top, w, float32(rows)*fs.lh() + 2*pad}
	l.helpFS, l.helpShort, l.helpCols, l.helpRows = fs, true, cols, rows
}

// lay lays out frame f for a framebuffer of W×H pixels.
func (l *layout) lay(a *atlas, f *Frame, W, H float32) {
	for _, fs := range a.sets() {
		if l.layoutPanels(a, f, fs, W, H) {
			break
		}
	}
	if f.ShowHelp && len(f.Help) > 0 {
		l.layoutHelp(a, f.Help, W, H)
		if l.helpAlone {
			l.status, l.statusLines, l.graph = rect{}, 0, rect{}
		}
	}
}

// overlaps reports whether two rectangles share any area.
func overlaps(a, b rect) bool {
	return a.w > 0 && b.w > 0 && a.h > 0 && b.h > 0 &&
		a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
}

// HelpAlone is the LayoutProblems entry for a help panel that found no room
// beside the status panel and the graph and hides them while shown.
const HelpAlone = "help: shown alone, over the status panel and the graph"

var (
	checkAtlasOnce sync.Once
	checkAtlas     *atlas
	checkAtlasErr  error
)

// LayoutProblems lays out frame f's overlay for a framebuffer of
// width×height pixels at content scale 1, as Draw would, and describes
// what does not fit: parts that overlap or leave the window, graph labels
// that crowd each other, text cut or left out, the help shown alone
// (HelpAlone). None means every part is shown whole. It needs no window: it
// is for tests of what callers put in a Frame.
func LayoutProblems(f *Frame, width, height int) []string {
	checkAtlasOnce.Do(func() { checkAtlas, checkAtlasErr = newAtlas(1) })
	if checkAtlasErr != nil {
		return []string{checkAtlasErr.Error()}
	}
	a := checkAtlas
	var h hud
	h.build(a, f, width, height)
	l := &h.l
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	parts := []struct {
		name string
		r    rect
	}{{"status", l.status}, {"banner", l.banner}, {"graph", l.graph}, {"help", l.help}, {"timeline", h.timeline.panel}}
	W, H := float32(width), float32(height)
	for i, p := range parts {
		if p.r.w <= 0 {
			continue
		}
		if p.r.x < 0 || p.r.y < 0 || p.r.x+p.r.w > W || p.r.y+p.r.h > H {
			add("%s %v leaves the %dx%d window", p.name, p.r, width, height)
		}
		for _, q := range parts[i+1:] {
			if overlaps(p.r, q.r) {
				add("%s %v and %s %v overlap", p.name, p.r, q.name, q.r)
			}
		}
	}
	if l.helpAlone {
		out = append(out, HelpAlone)
	}
	if len(f.HUD) > 0 && l.statusLines == 0 && !l.helpAlone {
		add("status: left out")
	}
	if l.statusMore {
		add("status: lines left out")
	}
	if l.status.h > 0 {
		for _, s := range f.HUD {
			for rest, w := s, l.statusMaxW; rest != ""; w = l.statusMaxW - statusIndent(l.fs) {
				var line string
				var cut bool
				line, rest, cut = nextItems(l.fs.text, rest, w)
				if cut {
					add("status: %q cut", line)
				}
			}
		}
	}
	if f.Graph != nil && l.graph.h == 0 && !l.helpAlone {
		add("graph: left out")
	}
	if l.graph.h > 0 {
		lr := h.g.labels
		for i, r := range lr {
			if r.x < l.graph.x || r.y < l.graph.y || r.x+r.w > l.graph.x+l.graph.w || r.y+r.h > l.graph.y+l.graph.h {
				add("graph: label %v outside the graph %v", r, l.graph)
			}
			for _, q := range lr[i+1:] {
				if overlaps(r, q) {
					add("graph: labels %v and %v overlap", r, q)
				}
			}
		}
	}
	if f.Banner != "" {
		first, _, _ := strings.Cut(f.Banner, "\n")
		if l.banner.h == 0 {
			add("banner: left out")
		} else if l.bannerTitle.width(first) > l.bannerMaxW {
			add("banner: %q cut", first)
		}
		if _, detail, ok := strings.Cut(f.Banner, "\n"); ok && l.banner.h > 0 {
			if n := l.fs.text.lineCount(detail, l.bannerMaxW); n > l.bannerLines {
				add("banner: %d of %d detail lines shown", l.bannerLines, n)
			}
		}
	}
	if f.ShowHelp && len(f.Help) > 0 {
		if l.help.h == 0 {
			add("help: left out")
		} else if l.helpMore {
			add("help: rows left out")
		}
	}
	return out
}
