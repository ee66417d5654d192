package render

import (
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"
)

func TestKeyTableRoundTrips(t *testing.T) {
	seen := map[glfw.Key]Key{}
	for k := KeyUnknown + 1; k < keyCount; k++ {
		g := k.glfwKey()
		if g == glfw.KeyUnknown || keyTable[k].name == "" {
			t.Errorf("key %d has no glfw key or name", k)
			continue
		}
		if prev, dup := seen[g]; dup {
			t.Errorf("%v and %v share glfw key %d", prev, k, g)
		}
		seen[g] = k
		if back := keyFromGLFW(g); back != k {
			t.Errorf("%v -> glfw %d -> %v", k, g, back)
		}
	}
	for _, c := range []struct {
		g    glfw.Key
		want Key
	}{
		{glfw.KeyW, KeyW}, {glfw.KeySpace, KeySpace}, {glfw.Key7, Key7},
		{glfw.KeyLeftBracket, KeyLeftBracket}, {glfw.KeyF12, KeyF12}, {glfw.KeyEscape, KeyEscape},
		{glfw.KeyPeriod, KeyPeriod}, {glfw.KeyBackspace, KeyBackspace}, {glfw.KeyKPAdd, KeyUnknown},
	} {
		if got := keyFromGLFW(c.g); got != c.want {
			t.Errorf("keyFromGLFW(%d) = %v, want %v", c.g, got, c.want)
		}
	}
	if KeyW.String() != "W" || KeyLeftBracket.String() != "[" || KeyF12.String() != "F12" || Key(-3).String() != "unknown" {
		t.Errorf("names: %v %v %v %v", KeyW, KeyLeftBracket, KeyF12, Key(-3))
	}
}

func TestKeyCallbackCollectsPressesNotRepeats(t *testing.T) {
	var w Window
	w.onKey(nil, glfw.KeyW, 0, glfw.Press, 0)
	w.onKey(nil, glfw.KeyW, 0, glfw.Repeat, 0)
	w.onKey(nil, glfw.KeyKPAdd, 0, glfw.Press, 0) // no Key for it
	w.onKey(nil, glfw.KeyF12, 0, glfw.Press, 0)
	w.onKey(nil, glfw.KeyW, 0, glfw.Release, 0)
	got := w.Pressed()
	if len(got) != 2 || got[0] != KeyW || got[1] != KeyF12 {
		t.Errorf("Pressed() = %v, want [W F12]", got)
	}
}
