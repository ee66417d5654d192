package protocol

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/wire"
)

// TestModesFitTheHello: every mode travels in a Hello and comes back the
// same, and the byte after the last mode is refused by the decoder.
func TestModesFitTheHello(t *testing.T) {
	_, sc := game.MustBuild("arena")
	id := sc.ID
	for _, m := range []Mode{ModeState, ModeInputs} {
		var h wire.Hello
		if err := wire.DecodeHello(wire.AppendHello(nil, &wire.Hello{Nonce: 1, Mode: uint8(m), Scene: id}), &h); err != nil || Mode(h.Mode) != m {
			t.Errorf("%v: decoded %v, %v", m, Mode(h.Mode), err)
		}
	}
	var h wire.Hello
	if err := wire.DecodeHello(wire.AppendHello(nil, &wire.Hello{Nonce: 1, Mode: uint8(ModeInputs) + 1, Scene: id}), &h); err == nil {
		t.Error("a mode after ModeInputs decoded")
	}
	if ModeState.String() != "state" || ModeInputs.String() != "inputs" {
		t.Errorf("names %q, %q", ModeState, ModeInputs)
	}
}
