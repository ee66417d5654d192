package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"},
		{Key: "vcs.time", Value: "2026-11-24T12:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	cases := []struct {
		name          string
		info          debug.BuildInfo
		stamp, commit string
		prefix        string
	}{
		{"no vcs, no stamp", debug.BuildInfo{GoVersion: "go1.26"}, "", "", "cube (devel) go1.26 "},
		{"vcs only", debug.BuildInfo{GoVersion: "go1.26", Settings: vcs}, "", "",
			"cube (devel) (revision abc123, 2026-11-24T12:00:00Z, modified) go1.26 "},
		{"release without vcs", debug.BuildInfo{GoVersion: "go1.26"}, "v1.2.0", "0123abcd", "cube v1.2.0 (revision 0123abcd) go1.26 "},
		{"release with vcs: the build info's revision wins", debug.BuildInfo{GoVersion: "go1.26", Settings: vcs}, "v1.2.0", "0123abcd",
			"cube v1.2.0 (revision abc123, 2026-11-24T12:00:00Z, modified) go1.26 "},
		{"module version", debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "v0.9.0"}}, "", "", "cube v0.9.0 go1.26 "},
	}
	for _, c := range cases {
		got := format(&c.info, c.stamp, c.commit)
		if !strings.HasPrefix(got, c.prefix) {
			t.Errorf("%s: got %q, want it to start with %q", c.name, got, c.prefix)
		}
	}
}
