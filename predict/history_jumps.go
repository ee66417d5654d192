package predict

import "github.com/cubelab/cube/physics"

// Jumps in the history.
//
// A rewind that takes a server's state (a snapshot's correction, a
// repair) puts in the history, at its tick T, a state that the recorded
// ticks before T did not give: the traces before T are those of the run
// the client predicted, the traces from T on those of the replay from
// the server's state. A replay from T or later never meets the jump; a
// repair's, from an older tick, goes through it. Its partial replay
// follows a body only where the replayed state differs from the recorded
// one, and at T the recorded state changes under it: the bodies the jump
// changed must then join the followed set (or the replay goes on in full
// when they are not known), so that every body left out is as the traces
// from T on start it.

// jump is what the history knows of a jump at its tick.
type jump struct {
	valid  bool    // the state at the tick is still the one taken there: no replay has stepped into it since
	known  bool    // bodies holds the bodies it changed; else a replay through it goes on in full
	bodies []int32 // the bodies where the state taken differs from the one before, closed over both contact caches
}

// markJump notes that the history's state at tick t, the world's state
// (the client's own), is about to be replaced by s. A client that
// replays in full needs no note: it follows no body.
func (c *Client) markJump(t uint32, s *physics.State) {
	if !c.traced() {
		return
	}
	j := c.hist.jumps.Put(t)
	set := &c.hist.jumpSet
	set.Reset(c.world.NumBodies())
	set.AddDiff(c.world.State(), s)
	c.world.Spread(set, c.world.State())
	c.world.Spread(set, s)
	j.valid, j.known = true, true
	j.bodies = append(j.bodies[:0], set.List()...)
}

// markUnknownJump notes a jump at tick t whose bodies are not known: the
// client did not hold its own state at t.
func (c *Client) markUnknownJump(t uint32) {
	j := c.hist.jumps.Put(t)
	j.valid, j.known, j.bodies = true, false, j.bodies[:0]
}

// stepInto notes that a step went on to the state labelled t: it is now
// the one the recorded ticks give. A partial replay that steps into a
// jump's tick follows the bodies the jump changed from there on, or goes
// on in full when they are not known.
func (c *Client) stepInto(t uint32) {
	j, ok := c.hist.jumps.Get(t)
	if !ok || !j.valid {
		return
	}
	j.valid = false
	if !c.rerun.following {
		return
	}
	if !j.known {
		c.rerun.following = false
		return
	}
	for _, i := range j.bodies {
		c.rerun.part.Add(i)
	}
	c.world.Spread(&c.rerun.part, c.world.State())
}
