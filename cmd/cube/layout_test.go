package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is the project's import path.
const module = "github.com/cubelab/cube"

// floors is the house's layout, as docs/architecture.md states it: a
// package imports only packages on a lower floor. Every package of the
// module must be here (a new one gets a floor, and a row in the page).
var floors = map[string]int{
	"physics": 0, "splitmix": 0, "netcode/tick": 0, "ui/shaders": 0,
	"internal/cli": 0, "internal/buildinfo": 0, "internal/detcheck": 0,

	"game": 1, "netsim": 1, "netcode/protocol": 1, "ui/render": 1,

	"netcode/wire": 2, "record": 2, "transport": 2, "game/gametest": 2, "internal/stepbench": 2,

	"predict": 3, "server": 3, "ui/viewer": 3, "internal/attack": 3,

	"session": 4,

	"session/summarytext": 5, "session/recording": 5, "internal/runctl": 5,
	"internal/runplot": 5, "internal/desync": 5, "internal/serverlog": 5,

	"ui/lab": 6, "internal/netclient": 6, "internal/serve": 6,

	"ui/window": 7,

	"cmd/cube": 8, "cmd/attacker": 8, "cmd/detcheck": 8, "cmd/renderdemo": 8, "cmd/pngshrink": 8,
}

// listed is what go list says of one package.
type listed struct {
	ImportPath string
	Imports    []string
	Deps       []string
	CgoFiles   []string
}

// goList runs go list -json over the module's packages (with -deps, their
// dependencies too) from the module's root.
func goList(t *testing.T, args ...string) []listed {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Dir = "../.."
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, errb.String())
	}
	var ps []listed
	for d := json.NewDecoder(bytes.NewReader(out)); d.More(); {
		var p listed
		if err := d.Decode(&p); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// local returns the project-relative path of an import of the module, or
// false for another module's or the standard library's.
func local(path string) (string, bool) {
	if rel, ok := strings.CutPrefix(path, module+"/"); ok {
		return rel, true
	}
	return "", false
}

// TestImportsPointDown: every package of the module has a floor, and
// every import of the module's own packages (tests left out) points to a
// lower floor: no import runs back up the house.
func TestImportsPointDown(t *testing.T) {
	ps := goList(t, "./...")
	if len(ps) < len(floors)/2 {
		t.Fatalf("go list gave %d packages", len(ps))
	}
	for _, p := range ps {
		rel, _ := local(p.ImportPath)
		f, ok := floors[rel]
		if !ok {
			t.Errorf("package %s has no floor: give it one in floors and a row in docs/architecture.md", rel)
			continue
		}
		for _, imp := range p.Imports {
			r, ok := local(imp)
			if !ok {
				continue
			}
			if g, ok := floors[r]; ok && g >= f {
				t.Errorf("%s (floor %d) imports %s (floor %d): imports point down", rel, f, r, g)
			}
		}
	}
}

// TestHouseRules: the rules docs/architecture.md states beyond the floors.
func TestHouseRules(t *testing.T) {
	ps := goList(t, "./...")
	for _, p := range ps {
		rel, _ := local(p.ImportPath)
		for _, imp := range p.Imports {
			r, ok := local(imp)
			if !ok {
				continue
			}
			if strings.HasPrefix(r, "internal/") && !strings.HasPrefix(rel, "cmd/") && !strings.HasPrefix(rel, "internal/") {
				t.Errorf("%s imports %s: only programs (cmd/) and their bodies (internal/) import internal/", rel, r)
			}
			if rel == "physics" {
				t.Errorf("physics imports %s: the engine imports nothing of the project", r)
			}
			if rel == "ui/render" && r != "ui/shaders" {
				t.Errorf("ui/render imports %s: drawing imports only its shaders", r)
			}
			if rel == "predict" && slices.Contains([]string{"server", "transport", "netsim", "session"}, r) {
				t.Errorf("predict imports %s: the client knows neither the server nor the link", r)
			}
		}
	}
	// The headless core never sees cgo or OpenGL, so it builds and runs on
	// every target Go has, under qemu too.
	for _, p := range goList(t, "-deps", "./physics", "./netsim", "./predict", "./netcode/...", "./game", "./record", "./server", "./session") {
		if len(p.CgoFiles) > 0 && strings.HasPrefix(p.ImportPath, module) {
			t.Errorf("%s has cgo files %v", p.ImportPath, p.CgoFiles)
		}
		if strings.HasPrefix(p.ImportPath, "github.com/go-gl/gl") || strings.HasPrefix(p.ImportPath, "github.com/go-gl/glfw") {
			t.Errorf("the headless packages depend on %s", p.ImportPath)
		}
	}
}

// TestArchitectureNamesEveryRoom: docs/architecture.md's room table has a
// row for every package of the module, so the page and the floors above
// cannot drift apart.
func TestArchitectureNamesEveryRoom(t *testing.T) {
	f, err := os.Open("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var firstCells []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if line := sc.Text(); strings.HasPrefix(line, "| ") {
			firstCells = append(firstCells, strings.SplitN(line, "|", 3)[1])
		}
	}
	for pkg := range floors {
		found := false
		for _, c := range firstCells {
			if strings.Contains(c, pkg+"/") {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("docs/architecture.md has no room row naming %s/", pkg)
		}
	}
}
