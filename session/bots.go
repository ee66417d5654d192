package session

import (
	"errors"
	"fmt"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/splitmix"
	"github.com/cubelab/cube/transport"
)

// botEnd is what a session keeps of one bot besides the bot itself: its
// turn's time (its clock), its inbox and a datagram it could never send.
type botEnd struct {
	now     time.Duration
	inbox   [][]byte
	sendErr error
}

// addBots connects Config.Bots remote players without a world to the
// server, each over its own link, after the clients (so that the clients
// get the same links and slots with bots as without). sc is the server's
// scene: a bot only reads it.
func (s *Session) addBots(sc *game.Scene, seed *uint64) error {
	for range s.Config.Bots {
		b := predict.NewBot(s.Config.Client.Mode, sc, s.tick, splitmix.Next(seed))
		conn, err := s.Net.Connect(splitmix.Next(seed))
		if err != nil {
			return err
		}
		if err := conn.SetConditions(s.Config.Conditions, s.Config.Conditions); err != nil {
			return err
		}
		end := &botEnd{}
		b.Clock = func() time.Duration { return end.now }
		s.Bots, s.BotConns = append(s.Bots, b), append(s.BotConns, conn)
		s.botEnds = append(s.botEnds, end)
		s.clientNext = append(s.clientNext, 0)
	}
	return nil
}

// botTurn is one tick of bot k at time at: what arrived, then its input in.
// Like clientTurn, it touches the bot's own objects only.
func (s *Session) botTurn(k int, at time.Duration, in game.Input) error {
	b, conn, end := s.Bots[k], s.BotConns[k], s.botEnds[k]
	end.now = at
	end.inbox = conn.Receive(at, end.inbox[:0])
	for _, m := range end.inbox {
		if err := b.Receive(m); err != nil {
			return fmt.Errorf("bot %d: %w", k, err)
		}
	}
	if err := conn.Err(); err != nil {
		return fmt.Errorf("bot %d: %w", k, err)
	}
	b.Step(in, func(m []byte) {
		if err := conn.Send(at, m); errors.Is(err, transport.ErrTooLarge) && end.sendErr == nil {
			end.sendErr = fmt.Errorf("bot %d: %w", k, err)
		}
	})
	s.clientNext[len(s.Clients)+k] += time.Duration(float64(s.tick) / b.Sync.Speed)
	return end.sendErr
}

// BotCube returns the server's state of bot k's cube, which its autopilot
// steers by (a bot keeps no world of its own; the server's state is the
// one a client turn may read, since the server never runs during one),
// and false before the bot has joined.
func (s *Session) BotCube(k int) (physics.BodyState, bool) {
	b := s.Bots[k]
	if !b.Joined() {
		return physics.BodyState{}, false
	}
	return s.Server.World().Body(b.Body()), true
}

// BotInput returns bot k's input as autopilot a drives it by the server's
// state of its cube: no key before it has joined.
func (s *Session) BotInput(k int, a *game.Autopilot) game.Input {
	b, ok := s.BotCube(k)
	if !ok {
		return 0
	}
	return a.Input(b)
}

// turns returns how many turn takers the session schedules: its clients,
// then its bots.
func (s *Session) turns() int { return len(s.clientNext) }
