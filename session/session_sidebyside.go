package session

// The clients of an in-process session side by side. This is the one place
// in predict that starts goroutines: it belongs to the session layer (the
// in-process server and its clients), not to the client, whose code stays
// single-threaded; it moves out of predict with the session.

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cubelab/cube/game"
)

// clientWorkers returns the goroutines a session of clients clients uses
// for their turns, asked for asked (0: one per core), at most one per
// client.
func clientWorkers(asked, clients int) int {
	if asked == 0 {
		asked = runtime.GOMAXPROCS(0)
	}
	return max(1, min(asked, clients))
}

// sideRun is what one client did in the phase under way: its first
// error, with its time, and client 0's position errors with theirs, for
// the session to keep once the phase is over.
type sideRun struct {
	err       error
	errAt     time.Duration
	posErrors []posError
}

// posError is client 0's position error at a state it took.
type posError struct {
	at time.Duration
	e  float64
}

// advanceSideBySide is Advance with the clients' turns side by side: it
// runs in phases, each the clients' turns up to the server's next turn,
// then that server turn.
//
// Why the results are those of one turn after another in time order: the
// only thing clients share is the server, which does not run during a
// phase. A client's turn reads and writes its own client, endpoint, link
// (each has its own netsim pair and random streams) and next turn time;
// the server takes what each link delivered when it runs, peer by peer in
// a fixed order, whatever order the clients sent it in. What the session
// itself keeps of a turn (client 0's position errors) is kept per client
// during the phase and added afterwards on the calling goroutine, in the
// order of the turns. The server, the record, the meter and the timeline
// stay on the calling goroutine.
func (s *Session) advanceSideBySide(to time.Duration, input func(i int) game.Input) error {
	if len(s.sides) != s.turns() {
		s.sides = make([]sideRun, s.turns())
	}
	for {
		// Client turns due by the server's next turn (at the same instant
		// the clients go first) and before to.
		limit := min(s.serverNext, to-1)
		if err := s.clientPhase(limit, input); err != nil {
			return err
		}
		if s.serverNext >= to {
			break
		}
		s.now = s.serverNext
		if err := s.serverTurn(); err != nil {
			return err
		}
		s.serverNext += s.tick
	}
	s.now = to
	return nil
}

// clientPhase runs every client's turns due at limit or earlier, each
// client on one of the session's workers, and then keeps on the calling
// goroutine what the session keeps of them. An error is the one of the
// earliest turn that failed (the lower index first at the same instant):
// the one that running the turns in time order would have returned.
func (s *Session) clientPhase(limit time.Duration, input func(i int) game.Input) error {
	due := 0
	for _, n := range s.clientNext {
		if n <= limit {
			due++
		}
	}
	if due == 0 {
		return nil
	}
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= s.turns() {
				return
			}
			s.clientTurns(i, limit, input)
		}
	}
	if w := min(s.workers, due); w > 1 {
		var wg sync.WaitGroup
		for range w - 1 {
			//cube:allow goroutine each client is one goroutine's at a time and shares nothing with the others; the server and everything shared stay on the caller's (TestClientsSideBySideAsOneAfterAnother)
			wg.Go(work)
		}
		work()
		wg.Wait()
	} else {
		work()
	}
	var first *sideRun
	for i := range s.sides {
		r := &s.sides[i]
		if r.err != nil && (first == nil || r.errAt < first.errAt) {
			first = r
		}
	}
	// Client 0's position errors, in the order of its turns; after a
	// failed turn, only those that time order would have reached (client
	// 0 goes first at the same instant).
	r := &s.sides[0]
	for _, p := range r.posErrors {
		if first == nil || p.at <= first.errAt {
			s.notePosError(p.at, p.e)
		}
	}
	r.posErrors = r.posErrors[:0]
	if first != nil {
		err := first.err
		for i := range s.sides {
			s.sides[i].err = nil
		}
		return err
	}
	return nil
}

// clientTurns runs client i's turns due at limit or earlier, on a worker:
// it touches only client i's objects and s.sides[i] (and, for client 0,
// what turnPosError reads and writes, which no other turn touches).
func (s *Session) clientTurns(i int, limit time.Duration, input func(i int) game.Input) {
	r := &s.sides[i]
	for s.clientNext[i] <= limit {
		at := s.clientNext[i]
		if err := s.clientTurn(i, at, input(i)); err != nil {
			r.err, r.errAt = err, at
			return
		}
		if e, ok := s.turnPosError(i); ok {
			r.posErrors = append(r.posErrors, posError{at, e})
		}
	}
}
