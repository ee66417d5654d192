package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/window"

	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/session"
)

// windowLab parses the window's flags args as runWindow does and builds
// its in-process lab, with the autopilot, without opening a window.
func windowLab(t *testing.T, args ...string) (*lab.Lab, *windowFlags) {
	t.Helper()
	fs := cli.NewFlags("window", "", io.Discard)
	wf := registerWindowFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	wf.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { wf.set[f.Name] = true })
	cfg, err := wf.check()
	if err != nil {
		t.Fatal(err)
	}
	l, err := lab.New(cfg, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	return l, wf
}

// TestWindowBotFlagsCombine runs the window's lab, built from its flags,
// for ten seconds of session time with -bots and the flags it combines
// with: -scene (and -bodies), -preset and -sync. Without -full-bots the process holds
// one predicting world, client 0's (the session's worlds are the server's
// and that one); with it, one more per bot. Either way the scene, the link
// and the sync mode are the flags', and the server applies every player's
// own input on nearly every tick since it joined, few of them late.
func TestWindowBotFlagsCombine(t *testing.T) {
	cases := []struct {
		args          []string
		clients, bots int
		scene, preset string
		mode          predict.Mode
	}{
		{[]string{"-bots", "2"}, 1, 2, "arena", "good", predict.StateSync},
		{[]string{"-bots", "2", "-full-bots"}, 3, 0, "arena", "good", predict.StateSync},
		{[]string{"-bots", "2", "-scene", "cubes", "-preset", "average"}, 1, 2, "cubes", "average", predict.StateSync},
		{[]string{"-bots", "3", "-scene", "drop", "-bodies", "200", "-preset", "average", "-sync", "inputs"}, 1, 3, "drop", "average", predict.InputSync},
		{[]string{"-bots", "7", "-preset", "good", "-sync", "inputs"}, 1, 7, "arena", "good", predict.InputSync},
		{[]string{"-bots", "2", "-full-bots", "-preset", "average", "-sync", "inputs"}, 3, 0, "arena", "average", predict.InputSync},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			if testing.Short() && tc.scene == "cubes" {
				t.Skip("901 bodies for ten seconds")
			}
			l, _ := windowLab(t, tc.args...)
			s := l.Session()
			if len(s.Clients) != tc.clients || len(s.Bots) != tc.bots || s.Worlds != tc.clients+1 {
				t.Fatalf("%d clients, %d bots, %d worlds: want %d, %d and %d (the server's and one a client)",
					len(s.Clients), len(s.Bots), s.Worlds, tc.clients, tc.bots, tc.clients+1)
			}
			if sc, mode := s.Server.Scene().Name, s.Client.Config.Mode; sc != tc.scene || s.Config.Preset != tc.preset || mode != tc.mode {
				t.Fatalf("scene %s, preset %s, %v: want %s, %s, %v", sc, s.Config.Preset, mode, tc.scene, tc.preset, tc.mode)
			}
			for range 10 * 64 {
				if err := l.Frame(1.0 / 64); err != nil { // one tick a frame
					t.Fatal(err)
				}
			}
			for _, c := range s.Clients[1:] {
				checkApplied(t, s, "full bot", c.Slot())
			}
			for _, b := range s.Bots {
				if !b.Joined() {
					t.Fatal("a bot never joined")
				}
				checkApplied(t, s, "bot", b.Slot())
			}
			if s.Worlds != tc.clients+1 {
				t.Errorf("%d worlds after the run: want %d", s.Worlds, tc.clients+1)
			}
		})
	}
}

// checkApplied fails t unless the server applied the input of the player
// in slot p (a name for the message) on nearly every tick since it joined.
func checkApplied(t *testing.T, s *session.Session, name string, p int) {
	t.Helper()
	ps, ok := s.Server.PlayerStats(p)
	if !ok {
		t.Fatalf("%s in slot %d: the server has no player there", name, p)
	}
	ticks := ps.Applied + ps.Repeated
	t.Logf("%s in slot %d: applied %d, repeated %d, late %d", name, p, ps.Applied, ps.Repeated, ps.Late)
	if ticks < 400 || float64(ps.Repeated) > 0.05*float64(ticks) || float64(ps.Late) > 0.02*float64(ticks) {
		t.Errorf("%s in slot %d: the server applied %d of its inputs, repeated %d, %d came late", name, p, ps.Applied, ps.Repeated, ps.Late)
	}
}

// TestWindowBotsRecordReplays: the window's -record with remote bots holds
// every player's input as the server applied it, the bots' too, and
// replays to the same bits, in both sync modes.
func TestWindowBotsRecordReplays(t *testing.T) {
	for _, sync := range []string{"state", "inputs"} {
		path := filepath.Join(t.TempDir(), "bots.rec")
		l, wf := windowLab(t, "-bots", "2", "-preset", "average", "-sync", sync, "-record", path)
		end, err := window.Record(l, wf.record.path, wf.record.options(), io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		for range 6 * 64 {
			if err := l.Frame(1.0 / 64); err != nil {
				t.Fatal(err)
			}
		}
		end()
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := record.Read(f, 1<<30)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", sync, err)
		}
		keys := map[int]int{} // ticks with a key down, by slot
		for i := range rec.Len() {
			for p, in := range rec.Step(i).Inputs {
				if in != 0 {
					keys[p]++
				}
			}
		}
		for _, b := range l.Session().Bots {
			if keys[b.Slot()] < 64 {
				t.Errorf("%s: bot in slot %d: %d ticks with a key down in the record of %d steps", sync, b.Slot(), keys[b.Slot()], rec.Len())
			}
		}
		res, err := record.Replay(rec)
		if err != nil {
			t.Fatalf("%s: replay: %v", sync, err)
		}
		if res.Divergence != nil || res.Ticks < 5*64 {
			t.Errorf("%s: replay: %d ticks, divergence %+v", sync, res.Ticks, res.Divergence)
		}
	}
}

// TestWindowBotsStayRemoteAcrossResets: the keys that restart the session
// (N, the next scene; I, the sync mode) keep the bots remote players: the
// new session holds one predicting world again, its bots join, and the
// server applies their inputs on nearly every tick.
func TestWindowBotsStayRemoteAcrossResets(t *testing.T) {
	l, _ := windowLab(t, "-scene", "drop", "-bodies", "100", "-bots", "3", "-preset", "average")
	steps := []struct {
		act   lab.Action
		scene string
		mode  predict.Mode
	}{
		{lab.ActNone, "drop", predict.StateSync},
		{lab.ActNextScene, "arena", predict.StateSync},
		{lab.ActSyncMode, "arena", predict.InputSync},
	}
	for _, st := range steps {
		if err := l.Act(st.act); err != nil {
			t.Fatal(err)
		}
		s := l.Session()
		if sc, mode := s.Server.Scene().Name, s.Client.Config.Mode; sc != st.scene || mode != st.mode {
			t.Fatalf("scene %s, %v: want %s, %v", sc, mode, st.scene, st.mode)
		}
		if len(s.Clients) != 1 || len(s.Bots) != 3 || s.Worlds != 2 {
			t.Fatalf("%s, %v: %d clients, %d bots, %d worlds: want 1, 3 and 2", st.scene, st.mode, len(s.Clients), len(s.Bots), s.Worlds)
		}
		for range 10 * 64 {
			if err := l.Frame(1.0 / 64); err != nil {
				t.Fatal(err)
			}
		}
		for _, b := range s.Bots {
			if !b.Joined() {
				t.Fatalf("%s, %v: a bot never joined", st.scene, st.mode)
			}
			checkApplied(t, s, "bot", b.Slot())
		}
	}
}
