package netclient

import (
	"errors"
	"fmt"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/transport"
)

// BotConfig is a bot's run against a server (cube client -bot): a player
// that keeps no world and sends a game.BlindPilot's keys, to load a server
// as a player does without a client's CPU.
type BotConfig struct {
	Addr    string           // the server's address, for the report
	Conn    transport.Client // dialled
	Bot     *predict.Bot
	Scene   *game.Scene    // the bot's scene, only read
	World   *physics.World // the scene as built: only its players' start spots are read
	Preset  netsim.Preset  // conditions added to this bot's own traffic
	Seed    uint64         // the pilot's
	Seconds float64        // of play; a bot has nothing to drain
	// JoinWait bounds the wait for the server's Welcome; 0 is
	// session.MaxJoinWait.
	JoinWait time.Duration
}

// RunBot plays the bot against the server for cfg.Seconds in real time, at
// its own pace (time sync scales its tick), until ctl stops it, and
// returns its report. A refusal or a lost server ends it as it is; no
// Welcome within the join's wait is a *session.NoStateError.
func RunBot(cfg BotConfig, ctl *runctl.Control) (*BotReport, error) {
	p := cfg.Preset
	if err := cfg.Conn.SetConditions(p.Conditions, p.Conditions); err != nil {
		return nil, err
	}
	b, conn := cfg.Bot, cfg.Conn
	wait := cfg.JoinWait
	if wait <= 0 {
		wait = session.MaxJoinWait
	}
	start := time.Now()
	pace := tick.Pacer{MaxLate: tick.MaxClientLate}
	tickDur := tick.Duration(cfg.World.Config().Dt)
	play := time.Duration(cfg.Seconds * float64(time.Second))
	var (
		at      time.Duration
		inbox   [][]byte
		pilot   *game.BlindPilot
		sendErr error
		late    uint64
		samples int
	)
	b.Clock = func() time.Duration { return at }
	send := func(m []byte) {
		if err := conn.Send(at, m); errors.Is(err, transport.ErrTooLarge) && sendErr == nil {
			sendErr = fmt.Errorf("bot: %w", err)
		}
	}
	for at < play {
		interval := time.Duration(float64(tickDur) / b.Sync.Speed)
		if d := pace.Wait(time.Since(start), interval); d > 0 {
			if ctl.Sleep(d) {
				break
			}
			continue
		}
		if ctl.Signalled() {
			break
		}
		at = pace.Turn(interval)
		inbox = conn.Receive(at, inbox[:0])
		for _, m := range inbox {
			if err := b.Receive(m); err != nil {
				return nil, err
			}
			if b.Sync.Samples != samples {
				samples = b.Sync.Samples
				if b.Sync.Last < 0 {
					late++
				}
			}
		}
		if err := conn.Err(); err != nil {
			return nil, err
		}
		in := game.Input(0)
		if b.Joined() {
			if pilot == nil {
				pilot = game.NewBlindPilot(cfg.Scene, cfg.Seed, cfg.World.Body(b.Body()).Pos)
			}
			in = pilot.Input()
		} else if at >= wait {
			return nil, &session.NoStateError{Wait: wait}
		}
		b.Step(in, send)
		if sendErr != nil {
			return nil, sendErr
		}
	}
	return newBotReport(cfg, at, late, ctl.Stopped() != nil), nil
}
