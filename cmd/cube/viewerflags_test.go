package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cubelab/cube/ui/viewer"
)

// cube replay -h lists the viewer's keys; the window's flags need -window
// and are checked like the window's.
func TestReplayViewerFlags(t *testing.T) {
	code, _, errs := runCube("replay", "-h")
	if code != 0 || !strings.Contains(errs, "keys of the viewer (-window):") {
		t.Fatalf("replay -h: exit %d, %q", code, errs)
	}
	for _, k := range viewer.KeyHelp {
		if !strings.Contains(errs, k.Key) {
			t.Errorf("replay -h does not list %q", k.Key)
		}
	}
	rec := filepath.Join(t.TempDir(), "r.rec")
	if code, _, errs := runCube("sim", "-seconds", "1", "-record", rec); code != 0 {
		t.Fatalf("sim: %s", errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-width", "800"}, "-width is for the viewer: add -window"},
		{[]string{"-keys", "End"}, "-keys is for the viewer: add -window"},
		{[]string{"-window", "-width", "10"}, "-width 10 is out of range: want 64 to 16384"},
		{[]string{"-window", "-height", "99999"}, "-height 99999 is out of range"},
		{[]string{"-window", "-frames", "-1"}, "-frames -1 is negative"},
		{[]string{"-window", "-screenshot", "x.png"}, "-screenshot needs -frames N"},
		{[]string{"-window", "-frames", "2", "-screenshot", "x.jpg"}, "want a name ending in .png"},
	} {
		code, out, errs := runCube(append(append([]string{"replay"}, c.args...), rec)...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("replay %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errs, c.want)
		}
	}
}
