package predict

import (
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/physics"
)

// One replay a turn.
//
// Between BeginTurn and the next Step (or EndTurn), a client takes every
// message of the turn before it replays to the present: a snapshot or a
// relay that rewinds the world leaves it parked at the tick it rewound to
// (replayLater), and the next message that needs a later tick replays
// only up to that tick (reach, or rebuild), on the way to the present.
// The turn's end replays the rest once (settle). The bits are those of
// applying the messages one by one: every tick from the parked one on is
// re-simulated exactly as the one-by-one replay would, from the same state
// with the same records, the partial replay following a superset of the
// bodies it would (exact either way, see physics.Follow); a message that
// needs a tick before the parked one settles first, and is then taken as
// one by one. Transfers and repairs (whose code reads the present) settle
// first too. What a rewind moved on screen (the jump, the smoother's
// offset) is taken once, at the end, from where the player's cube was
// when the turn began to where it is; the mispredictions of the turn are
// told (OnMispredict) then, in order. What may differ from one by one is
// measurements, never bits: an error (visible or quiet, the position
// error) compares the prediction of a tick the turn's replay had not
// reached with the server's, that is the prediction the player had when
// the turn began, where one by one compared a prediction replayed by an
// earlier message of the turn, never shown; and a refresh's error is
// measured at the turn's end, after every rewind of the turn.

// park is a turn's replay in progress: the world stands at a tick before
// the present, every record up to it replayed.
type park struct {
	turn      bool              // within a turn: rewinds may park
	on        bool              // the world is parked
	now       uint32            // the present the turn replays to
	following bool              // the parked replay is partial (it went on in full from a tick without trace)
	before    physics.BodyState // the player's cube at the present when the turn's first rewind parked
	told      []toldLater       // mispredictions of the turn, told at its end
	replayed  bool              // the next misprediction told comes with a replay
	measure   bool              // the next one's error is measured at the end
	from      physics.BodyState // from this prediction of the player's cube
}

// toldLater is a misprediction of a turn, told at its end.
type toldLater struct {
	mp      Misprediction
	jump    bool              // it came with a replay: it gets the turn's jump
	measure bool              // its error is measured at the end: the player's cube at mp.Tick against from
	from    physics.BodyState // the prediction it was made with
}

// BeginTurn starts a turn: the messages Receive takes until the next Step
// or EndTurn are replayed once, together (see ClientConfig.ReplayEach).
func (c *Client) BeginTurn() { c.rerun.park.turn = true }

// EndTurn ends a turn: the world is replayed to the present and the
// turn's mispredictions are told. Step ends the turn itself; EndTurn is
// for a caller that reads the world between its messages and its step.
// The error is one Receive would have returned for the replay.
func (c *Client) EndTurn() error {
	c.rerun.park.turn = false
	return c.settle(false)
}

// batching reports whether a rewind may park until the turn's end.
func (c *Client) batching() bool { return c.rerun.park.turn && !c.Config.ReplayEach }

// replayLater replays from the world's state (labelled from, prepared as
// for replay) to now: at once outside a turn, else at the turn's end or
// as far as the next message needs.
func (c *Client) replayLater(from, now uint32) error {
	if !c.batching() {
		return c.replay(from, now)
	}
	if !c.rerun.park.on {
		c.rerun.park.on, c.rerun.park.now, c.rerun.park.following = true, now, c.traced()
		if p, ok := c.hist.players.Get(now); ok {
			c.rerun.park.before = *p
		}
	}
	if c.rerun.park.following && !c.rerun.partReady {
		c.rerun.part.Reset(c.world.NumBodies())
	}
	c.rerun.partReady = false
	return nil
}

// advanceParked replays the parked world on to tick t.
func (c *Client) advanceParked(t uint32) error {
	c.rerun.following = c.rerun.park.following
	err := c.replayTicks(c.world.Tick(), t)
	c.rerun.park.following = c.rerun.following
	c.rerun.following = false
	return err
}

// reach replays the parked world on to tick t when it stands before t,
// so that the history at t is the replay's.
func (c *Client) reach(t uint32) error {
	if !c.rerun.park.on || !tick.After(t, c.world.Tick()) {
		return nil
	}
	return c.advanceParked(t)
}

// rebuildParked puts the parked world in the state labelled t, as rebuild
// does, and reports whether it could: at or after the parked tick, by
// replaying on; before it, the turn settles first and rebuild starts from
// a keyframe.
func (c *Client) rebuildParked(t uint32) (bool, error) {
	if !c.rerun.park.on {
		return false, nil
	}
	if tick.After(c.world.Tick(), t) {
		return false, c.settle(true)
	}
	if err := c.advanceParked(t); err != nil {
		return true, err
	}
	c.rerun.partReady = c.traced() && c.rerun.park.following
	return true, nil
}

// settle replays the parked world to the present, counts that replay and
// tells the turn's mispredictions, the last of them becoming Last unless
// keepLast (a message is making a misprediction of its own there).
func (c *Client) settle(keepLast bool) error {
	if !c.rerun.park.on {
		return nil
	}
	err := c.advanceParked(c.rerun.park.now)
	c.rerun.park.on = false
	c.rerun.lastFull = !c.rerun.park.following
	c.rerun.lastBodies = c.rerun.part.Len()
	if err != nil {
		c.rerun.park.told = c.rerun.park.told[:0]
		return err
	}
	c.countReplay()
	before, after := c.rerun.park.before, c.world.Body(c.body)
	jump := before.Pos.Sub(after.Pos).Len()
	c.report.teleport = c.report.teleport.Add(after.Pos.Sub(before.Pos))
	c.Smooth.Correct(before.Pos, after.Pos, before.Rot, after.Rot)
	for i := range c.rerun.park.told {
		l := &c.rerun.park.told[i]
		if l.jump {
			l.mp.Jump = jump
		}
		if l.measure {
			after, _ := c.hist.players.Get(l.mp.Tick)
			l.mp.Error = bodyError(&l.from, after)
			if l.mp.Corrected = l.mp.Error.Exceeds(c.Config.Thresholds); l.mp.Corrected {
				c.Stats.Corrections++
			}
		}
		c.tell(&l.mp)
	}
	if n := len(c.rerun.park.told); n > 0 && !keepLast {
		c.report.last = c.rerun.park.told[n-1].mp
	}
	c.rerun.park.told = c.rerun.park.told[:0]
	return c.checkFinite("replaying a server message")
}

// parkReplayed takes a replay's accounting while the world is parked:
// what depends on the present waits for the turn's end.
func (c *Client) parkReplayed() bool {
	if !c.rerun.park.on {
		return false
	}
	c.rerun.park.replayed = true
	return true
}

// parkTold keeps misprediction mp for the turn's end while the world is
// parked.
func (c *Client) parkTold(mp *Misprediction) bool {
	if !c.rerun.park.on {
		return false
	}
	c.rerun.park.told = append(c.rerun.park.told, toldLater{mp: *mp, jump: c.rerun.park.replayed, measure: c.rerun.park.measure, from: c.rerun.park.from})
	c.rerun.park.replayed, c.rerun.park.measure = false, false
	return true
}

// parkError reports whether the error of the misprediction about to be
// told waits for the turn's end, where it is measured against pred.
func (c *Client) parkError(pred *physics.BodyState) bool {
	if !c.rerun.park.on {
		return false
	}
	c.rerun.park.measure, c.rerun.park.from = true, *pred
	return true
}
