package render

import (
	"math"
	"sort"
	"strconv"
)

// Sample is one point of the scrolling graph, taken when the client receives
// a state from the server.
type Sample struct {
	T          float64 // virtual clock, seconds
	Error      float64 // prediction error at that state, metres (0 when it matched)
	Correction bool    // whether the client rewound and replayed for it, a visible correction
	Resync     bool    // whether it rewound and replayed quietly, below the visible thresholds
	InFlight   float64 // ticks of input sent but not yet acknowledged
	DownKbps   float64 // what the client received over the last second, kbit/s
}

// The graph shows the graphSpan seconds ending at Frame.Now, newest at the
// right edge, in three strips, one scale each, labelled on the left in
// their curve's colour: the prediction error (half the height), the ticks
// in flight and the kbit/s received (a quarter each). The error axis is
// logarithmic, so that both sub-millimetre drift and metre-sized
// corrections are readable; errors at or below 10^errLogMin metres,
// including exact zeros, lie on the bottom line. The in-flight and
// bandwidth axes are linear, scaled to a round number at or above the
// largest visible value. No label is drawn over a curve.
const (
	graphSpan = 10.0 // seconds
	errLogMin = -4.0 // log10 metres at the bottom: 0.1 mm
	errLogMax = 1.0  // log10 metres at the top: 10 m
	minFlight = 10.0 // ticks; the smallest in-flight scale
	minDown   = 16.0 // kbit/s; the smallest bandwidth scale
)

// rect is an axis-aligned rectangle in framebuffer pixels, y down.
type rect struct{ x, y, w, h float32 }

// graphPoint is a visible sample mapped into the plot rectangle.
type graphPoint struct {
	x          float32 // pixels; the plot's right edge is Now
	yErr       float32 // pixels
	yFlight    float32 // pixels
	yDown      float32 // pixels
	correction bool
	resync     bool
}

// graph holds the laid-out samples; its slice is reused between frames.
type graph struct {
	pts         []graphPoint
	flightMax   float64 // ticks at the top of the in-flight axis
	flightLabel string  // flightMax as text, kept while it does not change
	labelFor    float64 // the flightMax flightLabel was made for
	downMax     float64 // kbit/s at the top of the bandwidth line's scale
	downLabel   string  // downMax as text
	downFor     float64 // the downMax downLabel was made for
	labels      []rect  // where the last drawGraph put its labels and legend entries
	gap         float32 // pixels between the strips (drawGraph sets it from the line height)
	plotArea    rect    // where the last drawGraph drew the curves, for the tests
}

// strips splits the plot r into the error, in-flight and bandwidth strips,
// g.gap apart.
func (g *graph) strips(r rect) (errR, flightR, downR rect) {
	h := max(0, r.h-2*g.gap)
	errR = rect{r.x, r.y, r.w, h * 0.5}
	flightR = rect{r.x, errR.y + errR.h + g.gap, r.w, h * 0.25}
	downR = rect{r.x, flightR.y + flightR.h + g.gap, r.w, h * 0.25}
	return errR, flightR, downR
}

// timeLabels label every other second of the time axis, oldest first.
var timeLabels = [...]string{"-10s", "-8s", "-6s", "-4s", "-2s", "now"}

// graphX maps a time to the plot's x: now at the right edge, now-graphSpan
// at the left.
func graphX(t, now float64, r rect) float32 {
	return r.x + r.w*float32((t-(now-graphSpan))/graphSpan)
}

// errY maps an error in metres to the plot's y on the log axis.
func errY(e float64, r rect) float32 {
	l := errLogMin
	if e > 0 {
		l = math.Max(errLogMin, math.Min(errLogMax, math.Log10(e)))
	}
	return r.y + r.h - r.h*float32((l-errLogMin)/(errLogMax-errLogMin))
}

// flightY maps ticks in flight to the plot's y on the linear axis.
func flightY(n, top float64, r rect) float32 {
	f := math.Max(0, math.Min(1, n/top))
	return r.y + r.h - r.h*float32(f)
}

// niceCeil returns the smallest of 1, 2, 5 times a power of ten at or above x.
func niceCeil(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// layout maps the samples within the window (now-graphSpan, now] into r.
// Samples are oldest first; older and future ones, and those with a NaN
// time, are dropped.
func (g *graph) layout(samples []Sample, now float64, r rect) {
	g.pts = g.pts[:0]
	from := now - graphSpan
	// Skip the old samples quickly; the filter below still checks each one.
	start := sort.Search(len(samples), func(i int) bool { return samples[i].T >= from })
	maxFlight, maxDown := 0.0, 0.0
	for i := start; i < len(samples); i++ {
		s := &samples[i]
		if !(s.T >= from && s.T <= now) {
			continue
		}
		maxFlight = math.Max(maxFlight, s.InFlight)
		maxDown = math.Max(maxDown, s.DownKbps)
	}
	g.flightMax = niceCeil(math.Max(maxFlight, minFlight))
	g.downMax = niceCeil(math.Max(maxDown, minDown))
	errR, flightR, downR := g.strips(r)
	for i := start; i < len(samples); i++ {
		s := &samples[i]
		if !(s.T >= from && s.T <= now) {
			continue
		}
		g.pts = append(g.pts, graphPoint{
			x:          graphX(s.T, now, r),
			yErr:       errY(s.Error, errR),
			yFlight:    flightY(s.InFlight, g.flightMax, flightR),
			yDown:      flightY(s.DownKbps, g.downMax, downR),
			correction: s.Correction,
			resync:     s.Resync && !s.Correction,
		})
	}
}

// Graph colours.
var (
	graphBg         = color{0.05, 0.06, 0.08, 0.72}
	graphGrid       = color{1, 1, 1, 0.12}
	graphLabel      = color{0.80, 0.82, 0.86, 1}
	graphErrColor   = color{1.00, 0.85, 0.25, 1}
	graphFixColor   = color{1.00, 0.30, 0.25, 0.55}
	graphSyncColor  = color{0.45, 0.95, 0.45, 0.75}
	graphFlightCol  = color{0.35, 0.80, 1.00, 0.9}
	graphDownCol    = color{0.90, 0.50, 1.00, 0.9}
	graphTitleColor = color{1, 1, 1, 1}
)

// errTicks label the log error axis, top to bottom.
var errTicks = [...]struct {
	log10 float64
	label string
}{{1, "10 m"}, {0, "1 m"}, {-1, "10 cm"}, {-2, "1 cm"}, {-3, "1 mm"}, {-4, "≤0.1mm"}}

// graphTitle heads the legend.
const graphTitle = "last 10 s"

// legendItems are the legend's entries, after the title.
var legendItems = [...]struct {
	label string
	c     color
}{
	{"prediction error", graphErrColor},
	{"correction", color{graphFixColor[0], graphFixColor[1], graphFixColor[2], 1}},
	{"resync", color{graphSyncColor[0], graphSyncColor[1], graphSyncColor[2], 1}},
	{"ticks in flight", graphFlightCol},
	{"kbit/s received", graphDownCol},
}

// flowLegend lays out the title and the legend entries in rows from (x0,
// y0) within width w, drawing them when b is not nil, and returns the
// number of rows. Entries wrap between them, never inside.
func flowLegend(b *batch, g *graph, fs *fontSet, x0, y0, w float32) int {
	cw, lh := fs.cw(), fs.lh()
	sw := float32(math.Round(float64(lh) * 0.5)) // swatch size
	x, y, rows := x0, y0, 1
	place := func(itemW float32) {
		if x > x0 && x+itemW > x0+w {
			x, y = x0, y+lh
			rows++
		}
	}
	place(fs.bold.width(graphTitle))
	if b != nil {
		b.text(fs.bold, x, y, graphTitle, graphTitleColor)
		g.label(x, y, fs.bold.width(graphTitle), lh)
	}
	x += fs.bold.width(graphTitle) + 2*cw
	for _, it := range legendItems {
		itemW := sw*1.6 + fs.text.width(it.label)
		place(itemW)
		if b != nil {
			b.rect(x, y+(lh-sw)*0.5, sw, sw, it.c)
			b.text(fs.text, x+sw*1.6, y, it.label, graphLabel)
			g.label(x, y, itemW, lh)
		}
		x += itemW + 2*cw
	}
	return rows
}

// legendRows returns the rows the title and legend take in width w.
func legendRows(fs *fontSet, w float32) int { return flowLegend(nil, nil, fs, 0, 0, w) }

// label records a label's rectangle, for the layout tests.
func (g *graph) label(x, y, w, h float32) {
	if g != nil {
		g.labels = append(g.labels, rect{x, y, w, h})
	}
}

// labelStep returns the step through n+1 evenly spaced labels, 1, 2 or 5
// (or n), so that labels step apart are at least need pixels apart when
// all n+1 span length pixels.
func labelStep(n int, length, need float32) int {
	for _, s := range [...]int{1, 2, 5} {
		if s <= n && length*float32(s)/float32(n) >= need {
			return s
		}
	}
	return n
}

// drawGraph lays out and draws the graph panel into the batch, filling the
// panel rectangle p with the faces of fs. Axis labels that would crowd each
// other are thinned out; the legend wraps to more rows when narrow.
func (g *graph) drawGraph(b *batch, fs *fontSet, samples []Sample, now float64, p rect) {
	f := fs.text
	cw, lh := fs.cw(), fs.lh()
	pad := graphPad(fs)
	g.labels = g.labels[:0]
	b.rect(p.x, p.y, p.w, p.h, graphBg)
	lw := max(1.5, lh/12)                          // line width
	dot := float32(math.Round(float64(lh) * 0.25)) // sample dot size
	px := max(1, float32(math.Round(float64(lh)/18)))

	rows := flowLegend(b, g, fs, p.x+pad, p.y+pad*0.5, p.w-2*pad)

	// The plot, with room for labels left and below (time); the labels on
	// its top line sit below the legend.
	plot := rect{
		x: p.x + pad + 7*cw,
		y: p.y + pad*0.5 + float32(rows)*lh + lh*0.5 + 1,
		w: p.w - 2*pad - 7*cw - cw,
	}
	plot.h = p.y + p.h - pad*0.25 - lh - 1 - plot.y
	g.gap = lh * 0.6 // the error strip's bottom label reaches half a line below it
	if plot.w < 20 || plot.h < 3*lh {
		return
	}
	g.layout(samples, now, plot)
	g.plotArea = plot
	errR, flightR, downR := g.strips(plot)

	last := len(errTicks) - 1
	step := labelStep(last, errR.h, lh)
	for i, t := range errTicks {
		yy := errY(math.Pow(10, t.log10), errR)
		b.rect(errR.x, yy, errR.w, px, graphGrid)
		if (last-i)%step == 0 { // from the bottom line up
			lx := errR.x - f.width(t.label) - cw*0.5
			b.text(f, lx, yy-lh*0.5, t.label, graphLabel)
			g.label(lx, yy-lh*0.5, f.width(t.label), lh)
		}
	}
	if g.flightLabel == "" || g.labelFor != g.flightMax {
		g.flightLabel = strconv.FormatFloat(g.flightMax, 'f', -1, 64)
		g.labelFor = g.flightMax
	}
	if g.downLabel == "" || g.downFor != g.downMax {
		g.downLabel = strconv.FormatFloat(g.downMax, 'f', -1, 64)
		g.downFor = g.downMax
	}
	for _, st := range [...]struct {
		r     rect
		label string
		c     color
	}{{flightR, g.flightLabel, graphFlightCol}, {downR, g.downLabel, graphDownCol}} {
		// A linear strip: its top and bottom lines, its scale at the top
		// left, and 0 at the bottom left when there is room for both.
		b.rect(st.r.x, st.r.y, st.r.w, px, graphGrid)
		b.rect(st.r.x, st.r.y+st.r.h, st.r.w, px, graphGrid)
		lx := st.r.x - f.width(st.label) - cw*0.5
		b.text(f, lx, st.r.y, st.label, st.c)
		g.label(lx, st.r.y, f.width(st.label), lh)
		if st.r.h >= 2*lh {
			b.text(f, st.r.x-f.width("0")-cw*0.5, st.r.y+st.r.h-lh, "0", st.c)
			g.label(st.r.x-f.width("0")-cw*0.5, st.r.y+st.r.h-lh, f.width("0"), lh)
		}
	}
	n := len(timeLabels) - 1
	step = labelStep(n, plot.w, 1.5*f.width("-10s")+cw) // the end labels are not centred
	for s := 0; s <= graphSpan; s++ {
		xx := float32(math.Round(float64(plot.x + plot.w*float32(s)/graphSpan)))
		for _, r := range [...]rect{errR, flightR, downR} {
			b.rect(xx, r.y, px, r.h, graphGrid)
		}
		if s%2 != 0 || (n-s/2)%step != 0 { // from now to the left
			continue
		}
		label := timeLabels[s/2]
		lx := xx - f.width(label)*0.5
		switch s {
		case 0:
			lx = xx
		case graphSpan:
			lx = xx - f.width(label)
		}
		b.text(f, lx, plot.y+plot.h+pad*0.15, label, graphLabel)
		g.label(lx, plot.y+plot.h+pad*0.15, f.width(label), lh)
	}

	// Corrections behind the lines, full height; quiet resyncs as short
	// marks rising from the bottom.
	for _, pt := range g.pts {
		switch {
		case pt.correction:
			b.rect(pt.x-lw/2, errR.y, lw, errR.h, graphFixColor)
		case pt.resync:
			b.rect(pt.x-lw/2, errR.y+errR.h*0.75, lw, errR.h*0.25, graphSyncColor)
		}
	}
	// Ticks in flight as a step line.
	for i := 1; i < len(g.pts); i++ {
		p0, p1 := g.pts[i-1], g.pts[i]
		b.line(p0.x, p0.yFlight, p1.x, p0.yFlight, lw, graphFlightCol)
		if p1.yFlight != p0.yFlight {
			b.line(p1.x, p0.yFlight, p1.x, p1.yFlight, lw, graphFlightCol)
		}
	}
	// Bandwidth down as a polyline.
	for i := 1; i < len(g.pts); i++ {
		p0, p1 := g.pts[i-1], g.pts[i]
		b.line(p0.x, p0.yDown, p1.x, p1.yDown, lw, graphDownCol)
	}
	// The error as a polyline with a dot per received state.
	for i := 1; i < len(g.pts); i++ {
		p0, p1 := g.pts[i-1], g.pts[i]
		b.line(p0.x, p0.yErr, p1.x, p1.yErr, lw, graphErrColor)
	}
	bottom := errR.y + errR.h
	for _, pt := range g.pts {
		c := graphErrColor
		if pt.yErr >= bottom && !pt.correction && !pt.resync {
			continue // no dots along the zero line
		}
		switch {
		case pt.correction:
			c = graphFixColor
			c[3] = 1
		case pt.resync:
			c = graphSyncColor
			c[3] = 1
		}
		b.rect(pt.x-dot/2, pt.yErr-dot/2, dot, dot, c)
	}
}
