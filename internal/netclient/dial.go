package netclient

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/transport"
)

// Target is the server a client connects to, as -connect, -pin and
// -insecure give it, and the seed of the client's own link conditioner.
type Target struct {
	Addr     string
	Pin      string // the certificate's SHA-256 fingerprint, or "" with Insecure
	Insecure bool
	Seed     uint64
}

// NewClient builds a client of world w, scene sc, with a random nonce for
// its Hello: the nonce tells this client's Hello from an earlier one's,
// and has nothing to do with the simulation.
func NewClient(cfg predict.ClientConfig, w *physics.World, sc *game.Scene) *predict.Client {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return predict.NewClient(cfg, w, sc, binary.LittleEndian.Uint64(b[:]))
}

// NewBot builds a bot for scene sc, whose server runs in mode, with a
// random nonce for its Hello, as NewClient does.
func NewBot(mode predict.Mode, sc *game.Scene, tickDur time.Duration) *predict.Bot {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return predict.NewBot(mode, sc, tickDur, binary.LittleEndian.Uint64(b[:]))
}

// Dial connects to t over QUIC; its errors are transport's.
func Dial(t Target) (transport.Client, error) {
	return transport.Dial(context.Background(), t.Addr, t.Pin, t.Insecure, &transport.Options{Seed: t.Seed})
}
