package predict

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// wallScript holds W into the arena's wall, and jumps now and then.
func wallScript(t uint32) game.Input {
	if t%128 == 0 {
		return game.Forward | game.Jump
	}
	return game.Forward
}

// BenchmarkClientTick measures one predicted tick in steady state: store
// the input and the state, step the cube held against the wall (ground and
// wall contacts, checked at the end), encode
// the redundant input message. Every 8 ticks a matching server state for 8
// ticks back arrives (taken from the client's own ring, so no correction),
// which keeps 8 to 16 ticks in flight. The ring's slots allocate their
// buffers the first time round, so the timing starts after 4096 ticks.
func BenchmarkClientTick(b *testing.B) {
	c := newClient(0)
	var buf []byte
	var m StateMsg
	tick := func() {
		if c.InFlight() >= 16 {
			s, _ := c.states.get(c.Tick() - 8)
			m.State.CopyFrom(s)
			m.Tick, m.Hash = s.Tick, s.Hash()
			ch, _ := c.chains.get(m.Tick)
			m.Chain = *ch
			if err := c.OnState(&m); err != nil {
				b.Fatal(err)
			}
		}
		var err error
		if buf, err = c.Step(wallScript(c.Tick()), buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < 4096; i++ {
		tick()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tick()
	}
	b.StopTimer()
	if c.Stats.Corrections+c.Stats.Resyncs != 0 {
		b.Fatal("a matching state caused a correction")
	}
	wall := false
	for _, k := range c.World().Contacts() {
		wall = wall || k.B == 1 || k.A == 1 // body 1 is the wall
	}
	if !wall {
		b.Fatal("the cube is not touching the wall")
	}
}

// BenchmarkCorrection32 measures a correction that rewinds 32 ticks: compare,
// restore the server's state and re-simulate 32 buffered ticks, rewriting
// the ring. Two server states for tick 32, with and without a nudge, take
// turns, so that every one disagrees with the prediction it meets.
func BenchmarkCorrection32(b *testing.B) {
	c := newClient(0)
	for tk := uint32(0); tk < 64; tk++ {
		if _, err := c.Step(script(tk), nil); err != nil {
			b.Fatal(err)
		}
	}
	var msgs [2]StateMsg
	for k := range msgs {
		srv := mustArena()
		for tk := uint32(0); tk < 32; tk++ {
			if tk == 31 && k == 1 {
				_ = srv.ApplyImpulse(0, physics.Vec3{X: 1})
			}
			_ = stepInput(srv, script(tk))
		}
		msgs[k].Tick, msgs[k].Hash = 32, srv.Hash()
		srv.Save(&msgs[k].State)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.haveNewest = false // accept tick 32 again
		if err := c.OnState(&msgs[(i+1)%2]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if c.Stats.Corrections != uint64(b.N) || c.Stats.MaxReplay != 32 {
		b.Fatalf("%d corrections of %d ticks for %d iterations", c.Stats.Corrections, c.Stats.MaxReplay, b.N)
	}
}
