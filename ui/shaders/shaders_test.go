package shaders

import (
	"io/fs"
	"strings"
	"testing"
)

func TestSourcesAreGLSL410Core(t *testing.T) {
	names, err := fs.Glob(FS, "*.*")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 4 {
		t.Fatalf("embedded %d files, want at least 4: %v", len(names), names)
	}
	for _, name := range names {
		if strings.HasSuffix(name, ".go") {
			continue
		}
		b, err := FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), "#version 410 core\n") {
			t.Errorf("%s does not start with #version 410 core", name)
		}
		if !strings.Contains(string(b), "void main()") {
			t.Errorf("%s has no main", name)
		}
	}
	for name, s := range map[string]string{"SceneVert": SceneVert, "SceneFrag": SceneFrag, "OverlayVert": OverlayVert, "OverlayFrag": OverlayFrag, "LinesVert": LinesVert, "LinesFrag": LinesFrag} {
		if s == "" || strings.Contains(s, "\x00") {
			t.Errorf("%s is empty or holds a NUL", name)
		}
	}
}
