// Package runplot draws a headless run's timeline (cube sim -plot) to a
// PNG: the player's position error each second, the seconds with
// corrections and resyncs, and the traffic.
package runplot

import (
	"fmt"
	"image/color"
	"math"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/cubelab/cube/session"
)

// The figure's size and rows, top to bottom: the error (log scale), the
// events lane (one row of ticks for corrections, one for resyncs), the
// traffic. Each row's legend is drawn in a column right of the plots,
// never over a curve.
const (
	figWidth, figHeight = 10 * vg.Inch, 7.5 * vg.Inch
	legendWidth         = 1.9 * vg.Inch
	pad                 = 6 // points, between rows and around the figure
)

// rowHeights are the rows' shares of the figure's height.
var rowHeights = [...]float64{0.44, 0.16, 0.40}

// Colours of the curves and marks.
var (
	colorError      = color.RGBA{R: 200, G: 150, A: 255}
	colorCorrection = color.RGBA{R: 220, A: 255}
	colorResync     = color.RGBA{G: 120, B: 220, A: 255}
	colorDown       = color.RGBA{R: 40, G: 90, B: 220, A: 255}
	colorUp         = color.RGBA{G: 150, A: 255}
)

// Lanes of the events row.
const (
	laneResync     = 0
	laneCorrection = 1
)

// figure is a run's timeline laid out on a canvas: the rows' plots and
// legends, and the canvases each is drawn in.
type figure struct {
	plots   []*plot.Plot
	legends []plot.Legend
	plotC   []draw.Canvas // each plot's canvas, aligned so that the data areas share their left and right edges
	legendC []draw.Canvas // each legend's canvas, right of its plot
}

// Write draws a run's timeline to a PNG: the player's largest position
// error each second (log scale); the seconds that had corrections and
// quiet resyncs as ticks on their own lanes; the traffic up and down in
// kbit/s.
func Write(path string, sum *session.Summary, tl []session.Second) error {
	img := vgimg.New(figWidth, figHeight)
	fig, err := layout(sum, tl, draw.New(img))
	if err != nil {
		return err
	}
	fig.draw()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// layout builds the rows' plots and legends for dc.
func layout(sum *session.Summary, tl []session.Second, dc draw.Canvas) (*figure, error) {
	var errs, up, down plotter.XYs
	var corr, resync []float64
	for i, s := range tl {
		t := float64(i) + 0.5
		errs = append(errs, plotter.XY{X: t, Y: math.Max(s.MaxError, 1e-4)})
		up = append(up, plotter.XY{X: t, Y: float64(s.UpBytes) * 8 / 1000})
		down = append(down, plotter.XY{X: t, Y: float64(s.DownBytes) * 8 / 1000})
		if s.Corrections > 0 {
			corr = append(corr, t)
		}
		if s.Resyncs > 0 {
			resync = append(resync, t)
		}
	}
	xMax := math.Max(1, float64(len(tl)))

	errPlot := plot.New()
	errPlot.Title.Text = fmt.Sprintf("cube sim: %s, %s sync, %s preset, %d Hz snapshots", sum.Scene, sum.Sync, sum.Preset, sum.SnapshotHz)
	errPlot.Y.Label.Text = "position error (m)"
	errPlot.Y.Scale = plot.LogScale{}
	errPlot.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	errPlot.Y.Min, errPlot.Y.Max = 1e-4, 10
	errLeg := plot.NewLegend()
	if err := addLine(errPlot, &errLeg, errs, "largest in the second", colorError); err != nil {
		return nil, err
	}

	events := plot.New()
	events.Y.Min, events.Y.Max = -0.6, 1.6
	events.Y.Tick.Marker = plot.ConstantTicks{{Value: laneResync, Label: "resyncs"}, {Value: laneCorrection, Label: "corrections"}}
	events.Y.Label.Text = "seconds with"
	evLeg := plot.NewLegend()
	for _, lane := range []struct {
		at    []float64
		y     float64
		name  string
		color color.Color
	}{{corr, laneCorrection, "corrections", colorCorrection}, {resync, laneResync, "quiet resyncs", colorResync}} {
		tk := &ticks{X: lane.at, Y: lane.y, Half: 0.35}
		tk.LineStyle.Color, tk.LineStyle.Width = lane.color, vg.Points(1.5)
		events.Add(tk)
		evLeg.Add(lane.name, tk)
	}

	bw := plot.New()
	bw.X.Label.Text = "simulated seconds"
	bw.Y.Label.Text = "kbit/s"
	bw.Y.Min = 0
	bwLeg := plot.NewLegend()
	if err := addLine(bw, &bwLeg, down, "down", colorDown); err != nil {
		return nil, err
	}
	if err := addLine(bw, &bwLeg, up, "up", colorUp); err != nil {
		return nil, err
	}

	fig := &figure{plots: []*plot.Plot{errPlot, events, bw}, legends: []plot.Legend{errLeg, evLeg, bwLeg}}
	for i, p := range fig.plots {
		p.X.Min, p.X.Max = 0, xMax
		p.X.Tick.Marker = secondTicks{}
		if i < len(fig.plots)-1 {
			p.X.Tick.Marker = unlabelled{secondTicks{}} // one time axis, labelled at the bottom
		}
		fig.legends[i].Top, fig.legends[i].Left = true, true
	}
	fig.place(dc)
	return fig, nil
}

// place cuts dc into the rows, each a plot with its legend to the right,
// and aligns the plots' data areas on the same left and right edges.
func (fig *figure) place(dc draw.Canvas) {
	p := vg.Points(pad)
	area := draw.Crop(dc, p, -p, p, -p)
	h := area.Max.Y - area.Min.Y
	top := area.Max.Y
	var left, right vg.Length
	for i, pl := range fig.plots {
		rh := vg.Length(rowHeights[i]) * h
		row := area
		row.Min.Y, row.Max.Y = top-rh, top
		if i > 0 {
			row.Max.Y -= p
		}
		top -= rh
		pc := draw.Crop(row, 0, -legendWidth, 0, 0)
		lc := draw.Crop(row, row.Max.X-row.Min.X-legendWidth+p, 0, 0, 0)
		fig.plotC = append(fig.plotC, pc)
		fig.legendC = append(fig.legendC, lc)
		data := pl.DataCanvas(pc)
		left, right = max(left, data.Min.X-pc.Min.X), max(right, pc.Max.X-data.Max.X)
	}
	for i, pl := range fig.plots {
		pc := fig.plotC[i]
		data := pl.DataCanvas(pc)
		fig.plotC[i] = draw.Crop(pc, left-(data.Min.X-pc.Min.X), -(right - (pc.Max.X - data.Max.X)), 0, 0)
		data = pl.DataCanvas(fig.plotC[i])
		fig.legendC[i].Min.Y, fig.legendC[i].Max.Y = data.Min.Y, data.Max.Y // beside the data, below the title
	}
}

// draw draws the plots and their legends.
func (fig *figure) draw() {
	for i, p := range fig.plots {
		p.Draw(fig.plotC[i])
		fig.legends[i].Draw(fig.legendC[i])
	}
}

// addLine adds a named line to p and its legend to leg.
func addLine(p *plot.Plot, leg *plot.Legend, xy plotter.XYs, name string, c color.Color) error {
	if len(xy) == 0 {
		return nil
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	l.LineStyle.Color = c
	l.LineStyle.Width = vg.Points(1.2)
	p.Add(l)
	leg.Add(name, l)
	return nil
}

// ticks draws a vertical tick at each of X, from Y-Half to Y+Half in data
// units: the seconds of one kind of event, on its lane.
type ticks struct {
	X       []float64
	Y, Half float64
	draw.LineStyle
}

// Plot implements plot.Plotter.
func (t *ticks) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, x := range t.X {
		c.StrokeLine2(t.LineStyle, tx(x), ty(t.Y-t.Half), tx(x), ty(t.Y+t.Half))
	}
}

// Thumbnail implements plot.Thumbnailer: a short vertical tick.
func (t *ticks) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(t.LineStyle, x, c.Min.Y, x, c.Max.Y)
}

// unlabelled is a Ticker's marks without their labels.
type unlabelled struct{ plot.Ticker }

// Ticks implements plot.Ticker.
func (u unlabelled) Ticks(lo, hi float64) []plot.Tick {
	ts := u.Ticker.Ticks(lo, hi)
	for i := range ts {
		ts[i].Label = ""
	}
	return ts
}
