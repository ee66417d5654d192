package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
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
// with what the build info knows.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Sprintf("cube (no build info) %s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	vcs := ""
	if rev != "" {
		vcs = fmt.Sprintf(" (revision %s, %s%s)", rev, when, dirty)
	}
	return fmt.Sprintf("cube %s%s %s %s/%s", v, vcs, info.GoVersion, runtime.GOOS, runtime.GOARCH)
}
