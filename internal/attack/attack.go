// Package attack is a hostile cube client, for scripts/attack.sh: it joins
// and floods a `cube server` with Inputs, floods it with Hellos from a
// connection without a slot, squats slots with stale inputs, or re-dials
// connections as fast as they close. It talks to loopback addresses only,
// and every attack runs until its context ends.
package attack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/transport"
)

// Target is the server attacked and where the attacks come from.
type Target struct {
	Addr  string // the server's address: a loopback one
	Pin   string
	From  string // the attacker's loopback address, such as 127.0.0.2 (the other host)
	Scene game.Identity
	Mode  protocol.Mode
}

// Result is what an attack counted.
type Result struct {
	Sent     uint64 // datagrams sent
	Dials    uint64 // connections opened
	Refused  uint64 // dials that failed or were closed at once
	Joined   uint64 // slots taken
	HeldEnd  uint64 // squat: slots still held when the attack ended
	TickSeen uint32 // the server's tick at the last Welcome
}

// NewTarget returns the target of a server of scene name with players
// slots in mode, checking that addr and from are loopback addresses.
func NewTarget(addr, pin, from, name string, players int, mode protocol.Mode) (Target, error) {
	for _, a := range []string{addr, from + ":0"} {
		host, _, err := net.SplitHostPort(a)
		if err != nil {
			return Target{}, fmt.Errorf("attack: address %q: %w", a, err)
		}
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			return Target{}, fmt.Errorf("attack: %s is not a loopback address: the attacks stay on this machine", host)
		}
	}
	_, sc, err := game.Build(name, physics.DefaultConfig(), game.Options{Players: players})
	if err != nil {
		return Target{}, fmt.Errorf("attack: %w", err)
	}
	return Target{Addr: addr, Pin: pin, From: from, Scene: sc.ID, Mode: mode}, nil
}

// dial opens a connection from t.From.
func (t *Target) dial(ctx context.Context) (*transport.QUICClient, error) {
	return transport.Dial(ctx, t.Addr, t.Pin, false, &transport.Options{LocalAddr: t.From + ":0", HandshakeTimeout: 2 * time.Second})
}

// join opens a connection and takes a slot: a Hello every 100 ms until a
// Welcome accepts it, for 3 s at most.
func (t *Target) join(ctx context.Context) (*transport.QUICClient, wire.Welcome, error) {
	var w wire.Welcome
	c, err := t.dial(ctx)
	if err != nil {
		return nil, w, err
	}
	start := time.Now()
	hello := wire.AppendHello(nil, &wire.Hello{Nonce: uint64(start.UnixNano()), Mode: uint8(t.Mode), Scene: t.Scene})
	var in [][]byte
	for time.Since(start) < 3*time.Second && ctx.Err() == nil {
		now := time.Since(start)
		_ = c.Send(now, hello)
		deadline := time.Now().Add(100 * time.Millisecond)
		for time.Now().Before(deadline) {
			in = c.Receive(time.Since(start), in[:0])
			for _, b := range in {
				if k, _ := wire.Kind(b); k != wire.KindWelcome || wire.DecodeWelcome(b, &w) != nil {
					continue
				}
				if w.Result != wire.Accepted {
					_ = c.Close()
					return nil, w, fmt.Errorf("attack: refused (%d)", w.Result)
				}
				return c, w, nil
			}
			if c.Err() != nil {
				return nil, w, c.Err()
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	_ = c.Close()
	return nil, w, errors.New("attack: no Welcome within 3 s")
}

// pace sends rate datagrams a second with send until ctx ends, in bursts
// every millisecond.
func pace(ctx context.Context, rate int, send func(now time.Duration)) {
	start := time.Now()
	sent := 0
	for ctx.Err() == nil {
		now := time.Since(start)
		due := int(now.Seconds() * float64(rate))
		for ; sent < due; sent++ {
			send(now)
		}
		time.Sleep(time.Millisecond)
	}
}

// InputFlood joins and sends rate Input messages a second for the ticks
// the server is at, each with inputs inputs (1: 13 bytes; 1024: as many as
// fit in a datagram, changing every tick so that none compress).
func InputFlood(ctx context.Context, t Target, rate, inputs int) (Result, error) {
	var r Result
	c, w, err := t.join(ctx)
	if err != nil {
		return r, err
	}
	defer c.Close()
	r.Joined, r.Dials, r.TickSeen = 1, 1, w.Tick
	ins := make([]game.Input, inputs)
	for i := range ins {
		ins[i] = game.Input(i % 2)
	}
	start := time.Now()
	var msg []byte
	pace(ctx, rate, func(now time.Duration) {
		at := w.Tick + uint32(time.Since(start)/tick.Duration(physics.DefaultConfig().Dt))
		msg, _ = wire.AppendInput(msg[:0], &wire.Input{Player: w.Player, First: at + 2 - uint32(len(ins)), Inputs: ins})
		if c.Send(now, msg) == nil {
			r.Sent++
		}
	})
	return r, nil
}

// HelloFlood opens a connection that never takes a slot (its Hellos name
// another scene) and sends rate Hellos a second on it, dialling again
// when the server closes it.
func HelloFlood(ctx context.Context, t Target, rate int) (Result, error) {
	var r Result
	other := t.Scene
	other.Hash++
	hello := wire.AppendHello(nil, &wire.Hello{Nonce: 1, Mode: uint8(t.Mode), Scene: other})
	for ctx.Err() == nil {
		c, err := t.dial(ctx)
		r.Dials++
		if err != nil {
			r.Refused++
			time.Sleep(50 * time.Millisecond)
			continue
		}
		sub, cancel := context.WithCancel(ctx)
		pace(sub, rate, func(now time.Duration) {
			if c.Err() != nil {
				cancel()
				return
			}
			if c.Send(now, hello) == nil {
				r.Sent++
			}
		})
		cancel()
		_ = c.Close()
	}
	return r, nil
}

// Squat takes n slots and holds them with one stale Input a second each:
// always for the tick the slot was taken at, acknowledging nothing new.
// HeldEnd says how many connections the server still kept at the end.
func Squat(ctx context.Context, t Target, n int) (Result, error) {
	var r Result
	var conns []*transport.QUICClient
	var welcomes []wire.Welcome
	for range n {
		c, w, err := t.join(ctx)
		r.Dials++
		if err != nil {
			r.Refused++
			continue
		}
		r.Joined++
		conns = append(conns, c)
		welcomes = append(welcomes, w)
	}
	defer func() {
		for _, c := range conns {
			_ = c.Close()
		}
	}()
	start := time.Now()
	var msg []byte
	for ctx.Err() == nil {
		for i, c := range conns {
			w := welcomes[i]
			msg, _ = wire.AppendInput(msg[:0], &wire.Input{Player: w.Player, First: w.Tick, Inputs: []game.Input{game.Left}})
			if c.Send(time.Since(start), msg) == nil {
				r.Sent++
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	for _, c := range conns {
		_ = c.Receive(time.Since(start), nil)
		if c.Err() == nil {
			r.HeldEnd++
		}
	}
	return r, nil
}

// Redial keeps n connections open, dialling again as soon as one closes;
// the connections say nothing.
func Redial(ctx context.Context, t Target, n int) (Result, error) {
	var dials, refused atomic.Uint64
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				dials.Add(1)
				c, err := t.dial(ctx)
				if err != nil {
					refused.Add(1)
					time.Sleep(20 * time.Millisecond)
					continue
				}
				for ctx.Err() == nil && c.Err() == nil {
					_ = c.Receive(0, nil)
					time.Sleep(20 * time.Millisecond)
				}
				_ = c.Close()
			}
		}()
	}
	wg.Wait()
	return Result{Dials: dials.Load(), Refused: refused.Load()}, nil
}
