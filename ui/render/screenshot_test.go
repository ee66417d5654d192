package render

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

func TestFlipRows(t *testing.T) {
	for rows := 0; rows <= 5; rows++ {
		const stride = 3
		pix := make([]byte, rows*stride)
		for i := range pix {
			pix[i] = byte(i / stride) // every byte holds its row number
		}
		flipRows(pix, stride)
		for i, v := range pix {
			if want := byte(rows - 1 - i/stride); v != want {
				t.Fatalf("%d rows: byte %d = %d, want %d", rows, i, v, want)
			}
		}
	}
}

func TestScreenshotImageIsUprightOpaquePNG(t *testing.T) {
	// Two rows as glReadPixels gives them: bottom row (red) first.
	pix := []byte{
		255, 0, 0, 10, 255, 0, 0, 10, // bottom: red, alpha left by blending
		0, 0, 255, 255, 0, 0, 255, 255, // top: blue
	}
	img := glPixelsToImage(pix, 2, 2)
	path := filepath.Join(t.TempDir(), "shot.png")
	if err := writePNG(path, img); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if r, g, bl, a := got.At(0, 0).RGBA(); r != 0 || g != 0 || bl != 0xffff || a != 0xffff {
		t.Errorf("top-left pixel = %v %v %v %v, want opaque blue", r, g, bl, a)
	}
	if r, _, _, a := got.At(1, 1).RGBA(); r != 0xffff || a != 0xffff {
		t.Errorf("bottom-right pixel = %v alpha %v, want opaque red", r, a)
	}
	if err := writePNG(filepath.Join(t.TempDir(), "no", "such", "dir.png"), img); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
