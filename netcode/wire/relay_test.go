package wire

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// randRelay returns a random relay of players and count ticks: runs of
// inputs, skip runs that neither overlap nor touch (the first sometimes at
// the start, the last sometimes at the end), events in tick order.
func randRelay(r *rand.Rand, players, count int) *Relay {
	m := &Relay{First: r.Uint32(), Count: count, Hash: r.Uint64(), Heard: r.Uint32(), HeardInput: r.Uint32(), Players: players}
	for p := 0; p < players; p++ {
		m.Inputs = append(m.Inputs, randInputs(r, count)...)
	}
	for off := r.IntN(3) * r.IntN(30); off < count && r.IntN(8) != 0; {
		l := 1 + r.IntN(1+r.IntN(200))
		if r.IntN(6) == 0 {
			l = count - off // to the end
		}
		l = min(l, count-off)
		m.Skips = append(m.Skips, Span{uint32(off), uint32(l)})
		off += l + 1 + r.IntN(1+r.IntN(300))
	}
	offs := make([]int, r.IntN(1+r.IntN(40)))
	for i := range offs {
		offs[i] = r.IntN(count)
		if r.IntN(5) == 0 {
			offs[i] = count - 1
		}
	}
	slices.Sort(offs)
	for _, off := range offs {
		e := game.Event{Kind: game.Nudge, Player: uint8(r.IntN(players)),
			Impulse: physics.Vec3{X: randFloat(r), Y: randFloat(r), Z: randFloat(r)}}
		m.Events = append(m.Events, TickEvent{uint32(off), e})
	}
	return m
}

// cutRelay returns what m says of its first n ticks, as DecodeRelay
// returns it.
func cutRelay(m *Relay, n int) *Relay {
	c := &Relay{First: m.First, Count: n, Hash: m.Hash, Heard: m.Heard, HeardInput: m.HeardInput, Players: m.Players, Skips: []Span{}, Events: []TickEvent{}}
	for p := 0; p < m.Players; p++ {
		c.Inputs = append(c.Inputs, m.Inputs[p*m.Count:p*m.Count+n]...)
	}
	for _, s := range m.Skips {
		if int(s.Offset) < n {
			c.Skips = append(c.Skips, Span{s.Offset, min(s.Len, uint32(n)-s.Offset)})
		}
	}
	for _, e := range m.Events {
		if int(e.Offset) < n {
			c.Events = append(c.Events, e)
		}
	}
	return c
}

// relayDiff returns how a and b differ ("" if they hold the same bits).
func relayDiff(a, b *Relay) string {
	switch {
	case a.First != b.First || a.Count != b.Count || a.Hash != b.Hash || a.Heard != b.Heard || a.Players != b.Players:
		return "header"
	case !slices.Equal(a.Inputs, b.Inputs):
		return "inputs"
	case !slices.Equal(a.Skips, b.Skips):
		return "skips"
	case len(a.Events) != len(b.Events):
		return "event count"
	}
	for i := range a.Events {
		x, y := a.Events[i], b.Events[i]
		if x.Offset != y.Offset || x.Event.Kind != y.Event.Kind || x.Event.Player != y.Event.Player ||
			math.Float64bits(x.Event.Impulse.X) != math.Float64bits(y.Event.Impulse.X) ||
			math.Float64bits(x.Event.Impulse.Y) != math.Float64bits(y.Event.Impulse.Y) ||
			math.Float64bits(x.Event.Impulse.Z) != math.Float64bits(y.Event.Impulse.Z) {
			return "event"
		}
	}
	return ""
}

func TestRelayRoundTrip(t *testing.T) {
	r := newRand(21)
	cases := []*Relay{corpusRelay()}
	for _, players := range []int{1, 2, game.MaxPlayers} {
		for _, count := range []int{1, 2, 64, 300, MaxTicks} {
			for k := 0; k < 3; k++ {
				cases = append(cases, randRelay(r, players, count))
			}
		}
	}
	// Edge values: ticks 0 and 2³²-1, a skip of every tick, events on the
	// last tick, nudges of -0 and of the smallest and largest magnitudes.
	edge := &Relay{First: math.MaxUint32, Count: 5, Hash: math.MaxUint64, Heard: math.MaxUint32, Players: game.MaxPlayers,
		Inputs: randInputs(r, 5*game.MaxPlayers), Skips: []Span{{0, 5}}}
	for p := uint8(0); p < game.MaxPlayers; p++ {
		for _, x := range []float64{negZero, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64} {
			edge.Events = append(edge.Events, TickEvent{4, game.Event{Kind: game.Nudge, Player: p, Impulse: physics.Vec3{X: x, Y: -x, Z: x}}})
		}
	}
	cases = append(cases, edge, &Relay{First: 0, Count: 3, Players: 1, Inputs: []game.Input{1, 2, 3}, Skips: []Span{{2, 1}}})
	var got Relay
	for i, m := range cases {
		n := FitRelay(m)
		if n == 0 {
			t.Fatalf("case %d: not one tick fits", i)
		}
		for _, count := range []int{1, n / 2, n} {
			if count == 0 {
				continue
			}
			b := AppendRelay([]byte("x"), m, count)[1:]
			if want := specRelay(m, count); !bytes.Equal(b, want) {
				t.Fatalf("case %d, %d ticks: encoded\n%x\nwant (doc.go)\n%x", i, count, b, want)
			}
			if err := DecodeRelay(b, &got); err != nil {
				t.Fatalf("case %d, %d ticks: %v", i, count, err)
			}
			if d := relayDiff(&got, cutRelay(m, count)); d != "" {
				t.Errorf("case %d, %d ticks: decoded relay differs: %s", i, count, d)
			}
		}
	}
}

// RelaySize agrees with what AppendRelay writes for every count, and
// FitRelay returns the largest count that fits.
func TestRelaySizeAndFit(t *testing.T) {
	r := newRand(22)
	for k := 0; k < 40; k++ {
		m := randRelay(r, 1+r.IntN(game.MaxPlayers), 1+r.IntN(MaxTicks))
		if k%4 == 0 { // many nudges: a few ticks fill the message
			m.Events = m.Events[:0]
			for off := 0; off < m.Count; off++ {
				for e := r.IntN(4); e > 0; e-- {
					m.Events = append(m.Events, TickEvent{uint32(off), game.Event{Kind: game.Nudge, Player: 0, Impulse: physics.Vec3{X: 1}}})
				}
			}
		}
		for n := 1; n <= m.Count; n++ {
			if got, want := RelaySize(m, n), len(AppendRelay(nil, m, n)); got != want {
				t.Fatalf("relay %d, %d ticks: RelaySize %d, AppendRelay %d bytes", k, n, got, want)
			}
		}
		n := FitRelay(m)
		if n > 0 && len(AppendRelay(nil, m, n)) > MaxMessage {
			t.Errorf("relay %d: FitRelay %d: %d bytes", k, n, len(AppendRelay(nil, m, n)))
		}
		if n < m.Count && len(AppendRelay(nil, m, n+1)) <= MaxMessage {
			t.Errorf("relay %d: FitRelay %d, but %d ticks fit", k, n, n+1)
		}
	}
	// Not one tick fits: 50 nudges at the first tick.
	m := &Relay{Count: 2, Players: 1, Inputs: []game.Input{0, 0}}
	for k := 0; k < 50; k++ {
		m.Events = append(m.Events, TickEvent{0, game.Event{Kind: game.Nudge}})
	}
	if n := FitRelay(m); n != 0 {
		t.Errorf("FitRelay of a relay whose first tick does not fit: %d", n)
	}
}

func TestRelayInvalid(t *testing.T) {
	// head starts a relay of count ticks for players players, each holding
	// input 0 throughout.
	head := func(count uint64, players int) spec {
		s := msg(KindRelay).u32(7).uv(count).u64(1).zz(2).zz(-1).u8(byte(players))
		for p := 0; p < players; p++ {
			s = s.run(0, int(count))
		}
		return s
	}
	nudge := func(s spec, off uint64, player byte, x, y, z float64) spec {
		return s.uv(off).u8(byte(game.Nudge), player).f64(x).f64(y).f64(z)
	}
	ok := head(20, 2).uv(2).uv(0).uv(3).uv(1).uv(16).uv(1)
	ok = nudge(ok, 0, 0, 1, 2, 3)
	for _, c := range []struct {
		name string
		b    []byte
		err  error
	}{
		{"valid", nudge(head(20, 2).uv(2).uv(0).uv(3).uv(1).uv(16).uv(1), 19, 1, 1, 2, 3), nil},
		{"0 ticks", msg(KindRelay).u32(7).uv(0).u64(1).zz(2).zz(-1).u8(1).uv(0).uv(0), ErrInvalid},
		{"1025 ticks", head(MaxTicks+1, 1).uv(0).uv(0), ErrInvalid},
		{"2³² ticks", msg(KindRelay).u32(7).uv(1 << 32).u64(1).zz(2).zz(-1).u8(1), ErrInvalid},
		{"0 players", head(3, 0).uv(0).uv(0), ErrInvalid},
		{"9 players", head(3, game.MaxPlayers+1).uv(0).uv(0), ErrInvalid},
		{"runs past the count", msg(KindRelay).u32(7).uv(3).u64(1).zz(2).zz(-1).u8(1).run(0, 4).uv(0).uv(0), ErrInvalid},
		{"second player's runs past the count", msg(KindRelay).u32(7).uv(3).u64(1).zz(2).zz(-1).u8(2).run(0, 3).run(1, 2).run(2, 2).uv(0).uv(0), ErrInvalid},
		{"two runs of the same input", msg(KindRelay).u32(7).uv(3).u64(1).zz(2).zz(-1).u8(1).run(1, 2).run(1, 1).uv(0).uv(0), ErrInvalid},
		{"more skip runs than ticks", head(3, 1).uv(4).uv(0).uv(1).uv(1).uv(1).uv(1).uv(1).uv(1).uv(1).uv(0), ErrInvalid},
		{"a skip run of 0 ticks", head(3, 1).uv(1).uv(1).uv(0).uv(0), ErrInvalid},
		{"a skip run past the end", head(3, 1).uv(1).uv(2).uv(2).uv(0), ErrInvalid},
		{"a skip run from past the end", head(3, 1).uv(1).uv(3).uv(1).uv(0), ErrInvalid},
		{"skip runs that touch", head(20, 1).uv(2).uv(0).uv(3).uv(0).uv(2).uv(0), ErrInvalid},
		// The second offset wraps end+offset around 2³² back to 5, into the
		// first run [10, 15).
		{"skip runs that overlap (offset wraps)", head(20, 1).uv(2).uv(10).uv(5).uv(1<<32 - 10).uv(2).uv(0), ErrInvalid},
		{"a skip offset of 2³²-1", head(20, 1).uv(1).uv(math.MaxUint32).uv(1).uv(0), ErrInvalid},
		{"a skip length of 2³²-1", head(20, 1).uv(1).uv(1).uv(math.MaxUint32).uv(0), ErrInvalid},
		{"an event past the last tick", nudge(head(20, 1).uv(0).uv(1), 20, 0, 1, 2, 3), ErrInvalid},
		{"an event at offset 2³¹", nudge(head(20, 1).uv(0).uv(1), 1<<31, 0, 1, 2, 3), ErrInvalid},
		{"an event at offset 2³²-1", nudge(head(20, 1).uv(0).uv(1), math.MaxUint32, 0, 1, 2, 3), ErrInvalid},
		{"events out of order", nudge(nudge(head(20, 1).uv(0).uv(2), 5, 0, 1, 2, 3), 4, 0, 1, 2, 3), ErrInvalid},
		{"an event for player 2 of 2", nudge(head(20, 2).uv(0).uv(1), 0, 2, 1, 2, 3), ErrInvalid},
		{"an event for player 255", nudge(head(20, 2).uv(0).uv(1), 0, 255, 1, 2, 3), ErrInvalid},
		{"an event of kind 0", head(20, 1).uv(0).uv(1).uv(0).u8(0, 0), ErrInvalid},
		{"an event of kind 4", head(20, 1).uv(0).uv(1).uv(0).u8(4, 0), ErrInvalid},
		{"a nudge of NaN", nudge(head(20, 1).uv(0).uv(1), 0, 0, 1, math.NaN(), 3), ErrInvalid},
		{"a nudge of +Inf", nudge(head(20, 1).uv(0).uv(1), 0, 0, math.Inf(1), 0, 0), ErrInvalid},
		{"a nudge of -Inf", nudge(head(20, 1).uv(0).uv(1), 0, 0, 0, 0, math.Inf(-1)), ErrInvalid},
		{"a nudge cut", head(20, 1).uv(0).uv(1).uv(0).u8(1, 0).f64(1), ErrShort},
		{"more events than bytes", head(20, 1).uv(0).uv(1000).uv(0).u8(1, 0), ErrShort},
		{"a trailing byte", ok.u8(0), ErrInvalid},
	} {
		m := Relay{Count: 99}
		err := DecodeRelay(c.b, &m)
		switch {
		case c.err == nil && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != nil && !errors.Is(err, c.err):
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		case c.err != nil && m.Count != 99:
			t.Errorf("%s: the destination was changed", c.name)
		}
	}
}
