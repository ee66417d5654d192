package runplot

import (
	"fmt"
	"image/color"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// CostPoint is what a client's corrections cost in one configuration:
// per replay, the bodies it re-simulated (summed over its ticks) and its
// wall time.
type CostPoint struct {
	Mode    string // "state" or "inputs"
	Players int
	Bodies  float64 // bodies re-simulated per replay
	Ms      float64 // milliseconds per replay
}

// WriteCost draws correction cost against bodies reached to a PNG: one
// line per sync mode, a point per number of players, labelled with it.
func WriteCost(path, title string, points []CostPoint) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "bodies re-simulated per replay (summed over its ticks)"
	p.Y.Label.Text = "ms per replay"
	colors := map[string]color.Color{"state": color.RGBA{R: 200, G: 60, A: 255}, "inputs": color.RGBA{G: 90, B: 220, A: 255}}
	for _, mode := range []string{"state", "inputs"} {
		var xy plotter.XYs
		var labels []string
		for _, pt := range points {
			if pt.Mode == mode {
				xy = append(xy, plotter.XY{X: pt.Bodies, Y: pt.Ms})
				labels = append(labels, fmt.Sprintf("%d", pt.Players))
			}
		}
		if len(xy) == 0 {
			continue
		}
		if err := addLine(p, &p.Legend, xy, mode+" sync (points: players)", colors[mode]); err != nil {
			return err
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Color, sc.GlyphStyle.Shape = colors[mode], draw.CircleGlyph{}
		p.Add(sc)
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: labels})
		if err != nil {
			return err
		}
		p.Add(lb)
	}
	p.Legend.Top, p.Legend.Left = true, true
	p.X.Min, p.Y.Min = 0, 0
	img := vgimg.New(8*vg.Inch, 5*vg.Inch)
	p.Draw(draw.New(img))
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
