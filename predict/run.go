package predict

import (
	"fmt"
	"sort"
	"time"

	"github.com/cubelab/cube/game"
)

// FrameRate is the display rate a headless run simulates for smoothing.
const FrameRate = 60

// MaxDrain bounds how long a run waits for the link to drain.
const MaxDrain = 60 * time.Second

// Summary is what a headless run measured. Its JSON form is the output of
// `cube sim -json`.
type Summary struct {
	Preset         string  `json:"preset"`
	Scene          string  `json:"scene"`
	Sync           string  `json:"sync"`
	Quantize       bool    `json:"quantize"`
	Seconds        float64 `json:"seconds"`
	Ticks          uint64  `json:"ticks"`
	SnapshotHz     int     `json:"snapshot_hz"`
	RTTms          float64 `json:"rtt_ms"`
	Redundancy     bool    `json:"redundancy"`
	Corrections    uint64  `json:"corrections"`
	Resyncs        uint64  `json:"resyncs"`
	ReplayedTicks  uint64  `json:"replayed_ticks"`
	MaxReplayTicks int     `json:"max_replay_ticks"`
	StaleIgnored   uint64  `json:"stale_states_ignored"`
	SkippedTicks   uint64  `json:"skipped_ticks"`
	RepeatedTicks  uint64  `json:"repeated_ticks"`
	HeldTicks      uint64  `json:"held_ticks"`
	RefusedInputs  uint64  `json:"refused_inputs"`
	Rejected       uint64  `json:"rejected_messages"` // messages that did not decode or fit, client and server, dropped
	Nudges         uint64  `json:"nudges"`
	DrainSeconds   float64 `json:"drain_seconds"`
	Interrupted    bool    `json:"interrupted,omitempty"` // Session.Poll stopped the run
	Packets        struct {
		UpSent       uint64 `json:"up_sent"`
		UpLost       uint64 `json:"up_lost"`
		DownSent     uint64 `json:"down_sent"`
		DownLost     uint64 `json:"down_lost"`
		MaxBytesUp   int    `json:"max_bytes_up"`
		MaxBytesDown int    `json:"max_bytes_down"`
	} `json:"packets"`
	BodiesPerPacket float64 `json:"bodies_per_packet"` // bodies in a snapshot, on average (state sync)
	Incomplete      uint64  `json:"incomplete_snapshots"`
	Transfers       uint64  `json:"transfers"`
	BytesPerSecond  struct {
		Up   float64 `json:"up"`
		Down float64 `json:"down"`
	} `json:"bytes_per_second"` // while playing, the drain left out
	PositionError struct {
		Mean float64 `json:"mean"`
		P99  float64 `json:"p99"`
		Max  float64 `json:"max"`
	} `json:"position_error_m"`
	DisplayJump struct {
		Max           float64 `json:"max"`
		MaxCorrection float64 `json:"max_correction"`
	} `json:"display_jump_m"`
	Mispredictions struct {
		Input          uint64 `json:"input"`
		Server         uint64 `json:"server"`
		Nondeterminism uint64 `json:"nondeterminism"`
		Unverified     uint64 `json:"unverified"`
	} `json:"mispredictions"`
	Final struct {
		Tick       uint32 `json:"tick"`
		ClientHash string `json:"client_hash"`
		ServerHash string `json:"server_hash"`
		InSync     bool   `json:"in_sync"` // the newest state compared had the same hash on both ends
		Settled    bool   `json:"settled"` // the drain ended with a matching state and the cube at rest, within MaxDrain
	} `json:"final"`
}

// Run drives a session headless for the given virtual time with a seeded
// autopilot, displaying at FrameRate, then stops moving and lets the link
// drain, with no more server events, until the client's prediction of a
// server state matches it bit for bit with the cube at rest (or MaxDrain
// passes). setup, when not nil, is
// called once the session is built, before the first tick (to attach a
// recorder or a perturbation).
func Run(cfg SessionConfig, seconds float64, setup func(*Session) error) (*Session, Summary, error) {
	s, err := NewSession(cfg)
	if err != nil {
		return nil, Summary{}, err
	}
	if setup != nil {
		if err := setup(s); err != nil {
			return s, Summary{}, err
		}
	}
	pilot := game.NewAutopilot(s.Client.Scene(), cfg.Seed)
	end := time.Duration(seconds * float64(time.Second))
	frame := time.Second / FrameRate
	nextFrame := time.Duration(0)
	var maxJump float64
	chained := s.Client.OnMispredict
	s.Client.OnMispredict = func(m *Misprediction) {
		if m.Corrected {
			maxJump = max(maxJump, m.Jump)
		}
		if chained != nil {
			chained(m)
		}
	}
	step := func(in game.Input) error {
		for ; nextFrame < s.now+s.tick; nextFrame += frame {
			s.Frame(frame.Seconds())
		}
		return s.Tick(in)
	}
	stop := func() bool { return s.Poll != nil && s.Poll(s) }
	interrupted := false
	for s.now < end && !interrupted {
		if err := step(pilot.Input(s.Client.World().Body(s.Client.Player()))); err != nil {
			return s, Summary{}, err
		}
		interrupted = stop()
	}
	drainStart := s.now
	s.played = [2]uint64{s.Link.Up.Stats().BytesSent, s.Link.Down.Stats().BytesSent}
	s.draining = true
	settled := false
	for s.now-drainStart < MaxDrain && !interrupted {
		if interrupted = stop(); interrupted {
			break
		}
		before := s.Client.Stats.StatesReceived
		mis := s.Client.Stats.Mispredicted
		if err := step(0); err != nil {
			return s, Summary{}, err
		}
		b := s.Client.World().Body(s.Client.Player())
		if s.Client.Stats.StatesReceived != before && s.Client.Stats.Mispredicted == mis &&
			b.Vel.Len() < 1e-3 && b.AngVel.Len() < 1e-3 {
			settled = true
			break
		}
	}
	played := seconds
	if interrupted && s.now < end {
		played = s.now.Seconds()
	}
	sum := s.summary(played, (s.now - drainStart).Seconds(), settled)
	sum.Interrupted = interrupted
	sum.DisplayJump.MaxCorrection = maxJump
	return s, sum, nil
}

// summary collects the measurements.
func (s *Session) summary(seconds, drain float64, settled bool) Summary {
	var m Summary
	c, sv := &s.Client.Stats, &s.Server.Stats
	m.Preset, m.Seconds, m.Ticks, m.SnapshotHz = s.Config.Preset, seconds, c.Ticks, s.Config.SnapshotHz
	m.Scene, m.Sync, m.Quantize = s.Config.Scene, s.Config.Client.Mode.String(), s.Config.Options.Quantize
	m.Packets.MaxBytesUp, m.Packets.MaxBytesDown = s.MaxUp, s.MaxDown
	if sv.Snapshots > 0 && s.Config.Client.Mode == StateSync {
		m.BodiesPerPacket = float64(sv.BodiesSent) / float64(sv.Snapshots)
	}
	m.Incomplete, m.Transfers = sv.Incomplete, c.Transfers
	m.RTTms = 2 * float64(s.Config.Conditions.Latency) / float64(time.Millisecond)
	m.Redundancy = s.Config.Client.Redundancy
	m.Corrections, m.Resyncs, m.ReplayedTicks, m.MaxReplayTicks = c.Corrections, c.Resyncs, c.ReplayedTicks, c.MaxReplay
	m.StaleIgnored, m.HeldTicks = c.StaleStates, c.HeldTicks
	m.SkippedTicks, m.RepeatedTicks, m.RefusedInputs, m.Nudges = sv.SkippedTicks, sv.RepeatedTicks, sv.RefusedInputs, sv.Events
	m.DrainSeconds = drain
	up, down := s.Link.Up.Stats(), s.Link.Down.Stats()
	m.Packets.UpSent, m.Packets.UpLost, m.Packets.DownSent, m.Packets.DownLost = up.Sent, up.Lost, down.Sent, down.Lost
	if seconds > 0 {
		m.BytesPerSecond.Up, m.BytesPerSecond.Down = float64(s.played[0])/seconds, float64(s.played[1])/seconds
	}
	if n := len(s.PosErrors); n > 0 {
		e := append([]float64(nil), s.PosErrors...)
		sort.Float64s(e)
		sum := 0.0
		for _, x := range e {
			sum += x
		}
		m.PositionError.Mean, m.PositionError.Max = sum/float64(n), e[n-1]
		m.PositionError.P99 = e[min(n-1, (99*n)/100)]
	}
	m.DisplayJump.Max = s.MaxDisplay
	m.Mispredictions.Input = c.Mispredicted[KindInput]
	m.Mispredictions.Server = c.Mispredicted[KindServer]
	m.Mispredictions.Nondeterminism = c.Mispredicted[KindNondeterminism]
	m.Mispredictions.Unverified = c.Mispredicted[KindUnverified]
	m.Rejected = c.Rejected.Total() + sv.Rejected.Total()
	cmp := s.Client.Compared()
	m.Final.Tick = cmp.Tick
	m.Final.ClientHash, m.Final.ServerHash = fmt.Sprintf("%016x", cmp.ClientHash), fmt.Sprintf("%016x", cmp.ServerHash)
	m.Final.InSync = c.StatesReceived > 0 && cmp.ClientHash == cmp.ServerHash
	m.Final.Settled = settled
	return m
}
