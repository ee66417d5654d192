//go:build cgo

package window

import (
	"errors"
	"strings"
	"testing"

	"github.com/cubelab/cube/ui/render"
)

// TestScriptedKeys: -keys gives one input a frame: a key by its name in
// any case, "-" for none, drag@F for the button held on the timeline; a
// bad name or fraction is a KeyError that says what is wanted.
func TestScriptedKeys(t *testing.T) {
	s, err := parseKeys(keyList(" end, -,drag@0.5 ,F12"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 4 || s[0].key != render.KeyEnd || s[0].drag >= 0 || s[1].key != render.KeyUnknown || s[1].drag >= 0 ||
		s[2].drag != 0.5 || s[3].key != render.KeyF12 {
		t.Fatalf("script %+v", s)
	}
	if s, err := parseKeys(keyList("  ")); err != nil || len(s) != 0 {
		t.Fatalf("empty -keys: %v, %v", s, err)
	}
	for _, c := range []struct{ keys, want string }{{"drag@2", "want drag@F with F from 0 to 1"}, {"End,Nope", `"Nope" is not a key name`}} {
		var ke *KeyError
		if _, err := parseKeys(keyList(c.keys)); !errors.As(err, &ke) || !strings.Contains(ke.Msg, c.want) {
			t.Errorf("-keys %s: %v, want a KeyError with %q", c.keys, err, c.want)
		}
	}
}
