package predict

import (
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// TestBotAcksAndResends drives a bot with hand-made messages: it says
// Hello until welcomed, then sends every input since the newest message
// it took (acknowledged, in step), drops the older ones once a snapshot
// confirms them, jumps ahead at the start by the round trip and the
// buffer, and takes a snapshot from ticks it has not reached only as a
// sign that it is behind: it jumps ahead.
func TestBotAcksAndResends(t *testing.T) {
	_, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	dt := time.Second / 64
	b := NewBot(StateSync, sc, dt, 7)
	var sent [][]byte
	send := func(m []byte) { sent = append(sent, append([]byte(nil), m...)) }
	b.Step(1, send)
	if k, _ := wire.Kind(sent[0]); len(sent) != 1 || k != wire.KindHello {
		t.Fatalf("before the Welcome: %d messages, the first of kind %d; want one Hello", len(sent), k)
	}
	w := wire.AppendWelcome(nil, &wire.Welcome{Nonce: 7, Result: wire.Accepted, Player: 1, Tick: 100})
	if err := b.Receive(w); err != nil || !b.Joined() || b.Slot() != 1 || b.Body() != sc.Players[1] {
		t.Fatalf("Welcome: %v, joined %v, slot %d", err, b.Joined(), b.Slot())
	}
	sent = sent[:0]
	b.Step(game.Input(3), send)
	var m wire.Input
	if err := wire.DecodeInput(sent[0], &m); err != nil {
		t.Fatal(err)
	}
	// The start's jump: MinBuffer rounded up, with no round trip measured.
	if m.First != 100 || len(m.Inputs) != 3 || m.Ack != 100 || m.Flags&wire.AckValid == 0 || int(m.Player) != 1 {
		t.Fatalf("first input message %+v: want inputs from 100, acknowledging 100", m)
	}
	for range 5 {
		sent = sent[:0]
		b.Step(game.Input(5), send)
	}
	if err := wire.DecodeInput(sent[0], &m); err != nil || m.First != 100 || len(m.Inputs) != 8 || m.Inputs[7] != 5 {
		t.Fatalf("after 8 ticks without a server message: %+v, %v; want the 8 inputs since 100", m, err)
	}
	snap := func(tick uint32) []byte {
		var sw wire.SnapshotWriter
		sw.Begin(nil, &wire.Snapshot{Tick: tick, Base: tick, Heard: tick + 2, HeardInput: tick + 1})
		return sw.Finish(false, false)
	}
	if err := b.Receive(snap(105)); err != nil {
		t.Fatal(err)
	}
	if err := b.Receive(snap(120)); err != nil { // beyond tick 108: early
		t.Fatal(err)
	}
	sent = sent[:0]
	b.Step(game.Input(5), send)
	// The early snapshot said the bot is behind: it jumps past tick 120
	// by the buffer (ticks 108 to 121 with no key: too late anyway).
	if err := wire.DecodeInput(sent[0], &m); err != nil || m.First != 105 || m.Ack != 105 || len(m.Inputs) != 18 || m.Inputs[17] != 5 || m.Inputs[10] != 0 || b.Tick() != 123 {
		t.Fatalf("after snapshots of ticks 105 and 120: %+v, %v, next tick %d; want the inputs from 105 to 122, acknowledging 105", m, err, b.Tick())
	}
	if b.Stats.Early != 1 || b.Stats.StatesReceived != 1 || b.Sync.Samples != 1 {
		t.Errorf("stats %+v, %d time sync samples: want one early snapshot, one taken and sampled", b.Stats, b.Sync.Samples)
	}
}
