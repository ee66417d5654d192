package transport

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cubelab/cube/netsim"
)

// The behaviour both implementations share: one code path, tested in both.

func TestDatagramsBothWays(t *testing.T) {
	eachRig(t, Options{}, func(t *testing.T, h *harness) {
		c, p := h.connect()
		now := h.r.now()
		if err := c.Send(now, []byte("hello")); err != nil {
			t.Fatal(err)
		}
		h.until("hello at the server", func() bool { return len(h.serverGot(p)) == 1 })
		if got := h.serverGot(p)[0]; got != "hello" {
			t.Fatalf("server got %q, want hello", got)
		}
		if err := h.r.srv.Send(h.r.now(), p, []byte("hi")); err != nil {
			t.Fatal(err)
		}
		h.until("hi at the client", func() bool { return len(h.clientGot(c)) == 1 })
		if got := h.clientGot(c)[0]; got != "hi" {
			t.Fatalf("client got %q, want hi", got)
		}

		// The largest datagram crosses both ways intact.
		up, down := pattern(MaxDatagram, 1), pattern(MaxDatagram, 2)
		if err := c.Send(h.r.now(), up); err != nil {
			t.Fatalf("client Send of %d bytes: %v", MaxDatagram, err)
		}
		if err := h.r.srv.Send(h.r.now(), p, down); err != nil {
			t.Fatalf("server Send of %d bytes: %v", MaxDatagram, err)
		}
		h.until("1200-byte datagrams both ways", func() bool {
			return len(h.serverGot(p)) == 2 && len(h.clientGot(c)) == 2
		})
		if h.serverGot(p)[1] != string(up) || h.clientGot(c)[1] != string(down) {
			t.Fatal("a 1200-byte datagram arrived altered")
		}

		// One byte more is refused, and counted, at both ends.
		if err := c.Send(h.r.now(), make([]byte, MaxDatagram+1)); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("client Send of %d bytes: %v, want ErrTooLarge", MaxDatagram+1, err)
		}
		if err := h.r.srv.Send(h.r.now(), p, make([]byte, MaxDatagram+1)); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("server Send of %d bytes: %v, want ErrTooLarge", MaxDatagram+1, err)
		}

		cs, ss := c.Stats(), h.peerStats(p)
		wantC := Counters{Sent: 2, SentBytes: 5 + MaxDatagram, Received: 2, ReceivedBytes: 2 + MaxDatagram,
			DroppedSize: 1, DroppedBytes: MaxDatagram + 1}
		wantS := Counters{Sent: 2, SentBytes: 2 + MaxDatagram, Received: 2, ReceivedBytes: 5 + MaxDatagram,
			DroppedSize: 1, DroppedBytes: MaxDatagram + 1}
		if cs != wantC {
			t.Errorf("client counters %+v, want %+v", cs, wantC)
		}
		if ss != wantS {
			t.Errorf("server counters of the peer %+v, want %+v", ss, wantS)
		}
		if tot := h.r.srv.Stats().Totals; tot != wantS {
			t.Errorf("server totals %+v, want %+v", tot, wantS)
		}
	})
}

func TestOddInputs(t *testing.T) {
	eachRig(t, Options{}, func(t *testing.T, h *harness) {
		srv := h.r.srv
		if got := srv.Receive(h.r.now(), nil); len(got) != 0 {
			t.Fatalf("Receive on an idle server: %v", got)
		}
		if got := srv.Events(nil); len(got) != 0 {
			t.Fatalf("Events on an idle server: %v", got)
		}
		for _, id := range []PeerID{0, 1, 99} {
			if err := srv.Send(h.r.now(), id, []byte("x")); !errors.Is(err, ErrUnknownPeer) {
				t.Errorf("Send to peer %d before any connection: %v, want ErrUnknownPeer", id, err)
			}
			if err := srv.Disconnect(id, ""); !errors.Is(err, ErrUnknownPeer) {
				t.Errorf("Disconnect of peer %d: %v, want ErrUnknownPeer", id, err)
			}
		}
		c, p := h.connect()
		if got := c.Receive(h.r.now(), nil); len(got) != 0 {
			t.Fatalf("Receive on an idle client: %v", got)
		}
		// Empty datagrams are datagrams.
		if err := c.Send(h.r.now(), nil); err != nil {
			t.Fatalf("client Send(nil): %v", err)
		}
		if err := srv.Send(h.r.now(), p, []byte{}); err != nil {
			t.Fatalf("server Send of an empty datagram: %v", err)
		}
		h.until("the empty datagrams", func() bool {
			return len(h.serverGot(p)) == 1 && len(h.clientGot(c)) == 1
		})
		if h.serverGot(p)[0] != "" || h.clientGot(c)[0] != "" {
			t.Fatal("an empty datagram arrived with bytes")
		}
		if err := c.SetConditions(netsim.Conditions{Loss: 2}, netsim.Conditions{}); err == nil {
			t.Fatal("SetConditions accepted a loss of 2")
		}
		// Closing twice is fine; a closed client neither sends nor receives.
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if err := c.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		if err := c.Send(h.r.now(), []byte("x")); !errors.Is(err, ErrClosed) {
			t.Fatalf("Send after Close: %v, want ErrClosed", err)
		}
		if !errors.Is(c.Err(), ErrClosed) {
			t.Fatalf("Err after Close: %v, want ErrClosed", c.Err())
		}
		if got := c.Receive(h.r.now(), nil); len(got) != 0 {
			t.Fatalf("Receive after Close: %v", got)
		}
		if err := srv.Close(); err != nil {
			t.Fatal(err)
		}
		if err := srv.Close(); err != nil {
			t.Fatalf("second server Close: %v", err)
		}
		if err := srv.Send(h.r.now(), p, []byte("x")); err == nil {
			t.Fatal("Send on a closed server succeeded")
		}
		if got := srv.Receive(h.r.now(), nil); len(got) != 0 {
			t.Fatalf("Receive on a closed server: %v", got)
		}
	})
}

func TestClientsKeptApart(t *testing.T) {
	eachRig(t, Options{}, func(t *testing.T, h *harness) {
		a, pa := h.connect()
		b, pb := h.connect()
		if pa == pb || pa == 0 || pb == 0 {
			t.Fatalf("peers %d and %d", pa, pb)
		}
		for i := range 5 {
			a.Send(h.r.now(), []byte{'a', byte('0' + i)})
			b.Send(h.r.now(), []byte{'b', byte('0' + i)})
			h.r.srv.Send(h.r.now(), pa, []byte{'A', byte('0' + i)})
			h.r.srv.Send(h.r.now(), pb, []byte{'B', byte('0' + i)})
		}
		h.until("5 datagrams each way for each client", func() bool {
			return len(h.serverGot(pa)) == 5 && len(h.serverGot(pb)) == 5 &&
				len(h.clientGot(a)) == 5 && len(h.clientGot(b)) == 5
		})
		check := func(who string, got []string, prefix byte) {
			t.Helper()
			for _, g := range got {
				if g[0] != prefix {
					t.Errorf("%s got %q", who, g)
				}
			}
		}
		check("server from a", h.serverGot(pa), 'a')
		check("server from b", h.serverGot(pb), 'b')
		check("client a", h.clientGot(a), 'A')
		check("client b", h.clientGot(b), 'B')
		st := h.r.srv.Stats()
		if len(st.Peers) != 2 || st.Peers[0].Peer != pa || st.Peers[1].Peer != pb || st.Peers[0].Received != 5 {
			t.Errorf("server stats peers %+v", st.Peers)
		}
	})
}

func TestGoneAndReconnect(t *testing.T) {
	eachRig(t, Options{}, func(t *testing.T, h *harness) {
		c1, p1 := h.connect()
		c1.Send(h.r.now(), []byte("one"))
		h.until("one", func() bool { return len(h.serverGot(p1)) == 1 })
		if ev, _ := h.event(Connected, p1); ev.Addr == "" {
			t.Errorf("Connected event without an address: %+v", ev)
		}
		if err := c1.Close(); err != nil {
			t.Fatal(err)
		}
		h.until("a Gone event", func() bool { _, ok := h.event(Gone, p1); return ok })
		if ev, _ := h.event(Gone, p1); ev.Reason != ReasonClosed || ev.Counters.Received != 1 {
			t.Errorf("Gone event %+v, want ReasonClosed and its final counters", ev)
		}
		if err := h.r.srv.Send(h.r.now(), p1, []byte("late")); !errors.Is(err, ErrUnknownPeer) {
			t.Errorf("Send to a gone peer: %v, want ErrUnknownPeer", err)
		}

		c2, p2 := h.connect()
		if p2 == p1 {
			t.Fatalf("the reconnected client got the old ID %d", p1)
		}
		c2.Send(h.r.now(), []byte("two"))
		h.r.srv.Send(h.r.now(), p2, []byte("back"))
		h.until("two and back", func() bool {
			return len(h.serverGot(p2)) == 1 && len(h.clientGot(c2)) == 1
		})
		st := h.r.srv.Stats()
		if st.Connected != 2 || st.Gone != 1 || len(st.Peers) != 1 || st.Peers[0].Peer != p2 {
			t.Errorf("stats after a reconnect: %+v", st)
		}
		if st.Totals.Received != 2 || st.Totals.Sent != 1 {
			t.Errorf("totals forget the gone peer: %+v", st.Totals)
		}
	})
}

func TestEventsBeforeDatagrams(t *testing.T) {
	eachRig(t, Options{}, func(t *testing.T, h *harness) {
		c, err := h.r.connect()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Send(h.r.now(), []byte("early")); err != nil {
			t.Fatal(err)
		}
		// Without Events, the datagram waits behind the Connected event.
		for range 100 {
			if got := h.r.srv.Receive(h.r.now(), nil); len(got) != 0 {
				t.Fatalf("Receive returned %d datagrams before Events reported the peer", len(got))
			}
			h.r.step()
		}
		evs := h.r.srv.Events(nil)
		if len(evs) != 1 || evs[0].Kind != Connected {
			t.Fatalf("events %+v, want one Connected", evs)
		}
		h.evs = evs
		h.until("the early datagram", func() bool { return len(h.serverGot(evs[0].Peer)) == 1 })

		// After the client leaves, its Gone event waits behind its datagrams.
		c.Send(h.r.now(), []byte("last"))
		time.Sleep(50 * time.Millisecond) // let it cross a real network first
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		n := len(h.evs)
		h.until("the Gone event", func() bool { return len(h.evs) > n })
		if got := h.serverGot(evs[0].Peer); len(got) != 2 || got[1] != "last" {
			t.Fatalf("datagrams before Gone: %q", got)
		}
	})
}

func TestDisconnect(t *testing.T) {
	eachRig(t, Options{}, func(t *testing.T, h *harness) {
		c, p := h.connect()
		if err := h.r.srv.Disconnect(p, "too many bad inputs"); err != nil {
			t.Fatal(err)
		}
		if err := h.r.srv.Send(h.r.now(), p, []byte("x")); !errors.Is(err, ErrUnknownPeer) {
			t.Errorf("Send after Disconnect: %v, want ErrUnknownPeer", err)
		}
		h.until("the client to notice", func() bool { return c.Err() != nil })
		var lost *LostError
		if !errors.As(c.Err(), &lost) || lost.Reason != ReasonClosed {
			t.Fatalf("client Err %v, want a LostError with ReasonClosed", c.Err())
		}
		if msg := c.Err().Error(); !strings.Contains(msg, "closed the connection: too many bad inputs") {
			t.Errorf("client Err says %q", msg)
		}
		if err := c.Send(h.r.now(), []byte("x")); err != c.Err() {
			t.Errorf("client Send after the end: %v, want Err()", err)
		}
		h.until("the Gone event", func() bool { _, ok := h.event(Gone, p); return ok })
		if ev, _ := h.event(Gone, p); ev.Reason != ReasonLocal || ev.Detail != "too many bad inputs" {
			t.Errorf("Gone event %+v", ev)
		}
	})
}

func TestServerClose(t *testing.T) {
	eachRig(t, Options{}, func(t *testing.T, h *harness) {
		c, p := h.connect()
		c.Send(h.r.now(), []byte("just before"))
		time.Sleep(20 * time.Millisecond) // over QUIC, let it arrive
		if err := h.r.srv.Close(); err != nil {
			t.Fatal(err)
		}
		start := h.r.now()
		h.until("the client to notice", func() bool { return c.Err() != nil })
		if d := h.r.now() - start; d > 3*time.Second {
			t.Errorf("the client noticed after %v", d)
		}
		var lost *LostError
		if !errors.As(c.Err(), &lost) || lost.Reason != ReasonClosed {
			t.Fatalf("client Err %v, want a LostError with ReasonClosed", c.Err())
		}
		msg := c.Err().Error()
		if !strings.HasPrefix(msg, "transport: the server at ") || !strings.Contains(msg, "closed the connection") {
			t.Errorf("client Err says %q", msg)
		}
		// The closed server still hands out what came before, then the
		// peer's Gone event.
		h.until("the Gone event", func() bool { _, ok := h.event(Gone, p); return ok })
		if ev, _ := h.event(Gone, p); ev.Reason != ReasonLocal {
			t.Errorf("Gone event %+v, want ReasonLocal", ev)
		}
		if got := h.serverGot(p); len(got) != 1 || got[0] != "just before" {
			t.Errorf("server got %q before the end", got)
		}
	})
}

func TestAbandonedClientTimesOut(t *testing.T) {
	o := Options{IdleTimeout: time.Second, KeepAlive: 200 * time.Millisecond}
	eachRig(t, o, func(t *testing.T, h *harness) {
		c, p := h.connect()
		c.Send(h.r.now(), []byte("alive"))
		h.until("alive", func() bool { return len(h.serverGot(p)) == 1 })
		died := h.r.now()
		h.r.abandon(c)
		if !errors.Is(c.Err(), ErrClosed) {
			t.Errorf("abandoned client Err %v, want ErrClosed", c.Err())
		}
		h.until("the Gone event", func() bool { _, ok := h.event(Gone, p); return ok })
		ev, _ := h.event(Gone, p)
		if ev.Reason != ReasonTimeout {
			t.Errorf("Gone event %+v, want ReasonTimeout", ev)
		}
		at := h.r.now() - died
		if h.r.exact {
			// Receive notices at the idle timeout; the next Events tells.
			if at < o.IdleTimeout || at > o.IdleTimeout+time.Millisecond {
				t.Errorf("gone %v after it died, want %v", at, o.IdleTimeout)
			}
		} else if at < o.IdleTimeout/2 || at > o.IdleTimeout+3*time.Second {
			t.Errorf("gone %v after it died, want about %v", at, o.IdleTimeout)
		}
	})
}

func TestQueueFull(t *testing.T) {
	eachRig(t, Options{QueueLen: 4}, func(t *testing.T, h *harness) {
		c, p := h.connect()
		for i := range 10 {
			if err := c.Send(h.r.now(), numbered(i)); err != nil {
				t.Fatal(err)
			}
			h.r.step()
		}
		// The server does not poll: 4 wait in its stream, 6 are dropped,
		// over QUIC as they arrive, in process when Receive pulls them.
		deadline := h.r.now() + h.r.limit
		for !h.r.exact && h.peerStats(p).DroppedRecvQueue < 6 && h.r.now() < deadline {
			h.r.step()
		}
		got := h.r.srv.Receive(h.r.now(), nil)
		if len(got) != 4 {
			t.Fatalf("received %d datagrams from a queue of 4", len(got))
		}
		for i, d := range got {
			if string(d.Data) != string(numbered(i)) {
				t.Errorf("datagram %d is %q", i, d.Data)
			}
		}
		if s := h.peerStats(p); s.DroppedRecvQueue != 6 || s.Received != 4 {
			t.Errorf("server counters %+v, want 6 dropped by the queue and 4 received", s)
		}
	})
}

func TestConditioningLoss(t *testing.T) {
	const n = 100
	eachRig(t, Options{}, func(t *testing.T, h *harness) {
		c, p := h.connect()
		lossy := netsim.Conditions{Loss: 0.3}
		if err := c.SetConditions(lossy, netsim.Conditions{}); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			c.Send(h.r.now(), numbered(i))
			h.poll()
			h.r.step() // quic-go drops what its queue of 128 cannot hold in a burst
		}
		h.until("every datagram received or dropped", func() bool {
			return len(h.serverGot(p))+int(c.Stats().DroppedOut) == n
		})
		if got := len(h.serverGot(p)); got == n || got < n/2 {
			t.Errorf("%d of %d datagrams arrived with 30%% outgoing loss", got, n)
		}

		if err := c.SetConditions(netsim.Conditions{}, lossy); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			h.r.srv.Send(h.r.now(), p, numbered(i))
			h.poll()
			h.r.step()
		}
		h.until("every datagram received or dropped", func() bool {
			return len(h.clientGot(c))+int(c.Stats().DroppedIn) == n
		})
		if got := len(h.clientGot(c)); got == n || got < n/2 {
			t.Errorf("%d of %d datagrams arrived with 30%% incoming loss", got, n)
		}
		s := c.Stats()
		if s.DroppedBytes != (s.DroppedOut+s.DroppedIn)*5 {
			t.Errorf("dropped bytes %d for %d+%d datagrams of 5 bytes", s.DroppedBytes, s.DroppedOut, s.DroppedIn)
		}
	})
}

func TestConditioningLatency(t *testing.T) {
	const lat = 50 * time.Millisecond
	eachRig(t, Options{}, func(t *testing.T, h *harness) {
		c, p := h.connect()
		delay := netsim.Conditions{Latency: lat}
		if err := c.SetConditions(delay, delay); err != nil {
			t.Fatal(err)
		}
		sent := h.r.now()
		c.Send(sent, []byte("ping"))
		h.until("ping", func() bool { return len(h.serverGot(p)) == 1 })
		arrived := h.srvGot[len(h.srvGot)-1].at
		h.r.srv.Send(arrived, p, []byte("pong"))
		h.until("pong", func() bool { return len(h.clientGot(c)) == 1 })
		back := h.cliGot[c][0].at
		up, down := arrived-sent, back-arrived
		if h.r.exact {
			if up != lat || down != lat {
				t.Errorf("one-way delays %v and %v, want exactly %v", up, down, lat)
			}
		} else if up < lat || down < lat {
			t.Errorf("one-way delays %v and %v, want at least %v", up, down, lat)
		}
		// Back to a perfect link: no more added delay.
		if err := c.SetConditions(netsim.Conditions{}, netsim.Conditions{}); err != nil {
			t.Fatal(err)
		}
		sent = h.r.now()
		c.Send(sent, []byte("fast"))
		h.until("fast", func() bool { return len(h.serverGot(p)) == 2 })
		if d := h.srvGot[len(h.srvGot)-1].at - sent; h.r.exact && d != 0 {
			t.Errorf("delay %v on a perfect link", d)
		}
	})
}
