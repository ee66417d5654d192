package protocol

import (
	"errors"
	"fmt"
)

// ErrRejected is wrapped by every error about a message a peer sent that
// was refused: it did not decode, or its content does not fit the receiver
// (another world's shape, a tick the receiver cannot have reached). Such a
// message is counted and dropped; the session goes on. Any other error
// from Receive is a fault of the receiver itself.
var ErrRejected = errors.New("protocol: message rejected")

// Reason says why a message was rejected.
type Reason int

// Reasons for rejecting a message.
const (
	// RejectMalformed: the bytes do not decode as a message of that kind.
	RejectMalformed Reason = iota
	// RejectShape: the state does not fit the receiver's world (body count,
	// contacts, values a world refuses).
	RejectShape
	// RejectTick: the state is labelled with a tick the client has not
	// reached or no longer holds.
	RejectTick
	// RejectBounds: a body state beyond what the engine can produce in
	// the scene (game.Bounds: position, velocity or spin; see netcode/wire/doc.go).
	RejectBounds
	// RejectRate: a message beyond the rate its sender may send (the
	// server's input rate limit).
	RejectRate
	numReasons
)

// String names the reason as the JSON summary does.
func (r Reason) String() string {
	if r < 0 || r >= numReasons {
		return fmt.Sprintf("Reason(%d)", int(r))
	}
	return [...]string{"malformed", "shape", "tick", "bounds", "rate"}[r]
}

// Rejects counts rejected messages by reason.
type Rejects [numReasons]uint64

// Total returns the number of rejected messages.
func (r *Rejects) Total() uint64 {
	var n uint64
	for _, x := range r {
		n += x
	}
	return n
}

// String lists the non-zero counts: "malformed 3, shape 1", or "none".
func (r *Rejects) String() string {
	s := ""
	for i, x := range r {
		if x == 0 {
			continue
		}
		if s != "" {
			s += ", "
		}
		s += fmt.Sprintf("%s %d", Reason(i), x)
	}
	if s == "" {
		return "none"
	}
	return s
}

// Reject counts a rejected message and returns the error that says why; it
// wraps ErrRejected.
func (r *Rejects) Reject(why Reason, format string, args ...any) error {
	r[why]++
	return fmt.Errorf("%w (%s): %s", ErrRejected, why, fmt.Sprintf(format, args...))
}
