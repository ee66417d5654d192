package transport

import (
	"testing"
	"time"
)

// TestHandshakeRateBuckets: an address may begin HandshakeBurst at once,
// then one a 1/rate seconds; another address has its own budget.
func TestHandshakeRateBuckets(t *testing.T) {
	r := newHandshakeRate(2)
	t0 := time.Unix(1000, 0)
	for i := range HandshakeBurst {
		if !r.take("127.0.0.1", t0) {
			t.Fatalf("handshake %d of the burst of %d refused", i+1, HandshakeBurst)
		}
	}
	if r.take("127.0.0.1", t0) {
		t.Fatal("one more handshake at once was allowed")
	}
	if !r.take("127.0.0.2", t0) {
		t.Fatal("another address was refused")
	}
	if r.take("127.0.0.1", t0.Add(400*time.Millisecond)) {
		t.Fatal("a handshake 0.4 s later was allowed at 2 a second")
	}
	if !r.take("127.0.0.1", t0.Add(600*time.Millisecond)) {
		t.Fatal("a handshake 0.6 s later was refused at 2 a second")
	}
	if !r.take("127.0.0.1", t0.Add(time.Hour)) || r.slots[0].tokens > HandshakeBurst {
		t.Fatal("an hour later: refused, or more than the burst held")
	}
	// Evictions charge the address: three of them and its burst is gone.
	t1 := t0.Add(2 * time.Hour)
	for range 3 {
		r.charge("127.0.0.3", evictCharge, t1)
	}
	for i := range HandshakeBurst - 3*evictCharge {
		if !r.take("127.0.0.3", t1) {
			t.Fatalf("handshake %d after three evictions refused", i+1)
		}
	}
	if r.take("127.0.0.3", t1) {
		t.Fatal("an address evicted three times kept its whole burst")
	}
}

// TestQUICServerRefusesAFastRedialler: a host that begins handshakes
// faster than HandshakesPerSec is refused before its handshake once its
// burst is spent, and counted; another host still connects.
func TestQUICServerRefusesAFastRedialler(t *testing.T) {
	srv := listen(t, &Options{HandshakesPerSec: 0.1, MaxConns: 64, MaxConnsPerAddr: 64})
	from := &Options{LocalAddr: "127.0.0.2:0"}
	for i := range HandshakeBurst {
		c, err := dial(t, srv, srv.Pin(), false, from)
		if err != nil {
			t.Fatalf("dial %d of the burst: %v", i+1, err)
		}
		connected(t, srv)
		c.Close()
	}
	if c, err := dial(t, srv, srv.Pin(), false, from); err == nil {
		eventually(t, "the dial past the burst to be closed", func() bool { return c.Err() != nil })
	}
	eventually(t, "the refusal to be counted", func() bool { return srv.Stats().Bogus.RefusedAddr >= 1 })
	c, err := dial(t, srv, srv.Pin(), false, nil)
	if err != nil {
		t.Fatalf("from 127.0.0.1: %v", err)
	}
	exchange(t, srv, c, connected(t, srv), "from another host")
}
