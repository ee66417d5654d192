package lab

import (
	"fmt"
	"io"
)

// PrintKeys prints the key table for `cube window -h`.
func PrintKeys(w io.Writer) {
	fmt.Fprintln(w, "keys:")
	for _, k := range KeyHelp {
		fmt.Fprintf(w, "  %-11s %s\n", k.Key, k.What)
	}
}
