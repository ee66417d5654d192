package transport

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/cubelab/cube/netsim"
)

// memRun plays a fixed session: two clients under the "bad" and
// "terrible" presets exchange numbered datagrams for 4 s at 64 Hz, one
// leaves half-way and a third arrives. It returns everything delivered,
// with its time, in delivery order.
func memRun(t *testing.T, seed uint64) []string {
	t.Helper()
	srv, err := NewMemServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	bad, _ := netsim.PresetByName("bad")
	terrible, _ := netsim.PresetByName("terrible")
	clients := map[string]*MemClient{} // looked up by name, never ranged over
	connect := func(name string, p netsim.Preset, k uint64) {
		c, err := srv.Connect(seed + k)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.SetConditions(p.Conditions, p.Conditions); err != nil {
			t.Fatal(err)
		}
		clients[name] = c
	}
	connect("a", bad, 1)
	connect("b", terrible, 2)
	names := []string{"a", "b", "c"}
	var evs []PeerEvent
	var dgs []Datagram
	var bufs [][]byte
	var peers []PeerID // live, in the order they connected
	const tick = time.Second / 64
	for i := range 256 {
		now := time.Duration(i) * tick
		if i == 128 {
			clients["b"].Close()
			connect("c", bad, 3)
		}
		for _, n := range names {
			if c := clients[n]; c != nil && c.Err() == nil {
				c.Send(now, fmt.Appendf(nil, "%s%d", n, i))
				bufs = c.Receive(now, bufs[:0])
				for _, b := range bufs {
					log = append(log, fmt.Sprintf("%v %s<-%s", now, n, b))
				}
			}
		}
		evs = srv.Events(evs[:0])
		for _, ev := range evs {
			log = append(log, fmt.Sprintf("%v %s %d %s", now, ev.Kind, ev.Peer, ev.Reason))
			if ev.Kind == Connected {
				peers = append(peers, ev.Peer)
			} else {
				peers = slices.DeleteFunc(peers, func(p PeerID) bool { return p == ev.Peer })
			}
		}
		dgs = srv.Receive(now, dgs[:0])
		for _, d := range dgs {
			log = append(log, fmt.Sprintf("%v srv<-%d %s", now, d.Peer, d.Data))
		}
		for _, id := range peers {
			srv.Send(now, id, fmt.Appendf(nil, "to%d@%d", id, i))
		}
	}
	return log
}

func TestMemDeterministic(t *testing.T) {
	a, b := memRun(t, 7), memRun(t, 7)
	if !slices.Equal(a, b) {
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("runs with one seed differ first at delivery %d: %q and %q", i, a[i], b[i])
			}
		}
		t.Fatalf("runs with one seed delivered %d and %d datagrams", len(a), len(b))
	}
	if len(a) < 500 {
		t.Fatalf("only %d deliveries", len(a))
	}
	for _, want := range []string{"2s gone 2 closed by peer", "2s connected 3 none"} {
		if !slices.Contains(a, want) {
			t.Errorf("the run lacks %q", want)
		}
	}
	if c := memRun(t, 8); slices.Equal(a, c) {
		t.Error("another seed gave the same run")
	}
}

func TestMemServerAbandoned(t *testing.T) {
	srv, err := NewMemServer(&Options{IdleTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := srv.Connect(1)
	lan, _ := netsim.PresetByName("lan")
	c.SetConditions(lan.Conditions, lan.Conditions)
	srv.Events(nil)
	srv.Send(time.Second, c.Peer(), []byte("last words"))
	srv.Abandon()
	if _, err := srv.Connect(2); !errors.Is(err, ErrRefused) {
		t.Errorf("Connect to an abandoned server: %v, want ErrRefused", err)
	}
	// What was in flight still arrives; the end shows at the idle timeout.
	if got := c.Receive(time.Second+10*time.Millisecond, nil); len(got) != 1 {
		t.Errorf("the datagram in flight did not arrive: %q", got)
	}
	c.Receive(3*time.Second-time.Nanosecond, nil)
	if c.Err() != nil {
		t.Fatalf("Err before the idle timeout: %v", c.Err())
	}
	c.Receive(3*time.Second, nil)
	var lost *LostError
	if !errors.As(c.Err(), &lost) || lost.Reason != ReasonTimeout {
		t.Fatalf("Err at the idle timeout: %v", c.Err())
	}
	if want := "transport: no answer from the server at mem for 2s"; c.Err().Error() != want {
		t.Errorf("Err() = %q, want %q", c.Err(), want)
	}
}

func TestMemConnectAfterClose(t *testing.T) {
	srv, _ := NewMemServer(nil)
	srv.Close()
	if _, err := srv.Connect(1); !errors.Is(err, ErrRefused) {
		t.Fatalf("Connect to a closed server: %v, want ErrRefused", err)
	}
	if _, err := NewMemServer(&Options{QueueLen: -1}); err == nil {
		t.Error("a negative queue length was accepted")
	}
}

func TestMemDuplicatesCounted(t *testing.T) {
	srv, _ := NewMemServer(nil)
	c, _ := srv.Connect(3)
	c.SetConditions(netsim.Conditions{Duplicate: 1}, netsim.Conditions{})
	srv.Events(nil)
	c.Send(0, []byte("twice"))
	got := srv.Receive(0, nil)
	if len(got) != 2 || string(got[0].Data) != "twice" || string(got[1].Data) != "twice" {
		t.Fatalf("got %v, want the datagram twice", got)
	}
	if s := srv.Stats().Peers[0]; s.Received != 2 || c.Stats().Sent != 1 {
		t.Errorf("counters %+v and %+v", s, c.Stats())
	}
}
