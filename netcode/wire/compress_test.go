package wire

import (
	"bytes"
	"compress/flate"
	"errors"
	"testing"

	"github.com/cubelab/cube/physics"
)

// TestCompressRoundTrip: a transfer of a state decompresses to its bytes,
// smaller than they were when the state has resting bodies; the same
// Compressor and Decompressor serve again, for another size.
func TestCompressRoundTrip(t *testing.T) {
	st := physics.State{Tick: 9, Bodies: make([]physics.BodyState, 900)}
	for i := range st.Bodies {
		st.Bodies[i].Rot.W = 1
		st.Bodies[i].Pos.X = float64(i)
	}
	var c Compressor
	var d Decompressor
	for _, n := range []int{900, 3} {
		st.Bodies = st.Bodies[:n]
		raw := AppendTransfer(nil, &TransferState{Chain: 1, State: st})
		z := c.Compress([]byte{0xee}, raw)
		if z[0] != 0xee {
			t.Fatal("Compress did not append")
		}
		got, err := d.Decompress([]byte{0xdd}, z[1:])
		if err != nil || got[0] != 0xdd || !bytes.Equal(got[1:], raw) {
			t.Fatalf("%d bodies: %v, %d bytes back of %d", n, err, len(got)-1, len(raw))
		}
		if n == 900 && len(z)*4 > len(raw) {
			t.Errorf("900 resting bodies: %d bytes compressed to %d", len(raw), len(z))
		}
	}
}

// TestDecompressRefuses: bytes that are not DEFLATE data, data cut short,
// and data that decompresses past MaxTransferBytes (zeros, which compress
// a thousandfold) are refused as invalid, with dst as it was.
func TestDecompressRefuses(t *testing.T) {
	var c Compressor
	var d Decompressor
	whole := c.Compress(nil, make([]byte, 5000))
	var big bytes.Buffer
	w, _ := flate.NewWriter(&big, flate.BestCompression)
	_, _ = w.Write(make([]byte, MaxTransferBytes+1))
	_ = w.Close()
	for name, z := range map[string][]byte{
		"not deflate": {0xff, 0xff, 0xff},
		"cut short":   whole[:len(whole)/2],
		"too big":     big.Bytes(),
	} {
		got, err := d.Decompress([]byte("kept"), z)
		if !errors.Is(err, ErrInvalid) || string(got) != "kept" {
			t.Errorf("%s (%d bytes): %v, dst %q", name, len(z), err, got)
		}
	}
	if big.Len() > MaxTransferBytes/100 {
		t.Errorf("the bomb is %d bytes: the test does not show what it should", big.Len())
	}
}

// FuzzDecompress: any bytes decompress without a panic, to at most
// MaxTransferBytes, or are refused.
func FuzzDecompress(f *testing.F) {
	var c Compressor
	f.Add(c.Compress(nil, []byte("a transfer")))
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0xff, 0xff})
	var d Decompressor
	f.Fuzz(func(t *testing.T, z []byte) {
		got, err := d.Decompress(nil, z)
		if err == nil && len(got) > MaxTransferBytes {
			t.Fatalf("%d bytes", len(got))
		}
	})
}
