package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// Stamped by scripts/release.sh through -ldflags "-X main.version=V
// -X main.commit=C", so that a release names itself even when Go recorded
// no VCS information (GOFLAGS=-buildvcs=false, a source tarball).
var (
	version string
	commit  string
)

// runVersion prints the module version and the VCS revision the binary was
// built from, as the build info records them.
func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", "version", stderr)
	if err := fs.parse(args); err != nil {
		return err
	}
	_, err := fmt.Fprintln(stdout, versionLine())
	return err
}

// versionLine is "cube VERSION (revision R, TIME, modified) go1.26 linux/amd64",
// with what the build info and the release stamp know: a stamped version
// replaces the module's, a stamped commit stands in for a missing revision.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = &debug.BuildInfo{GoVersion: runtime.Version()}
	}
	return formatVersion(info, version, commit)
}

// formatVersion is versionLine over the given build info and stamps.
func formatVersion(info *debug.BuildInfo, stampVersion, stampCommit string) string {
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
