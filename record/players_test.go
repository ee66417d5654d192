package record

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// goldenPlayersPath holds a record of three players in the pyramid scene,
// with a player leaving and coming back and nudges, made by an amd64 build;
// like session.rec it is replayed under other CPUs by the test command.
var goldenPlayersPath = filepath.Join("testdata", "players.rec")

// writePlayers records ticks ticks of three players pushing through the
// pyramid: each player follows the scene's script from its own point in
// it; player 2 leaves at tick 150 and comes back at 300; player 0 is
// nudged every 160 ticks.
func writePlayers(t testing.TB, ticks int) []byte {
	t.Helper()
	w, sc, err := game.Build("pyramid", physics.DefaultConfig(), game.Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	var init physics.State
	w.Save(&init)
	var buf bytes.Buffer
	wr, err := NewWriter(&buf, Header{Scene: sc.ID, FullEvery: 64, Meta: `{"players":3}`, Initial: init})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	ins := make([]game.Input, 3)
	for k := 0; k < ticks; k++ {
		tick := w.Tick()
		var events []game.Event
		switch {
		case k == 150:
			events = append(events, game.Event{Kind: game.Leave, Player: 2})
		case k == 300:
			events = append(events, game.Event{Kind: game.Join, Player: 2})
		case k%160 == 80:
			events = append(events, game.Event{Kind: game.Nudge, Player: 0, Impulse: physics.Vec3{X: 1.5, Y: 1, Z: -0.25}})
		}
		for _, e := range events {
			must(wr.Event(tick, e))
			must(sc.ApplyEvent(w, e))
		}
		for p := range ins {
			ins[p] = sc.Script(tick, p, w.Body(sc.Players[p]))
		}
		must(sc.Step(w, ins))
		must(wr.Tick(tick, ins, w.Hash(), w.State()))
	}
	must(wr.Close())
	return buf.Bytes()
}

// TestGoldenPlayersRecord: a record with several players, a leave and a
// join replays tick for tick, and the same session written here gives the
// committed bytes, on every CPU the test command runs it on.
func TestGoldenPlayersRecord(t *testing.T) {
	data := writePlayers(t, 480)
	if *update {
		if err := os.WriteFile(goldenPlayersPath, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(goldenPlayersPath)
	if err != nil {
		t.Fatal(err)
	}
	rec := readOK(t, golden)
	if rec.Header.Scene.Players != 3 || rec.Header.Scene.Name != "pyramid" {
		t.Fatalf("header scene %v", rec.Header.Scene)
	}
	var leaves, joins, nudges int
	for _, s := range rec.Unpack() {
		if s.Kind == StepTick && len(s.Inputs) != 3 {
			t.Fatalf("tick %d holds %d inputs, want 3", s.Tick, len(s.Inputs))
		}
		for _, e := range s.Events {
			switch e.Kind {
			case game.Leave:
				leaves++
			case game.Join:
				joins++
			case game.Nudge:
				nudges++
			}
		}
	}
	if leaves != 1 || joins != 1 || nudges != 3 {
		t.Fatalf("%d leaves, %d joins, %d nudges in the record; want 1, 1, 3", leaves, joins, nudges)
	}
	res, err := Replay(rec)
	if err != nil || res.Divergence != nil || res.Ticks != 480 {
		var out bytes.Buffer
		res.Report(&out)
		t.Fatalf("replaying %s: %v\n%s", goldenPlayersPath, err, out.String())
	}
	if !bytes.Equal(data, golden) {
		t.Fatalf("the same session written here differs from %s (%d bytes, here %d)", goldenPlayersPath, len(golden), len(data))
	}
}
