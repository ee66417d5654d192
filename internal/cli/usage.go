// Package cli is the machinery of cube's command line: a subcommand's
// flag set that reports errors instead of exiting, the usage errors that
// end a command with exit status 2, and the checks, before a run, of the
// files and folders it will write.
package cli

import "fmt"

// UsageError is an error in what the user typed: the command prints it
// with a hint at its help and exits 2.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Usagef returns a UsageError with the formatted message.
func Usagef(format string, args ...any) error { return UsageError{fmt.Sprintf(format, args...)} }
