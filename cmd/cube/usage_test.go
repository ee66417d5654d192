package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestUsageNamesEveryFlag: each command's usage line names every flag it
// takes (the list under it comes from the flag set itself).
func TestUsageNamesEveryFlag(t *testing.T) {
	flagLine := regexp.MustCompile(`^  -([a-z0-9-]+)`)
	for _, cmd := range []string{"sim", "server", "client", "bench", "hash", "replay", "version", "window"} {
		code, _, errs := runCube(cmd, "-h")
		if cmd == "window" && strings.Contains(errs, "built without cgo") {
			continue // a build without cgo has no window
		}
		lines := strings.Split(errs, "\n")
		if code != 0 || !strings.HasPrefix(lines[0], "usage: cube ") {
			t.Errorf("%s -h: exit %d, %q", cmd, code, errs)
			continue
		}
		n := 0
		for _, l := range lines[1:] {
			m := flagLine.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			n++
			if !regexp.MustCompile(`-` + regexp.QuoteMeta(m[1]) + `\b([^-]|$)`).MatchString(lines[0]) {
				t.Errorf("%s: the usage line does not name -%s: %q", cmd, m[1], lines[0])
			}
		}
		if n == 0 && cmd != "version" {
			t.Errorf("%s -h lists no flags: %q", cmd, errs)
		}
	}
}
