// Command pngshrink re-encodes PNG files in place, smaller, for the
// screenshots committed to docs/: at the best compression, and with
// -palette as 8-bit colour (Plan 9's palette, Floyd-Steinberg dithered),
// about half the size of the window's own screenshots, which favour speed.
//
// Usage: go run ./scripts/pngshrink [-palette] FILE.png...
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color/palette"
	"image/draw"
	"image/png"
	"os"
)

func main() {
	pal := flag.Bool("palette", false, "8-bit colour, dithered")
	flag.Parse()
	status := 0
	for _, path := range flag.Args() {
		if err := shrink(path, *pal); err != nil {
			fmt.Fprintf(os.Stderr, "pngshrink: %v\n", err)
			status = 1
		}
	}
	os.Exit(status)
}

// shrink re-encodes the PNG at path, keeping the file as it was when the
// result is not smaller.
func shrink(path string, pal bool) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if pal {
		p := image.NewPaletted(img.Bounds(), palette.Plan9)
		draw.FloydSteinberg.Draw(p, img.Bounds(), img, img.Bounds().Min)
		img = p
	}
	var out bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, img); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if out.Len() >= len(b) {
		return nil
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}
