package render

import (
	"bufio"
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// Screenshot writes the back buffer as a PNG file at path. Call it after
// Draw and before Swap: after a swap the back buffer's content is undefined.
func (w *Window) Screenshot(path string) error {
	fw, fh := w.fbW, w.fbH
	if fw <= 0 || fh <= 0 {
		return fmt.Errorf("render: screenshot %s: the window has no pixels (minimised?)", path)
	}
	n := fw * fh * 4
	if cap(w.shot) < n {
		w.shot = make([]byte, n)
	}
	pix := w.shot[:n]
	gl.ReadBuffer(gl.BACK)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.ReadPixels(0, 0, int32(fw), int32(fh), gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(pix))
	if e := gl.GetError(); e != gl.NO_ERROR {
		return fmt.Errorf("render: screenshot %s: glReadPixels: GL error 0x%x", path, e)
	}
	img := glPixelsToImage(pix, fw, fh)
	return writePNG(path, img)
}

// glPixelsToImage turns RGBA rows as glReadPixels returns them (bottom row
// first) into an opaque image with the top row first. It works in place.
func glPixelsToImage(pix []byte, width, height int) *image.RGBA {
	flipRows(pix, width*4)
	for i := 3; i < len(pix); i += 4 {
		pix[i] = 0xff // blending leaves partial alpha; the window shows it opaque
	}
	return &image.RGBA{Pix: pix, Stride: width * 4, Rect: image.Rect(0, 0, width, height)}
}

// flipRows reverses the order of the rows of stride bytes in pix, in place.
func flipRows(pix []byte, stride int) {
	if stride <= 0 {
		return
	}
	rows := len(pix) / stride
	tmp := make([]byte, stride)
	for top, bot := 0, rows-1; top < bot; top, bot = top+1, bot-1 {
		a := pix[top*stride : (top+1)*stride]
		b := pix[bot*stride : (bot+1)*stride]
		copy(tmp, a)
		copy(a, b)
		copy(b, tmp)
	}
}

// writePNG encodes img as a PNG file at path.
func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("render: screenshot: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(bw, img); err != nil {
		f.Close()
		return fmt.Errorf("render: screenshot %s: encoding PNG: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("render: screenshot: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("render: screenshot: %w", err)
	}
	return nil
}
