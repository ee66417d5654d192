package predict

import (
	"errors"
	"testing"

	"github.com/cubelab/cube/physics"
)

// emptyState is a well-formed state message for tick T with no bodies: 42
// bytes that once crashed the client.
func emptyState(T uint32) []byte {
	m := &StateMsg{Tick: T, State: physics.State{Tick: T}}
	m.Hash = m.State.Hash()
	return AppendState(nil, m)
}

func TestStatesThatDoNotFitAreRejected(t *testing.T) {
	c := newClient(0)
	for tk := uint32(0); tk != 40; tk++ {
		if _, err := c.Step(script(tk), nil); err != nil {
			t.Fatal(err)
		}
	}
	before := c.World().Hash()
	good := serverState(t, 0, 20, 1<<31)
	extra := serverState(t, 0, 20, 1<<31)
	extra.State.Bodies = append(extra.State.Bodies, extra.State.Bodies[0])
	extra.Hash = extra.State.Hash()
	badContact := serverState(t, 0, 20, 1<<31)
	badContact.State.Contacts = append(badContact.State.Contacts, physics.ContactState{A: 99, B: 0})
	badContact.Hash = badContact.State.Hash()
	mislabelled := serverState(t, 0, 20, 1<<31)
	mislabelled.State.Tick = 19
	notUnit := serverState(t, 0, 20, 1<<31)
	notUnit.State.Bodies[0].Rot.W = 3
	notUnit.Hash = notUnit.State.Hash()
	for _, c2 := range []struct {
		name string
		msg  []byte
		m    *StateMsg
		why  Reason
	}{
		{"no bodies", emptyState(20), nil, RejectShape},
		{"one body too many", AppendState(nil, extra), nil, RejectShape},
		{"contact with a body that does not exist", AppendState(nil, badContact), nil, RejectShape},
		{"orientation not unit length", AppendState(nil, notUnit), nil, RejectShape},
		{"state of another tick", nil, mislabelled, RejectShape},
		{"from the future", emptyState(41), nil, RejectTick},
		{"garbage", []byte{MsgState, version, 1, 2, 3}, nil, RejectMalformed},
		{"an input message", func() []byte { b, _ := AppendInput(nil, 0, nil); return b }(), nil, RejectMalformed},
	} {
		was := c.Stats.Rejected[c2.why]
		var err error
		if c2.m != nil {
			err = c.OnState(c2.m)
		} else {
			err = c.Receive(c2.msg)
		}
		if !errors.Is(err, ErrRejected) {
			t.Errorf("%s: got %v, want a rejection", c2.name, err)
		}
		if c.Stats.Rejected[c2.why] != was+1 {
			t.Errorf("%s: not counted as %s: %v", c2.name, c2.why, c.Stats.Rejected)
		}
		if c.World().Hash() != before || c.Stats.StatesReceived != 0 {
			t.Fatalf("%s: a rejected state changed the client", c2.name)
		}
	}
	// The client still takes a good state afterwards.
	if err := c.OnState(good); err != nil || c.Stats.StatesReceived != 1 {
		t.Fatalf("good state after the bad ones: %v", err)
	}
}

// TestGarbageDoesNotStopTheSession sends garbage both ways in the middle of
// a session: it is counted and the session ends in sync.
func TestGarbageDoesNotStopTheSession(t *testing.T) {
	cfg := presetConfig(t, "average")
	_, sum, err := Run(cfg, 10, func(s *Session) error {
		for i := 0; i < 5; i++ {
			at := s.tick * 64 * 4 // 4 s into the run, both directions
			s.Link.Down.Send(at, emptyState(1<<30))
			s.Link.Down.Send(at, []byte{MsgState})
			s.Link.Up.Send(at, []byte{MsgInput, version, 0, 0, 0, 0, 0, 0})
			s.Link.Up.Send(at, emptyState(3))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rejected != 20 {
		t.Fatalf("%d messages rejected, want 20", sum.Rejected)
	}
	if !sum.Final.InSync || sum.Mispredictions.Nondeterminism != 0 {
		t.Fatalf("after garbage: %+v, %+v", sum.Final, sum.Mispredictions)
	}
}
