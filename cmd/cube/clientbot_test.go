package main

import (
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/cubelab/cube/internal/netclient"
	"github.com/cubelab/cube/internal/runctl"
)

// runTestBot runs `cube client -bot -json` against s with args and decodes
// its report.
func runTestBot(t *testing.T, s *testServer, args ...string) (netclient.BotReport, string, int) {
	t.Helper()
	var out, errs syncBuffer
	args = append([]string{"-bot", "-connect", s.addr, "-pin", s.pin, "-json"}, args...)
	code := runCommand("client", func(a []string, o, e io.Writer) error { return connect(a, o, e, runctl.Quiet()) }, args, &out, &errs)
	var r netclient.BotReport
	if code == 0 {
		if err := json.Unmarshal([]byte(out.String()), &r); err != nil {
			t.Errorf("bot's report %q: %v", out.String(), err)
		}
	}
	return r, out.String() + errs.String(), code
}

// TestABotBesideAClient: a bot joins a real server over loopback beside a
// full client, in both sync modes. The server counts it as a player whose
// inputs it applied, in the slot the bot reports; the bot's keys change
// (the full client mispredicts the other player's input); the full client
// still ends in sync; the bot's report says what it did and never claims
// to be in sync.
func TestABotBesideAClient(t *testing.T) {
	if testing.Short() {
		t.Skip("8 s of real time")
	}
	for _, mode := range []string{"state", "inputs"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t, "-json", "-max-players", "2", "-sync", mode)
			var wg sync.WaitGroup
			var client clientResult
			var bot netclient.BotReport
			var botOut string
			var botCode int
			wg.Add(2)
			go func() {
				defer wg.Done()
				client = runTestClient(srv, "-max-players", "2", "-sync", mode, "-preset", "average", "-seconds", "8", "-seed", "1")
			}()
			go func() {
				defer wg.Done()
				bot, botOut, botCode = runTestBot(t, srv, "-max-players", "2", "-sync", mode, "-preset", "average", "-seconds", "8", "-seed", "2")
			}()
			wg.Wait()
			client.check(t, "full client")
			if client.report.Mispredictions.Remote == 0 {
				t.Errorf("the full client never mispredicted the bot's input: %d remote mispredictions", client.report.Mispredictions.Remote)
			}
			if botCode != 0 {
				t.Fatalf("bot: exit %d: %s", botCode, botOut)
			}
			if strings.Contains(botOut, "in_sync") || !bot.Bot || !bot.Joined || bot.Sync != mode || bot.Scene != "arena" {
				t.Errorf("bot's report: %s", botOut)
			}
			// 8 s is 512 ticks at 64 Hz; time sync moves a few.
			if bot.Ticks < 480 || bot.Ticks > 544 || bot.InputsSent < bot.Ticks || bot.StatesReceived < 100 || bot.Bytes.Up == 0 || bot.Bytes.Down == 0 ||
				bot.Packets.UpSent == 0 || bot.Rejected != 0 || bot.TimeSyncJumps < 1 {
				t.Errorf("bot's counts: %s", botOut)
			}
			m := srv.stop(t)
			if m.Players.Joined != 2 || m.Players.Left != 2 || m.Players.TimedOut != 0 || len(m.PerPlayer) != 2 {
				t.Fatalf("server's players %+v, %d records: want the client and the bot, joined and left", m.Players, len(m.PerPlayer))
			}
			found := false
			for _, p := range m.PerPlayer {
				if p.Slot != bot.Slot {
					continue
				}
				found = true
				// Most of the bot's 512 ticks applied from its own inputs,
				// not repeated for want of them.
				if p.How != "closed by the client" || p.Applied < 400 || p.Repeated > p.Applied/4 || p.Rejected != 0 || p.TooFar != 0 || p.TooFast != 0 {
					t.Errorf("the server's record of the bot: %+v", p)
				}
			}
			if !found {
				t.Errorf("no record of the bot's slot %d in %+v", bot.Slot, m.PerPlayer)
			}
		})
	}
}

// TestBotRefusesWhatItCannotHonour: with -bot, the flags of a client that
// predicts, replays or compares are usage errors (exit 2) that name them,
// before anything is dialled.
func TestBotRefusesWhatItCannotHonour(t *testing.T) {
	pin := strings.Repeat("0", 64)
	base := []string{"client", "-bot", "-connect", "127.0.0.1:4242", "-pin", pin}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-full-replay"}, "none of -full-replay:"},
		{[]string{"-workers", "2"}, "none of -workers:"},
		{[]string{"-inject-nondeterminism", "5"}, "none of -inject-nondeterminism:"},
		{[]string{"-report-dir", "."}, "none of -report-dir:"},
		{[]string{"-allow-desync"}, "none of -allow-desync:"},
		{[]string{"-allow-desync", "-full-replay"}, "none of -allow-desync, -full-replay:"},
		{[]string{"-seconds", "-1"}, "want 0 to"},
	}
	for _, c := range cases {
		args := append(append([]string{}, base...), c.args...)
		code, out, errs := runCube(args...)
		oneLine(t, strings.Join(args, " "), code, 2, out, errs, c.want)
	}
	// Without a server to play against it is a usage error as a client's.
	code, out, errs := runCube("client", "-bot")
	oneLine(t, "client -bot", code, 2, out, errs, "no server given")
	// Its help says what it is.
	code, _, errs = runCube("client", "-h")
	if code != 0 || !strings.Contains(errs, "-bot") || !strings.Contains(errs, "keeps no world") || !strings.Contains(errs, "with -bot: 0 once") {
		t.Errorf("client -h: exit %d, %q", code, errs)
	}
}
