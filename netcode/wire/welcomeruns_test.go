package wire

import (
	"errors"
	"testing"
)

// TestARefusalSaysWhatTheServerRuns: a refusal's ServerRuns round-trips,
// has the length WelcomeLen says, and is refused out of range or on an
// accepting Welcome.
func TestARefusalSaysWhatTheServerRuns(t *testing.T) {
	runs := ServerRuns{Mode: 1, Scene: "drop", Players: 3, Bodies: 500, Quantize: true}
	m := Welcome{Nonce: 9, Echo: 7, Result: OtherScene, Runs: &runs}
	b := AppendWelcome(nil, &m)
	if len(b) != WelcomeLen(&m) {
		t.Errorf("%d bytes, WelcomeLen %d", len(b), WelcomeLen(&m))
	}
	var got Welcome
	if err := DecodeWelcome(b, &got); err != nil || got.Runs == nil || *got.Runs != runs || got.Result != OtherScene || got.Nonce != 9 {
		t.Fatalf("decoded %+v (%+v), %v", got, got.Runs, err)
	}
	if s := got.Runs.String(); s != "drop (3 players, 500 bodies, quantized) in input sync" {
		t.Errorf("%q", s)
	}
	// An accepting Welcome carries none, even when given one.
	ok := Welcome{Result: Accepted, Runs: &runs}
	if len(AppendWelcome(nil, &ok)) != WelcomeLen(&ok) || WelcomeLen(&ok) != welcomeLen {
		t.Error("an accepting Welcome carries what the server runs")
	}
	bad := func(mutate func(b []byte)) error {
		c := append([]byte(nil), b...)
		mutate(c)
		return DecodeWelcome(c, &Welcome{})
	}
	flagsAt := welcomeLen - 1
	for name, mutate := range map[string]func([]byte){
		"mode 2":         func(c []byte) { c[flagsAt+1] = 2 },
		"name of 0":      func(c []byte) { c[flagsAt+2] = 0 },
		"accepted":       func(c []byte) { c[2+8+4] = Accepted },
		"flag 4":         func(c []byte) { c[flagsAt] |= 4 },
		"9 players":      func(c []byte) { c[flagsAt+3+len(runs.Scene)] = 9 },
		"quantize 2":     func(c []byte) { c[len(c)-1] = 2 },
		"without a byte": func(c []byte) {},
	} {
		var err error
		if name == "without a byte" {
			err = DecodeWelcome(b[:len(b)-1], &Welcome{})
		} else {
			err = bad(mutate)
		}
		if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrShort) {
			t.Errorf("%s: %v, want it refused", name, err)
		}
	}
}
