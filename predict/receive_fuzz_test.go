package predict

import (
	"errors"
	"testing"
	"time"
)

// FuzzClientReceive feeds arbitrary bytes to a client that has predicted 40
// ticks: whatever arrives, the client never panics, refuses what does not
// decode or fit with ErrRejected and changes nothing then, and otherwise
// ends with a world it can restore and keep predicting from.
func FuzzClientReceive(f *testing.F) {
	for _, T := range []uint32{0, 10, 39, 40} {
		f.Add(AppendState(nil, serverState(f, 0, T, 5)))
	}
	f.Add(emptyState(20))
	in, _ := AppendInput(nil, 0, inputsOf("abcabc"))
	f.Add(in)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		c := newClient(0)
		for tk := uint32(0); tk != 40; tk++ {
			if _, err := c.Step(script(tk), nil); err != nil {
				t.Fatal(err)
			}
		}
		before := c.World().Hash()
		err := c.Receive(b)
		if err != nil {
			if !errors.Is(err, ErrRejected) {
				t.Fatalf("peer bytes gave a non-rejection error: %v", err)
			}
			if c.World().Hash() != before {
				t.Fatal("a rejected message changed the world")
			}
		}
		if err := c.World().Check(c.World().State()); err != nil {
			t.Fatalf("the client's world is no longer valid: %v", err)
		}
		if _, err := c.Step(0, nil); err != nil {
			t.Fatalf("the client cannot predict after the message: %v", err)
		}
	})
}

// FuzzServerReceive feeds arbitrary bytes to a server: it never panics,
// refuses what does not decode with ErrRejected, never goes back in time,
// and keeps a world it can restore and snapshot.
func FuzzServerReceive(f *testing.F) {
	for _, s := range []string{"a", "abcabcabc", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"} {
		b, _ := AppendInput(nil, 0, inputsOf(s))
		f.Add(b, uint16(100))
		b, _ = AppendInput(nil, 30, inputsOf(s))
		f.Add(b, uint16(1000))
	}
	f.Add(emptyState(3), uint16(5))
	f.Fuzz(func(t *testing.T, b []byte, ms uint16) {
		s := NewServer(mustArena(), arenaScene, 0)
		now := time.Duration(ms) * time.Millisecond
		err := s.Receive(now, b)
		if err != nil && !errors.Is(err, ErrRejected) {
			t.Fatalf("peer bytes gave a non-rejection error: %v", err)
		}
		if After(s.Tick(), s.limit(now)+1) {
			t.Fatalf("server reached tick %d, beyond its limit %d at %v", s.Tick(), s.limit(now), now)
		}
		if err := s.World().Check(s.World().State()); err != nil {
			t.Fatalf("the server's world is no longer valid: %v", err)
		}
		var m StateMsg
		if err := DecodeState(s.Snapshot(nil, false), &m); err != nil {
			t.Fatalf("the server's snapshot does not decode: %v", err)
		}
	})
}
