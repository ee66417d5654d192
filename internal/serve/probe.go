package serve

import (
	"os"
	"time"

	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/server"
)

// Probe watches a run for an operator (metrics, health, a fleet's
// lifecycle). Its methods are called on the run's goroutine, in this
// order: Serving once, Turned after every turn, Stopped once; a method
// that blocks holds the loop up.
type Probe interface {
	// Serving: the socket is bound and the server accepts players.
	Serving(addr string)
	// Turned: one turn of the host ran for d. read fills a Counters with
	// the run's figures so far; it is valid only during the call and
	// costs a look at every connection, so a probe calls it when it
	// wants fresh figures, not every turn.
	Turned(d time.Duration, read func(*Counters))
	// Stopped: the run is over and every client has gone; c holds the
	// figures its summary prints, and why it stopped ("time", "empty" or
	// the signal's name).
	Stopped(c *Counters, why string)
}

// Counters are a run's totals at one moment, as its summary counts them.
type Counters struct {
	Turns, Ticks   uint64
	Stalls         int
	LostSeconds    float64
	Players        int // clients in a player slot now
	Joined, Left   int // stays begun and ended
	TimedOut       int // of those ended, those that timed out
	InputsApplied  uint64
	InputsRepeated uint64 // player-ticks simulated with a repeated input
	InputsLate     uint64
	InputsTooFar   uint64 // inputs for ticks a client cannot have reached, or from no player
	InputsTooFast  uint64 // Input messages over a client's rate
	Rejected       protocol.Rejects
	Snapshots      uint64 // snapshots (state sync) or relays (input sync) sent
	Relays         bool   // Snapshots counts relays
	RepairsStarted uint64 // transfers of the whole state started
	RepairsTaken   uint64 // of those, the ones clients took; open stays only while they last
	SentDatagrams  uint64
	SentBytes      uint64
	SentDropped    uint64 // by a full send queue or the path's size
	RecvDatagrams  uint64
	RecvBytes      uint64
	RecvDropped    uint64 // a connection's share of the receive queue was full
	OverBudget     uint64 // a turn's time for what arrived ran out
	Bogus          uint64 // datagrams and connection attempts that were not a client's
}

// counters fills c with the run's figures so far.
func (r *serverRun) counters(c *Counters) {
	*c = Counters{Turns: r.turns, Ticks: uint64(r.srv.Tick()), Stalls: r.pace.Stalls, LostSeconds: r.pace.Lost.Seconds()}
	l := r.log
	c.Joined, c.Left, c.TimedOut = l.Joined, l.Left(), l.TimedOut
	c.Players = c.Joined - c.Left
	sv := &r.srv.Stats
	c.InputsApplied, c.InputsRepeated, c.InputsLate = sv.InputsApplied, sv.RepeatedTicks, sv.LateInputs
	c.InputsTooFar, c.InputsTooFast, c.Rejected = sv.RefusedInputs, sv.TooFast, sv.Rejected
	c.Snapshots, c.Relays, c.RepairsStarted = sv.Snapshots, r.srv.Mode() == protocol.ModeInputs, sv.Transfers
	c.RepairsTaken = r.repairsTaken
	for p := range r.srv.Scene().Players {
		if st, ok := r.srv.PlayerStats(p); ok {
			c.RepairsTaken += st.Down.Done
		}
	}
	st := r.ln.Stats()
	c.SentDatagrams, c.SentBytes, c.SentDropped = st.Totals.Sent, st.Totals.SentBytes, st.Totals.DroppedSendQueue+st.Totals.DroppedSize
	c.RecvDatagrams, c.RecvBytes, c.RecvDropped = st.Totals.Received, st.Totals.ReceivedBytes, st.Totals.DroppedRecvQueue
	c.OverBudget, c.Bogus = r.host.OverBudget, st.Bogus.Total()
}

// countRepairs adds each leaving client's transfers taken to the run's,
// before the log's own hook sees it go.
func (r *serverRun) countRepairs() {
	logLeave := r.srv.OnLeave
	r.srv.OnLeave = func(p int, conn uint32, st server.PeerStats, timedOut bool) {
		r.repairsTaken += st.Down.Done
		logLeave(p, conn, st, timedOut)
	}
}

// emptied says the last client in a slot has left after at least one
// joined: with Config.ExitWhenEmpty the run ends.
func (r *serverRun) emptied() bool {
	return r.cfg.ExitWhenEmpty && r.log.Joined > 0 && r.log.Left() == r.log.Joined
}

// stopReason is why the run ended, as the summary says it.
func (r *serverRun) stopReason(sig os.Signal) string {
	switch {
	case sig != nil:
		return sig.String()
	case r.empty:
		return "empty"
	}
	return "time"
}
