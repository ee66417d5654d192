package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CheckWritableDir checks that a file can be created in dir by creating and
// removing one.
func CheckWritableDir(dir string) error {
	f, err := os.CreateTemp(dir, ".cube-write-check-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot create a file in folder %s: %v", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// CheckDir refuses, for flag, a folder dir that is not a folder this
// program can write to, before a run that may need it starts. The default,
// "" (the current folder), is not checked: a run in a read-only folder
// needs no file there, and one that does says on stderr that it could not
// write it.
func CheckDir(flag, dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return Usagef("%s %s: %v", flag, dir, err)
	}
	if !fi.IsDir() {
		return Usagef("%s %s is not a folder", flag, dir)
	}
	if err := CheckWritableDir(dir); err != nil {
		return Usagef("%s: %v", flag, err)
	}
	return nil
}

// CheckFile refuses, for flag, an output file path that is a folder
// (want says what to give instead), or whose folder does not exist or
// cannot be written.
func CheckFile(flag, path, want string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return Usagef("%s %s is a folder: want %s", flag, path, want)
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return Usagef("%s %s: the folder %s does not exist", flag, path, dir)
	}
	if err := CheckWritableDir(dir); err != nil {
		return Usagef("%s %s: %v", flag, path, err)
	}
	return nil
}
