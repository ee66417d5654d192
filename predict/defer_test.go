package predict

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// deferClient returns a state-sync client of a two-player arena at tick
// 1000 that has had a relay this tick, up to tick 990: the state a hold
// depends on, set directly.
func deferClient(t *testing.T) *Client {
	t.Helper()
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	w.SkipTo(1000)
	cfg := DefaultClientConfig()
	cfg.Mode = StateSync
	c := NewClient(cfg, w, sc, 1)
	c.st.haveRelay, c.st.relayAt, c.st.relayEnd = true, 1000, 990
	return c
}

// tickTo moves the client's clock to t without predicting.
func tickTo(c *Client, t uint32) { c.world.SkipTo(t) }

// TestHoldLimits: the limits of the snapshots a state-sync client holds
// for their relays, each on its own, in numbers (docs/netcode.md states them):
// at most 16 ticks each, at most 8 at once, and held only while relays
// come (one in the last 16 ticks). A change to maxHold, maxHeld or that
// rule fails here.
func TestHoldLimits(t *testing.T) {
	snap := []byte{0xff} // never decoded into anything: a held snapshot taken by a client not joined counts as stale
	t.Run("ticks", func(t *testing.T) {
		c := deferClient(t)
		c.holdSnapshot(snap, 995)
		tickTo(c, 1015)
		if err := c.takeHeld(); err != nil || len(c.st.held) != 1 {
			t.Fatalf("after %d ticks: %v, %d held; want it still held", 15, err, len(c.st.held))
		}
		tickTo(c, 1016)
		if err := c.takeHeld(); err != nil || len(c.st.held) != 0 || c.Stats.Unrelayed != 1 {
			t.Fatalf("after %d ticks: %v, %d held, %d taken without their relay; want it taken without", 16, err, len(c.st.held), c.Stats.Unrelayed)
		}
	})
	t.Run("count", func(t *testing.T) {
		c := deferClient(t)
		for i := range 9 {
			c.holdSnapshot(snap, 991+uint32(i))
		}
		if c.Stats.Deferred != 9 {
			t.Fatalf("%d deferred, want %d", c.Stats.Deferred, 9)
		}
		if err := c.takeHeld(); err != nil || len(c.st.held) != 8 || c.Stats.Unrelayed != 1 {
			t.Fatalf("%v, %d held, %d taken without their relay; want %d and 1 (the oldest)", err, len(c.st.held), c.Stats.Unrelayed, 8)
		}
		if c.st.held[0].tick != 992 {
			t.Errorf("the oldest left is of tick %d, want 992", c.st.held[0].tick)
		}
	})
	t.Run("relay", func(t *testing.T) {
		c := deferClient(t)
		c.holdSnapshot(snap, 995)
		c.holdSnapshot(snap, 998)
		c.st.relayEnd = 996 // a relay up to 995 came
		if err := c.takeHeld(); err != nil || len(c.st.held) != 1 || c.st.held[0].tick != 998 || c.Stats.Unrelayed != 0 {
			t.Fatalf("%v, %d held, %d taken without their relay; want the one of 995 taken with its relay, 998 held", err, len(c.st.held), c.Stats.Unrelayed)
		}
	})
	t.Run("while relays come", func(t *testing.T) {
		c := deferClient(t)
		const T = 995
		*c.hist.all.Put(T) = 1
		if !c.awaitsRelay(T, 2, c.view.events) {
			t.Fatal("another input chain, a relay this tick: not held")
		}
		if c.awaitsRelay(T, 1, c.view.events) {
			t.Fatal("the same input chain and events: held")
		}
		if !c.awaitsRelay(T, 1, c.view.events+1) {
			t.Fatal("an event since the newest snapshot: not held for the relay that says which")
		}
		tickTo(c, 1016)
		if !c.awaitsRelay(T, 2, c.view.events) {
			t.Fatalf("the last relay %d ticks ago: not held", 16)
		}
		tickTo(c, 1017)
		if c.awaitsRelay(T, 2, c.view.events) || c.awaitsRelay(T, 1, c.view.events+1) {
			t.Fatalf("no relay for %d ticks: held", 17)
		}
		c.st.relayAt = c.Tick()
		c.st.relayEnd = T
		if c.awaitsRelay(T, 2, c.view.events) {
			t.Fatal("the relay of its tick came: held")
		}
		c.st.relayEnd, c.st.haveRelay = 0, false
		if c.awaitsRelay(T, 2, c.view.events) {
			t.Fatal("no relay ever: held")
		}
	})
}

// TestStartDropsHeld: a restart from a transfer (start) drops the
// snapshots held for their relays and what the relays said: they belong
// to the history before it. Kept, a held snapshot's arrival tick could
// lie after the restarted clock and the relay's end after the new ticks.
func TestStartDropsHeld(t *testing.T) {
	c := deferClient(t)
	c.holdSnapshot([]byte{0xff}, 995)
	c.holdSnapshot([]byte{0xff}, 996)
	c.start(2000, 0, 0, 0, 0)
	if len(c.st.held) != 0 || c.st.haveRelay {
		t.Errorf("after start: %d held, relay known %v; want none", len(c.st.held), c.st.haveRelay)
	}
}
