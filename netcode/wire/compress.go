package wire

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
)

// A transfer's bytes (a whole state or a patch, each starting with its
// kind byte) travel in fragments compressed with DEFLATE (RFC 1951):
// resting bodies, sleeping islands and the contacts' zero impulses make a
// state compress about tenfold (the cubes scene's whole state, 274 kB,
// to 23 kB), so that a repair takes a second of a 256 kbit/s budget
// instead of ten, well within the client's history even when a quarter
// of the fragments are lost and sent again.

// MaxTransferBytes bounds a transfer's bytes once decompressed: what
// MaxFragments fragments held before compression, so that a small
// transfer cannot make the client allocate more than a large one could.
const MaxTransferBytes = MaxFragments * FragmentBytes

// ErrTransferTooBig is returned for a transfer that decompresses to more
// than MaxTransferBytes.
var ErrTransferTooBig = fmt.Errorf("%w: a transfer that decompresses to more than MaxTransferBytes", ErrInvalid)

// Compressor compresses transfers, reusing its state from call to call.
type Compressor struct {
	w   *flate.Writer
	buf bytes.Buffer
}

// Compress appends to dst the compressed form of a transfer's bytes.
func (c *Compressor) Compress(dst, raw []byte) []byte {
	c.buf.Reset()
	if c.w == nil {
		c.w, _ = flate.NewWriter(&c.buf, flate.DefaultCompression) // the level is valid
	} else {
		c.w.Reset(&c.buf)
	}
	_, _ = c.w.Write(raw) // a bytes.Buffer does not fail
	_ = c.w.Close()
	return append(dst, c.buf.Bytes()...)
}

// Decompressor decompresses transfers, reusing its state from call to
// call.
type Decompressor struct {
	r   io.ReadCloser
	src bytes.Reader
}

// Decompress appends to dst the bytes of the transfer z compresses, and
// refuses one that is not DEFLATE data, is cut short, or holds more than
// MaxTransferBytes.
func (d *Decompressor) Decompress(dst, z []byte) ([]byte, error) {
	d.src.Reset(z)
	if d.r == nil {
		d.r = flate.NewReader(&d.src)
	} else if err := d.r.(flate.Resetter).Reset(&d.src, nil); err != nil {
		return dst, invalid("transfer: %v", err)
	}
	start := len(dst)
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := d.r.Read(dst[len(dst):min(cap(dst), start+MaxTransferBytes+1)])
		dst = dst[:len(dst)+n]
		if len(dst)-start > MaxTransferBytes {
			return dst[:start], ErrTransferTooBig
		}
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst[:start], invalid("transfer: %v", err)
		}
	}
}
