package main

import (
	"fmt"
	"os"
)

// checkReportDir refuses a -report-dir that is not a folder this program
// can write to, before a run that may need it starts. The default, "" (the
// current folder), is not checked: a run in a read-only folder needs no
// report, and one that does says on stderr that it could not write it.
func checkReportDir(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return usagef("-report-dir %s: %v", dir, err)
	}
	if !fi.IsDir() {
		return usagef("-report-dir %s is not a folder", dir)
	}
	f, err := os.CreateTemp(dir, ".cube-write-check-*")
	if err != nil {
		return usagef("-report-dir %s cannot be written: %v", dir, err)
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return fmt.Errorf("-report-dir %s: removing the write check: %w", dir, err)
	}
	return nil
}
