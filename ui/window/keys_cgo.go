//go:build cgo

package window

import (
	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
)

// keyActions maps a pressed key to its lab.Action, and moveKeys are the
// keys held for movement with their input bits: both built from the one
// key table, lab.KeyHelp.
var keyActions, moveKeys = bindings(lab.KeyHelp)

// moveKey is a key held for movement and its input bit.
type moveKey struct {
	key render.Key
	bit game.Input
}

// bindings builds the window's bindings from the key table; a name that
// is no key's label is a mistake in the table, caught at start-up by the
// tests.
func bindings(table []lab.KeyEntry) (map[render.Key]lab.Action, []moveKey) {
	acts := map[render.Key]lab.Action{}
	var moves []moveKey
	for _, e := range table {
		for _, b := range e.Binds {
			k, ok := render.KeyNamed(b.Name)
			if !ok {
				panic("ui/lab.KeyHelp binds " + b.Name + ", which is no key's label")
			}
			if b.Move != 0 {
				moves = append(moves, moveKey{k, b.Move})
			} else {
				acts[k] = b.Act
			}
		}
	}
	return acts, moves
}

// heldInput reads the movement keys.
func heldInput(w *render.Window) game.Input {
	var in game.Input
	for _, k := range moveKeys {
		if w.Held(k.key) {
			in |= k.bit
		}
	}
	return in
}
