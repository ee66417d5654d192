package lab

import (
	"errors"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/transport"
)

// TestTheWindowGivesUpAServerThatNeverAnswers: a window connected to a
// server that never answers its Hello is lost with a NoStateError once the
// join's wait has passed on its clock, not joining forever; until then it
// is still joining.
func TestTheWindowGivesUpAServerThatNeverAnswers(t *testing.T) {
	srv, err := transport.NewMemServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := srv.Connect(1)
	if err != nil {
		t.Fatal(err)
	}
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := predict.NewClient(predict.DefaultClientConfig(), w, sc, 1)
	p, _ := netsim.PresetByName("perfect")
	r, err := Connect("mem", conn, c, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	frames := 0
	for r.Lost() == nil && frames < 2*60*60 { // two minutes of 60 Hz frames
		if err := r.Run(1.0/60, func() game.Input { return 0 }, func() {}); err != nil {
			t.Fatal(err)
		}
		frames++
	}
	var none *session.NoStateError
	if !errors.As(r.Lost(), &none) || none.Wait != session.MaxJoinWait {
		t.Fatalf("after %d frames: lost %v, want a NoStateError", frames, r.Lost())
	}
	if at := r.Now(); at < session.MaxJoinWait || at > session.MaxJoinWait+session.MaxJoinWait/100 {
		t.Errorf("gave up at %v, want %v", at, session.MaxJoinWait)
	}
}
