package wire

import (
	"testing"
)

// Decoding into a destination that has been used once allocates nothing,
// for every message of the corpus (Hello with the same scene name).
func TestDecodeDoesNotAllocate(t *testing.T) {
	var (
		hello    Hello
		welcome  Welcome
		input    Input
		snapshot Snapshot
		relay    Relay
		fragment Fragment
		have     Have
		hashes   RepairHashes
		want     RepairWant
	)
	for _, m := range validMessages() {
		var decode func() error
		switch m.b[0] {
		case KindHello:
			decode = func() error { return DecodeHello(m.b, &hello) }
		case KindWelcome:
			decode = func() error { return DecodeWelcome(m.b, &welcome) }
		case KindInput:
			decode = func() error { return DecodeInput(m.b, &input) }
		case KindSnapshot:
			decode = func() error { return DecodeSnapshot(m.b, &snapshot, corpusBase) }
		case KindRelay:
			decode = func() error { return DecodeRelay(m.b, &relay) }
		case KindFragment:
			decode = func() error { return DecodeFragment(m.b, &fragment) }
		case KindHave:
			decode = func() error { return DecodeHave(m.b, &have) }
		case KindRepairHashes:
			decode = func() error { return DecodeRepairHashes(m.b, &hashes) }
		case KindRepairWant:
			decode = func() error { return DecodeRepairWant(m.b, &want) }
		}
		if err := decode(); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if n := testing.AllocsPerRun(50, func() {
			if err := decode(); err != nil {
				panic(err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations a decode", m.name, n)
		}
	}
}
