package runplot

import (
	"image"
	"image/color"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/cubelab/cube/session"
)

// timeline is 20 s of a run whose error and traffic peak in its last
// second (top right, where a legend inside the plot would cover them), with corrections in
// seconds 3 and 7 and a resync in second 5, and no error anywhere else.
func timeline() []session.Second {
	tl := make([]session.Second, 20)
	for i := range tl {
		tl[i].MaxError = 0
		tl[i].UpBytes, tl[i].DownBytes = 1000, 4000
	}
	tl[3].Corrections, tl[7].Corrections, tl[5].Resyncs = 1, 2, 1
	tl[19].MaxError = 8
	tl[19].DownBytes = 40000
	return tl
}

// drawn lays out and draws the timeline and returns the figure and the
// picture.
func drawn(t *testing.T) (*figure, image.Image) {
	t.Helper()
	img := vgimg.New(figWidth, figHeight)
	fig, err := layout(&session.Summary{Scene: "arena", Sync: "state", Preset: "bad", SnapshotHz: 64}, timeline(), draw.New(img))
	if err != nil {
		t.Fatal(err)
	}
	fig.draw()
	return fig, img.Image()
}

// pixels returns the rectangle of the picture that canvas area r covers.
func pixels(img image.Image, r vg.Rectangle) image.Rectangle {
	b := img.Bounds()
	k := float64(b.Dx()) / float64(figWidth) // pixels a point
	return image.Rect(int(float64(r.Min.X)*k), b.Dy()-int(float64(r.Max.Y)*k), int(float64(r.Max.X)*k), b.Dy()-int(float64(r.Min.Y)*k))
}

// count returns how many pixels of r in img are near c, and the columns
// they are in.
func count(img image.Image, r image.Rectangle, c color.RGBA) (n int, cols map[int]bool) {
	cols = map[int]bool{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			R, G, B, _ := img.At(x, y).RGBA()
			d := func(a uint32, b uint8) int { return abs(int(a>>8) - int(b)) }
			if d(R, c.R) < 40 && d(G, c.G) < 40 && d(B, c.B) < 40 {
				n++
				cols[x] = true
			}
		}
	}
	return n, cols
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestCorrectionsAreTicksOnTheirOwnLane: the corrections are drawn as
// ticks on a lane of their own at the seconds they happened, and nothing
// of their colour is on the error's axis: marks there at a fixed height
// would read as errors of that size.
func TestCorrectionsAreTicksOnTheirOwnLane(t *testing.T) {
	fig, img := drawn(t)
	errData := pixels(img, fig.plots[0].DataCanvas(fig.plotC[0]).Rectangle)
	if n, _ := count(img, errData, colorCorrection); n > 0 {
		t.Errorf("%d pixels of the corrections' colour on the error's axis", n)
	}
	lane := fig.plots[1].DataCanvas(fig.plotC[1])
	n, cols := count(img, pixels(img, lane.Rectangle), colorCorrection)
	if n == 0 {
		t.Fatal("no correction tick on the events lane")
	}
	tx, _ := fig.plots[1].Transforms(&lane)
	k := float64(img.Bounds().Dx()) / float64(figWidth)
	for _, s := range []float64{3.5, 7.5} {
		x := int(float64(tx(s)) * k)
		if !cols[x] && !cols[x-1] && !cols[x+1] {
			t.Errorf("no correction tick at second %v (column %d)", s-0.5, x)
		}
	}
	if len(cols) > 12 {
		t.Errorf("correction ticks in %d columns, want two ticks", len(cols))
	}
	if n, _ := count(img, pixels(img, lane.Rectangle), colorResync); n == 0 {
		t.Error("no resync tick on the events lane")
	}
}

// TestLegendsKeepOffTheCurves: every legend lies outside every plot's
// data area (in its top right corner they would cover the peaks),
// and the peaks in the last second are drawn whole.
func TestLegendsKeepOffTheCurves(t *testing.T) {
	fig, img := drawn(t)
	for i := range fig.legends {
		lr := fig.legends[i].Rectangle(fig.legendC[i])
		if lr.Max.X <= lr.Min.X || lr.Max.Y <= lr.Min.Y {
			t.Errorf("legend %d is empty", i)
		}
		for j, p := range fig.plots {
			dr := p.DataCanvas(fig.plotC[j]).Rectangle
			if lr.Min.X < dr.Max.X && dr.Min.X < lr.Max.X && lr.Min.Y < dr.Max.Y && dr.Min.Y < lr.Max.Y {
				t.Errorf("legend %d %v overlaps plot %d's data %v", i, lr, j, dr)
			}
		}
	}
	// The peaks: the error's 8 m and the 320 kbit/s down, near the top
	// right corners of their plots.
	for _, c := range []struct {
		row   int
		color color.RGBA
	}{{0, colorError}, {2, colorDown}} {
		d := fig.plots[c.row].DataCanvas(fig.plotC[c.row])
		corner := d.Rectangle
		corner.Min.X = corner.Max.X - (corner.Max.X-corner.Min.X)/10
		corner.Min.Y = corner.Max.Y - (corner.Max.Y-corner.Min.Y)/6
		if n, _ := count(img, pixels(img, corner), c.color); n < 10 {
			t.Errorf("row %d: %d pixels of its curve near the top right corner: the peak is not drawn there", c.row, n)
		}
	}
}
