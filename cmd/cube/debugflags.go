package main

import (
	"fmt"
	"os"
)

// checkReportDir refuses a -report-dir that is not a folder this program
// can write to, before a run that may need it starts.
func checkReportDir(dir string) error {
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
