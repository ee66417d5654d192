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

// Write draws a run's timeline to a PNG: the player's largest position
// error each second (log scale) with the seconds that had corrections and
// quiet resyncs, then the traffic up and down in kbit/s.
func Write(path string, sum *session.Summary, tl []session.Second) error {
	errPlot := plot.New()
	errPlot.Title.Text = fmt.Sprintf("cube sim: %s, %s sync, %s preset, %d Hz snapshots", sum.Scene, sum.Sync, sum.Preset, sum.SnapshotHz)
	errPlot.Y.Label.Text = "position error (m)"
	errPlot.Y.Scale = plot.LogScale{}
	errPlot.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	errPlot.Y.Min, errPlot.Y.Max = 1e-4, 10
	var errs, corr, resync plotter.XYs
	for i, s := range tl {
		t := float64(i) + 0.5
		errs = append(errs, plotter.XY{X: t, Y: math.Max(s.MaxError, 1e-4)})
		if s.Corrections > 0 {
			corr = append(corr, plotter.XY{X: t, Y: 5})
		}
		if s.Resyncs > 0 {
			resync = append(resync, plotter.XY{X: t, Y: 2})
		}
	}
	if err := addLine(errPlot, errs, "largest error in the second", color.RGBA{R: 200, G: 150, A: 255}); err != nil {
		return err
	}
	for _, m := range []struct {
		xy    plotter.XYs
		name  string
		color color.Color
		shape draw.GlyphDrawer
	}{{corr, "corrections", color.RGBA{R: 220, A: 255}, draw.CrossGlyph{}}, {resync, "quiet resyncs", color.RGBA{B: 220, G: 120, A: 255}, draw.CircleGlyph{}}} {
		if len(m.xy) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(m.xy)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Color, sc.GlyphStyle.Shape = m.color, m.shape
		errPlot.Add(sc)
		errPlot.Legend.Add(m.name, sc)
	}
	errPlot.Legend.Top = true

	bw := plot.New()
	bw.X.Label.Text = "simulated seconds"
	bw.Y.Label.Text = "kbit/s"
	var up, down plotter.XYs
	for i, s := range tl {
		t := float64(i) + 0.5
		up = append(up, plotter.XY{X: t, Y: float64(s.UpBytes) * 8 / 1000})
		down = append(down, plotter.XY{X: t, Y: float64(s.DownBytes) * 8 / 1000})
	}
	if err := addLine(bw, down, "down", color.RGBA{R: 40, G: 90, B: 220, A: 255}); err != nil {
		return err
	}
	if err := addLine(bw, up, "up", color.RGBA{G: 150, A: 255}); err != nil {
		return err
	}
	bw.Legend.Top = true
	bw.Y.Min = 0
	errPlot.X.Tick.Marker, bw.X.Tick.Marker = secondTicks{}, secondTicks{} // whole seconds

	const width, height = 10 * vg.Inch, 7 * vg.Inch
	img := vgimg.New(width, height)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: vg.Points(4), PadBottom: vg.Points(4), PadX: vg.Points(4), PadY: vg.Points(8)}
	plots := [][]*plot.Plot{{errPlot}, {bw}}
	canvases := plot.Align(plots, tiles, dc)
	errPlot.Draw(canvases[0][0])
	bw.Draw(canvases[1][0])
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

// addLine adds a named line to p.
func addLine(p *plot.Plot, xy plotter.XYs, name string, c color.Color) error {
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
	p.Legend.Add(name, l)
	return nil
}
