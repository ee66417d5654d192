package record

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// ErrScene is wrapped by the error for a record whose scene this program
// cannot build as the record's server did: a scene it does not have,
// another input rule, or a scene or configuration built differently (its
// identity hash differs). Such a record is refused, not replayed into a
// divergence.
var ErrScene = errors.New("another scene")

// build builds the scene h names, checks that it is the one the record was
// made with, and restores the record's initial state into it.
func build(h *Header) (*physics.World, *game.Scene, error) {
	id := &h.Scene
	if game.About(id.Name) == "" {
		return nil, nil, fmt.Errorf("%w: the record is for scene %q, which this program does not have (it has %s)",
			ErrScene, id.Name, strings.Join(game.Names(), ", "))
	}
	w, sc, err := game.Build(id.Name, h.Physics, game.Options{Players: id.Players, Bodies: id.Bodies, Quantize: id.Quantize})
	if err != nil {
		return nil, nil, fmt.Errorf("%w: the record is for %s, which this program cannot build: %v", ErrScene, id, err)
	}
	if sc.ID.Rule != id.Rule {
		return nil, nil, fmt.Errorf("%w: the record was made with input rule %d, this program has rule %d", ErrScene, id.Rule, sc.ID.Rule)
	}
	if sc.ID != *id {
		return nil, nil, fmt.Errorf("%w: the record is for %s, but this program builds %s: another version of the scene, the engine or its configuration",
			ErrScene, id, sc.ID)
	}
	if err := w.Restore(&h.Initial); err != nil {
		return nil, nil, fmt.Errorf("the initial state does not fit the scene: %w", err)
	}
	return w, sc, nil
}
