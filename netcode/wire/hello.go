package wire

import (
	"encoding/binary"
	"fmt"

	"github.com/cubelab/cube/game"
)

// MaxMode is the largest sync mode a Hello may carry: the modes are 0
// (state sync) and 1 (input sync); netcode/protocol names them.
const MaxMode = 1

// Hello asks a server to join. It names the scene the client built, so that
// both ends are known to simulate the same world.
type Hello struct {
	Nonce uint64
	Echo  uint32 // the client's clock when it sent the Hello, in ms: the Welcome brings it back, for the round trip
	Mode  uint8  // the sync mode the client asks for, 0 to MaxMode
	Scene game.Identity
}

// AppendHello appends a Hello message.
func AppendHello(b []byte, m *Hello) []byte {
	b = append(b, KindHello, Version)
	b = binary.LittleEndian.AppendUint64(b, m.Nonce)
	b = binary.LittleEndian.AppendUint32(b, m.Echo)
	b = append(b, m.Mode)
	return appendIdentity(b, &m.Scene)
}

// DecodeHello parses a Hello message into m.
func DecodeHello(b []byte, m *Hello) error {
	r := start(b, KindHello)
	nonce, echo, mode := r.u64(), r.u32(), r.u8()
	id := m.Scene // its name: no allocation when the name is the same
	r.identity(&id)
	if r.err == nil && mode > MaxMode {
		r.fail(invalid("mode %d", mode))
	}
	if err := r.end(); err != nil {
		return err
	}
	m.Nonce, m.Echo, m.Mode, m.Scene = nonce, echo, mode, id
	return nil
}

// appendScene appends a scene's name and options: the part of its
// identity that a Hello and a refusing Welcome both carry.
func appendScene(b []byte, name string, players, bodies int, quantize bool) []byte {
	b = append(b, byte(len(name)))
	b = append(b, name...)
	b = append(b, byte(players))
	b = binary.LittleEndian.AppendUint32(b, uint32(bodies))
	q := byte(0)
	if quantize {
		q = 1
	}
	return append(b, q)
}

// scene reads what appendScene wrote, with each field's range checked. The
// name is r's bytes: copy it to keep it.
func (r *reader) scene() (name []byte, players, bodies int, quantize bool) {
	n := int(r.u8())
	if r.err == nil && (n < 1 || n > game.MaxSceneName) {
		r.fail(invalid("scene name of %d bytes", n))
	}
	name = r.bytes(n)
	for _, c := range name {
		if r.err == nil && (c < 0x20 || c >= 0x7f) {
			// A name is printable ASCII: a refused client prints it,
			// and a newline or an escape sequence from a server must
			// not reach its terminal.
			r.fail(invalid("scene name with byte %#x: want printable ASCII", c))
		}
	}
	p, b, q := r.u8(), r.u32(), r.u8()
	if r.err == nil && (p < 1 || p > game.MaxPlayers || q > 1 || b > game.MaxDropBodies) {
		r.fail(invalid("scene options out of range"))
	}
	return name, int(p), int(b), q == 1
}

// appendIdentity appends a scene identity.
func appendIdentity(b []byte, id *game.Identity) []byte {
	b = appendScene(b, id.Name, id.Players, id.Bodies, id.Quantize)
	b = binary.LittleEndian.AppendUint32(b, uint32(id.Rule))
	return binary.LittleEndian.AppendUint64(b, id.Hash)
}

// identity reads what appendIdentity wrote. The name is copied only when it
// differs from the one id already holds, so that a server decoding the same
// Hello again does not allocate.
func (r *reader) identity(id *game.Identity) {
	name, players, bodies, quantize := r.scene()
	rule, hash := r.u32(), r.u64()
	if r.err != nil {
		return
	}
	if id.Name != string(name) {
		id.Name = string(name)
	}
	id.Players, id.Bodies, id.Quantize, id.Rule, id.Hash = players, bodies, quantize, int(rule), hash
}

// Welcome results.
const (
	Accepted     uint8 = 0
	OtherScene   uint8 = 1
	OtherMode    uint8 = 2
	ServerFull   uint8 = 3
	OtherVersion uint8 = 4
	lastResult         = OtherVersion
)

// Welcome answers a Hello.
type Welcome struct {
	Nonce    uint64
	Echo     uint32 // the Hello's
	Result   uint8
	Player   uint8
	Tick     uint32
	Transfer bool // the state at Tick follows as a transfer
	// Runs, with a refusal, is what the server runs: its sync mode and its
	// scene's name and options (not its rule and hash), so that the refused
	// client can say what to run instead. A server sends it only when the
	// Welcome stays no larger than the Hello it answers (WelcomeLen).
	Runs *ServerRuns
}

// ServerRuns is what a refusing server runs.
type ServerRuns struct {
	Mode     uint8 // 0 to MaxMode, as in Hello
	Scene    string
	Players  int
	Bodies   int
	Quantize bool
}

// welcomeLen is the length of a Welcome without ServerRuns.
const welcomeLen = 2 + 8 + 4 + 1 + 1 + 4 + 1

// WelcomeLen returns the length of m encoded.
func WelcomeLen(m *Welcome) int {
	if m.Runs == nil || m.Result == Accepted {
		return welcomeLen
	}
	return welcomeLen + 1 + 1 + len(m.Runs.Scene) + 1 + 4 + 1
}

// AppendWelcome appends a Welcome message.
func AppendWelcome(b []byte, m *Welcome) []byte {
	b = append(b, KindWelcome, Version)
	b = binary.LittleEndian.AppendUint64(b, m.Nonce)
	b = binary.LittleEndian.AppendUint32(b, m.Echo)
	b = append(b, m.Result, m.Player)
	b = binary.LittleEndian.AppendUint32(b, m.Tick)
	f := byte(0)
	if m.Transfer {
		f = 1
	}
	r := m.Runs
	if r == nil || m.Result == Accepted {
		return append(b, f)
	}
	b = append(b, f|welcomeRuns, byte(r.Mode))
	return appendScene(b, r.Scene, r.Players, r.Bodies, r.Quantize)
}

// welcomeRuns is the Welcome flag that says ServerRuns follows.
const welcomeRuns = 2

// DecodeWelcome parses a Welcome message into m.
func DecodeWelcome(b []byte, m *Welcome) error {
	r := start(b, KindWelcome)
	nonce, echo, result, player, tick, flags := r.u64(), r.u32(), r.u8(), r.u8(), r.u32(), r.u8()
	if r.err == nil && (result > lastResult || flags&^(1|welcomeRuns) != 0 || player >= game.MaxPlayers || flags&welcomeRuns != 0 && result == Accepted) {
		r.fail(invalid("welcome fields out of range"))
	}
	var runs ServerRuns
	if r.err == nil && flags&welcomeRuns != 0 {
		mode := r.u8()
		if r.err == nil && mode > MaxMode {
			r.fail(invalid("server's mode %d, want 0 to %d", mode, MaxMode))
		}
		name, players, bodies, quantize := r.scene()
		if r.err == nil {
			runs = ServerRuns{Mode: mode, Scene: string(name), Players: players, Bodies: bodies, Quantize: quantize}
		}
	}
	if err := r.end(); err != nil {
		return err
	}
	held := m.Runs // reused: a refused client decodes one Welcome a Hello
	*m = Welcome{Nonce: nonce, Echo: echo, Result: result, Player: player, Tick: tick, Transfer: flags&1 == 1}
	if flags&welcomeRuns != 0 {
		if held == nil {
			held = new(ServerRuns)
		}
		*held = runs
		m.Runs = held
	}
	return nil
}

// String says what the server runs: "arena (8 players) in state sync".
func (r *ServerRuns) String() string {
	s := fmt.Sprintf("%s (%d players", r.Scene, r.Players)
	if r.Players == 1 {
		s = r.Scene + " (1 player"
	}
	if r.Bodies > 0 {
		s += fmt.Sprintf(", %d bodies", r.Bodies)
	}
	if r.Quantize {
		s += ", quantized"
	}
	mode := "state"
	if r.Mode == 1 {
		mode = "input"
	}
	return s + ") in " + mode + " sync"
}
