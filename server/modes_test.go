package server

import (
	"reflect"
	"testing"

	"github.com/cubelab/cube/netcode/protocol"
)

// TestModesAreParts: the server holds at most 25 fields, and what only one
// sync mode does sits in its part, chosen once from the mode.
func TestModesAreParts(t *testing.T) {
	if n := reflect.TypeFor[Server]().NumField(); n > 25 {
		t.Errorf("server.Server has %d fields, more than 25", n)
	}
	for _, c := range []struct {
		mode protocol.Mode
		want syncMode
	}{{protocol.ModeState, stateSync{}}, {protocol.ModeInputs, inputSync{}}} {
		s, _ := newServer(t, 1, c.mode)
		if s.sync != c.want {
			t.Errorf("mode %v: part %T, want %T", c.mode, s.sync, c.want)
		}
	}
}
