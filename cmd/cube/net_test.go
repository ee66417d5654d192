package main

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"
)

// garbageKinds are UDP payloads that are not a valid QUIC connection's:
// not QUIC at all, short headers for no connection, long headers of a
// version no one speaks, Initials of noise, and QUIC-looking packets cut
// short.
const (
	junkNotQUIC = iota
	junkShort
	junkVersion
	junkInitial
	junkTruncated
	junkKinds
)

// junk returns one bogus datagram of kind k.
func junk(k int) []byte {
	noise := func(n int) []byte {
		b := make([]byte, n)
		rand.Read(b) // never fails: crypto/rand crashes the program instead (Go 1.24 and later)
		return b
	}
	switch k {
	case junkNotQUIC:
		b := noise(60)
		b[0] &= 0x3f // first two bits 0
		return b
	case junkShort:
		b := noise(60)
		b[0] = 0x40 | b[0]&0x3f
		return b
	case junkVersion:
		b := noise(1200)
		b[0] = 0xc0
		binary.BigEndian.PutUint32(b[1:], 0x1a2a3a4a)
		b[5], b[14] = 8, 0
		return b
	case junkInitial:
		b := noise(1200)
		b[0] = 0xc0
		binary.BigEndian.PutUint32(b[1:], 1)
		b[5], b[14], b[15] = 8, 0, 0
		binary.BigEndian.PutUint16(b[16:], 0x4000|1100)
		return b
	}
	// A version 1 long header cut short.
	b := noise(3 + int(noise(1)[0])%12)
	b[0] = 0xc0 | b[0]&0x0f
	b[1], b[2] = 0, 0
	return b
}

// sendJunk sends bogus datagrams to addr from a socket of its own, one
// every few milliseconds, until stop closes, and returns how many of each
// kind it sent.
func sendJunk(t *testing.T, addr string, stop <-chan struct{}) [junkKinds]int {
	var sent [junkKinds]int
	u, err := net.Dial("udp", addr)
	if err != nil {
		t.Error(err)
		return sent
	}
	defer u.Close()
	tk := time.NewTicker(20 * time.Millisecond)
	defer tk.Stop()
	for n := 0; ; n++ {
		select {
		case <-stop:
			return sent
		case <-tk.C:
		}
		k := n % junkKinds
		if k == junkInitial && sent[k] >= 10 {
			k = junkNotQUIC // each noisy Initial holds a handshake for 5 s: a few are enough
		}
		if _, err := u.Write(junk(k)); err == nil {
			sent[k]++
		}
	}
}

// TestFourClientsOverLoopback: `cube server` and four `cube client`s on the
// bad preset for 20 s each, while another socket throws garbage at the
// server. Every client ends in sync and at rest with no nondeterminism and
// nothing rejected; the server counts the garbage and its clients' stays.
func TestFourClientsOverLoopback(t *testing.T) {
	if testing.Short() {
		t.Skip("20 s of real time")
	}
	t.Parallel()
	srv := startServer(t, "-json")
	stop := make(chan struct{})
	var sent [junkKinds]int
	var junkDone sync.WaitGroup
	junkDone.Add(1)
	go func() {
		defer junkDone.Done()
		time.Sleep(2 * time.Second) // once the clients are in
		sent = sendJunk(t, srv.addr, stop)
	}()
	results := make([]clientResult, 4)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = runTestClient(srv, "-preset", "bad", "-seconds", "20", "-seed", fmt.Sprint(i+1))
		}()
	}
	wg.Wait()
	close(stop)
	junkDone.Wait()
	for i := range results {
		results[i].check(t, fmt.Sprintf("client %d", i))
		r := &results[i].report
		// A wrong guess of another player's input is mended by a refresh
		// when its relay comes (a visible correction only if the player's
		// own cube moved beyond the thresholds): one or the other.
		if r.Corrections+r.Refreshes == 0 || r.Mispredictions.Remote == 0 || r.Packets.UpLost == 0 {
			t.Errorf("client %d: on the bad preset with three others, %d corrections and %d refreshes, %d remote mispredictions, %d datagrams dropped up",
				i, r.Corrections, r.Refreshes, r.Mispredictions.Remote, r.Packets.UpLost)
		}
	}
	// Handshakes of noise end after 5 s; give them that before stopping.
	time.Sleep(6 * time.Second)
	m := srv.stop(t)
	t.Logf("server: %+v; junk sent %v", m, sent)
	if m.Players.Joined != 4 || m.Players.Left != 4 || m.Players.TimedOut != 0 || m.Players.Peak != 4 || len(m.PerPlayer) != 4 {
		t.Errorf("players %+v, want 4 joined and 4 left, none timed out", m.Players)
	}
	slots := map[int]bool{}
	for _, p := range m.PerPlayer {
		slots[p.Slot] = true
		if p.How != "closed by the client" || p.Applied < 20*64/2 || p.Rejected != 0 || p.TooFar != 0 || p.TooFast != 0 || p.OtherPlayer != 0 || (p.RecvDropped != 0 && m.Stalls == 0) {
			t.Errorf("player record %+v", p)
		}
	}
	if len(slots) != 4 {
		t.Errorf("four clients at once took slots %v", slots)
	}
	b := m.Bogus
	// An Initial of noise starts a handshake that fails, or, once 8 are in
	// flight, is asked for a Retry it never answers.
	if b.NotQUIC != uint64(sent[junkNotQUIC]) || b.UnknownConn < uint64(sent[junkShort]) || b.HandshakeFailed+b.Retried != uint64(sent[junkInitial]) {
		t.Errorf("bogus %+v; sent %v", b, sent)
	}
	total := 0
	for _, n := range sent {
		total += n
	}
	if b.Total+b.Retried < uint64(total) || sent[junkTruncated] == 0 || sent[junkVersion] == 0 {
		t.Errorf("%d bogus counted, %d datagrams of garbage sent (%v)", b.Total, total, sent)
	}
	// A server that stalled (the machine gave it no CPU for a while: a
	// loaded test machine) finds a stall's worth of datagrams waiting, and
	// may drop some of them; a server that kept its pace drops nothing of
	// clients at theirs.
	if m.Inputs.TooFast != 0 || m.Hellos.Refusals != 0 {
		t.Errorf("four well-behaved clients had datagrams refused: %+v %+v", m.Inputs, m.Hellos)
	}
	// What a stall explains: the datagrams four clients send (an input
	// and an ack a tick each) in the time the server lost, and a tick's
	// worth more for each stall.
	explained := uint64(m.LostSeconds*64*2*4) + uint64(m.Stalls)*2*4
	if dropped := m.Received.DroppedQueue + m.Received.OverBudget; dropped != 0 {
		if m.Stalls == 0 || dropped > explained {
			t.Errorf("four well-behaved clients had %d datagrams dropped by a server that stalled %d times (%.3f s lost; a stall explains %d at most): %+v",
				dropped, m.Stalls, m.LostSeconds, explained, m.Received)
		} else {
			t.Logf("the server stalled %d times (%.3f s lost: the machine is loaded) and dropped %+v", m.Stalls, m.LostSeconds, m.Received)
		}
	}
	if m.Inputs.Rejected != 0 || m.Ticks == 0 || m.Sent.Bytes == 0 || m.TickMicros.P99 <= 0 || m.TickMicros.Max < m.TickMicros.P99 {
		t.Errorf("summary %+v", m)
	}
}
