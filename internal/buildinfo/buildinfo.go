// Package buildinfo names the cube binary that runs: its version, the VCS
// revision it was built from, the Go version and the target, from the
// build info Go records and the stamps a release build adds.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Line is "cube VERSION (revision R, TIME, modified) go1.26 linux/amd64",
// with what the running binary's build info and the release stamps
// (stampVersion, stampCommit: "" when not stamped) know: a stamped version
// replaces the module's, a stamped commit stands in for a missing revision.
func Line(stampVersion, stampCommit string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = &debug.BuildInfo{GoVersion: runtime.Version()}
	}
	return format(info, stampVersion, stampCommit)
}

// format is Line over the given build info and stamps.
func format(info *debug.BuildInfo, stampVersion, stampCommit string) string {
	v := info.Main.Version
	if stampVersion != "" {
		v = stampVersion
	}
	if v == "" {
		v = "(devel)"
	}
	var rev, when, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = ", " + s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	if rev == "" && stampCommit != "" {
		rev, when, dirty = stampCommit, "", ""
	}
	vcs := ""
	if rev != "" {
		vcs = fmt.Sprintf(" (revision %s%s%s)", rev, when, dirty)
	}
	return fmt.Sprintf("cube %s%s %s %s/%s", v, vcs, info.GoVersion, runtime.GOOS, runtime.GOARCH)
}
