package session

import (
	"fmt"
	"time"
)

// MaxJoinWait is how long a client over a real network waits for the
// server's state before it gives up: a server that never answers its
// Hello, or never sends the transfer it announced. Joining the cubes
// scene over the outage preset takes a few seconds.
const MaxJoinWait = 30 * time.Second

// NoStateError says that the server sent no state to start from within
// the join's wait.
type NoStateError struct {
	Addr string // the server's address, "" when the endpoint does not know it
	Wait time.Duration
}

func (e *NoStateError) Error() string {
	at := ""
	if e.Addr != "" {
		at = " at " + e.Addr
	}
	return fmt.Sprintf("no state from the server%s in %v: it never answered the Hello, or never sent the state it announced", at, e.Wait)
}
