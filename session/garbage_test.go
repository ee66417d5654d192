package session

import (
	"testing"
	"time"

	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/predict"
)

// TestGarbageDoesNotStopTheSession sends garbage both ways in the middle of
// a session, in both modes: it is counted and the session ends in sync.
func TestGarbageDoesNotStopTheSession(t *testing.T) {
	for _, mode := range []predict.Mode{predict.StateSync, predict.InputSync} {
		cfg := presetConfig(t, "average")
		cfg.Client.Mode = mode
		sent := false
		_, sum, err := Run(cfg, 10, func(s *Session) error {
			s.Poll = func(s *Session) bool {
				if s.Now() >= 4*time.Second && !sent { // 4 s into the run
					sent = true
					for i := 0; i < 5; i++ {
						peer := s.Conns[0].Peer()
						for _, err := range []error{
							s.Net.Send(s.Now(), peer, []byte{wire.KindSnapshot, wire.Version, 9}),
							s.Net.Send(s.Now(), peer, []byte{wire.KindRelay}),
							s.Conns[0].Send(s.Now(), []byte{wire.KindInput, wire.Version, 0, 0, 0, 0, 0, 0}),
							s.Conns[0].Send(s.Now(), []byte{wire.KindHave, wire.Version}),
						} {
							if err != nil {
								t.Errorf("sending garbage: %v", err)
							}
						}
					}
				}
				return false
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Rejected != 20 {
			t.Fatalf("%v: %d messages rejected, want 20", mode, sum.Rejected)
		}
		if !sum.Final.InSync || sum.Mispredictions.Nondeterminism != 0 {
			t.Fatalf("%v: after garbage: %+v, %+v", mode, sum.Final, sum.Mispredictions)
		}
	}
}
