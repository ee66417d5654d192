package wire

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

func TestHelloRoundTrip(t *testing.T) {
	ids := []game.Identity{corpusIdentity, {Name: "a", Players: 1}}
	for _, name := range game.Names() {
		_, sc, err := game.Build(name, physics.DefaultConfig(), game.Options{Players: 2, Quantize: name == "stack"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sc.ID)
	}
	var got Hello
	for _, id := range ids {
		for mode := uint8(0); mode <= MaxMode; mode++ {
			for _, nonce := range []uint64{0, 1, math.MaxUint64} {
				m := Hello{Nonce: nonce, Mode: mode, Scene: id}
				b := AppendHello(nil, &m)
				want := msg(KindHello).u64(nonce).u32(0).u8(byte(mode)).identity(&id)
				if !bytes.Equal(b, want) {
					t.Errorf("%v: encoded %x, want (doc.go) %x", id, b, want)
				}
				if err := DecodeHello(b, &got); err != nil {
					t.Fatalf("%v: %v", id, err)
				}
				if got != m {
					t.Errorf("decoded %+v, want %+v", got, m)
				}
			}
		}
	}
}

func TestWelcomeRoundTrip(t *testing.T) {
	var got Welcome
	for result := uint8(0); result <= lastResult; result++ {
		for _, player := range []uint8{0, 1, game.MaxPlayers - 1} {
			for _, tick := range []uint32{0, 1, math.MaxUint32} {
				for _, transfer := range []bool{false, true} {
					m := Welcome{Nonce: uint64(tick) * 77, Result: result, Player: player, Tick: tick, Transfer: transfer}
					b := AppendWelcome(nil, &m)
					flags := byte(0)
					if transfer {
						flags = 1
					}
					if want := msg(KindWelcome).u64(m.Nonce).u32(0).u8(result, player).u32(tick).u8(flags); !bytes.Equal(b, want) {
						t.Errorf("%+v: encoded %x, want (doc.go) %x", m, b, want)
					}
					if err := DecodeWelcome(b, &got); err != nil || got != m {
						t.Errorf("%+v: decoded %+v, %v", m, got, err)
					}
				}
			}
		}
	}
}

func TestHelloWelcomeInvalid(t *testing.T) {
	id := func(name string, players int, bodies uint32, q byte) spec {
		return spec{}.u8(byte(len(name))).u8([]byte(name)...).u8(byte(players)).u32(bodies).u8(q).u32(1).u64(2)
	}
	hello := func(mode byte, scene spec) []byte { return msg(KindHello).u64(1).u32(0).u8(mode).u8(scene...) }
	welcome := func(result, player, flags byte) []byte {
		return msg(KindWelcome).u64(1).u32(0).u8(result, player).u32(0).u8(flags)
	}
	for _, c := range []struct {
		name string
		b    []byte
		err  error
	}{
		{"scene name of 0 bytes", hello(0, id("", 1, 0, 0)), ErrInvalid},
		{"scene name of 33 bytes", hello(0, id(strings.Repeat("x", 33), 1, 0, 0)), ErrInvalid},
		{"scene name of 255 bytes", hello(0, id(strings.Repeat("x", 255), 1, 0, 0)), ErrInvalid},
		{"0 players", hello(0, id("arena", 0, 0, 0)), ErrInvalid},
		{"9 players", hello(0, id("arena", 9, 0, 0)), ErrInvalid},
		{"quantize 2", hello(0, id("arena", 1, 0, 2)), ErrInvalid},
		{"4097 bodies", hello(0, id("drop", 1, game.MaxDropBodies+1, 0)), ErrInvalid},
		{"2³² - 1 bodies", hello(0, id("drop", 1, math.MaxUint32, 0)), ErrInvalid},
		{"mode 2", hello(2, id("arena", 1, 0, 0)), ErrInvalid},
		{"name cut", hello(0, spec{}.u8(10).u8('a', 'b')), ErrShort},
		{"result 5", welcome(lastResult+1, 0, 0), ErrInvalid},
		{"player 8", welcome(0, game.MaxPlayers, 0), ErrInvalid},
		{"welcome flag 2", welcome(0, 0, 2), ErrInvalid},
		{"welcome flags 0x81", welcome(0, 0, 0x81), ErrInvalid},
	} {
		h := Hello{Nonce: 5, Scene: game.Identity{Name: "before"}}
		w := Welcome{Nonce: 5}
		var err error
		if c.b[0] == KindHello {
			err = DecodeHello(c.b, &h)
		} else {
			err = DecodeWelcome(c.b, &w)
		}
		if !errors.Is(err, c.err) {
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		}
		if h.Nonce != 5 || h.Scene.Name != "before" || w.Nonce != 5 {
			t.Errorf("%s: the destination was changed", c.name)
		}
	}
	// What the encoder writes for a name the decoder refuses is refused.
	b := AppendHello(nil, &Hello{Scene: game.Identity{Name: strings.Repeat("x", game.MaxSceneName+1), Players: 1}})
	if err := DecodeHello(b, &Hello{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a name of 33 bytes: %v", err)
	}
}

// TestRefusalNotLargerThanHello: a Welcome, whatever it says, is smaller
// than the smallest Hello that decodes, so that answering a Hello never
// amplifies it.
func TestRefusalNotLargerThanHello(t *testing.T) {
	smallest := AppendHello(nil, &Hello{Scene: game.Identity{Name: "a", Players: 1}})
	var h Hello
	if err := DecodeHello(smallest, &h); err != nil {
		t.Fatal(err)
	}
	for i := range len(smallest) {
		if DecodeHello(smallest[:i], &h) == nil {
			t.Fatalf("a Hello of %d bytes decodes", i)
		}
	}
	w := AppendWelcome(nil, &Welcome{Nonce: math.MaxUint64, Echo: math.MaxUint32, Result: ServerFull, Player: 7, Tick: math.MaxUint32, Transfer: true})
	if len(w) >= len(smallest) {
		t.Errorf("a Welcome of %d bytes answers a Hello of %d", len(w), len(smallest))
	}
}

// TestWelcomeSceneNamePrintable: a refusing Welcome whose scene name holds
// a control byte (a newline, an escape) is refused as invalid: the client
// would print it.
func TestWelcomeSceneNamePrintable(t *testing.T) {
	for _, name := range []string{"arena\n", "\x1b[2J", "cub\x7fes"} {
		b := AppendWelcome(nil, &Welcome{Result: 1, Runs: &ServerRuns{Scene: name, Players: 1}})
		var m Welcome
		if err := DecodeWelcome(b, &m); !errors.Is(err, ErrInvalid) {
			t.Errorf("scene name %q: %v, want ErrInvalid", name, err)
		}
	}
	b := AppendWelcome(nil, &Welcome{Result: 1, Runs: &ServerRuns{Scene: "cubes", Players: 1}})
	var m Welcome
	if err := DecodeWelcome(b, &m); err != nil || m.Runs == nil || m.Runs.Scene != "cubes" {
		t.Errorf("a printable name: %v", err)
	}
}
