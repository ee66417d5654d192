package render

import (
	"fmt"
	"image"
	"image/draw"
	"math"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Text is drawn from a single-channel texture atlas holding every glyph the
// HUD can show, rasterised once at Open from the Go fonts. Layout happens
// in framebuffer pixels on the CPU; glyph quads go into the overlay batch.

// Font sizes in pixels at a content scale of 1.
const (
	textSize    = 15 // HUD, help and graph labels (Go Mono)
	compactSize = 12 // the same in windows too small for textSize
	tinySize    = 10 // and in windows too small for compactSize
	bannerSize  = 30 // the banner (Go Bold)
	atlasWidth  = 1024
	atlasPad    = 1 // empty pixels around each glyph, against bleeding
)

// extraRunes are drawn besides printable ASCII and Latin-1.
var extraRunes = []rune("…•·→←↑↓±×÷≈≠≤≥ΔδθωΣμ–—‘’“”")

// glyph is one rasterised rune: its quad relative to the pen position on
// the baseline, in pixels, and its atlas coordinates.
type glyph struct {
	x0, y0, x1, y1 float32 // y grows downward
	u0, v0, u1, v1 float32
	adv            float32 // advance to the next pen position
}

// face is one font at one size in the atlas.
type face struct {
	ascent, height float32    // pixels: baseline below the line top, line spacing
	ascii          [128]int32 // index into glyphs + 1; 0 when missing
	other          map[rune]int32
	glyphs         []glyph
	fallback       int32 // index of '?'
}

// glyphOf returns the glyph for r, or the fallback glyph.
func (f *face) glyphOf(r rune) *glyph {
	var i int32
	if r >= 0 && r < 128 {
		i = f.ascii[r]
	} else {
		i = f.other[r]
	}
	if i == 0 {
		return &f.glyphs[f.fallback]
	}
	return &f.glyphs[i-1]
}

// width returns the advance width of s in pixels.
func (f *face) width(s string) float32 {
	var w float32
	for _, r := range s {
		w += f.glyphOf(r).adv
	}
	return w
}

// nextLine splits s at the first line break or at the last space that keeps
// the line within maxWidth pixels, returning the line and the rest with the
// break removed. A word longer than maxWidth is broken inside. It does not
// allocate: both results are substrings of s.
func (f *face) nextLine(s string, maxWidth float32) (line, rest string) {
	var w float32
	lastSpace := -1
	for i, r := range s {
		if r == '\n' {
			return s[:i], s[i+1:]
		}
		w += f.glyphOf(r).adv
		if w > maxWidth && i > 0 {
			if lastSpace > 0 {
				return s[:lastSpace], trimLeadingSpaces(s[lastSpace+1:])
			}
			return s[:i], s[i:]
		}
		if r == ' ' {
			lastSpace = i
		}
	}
	return s, ""
}

func trimLeadingSpaces(s string) string {
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	return s
}

// lineCount returns how many lines s takes when wrapped at maxWidth.
func (f *face) lineCount(s string, maxWidth float32) int {
	n := 0
	for {
		_, s = f.nextLine(s, maxWidth)
		n++
		if s == "" {
			return n
		}
	}
}

// atlas is the glyph texture and the faces laid out in it.
type atlas struct {
	img     *image.Gray
	scale   float32 // content scale the fonts were made for
	text    *face   // Go Mono, for the HUD, help and graph labels
	bold    *face   // Go Mono Bold, for headings and keys
	banner  *face   // Go Bold, large, for the banner
	normal  fontSet // text and bold
	compact fontSet // Go Mono and Go Mono Bold at compactSize, for small windows
	tiny    fontSet // the same at tinySize, for smaller ones
}

// sets returns the font sets from the largest to the smallest.
func (a *atlas) sets() [3]*fontSet { return [3]*fontSet{&a.normal, &a.compact, &a.tiny} }

// fontSet is a text face and its bold, at one size.
type fontSet struct{ text, bold *face }

// lh returns the line height in pixels.
func (s *fontSet) lh() float32 { return s.text.height }

// cw returns the advance of a character (the faces are monospaced).
func (s *fontSet) cw() float32 { return s.text.glyphOf('0').adv }

// newAtlas rasterises the fonts at the given content scale (1 on ordinary
// screens, 2 on most high-density ones).
func newAtlas(scale float32) (*atlas, error) {
	if !(scale >= 0.5) || scale > 4 {
		scale = 1
	}
	p := packer{img: image.NewGray(image.Rect(0, 0, atlasWidth, 2048)), x: atlasPad, y: atlasPad}
	a := &atlas{img: p.img, scale: scale}
	var err error
	if a.text, err = p.addFace("Go Mono", gomono.TTF, textSize*scale); err != nil {
		return nil, err
	}
	if a.bold, err = p.addFace("Go Mono Bold", gomonobold.TTF, textSize*scale); err != nil {
		return nil, err
	}
	if a.banner, err = p.addFace("Go Bold", gobold.TTF, bannerSize*scale); err != nil {
		return nil, err
	}
	a.normal = fontSet{a.text, a.bold}
	if a.compact.text, err = p.addFace("Go Mono", gomono.TTF, compactSize*scale); err != nil {
		return nil, err
	}
	if a.compact.bold, err = p.addFace("Go Mono Bold", gomonobold.TTF, compactSize*scale); err != nil {
		return nil, err
	}
	if a.tiny.text, err = p.addFace("Go Mono", gomono.TTF, tinySize*scale); err != nil {
		return nil, err
	}
	if a.tiny.bold, err = p.addFace("Go Mono Bold", gomonobold.TTF, tinySize*scale); err != nil {
		return nil, err
	}
	h := p.y + p.rowH + atlasPad
	h = (h + 3) &^ 3
	a.img = p.img.SubImage(image.Rect(0, 0, atlasWidth, h)).(*image.Gray)
	fw, fh := float32(atlasWidth), float32(h)
	for _, f := range []*face{a.text, a.bold, a.banner, a.compact.text, a.compact.bold, a.tiny.text, a.tiny.bold} {
		for i := range f.glyphs {
			g := &f.glyphs[i]
			g.u0, g.u1 = g.u0/fw, g.u1/fw
			g.v0, g.v1 = g.v0/fh, g.v1/fh
		}
	}
	return a, nil
}

// packer places glyph bitmaps into the atlas image in rows.
type packer struct {
	img        *image.Gray
	x, y, rowH int
}

// place reserves a w×h rectangle and returns its top-left corner.
func (p *packer) place(w, h int) (image.Point, error) {
	if p.x+w+atlasPad > p.img.Bounds().Dx() {
		p.x = atlasPad
		p.y += p.rowH + atlasPad
		p.rowH = 0
	}
	if p.y+h+atlasPad > p.img.Bounds().Dy() || w+2*atlasPad > p.img.Bounds().Dx() {
		return image.Point{}, fmt.Errorf("glyph atlas full")
	}
	pt := image.Pt(p.x, p.y)
	p.x += w + atlasPad
	p.rowH = max(p.rowH, h)
	return pt, nil
}

// addFace rasterises one font at size pixels into the atlas. Glyph atlas
// coordinates are left in pixels; newAtlas normalises them.
func (p *packer) addFace(name string, ttf []byte, size float32) (*face, error) {
	fnt, err := opentype.Parse(ttf)
	if err != nil {
		return nil, fmt.Errorf("render: parsing font %s: %w", name, err)
	}
	ff, err := opentype.NewFace(fnt, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("render: font %s at %v px: %w", name, size, err)
	}
	defer ff.Close()
	m := ff.Metrics()
	f := &face{
		ascent: float32(m.Ascent.Ceil()),
		height: float32(m.Height.Ceil()),
		other:  make(map[rune]int32),
	}
	add := func(r rune) error {
		dr, mask, mp, adv, ok := ff.Glyph(fixed.Point26_6{}, r)
		if !ok {
			return nil
		}
		g := glyph{adv: float32(math.Round(float64(adv) / 64))}
		if !dr.Empty() {
			at, err := p.place(dr.Dx(), dr.Dy())
			if err != nil {
				return fmt.Errorf("render: font %s: %w", name, err)
			}
			draw.Draw(p.img, image.Rectangle{at, at.Add(dr.Size())}, mask, mp, draw.Src)
			g.x0, g.y0 = float32(dr.Min.X), float32(dr.Min.Y)
			g.x1, g.y1 = float32(dr.Max.X), float32(dr.Max.Y)
			g.u0, g.v0 = float32(at.X), float32(at.Y)
			g.u1, g.v1 = float32(at.X+dr.Dx()), float32(at.Y+dr.Dy())
		}
		f.glyphs = append(f.glyphs, g)
		idx := int32(len(f.glyphs))
		if r < 128 {
			f.ascii[r] = idx
		} else {
			f.other[r] = idx
		}
		return nil
	}
	for r := rune(32); r < 127; r++ {
		if err := add(r); err != nil {
			return nil, err
		}
	}
	for r := rune(0xa0); r <= 0xff; r++ {
		if err := add(r); err != nil {
			return nil, err
		}
	}
	for _, r := range extraRunes {
		if err := add(r); err != nil {
			return nil, err
		}
	}
	if f.ascii['?'] == 0 {
		return nil, fmt.Errorf("render: font %s has no '?' glyph", name)
	}
	f.fallback = f.ascii['?'] - 1
	// Tabs are laid out by the help panel; elsewhere they draw as a space.
	f.ascii['\t'] = f.ascii[' ']
	return f, nil
}

// text appends the quads of s drawn with f, its line top at (x, y) in
// pixels, and returns the pen position after the last glyph. Glyphs are
// placed on whole pixels so that they stay sharp.
func (b *batch) text(f *face, x, y float32, s string, c color) float32 {
	baseline := float32(math.Round(float64(y + f.ascent)))
	pen := float32(math.Round(float64(x)))
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		s = s[n:]
		g := f.glyphOf(r)
		if g.x1 > g.x0 {
			b.quad(pen+g.x0, baseline+g.y0, pen+g.x1, baseline+g.y1, g.u0, g.v0, g.u1, g.v1, c)
		}
		pen += g.adv
	}
	return pen
}

// ellipsis ends text cut to fit.
const ellipsis = "…"

// textFit draws s like text, but cut to at most maxW pixels wide: a string
// that does not fit ends with an ellipsis. It returns the pen position
// after the last glyph.
func (b *batch) textFit(f *face, x, y float32, s string, maxW float32, c color) float32 {
	if f.width(s) <= maxW {
		return b.text(f, x, y, s, c)
	}
	room := maxW - f.width(ellipsis)
	var w float32
	end := 0
	for i, r := range s {
		w += f.glyphOf(r).adv
		if w > room {
			end = i
			break
		}
	}
	x = b.text(f, x, y, s[:end], c)
	return b.text(f, x, y, ellipsis, c)
}
