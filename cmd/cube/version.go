package main

import (
	"fmt"
	"io"

	"github.com/cubelab/cube/internal/buildinfo"
	"github.com/cubelab/cube/internal/cli"
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
	fs := cli.NewFlags("version", "version", stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	_, err := fmt.Fprintln(stdout, buildinfo.Line(version, commit))
	return err
}
