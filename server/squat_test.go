package server

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/transport"
)

// TestSquattersDoNotLockOut: 64 connections that never send a Hello, 16
// from each of 4 loopback hosts (each within the per-address cap of 16),
// fill the QUIC server's 64-connection cap. Two real clients dialling
// then (from 127.0.0.1) still get in and join, each taking the place of
// a squatter; once they have joined, a new squatter cannot take theirs.
func TestSquattersDoNotLockOut(t *testing.T) {
	if testing.Short() {
		t.Skip("dials 66 QUIC connections")
	}
	s, sc := newServer(t, 2, protocol.ModeState)
	net, err := transport.Listen("127.0.0.1:0", &transport.Options{MaxConns: 64, MaxConnsPerAddr: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer net.Close()
	h, err := NewHost(s, net, 64)
	if err != nil {
		t.Fatal(err)
	}
	h.PerAddress = 16

	// The host's loop, on its own goroutine, as in cube server.
	stop, done := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex // guards s and h between turns
	go func() {
		defer close(done)
		start := time.Now()
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			mu.Lock()
			err := h.Turn(time.Since(start))
			mu.Unlock()
			if err != nil {
				t.Error(err)
				return
			}
		}
	}()
	defer func() { close(stop); <-done }()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var squatters []*transport.QUICClient
	defer func() {
		for _, c := range squatters {
			c.Abandon()
		}
	}()
	for host := 2; host <= 5; host++ {
		for k := 0; k < 16; k++ {
			c, err := transport.Dial(ctx, net.BoundAddr(), net.Pin(), false, &transport.Options{LocalAddr: fmt.Sprintf("127.0.0.%d:0", host)})
			if err != nil {
				t.Fatalf("squatter %d from 127.0.0.%d: %v", k, host, err)
			}
			squatters = append(squatters, c)
		}
	}
	join := func(nonce uint64) *transport.QUICClient {
		t.Helper()
		c, err := transport.Dial(ctx, net.BoundAddr(), net.Pin(), false, nil)
		if err != nil {
			t.Fatalf("a real client: %v", err)
		}
		hello := wire.AppendHello(nil, &wire.Hello{Nonce: nonce, Mode: uint8(protocol.ModeState), Scene: sc.ID})
		start := time.Now()
		for time.Since(start) < 5*time.Second {
			if c.Err() != nil {
				t.Fatalf("a real client, %v after dialling: %v", time.Since(start), c.Err())
			}
			now := time.Since(start)
			_ = c.Send(now, hello)
			time.Sleep(20 * time.Millisecond)
			for _, b := range c.Receive(time.Since(start), nil) {
				var m wire.Welcome
				if k, err := wire.Kind(b); err != nil || k != wire.KindWelcome || wire.DecodeWelcome(b, &m) != nil || m.Nonce != nonce {
					continue
				}
				if m.Result != wire.Accepted {
					t.Fatalf("a real client refused: result %d", m.Result)
				}
				return c
			}
		}
		t.Fatalf("a real client: no Welcome in 5 s (connection error %v)", c.Err())
		return nil
	}
	a := join(1)
	defer a.Close()
	b := join(2)
	defer b.Close()

	// A squatter dialling again takes the place of another squatter, not
	// of a player.
	c, err := transport.Dial(ctx, net.BoundAddr(), net.Pin(), false, &transport.Options{LocalAddr: "127.0.0.6:0"})
	if err == nil {
		squatters = append(squatters, c)
	}
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	peers, ev := s.Peers(), net.Stats().Bogus
	mu.Unlock()
	if a.Err() != nil || b.Err() != nil || peers != 2 {
		t.Fatalf("players: %v, %v, %d in a slot; want both in", a.Err(), b.Err(), peers)
	}
	closed := 0
	for _, c := range squatters {
		if c.Err() != nil {
			closed++
		}
	}
	if closed != 3 || ev.Evicted != 3 {
		t.Fatalf("%d squatters closed, %d evictions counted; want 3", closed, ev.Evicted)
	}
}
