package predict

import (
	"errors"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// TestTimeSyncJumpBackBounded: samples that say the client's inputs
// arrive 2^30 ticks early (a server gone wrong, or hostile) make it jump
// back at most maxJumpBack ticks, within the ring, not 2^30 (194 days held);
// and the jump that amends the first after it is bounded too.
func TestTimeSyncJumpBackBounded(t *testing.T) {
	ts := TimeSync{On: true}
	for k := range uint32(20) {
		ts.sample(1000+k+2, 1000+k, 1000+k)
	}
	ts.sample(1<<30, 0, 1020)
	if j := ts.takeJump(1021); j != -maxJumpBack {
		t.Fatalf("a buffer of 2^30 ticks: jump %d, want %d", j, -maxJumpBack)
	}
	for k := range uint32(settleSamples) {
		ts.sample(1<<30, 0, 1022+k)
	}
	if j := ts.takeJump(1030); j < -maxJumpBack || j > maxJumpBack {
		t.Fatalf("the jump amending it: %d", j)
	}
}

// TestWelcomeEchoChecked: a Welcome whose clock echo is not the clock of
// one of the client's Hellos (later than now, or before the first) is
// refused and counted, and the client goes on saying Hello; one that
// echoes its Hello is taken, with the round trip it measures.
func TestWelcomeEchoChecked(t *testing.T) {
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := NewClient(DefaultClientConfig(), w, sc, 5)
	clock := 10 * time.Second
	c.Clock = func() time.Duration { return clock }
	var hello wire.Hello
	send := func(b []byte) {
		if k, _ := wire.Kind(b); k == wire.KindHello {
			if err := wire.DecodeHello(b, &hello); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := c.Step(0, send); err != nil {
		t.Fatal(err)
	}
	clock += 80 * time.Millisecond
	for _, echo := range []uint32{hello.Echo + 81, hello.Echo - 1, 1 << 31} {
		b := wire.AppendWelcome(nil, &wire.Welcome{Nonce: hello.Nonce, Echo: echo, Result: wire.Accepted, Tick: 100})
		if err := c.Receive(b); !errors.Is(err, protocol.ErrRejected) || c.Joined() {
			t.Errorf("echo %d of a Hello at %d, now %d: %v, joined %v", echo, hello.Echo, hello.Echo+80, err, c.Joined())
		}
	}
	b := wire.AppendWelcome(nil, &wire.Welcome{Nonce: hello.Nonce, Echo: hello.Echo, Result: wire.Accepted, Tick: 100})
	if err := c.Receive(b); err != nil || !c.Joined() || c.join.rtt != 80*time.Millisecond {
		t.Errorf("the Hello's own echo: %v, joined %v, round trip %v", err, c.Joined(), c.join.rtt)
	}
}
