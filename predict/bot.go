package predict

import (
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
)

// Bot is a remote player that keeps no world: it joins as a Client does,
// runs ahead of the server by time sync as a Client does, and sends its
// inputs (every input the server may lack) over the same link, but it
// predicts nothing and takes of the server's messages only their ticks and
// what they say of its input buffer. It is how a window shows other
// players without simulating their clients: on a real network they run on
// other machines. It says it holds every state it is sent (its acks name
// the newest message, in step), so that the server encodes its snapshots
// against a recent view and sends it no transfer.
type Bot struct {
	// Sync is where the bot stands against the server's clock.
	Sync TimeSync
	// Clock, when set, gives the bot's time for the round trip that the
	// Hello measures.
	Clock func() time.Duration
	// Stats counts what the bot did.
	Stats BotStats

	mode    Mode
	scene   *game.Scene
	tickDur time.Duration
	nonce   uint64

	joined  bool
	player  int
	helloIn uint32
	next    uint32 // the next tick the bot sends an input for
	first   uint32 // its first tick
	acked   uint32 // the newest server message taken: every input before it is the server's
	hold    int    // ticks still to hold, time sync's jump back
	ins     [tick.RingSize]game.Input

	welc  wire.Welcome
	relay wire.Relay
	out   []byte
	win   []game.Input
}

// BotStats counts what a Bot did.
type BotStats struct {
	Ticks          uint64 // ticks it sent an input for
	HeldTicks      uint64 // ticks it sent none: joining, a jump back, or a ring full of unconfirmed inputs
	StatesReceived uint64 // snapshots and relays taken
	Early          uint64 // server messages about ticks it had not reached, ignored
	Ignored        uint64 // messages a bot has no use for (fragments, repairs, duplicates)
	Rejected       uint64 // messages that did not decode
	InputsSent     uint64
	BytesSent      uint64
}

// NewBot returns a bot for scene sc, whose server runs in mode, with ticks
// of tickDur; nonce tells its Hello apart from an earlier one. sc is only
// read: it may be the server's.
func NewBot(mode Mode, sc *game.Scene, tickDur time.Duration, nonce uint64) *Bot {
	b := &Bot{mode: mode, scene: sc, tickDur: tickDur, nonce: nonce}
	b.Sync.On, b.Sync.Speed = true, 1
	return b
}

// Mode returns the sync mode of the bot's server.
func (b *Bot) Mode() Mode { return b.mode }

// Joined reports whether the server accepted the bot.
func (b *Bot) Joined() bool { return b.joined }

// Slot returns the bot's player slot (valid once joined).
func (b *Bot) Slot() int { return b.player }

// Body returns the body index of the bot's cube (valid once joined).
func (b *Bot) Body() int { return b.scene.Players[b.player] }

// Tick returns the next tick the bot will send an input for.
func (b *Bot) Tick() uint32 { return b.next }

// Step sends the bot's input in for its next tick, with the inputs the
// server may still lack (a Hello until it is accepted). A time-sync jump
// ahead sends no key for the ticks jumped over; one back holds. send must
// not keep its argument.
func (b *Bot) Step(in game.Input, send func([]byte)) {
	if !b.joined {
		b.Stats.HeldTicks++
		if b.helloIn == 0 {
			b.out = wire.AppendHello(b.out[:0], &wire.Hello{Nonce: b.nonce, Echo: b.clockMs(), Mode: uint8(b.mode), Scene: b.scene.ID})
			send(b.out)
			b.helloIn = helloEvery
		}
		b.helloIn--
		return
	}
	ticks, held := b.Sync.turnTicks(b.next, &b.hold, true)
	if held {
		b.Stats.HeldTicks++
	}
	for ; ticks > 0; ticks-- {
		if b.next-b.acked >= tick.RingSize-1 {
			b.Stats.HeldTicks++ // the server has confirmed nothing for a whole ring
			break
		}
		b.ins[b.next%tick.RingSize] = in
		if ticks > 1 {
			b.ins[b.next%tick.RingSize] = 0 // too late for the server anyway
		}
		b.next++
		b.Stats.Ticks++
	}
	if b.next == b.first {
		return
	}
	from := b.acked
	if !tick.After(b.next, from) {
		from = b.next - 1
	}
	b.win = b.win[:0]
	for t := from; t != b.next; t++ {
		b.win = append(b.win, b.ins[t%tick.RingSize])
	}
	m := wire.Input{Player: uint8(b.player), Flags: wire.AckValid | wire.AckInSync, First: from, Inputs: b.win, Ack: b.acked, Base: b.acked}
	if tick.After(b.acked, from) {
		m.Ack, m.Base = from, from // the message's ack is at or before its first input
	}
	var first uint32
	b.out, first = wire.AppendInput(b.out[:0], &m)
	send(b.out)
	b.Stats.InputsSent += uint64(b.next - first)
	b.Stats.BytesSent += uint64(len(b.out))
}

// Receive takes one message from the server: the Welcome, and of
// snapshots and relays their ticks and the input buffer they report.
// What does not decode is counted and dropped; a refusal is an error.
func (b *Bot) Receive(msg []byte) error {
	k, err := wire.Kind(msg)
	if err != nil {
		b.Stats.Rejected++
		return nil
	}
	switch k {
	case wire.KindWelcome:
		return b.onWelcome(msg)
	case wire.KindSnapshot:
		if !b.joined || b.mode != StateSync {
			b.Stats.Ignored++
			return nil
		}
		t, heard, heardInput, err := wire.SnapshotHead(msg)
		if err != nil {
			b.Stats.Rejected++
			return nil
		}
		b.took(t, heard, heardInput, true)
	case wire.KindRelay:
		if !b.joined {
			b.Stats.Ignored++
			return nil
		}
		if err := wire.DecodeRelay(msg, &b.relay); err != nil {
			b.Stats.Rejected++
			return nil
		}
		m := &b.relay
		end := m.First + uint32(m.Count)
		// In state sync a relay tells the others' inputs: the snapshots
		// are what the bot acknowledges.
		b.took(end, m.Heard, m.HeardInput, b.mode == InputSync && !tick.After(m.First, b.acked))
	default:
		b.Stats.Ignored++
	}
	return nil
}

// took takes a server message labelled t that reports the input buffer
// (heard, heardInput); ack says whether the bot acknowledges t.
func (b *Bot) took(t, heard, heardInput uint32, ack bool) {
	if tick.After(t, b.next) {
		// Before time sync has put the bot ahead of the server.
		b.Stats.Early++
		if t-b.next < tick.RingSize {
			b.Sync.behind(t-b.next, b.tickDur)
		}
		return
	}
	b.Stats.StatesReceived++
	b.Sync.sample(heard, t, heardInput)
	if ack && tick.After(t, b.acked) {
		b.acked = t
	}
}

// onWelcome starts the bot at the Welcome's tick. A Welcome that announces
// a transfer names its tick: the bot acknowledges it at once, which ends
// the transfer, since it keeps no state to put it in.
func (b *Bot) onWelcome(msg []byte) error {
	if err := wire.DecodeWelcome(msg, &b.welc); err != nil {
		b.Stats.Rejected++
		return nil
	}
	m := &b.welc
	if m.Nonce != b.nonce || b.joined {
		b.Stats.Ignored++
		return nil
	}
	if m.Result != wire.Accepted {
		return &RefusedError{Why: refusal(m.Result)}
	}
	if int(m.Player) >= len(b.scene.Players) {
		b.Stats.Rejected++
		return nil
	}
	b.joined, b.player = true, int(m.Player)
	b.next, b.first, b.acked = m.Tick, m.Tick, m.Tick
	var rtt time.Duration
	if b.Clock != nil {
		rtt = time.Duration(b.clockMs()-m.Echo) * time.Millisecond
	}
	b.Sync.start(rtt, b.tickDur, 0)
	return nil
}

// clockMs returns the bot's clock in milliseconds, for the Hello's echo.
func (b *Bot) clockMs() uint32 {
	if b.Clock == nil {
		return 0
	}
	return uint32(b.Clock() / time.Millisecond)
}
