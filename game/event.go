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
	// Join puts a player's cube back in the world, at its spawn, at rest.
	Join EventKind = 2
	// Leave takes a player's cube out of the world (the player left or
	// went silent).
	Leave EventKind = 3
)

func (k EventKind) String() string {
	switch k {
	case Nudge:
		return "nudge"
	case Join:
		return "join"
	case Leave:
		return "leave"
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
	case Join, Leave:
		return nil
	}
	return fmt.Errorf("game: unknown event kind %d", uint8(e.Kind))
}

// ApplyEvent does e to w: the one rule server, client and replay share. A
// nudge on a cube that left does nothing.
func (sc *Scene) ApplyEvent(w *physics.World, e Event) error {
	if err := sc.CheckEvent(e); err != nil {
		return err
	}
	i := sc.Players[e.Player]
	switch e.Kind {
	case Join:
		if err := w.SetEnabled(i, true); err != nil {
			return err
		}
		return w.SetBody(i, sc.spawn[e.Player])
	case Leave:
		return w.SetEnabled(i, false)
	}
	if !w.Enabled(i) {
		return nil
	}
	return w.ApplyImpulse(i, e.Impulse)
}
