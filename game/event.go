package game

import (
	"fmt"

	"github.com/cubelab/cube/physics"
)

// EventKind names a server-only event: something the authoritative server
// does to the world that no client input asked for, so that a client cannot
// predict it.
type EventKind uint8

// Event kinds.
const (
	// Nudge is an impulse on a player's cube (the K key, -nudge-every).
	Nudge EventKind = 1
)

func (k EventKind) String() string {
	if k == Nudge {
		return "nudge"
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// Event is one server-only event, applied before the step of a tick.
type Event struct {
	Kind    EventKind
	Player  uint8        // whose cube
	Impulse physics.Vec3 // Nudge: N·s at the centre of mass
}

// CheckEvent refuses an event this scene cannot apply.
func (sc *Scene) CheckEvent(e Event) error {
	if int(e.Player) >= len(sc.Players) {
		return fmt.Errorf("game: %s event for player %d, the scene has %d", e.Kind, e.Player, len(sc.Players))
	}
	switch e.Kind {
	case Nudge:
		if !e.Impulse.Finite() {
			return fmt.Errorf("game: nudge %v is not finite", e.Impulse)
		}
		return nil
	}
	return fmt.Errorf("game: unknown event kind %d", uint8(e.Kind))
}

// ApplyEvent does e to w: the one rule server and replay share.
func (sc *Scene) ApplyEvent(w *physics.World, e Event) error {
	if err := sc.CheckEvent(e); err != nil {
		return err
	}
	return w.ApplyImpulse(sc.Players[e.Player], e.Impulse)
}
