package netclient

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/transport"
)

// TestABotWithNoWelcomeEndsTheRun: against a server that never answers,
// a bot gives up after its join's wait with a NoStateError that BotFailure
// words in one line, instead of playing its seconds unjoined and exiting 0.
func TestABotWithNoWelcomeEndsTheRun(t *testing.T) {
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
	b := NewBot(predict.StateSync, sc, time.Second/64)
	p, _ := netsim.PresetByName("perfect")
	ctl := runctl.New(nil)
	defer ctl.Stop()
	start := time.Now()
	_, err = RunBot(BotConfig{Addr: "mem", Conn: conn, Bot: b, Scene: sc, World: w, Preset: p, Seed: 1, Seconds: 10, JoinWait: 300 * time.Millisecond}, ctl)
	var none *session.NoStateError
	if !errors.As(err, &none) || time.Since(start) > 8*time.Second {
		t.Fatalf("after %v: %v, want a NoStateError after 300 ms", time.Since(start), err)
	}
	if msg, ok := BotFailure(err, "mem", b, sc); !ok || !strings.HasPrefix(msg, "no state from the server at mem in 300ms: ") || strings.Contains(msg, "\n") {
		t.Errorf("BotFailure: %q, %v", msg, ok)
	}
	refused := &predict.RefusedError{Why: "it is full"}
	if msg, _ := BotFailure(refused, "mem", b, sc); !strings.Contains(msg, "refused this client: it is full") || !strings.Contains(msg, "state sync") {
		t.Errorf("BotFailure of a refusal: %q", msg)
	}
}

// TestBotReportClaimsNoSync: the readable report says what the bot counted
// and that sync was not checked, and never that it was in sync.
func TestBotReportClaimsNoSync(t *testing.T) {
	r := &BotReport{Bot: true, Server: "127.0.0.1:4242", Scene: "cubes", Sync: "inputs", Preset: "average", Seconds: 30, Joined: true, Slot: 2,
		Ticks: 1920, HeldTicks: 7, InputsSent: 5000, StatesReceived: 1900, Late: 3, TimeSyncJumps: 1}
	var out strings.Builder
	r.Print(&out)
	s := out.String()
	for _, want := range []string{"bot (no world), cubes, input sync", "slot 2", "1920 with an input, 7 held", "5000 inputs sent", "1900 states taken", "3 late inputs", "not checked"} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(strings.ToLower(s), "in sync") {
		t.Errorf("report claims sync:\n%s", s)
	}
	r.Joined, r.Slot = false, -1
	out.Reset()
	r.Print(&out)
	if !strings.Contains(out.String(), "never joined") {
		t.Errorf("an unjoined bot's report:\n%s", out.String())
	}
}
