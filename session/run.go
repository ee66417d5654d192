package session

import (
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/server"
)

// FrameRate is the display rate a headless run simulates for smoothing.
const FrameRate = 60

// MaxDrain bounds how long a run waits for the link to drain.
const MaxDrain = 60 * time.Second

// MaxTail bounds how long a settled run goes on for the server to hear
// that its clients stopped asking for repairs; it is not counted in the
// drain's seconds.
const MaxTail = 5 * time.Second

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
	NonFinite      uint64  `json:"non_finite_steps"` // steps or replays that left a non-finite world, each ended by a transfer
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
	// State sync with several players: replays with the other players'
	// inputs a relay gave (refreshes), snapshots held back for the relay of
	// their ticks, and those of them taken without it (held too long).
	Refreshes uint64 `json:"refreshes"`
	Deferred  uint64 `json:"deferred_snapshots"`
	Unrelayed uint64 `json:"unrelayed_snapshots"`
	// DownMax1s is the most bytes the server sent this client in any one
	// second (a window of a second's server turns): what a down budget
	// must bound. A join's whole state, which goes outside the budget, is
	// left out.
	DownMax1s uint64 `json:"down_max_1s_bytes"`
	// TransferCost is what the server's transfers to this client (a join's,
	// repairs) cost: their fragments' bytes, how many it started and how
	// many the client took, and their server ticks from start to taken.
	TransferCost struct {
		Bytes   uint64 `json:"bytes"`
		Started uint64 `json:"started"`
		Taken   uint64 `json:"taken"`
		// Superseded: put together by the client, then replaced by a newer
		// one because it still asked; abandoned: replaced while it still
		// lacked fragments, their progress lost.
		Superseded uint64  `json:"superseded"`
		Abandoned  uint64  `json:"abandoned"`
		MeanTicks  float64 `json:"mean_ticks"`
		MaxTicks   uint32  `json:"max_ticks"`
		// Repairs by buckets: patches sent and the buckets they held, of
		// Buckets a state; answers of all (the client could not rebuild
		// its state), patches that did not give the server's state,
		// handshakes never answered.
		Patches         uint64 `json:"patches"`
		PatchBuckets    uint64 `json:"patch_buckets"`
		Buckets         int    `json:"buckets"`
		AllAnswers      uint64 `json:"all_answers"`
		PatchMismatches uint64 `json:"patch_mismatches"`
		Unanswered      uint64 `json:"unanswered"`
	} `json:"transfer_cost"`
	BytesPerSecond struct {
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
		Remote         uint64 `json:"remote"`
		Rewind         uint64 `json:"rewind"` // the sync test's replays that gave other bits
	} `json:"mispredictions"`
	SyncTests uint64 `json:"sync_tests,omitempty"` // ticks the sync test (-synctest) rewound and re-simulated
	// Time sync (a clocked server): the client's input buffer at the
	// server, its 95th percentile, late inputs, and how far ahead of the
	// server the client ran at the end.
	InputBufferP95 float64 `json:"input_buffer_p95_ticks"`
	LateInputs     uint64  `json:"late_inputs"`
	LeadTicks      int64   `json:"lead_ticks"`
	TimeSyncJumps  int     `json:"time_sync_jumps"`
	Final          struct {
		Tick       uint32 `json:"tick"`
		ClientHash string `json:"client_hash"`
		ServerHash string `json:"server_hash"`
		InSync     bool   `json:"in_sync"` // the newest state compared had the same hash on both ends
		Settled    bool   `json:"settled"` // the drain ended with a matching state and the cube at rest, within MaxDrain
	} `json:"final"`
	// Replay: how the client's rewinds re-simulated. A partial replay
	// re-simulates only the bodies the correction reaches; a full one the
	// whole world (-full-replay, a transfer, or a rewind older than the
	// traces kept). A client replays once a turn at most: PerSecond is
	// the replays (partial and full) per second it ran, drain included;
	// Ticks and Bodies are what every rebuild and replay re-simulated,
	// the bodies summed over the ticks.
	Replay struct {
		Partial           uint64  `json:"partial"`
		PartialBodiesMean float64 `json:"partial_bodies_mean"`
		FullReplays       uint64  `json:"full_replays"`
		Confirmed         uint64  `json:"confirmed"` // mispredicted snapshots that carried nothing mispredicted: nothing replayed
		PerSecond         float64 `json:"per_second"`
		Ticks             uint64  `json:"resimulated_ticks"`
		Bodies            uint64  `json:"resimulated_bodies"`
		// The part of Ticks and Bodies that the replays of repairs
		// (transfers and patches after the join) re-simulated, and how
		// many of them followed only the bodies the repair changed and
		// what those reached.
		RepairTicks    uint64 `json:"repair_ticks"`
		RepairBodies   uint64 `json:"repair_bodies"`
		PartialRepairs uint64 `json:"partial_repairs"`
	} `json:"replay"`
	// The deepest overlap (max_overlap_m, max_overlap_tick): in cube sim's
	// summary, in the server's world, and in Predicted, in client 0's
	// predicted world; in a client's summary (cube client's, Players),
	// in its predicted world.
	Overlap
	Predicted *Overlap `json:"predicted,omitempty"`
	// With several players: each client's summary (client 0's is the
	// one above), and the server's counters.
	Players []Summary             `json:"players,omitempty"`
	Server  *server.ServerSummary `json:"server,omitempty"`
	// Verdict is set by Judge: in_sync, not_in_sync or nondeterminism.
	Verdict string `json:"verdict,omitempty"`
}

// Run drives a session headless for the given virtual time, every client
// with its own seeded autopilot, displaying client 0 at FrameRate, then
// stops moving and lets the links drain, with no more server events,
// until every client's prediction of a server state matches it bit for bit
// with its cube at rest (or MaxDrain passes). setup, when not nil, is
// called once the session is built, before the first tick (to attach a
// recorder or a perturbation).
func Run(cfg Config, seconds float64, setup func(*Session) error) (*Session, Summary, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, Summary{}, err
	}
	if setup != nil {
		if err := setup(s); err != nil {
			return s, Summary{}, err
		}
	}
	pilots := make([]*game.Autopilot, len(s.Clients))
	for i, c := range s.Clients {
		pilots[i] = game.NewAutopilot(c.Scene(), cfg.Seed+uint64(i)*0x9e37)
	}
	driving := true
	ov := overlaps{clients: make([]Overlap, len(s.Clients))}
	ov.server.Measure(s.Server.World())
	botPilots := make([]*game.Autopilot, len(s.Bots))
	for k := range s.Bots {
		botPilots[k] = game.NewAutopilot(s.Server.Scene(), cfg.Seed+uint64(len(s.Clients)+k)*0x9e37)
	}
	input := func(i int) game.Input {
		if k := i - len(s.Clients); k >= 0 {
			if !driving {
				return 0
			}
			return s.BotInput(k, botPilots[k])
		}
		c := s.Clients[i]
		ov.clients[i].Measure(c.World()) // what the client's last turn left
		if !driving {
			return 0
		}
		return pilots[i].Input(c.World().Body(c.Body()))
	}
	end := time.Duration(seconds * float64(time.Second))
	frame := time.Second / FrameRate
	nextFrame := time.Duration(0)
	var maxJump float64
	chained := s.Client.OnMispredict
	s.Client.OnMispredict = func(m *predict.Misprediction) {
		if m.Corrected {
			maxJump = max(maxJump, m.Jump)
		}
		if chained != nil {
			chained(m)
		}
	}
	step := func() error {
		for ; nextFrame < s.now+s.tick; nextFrame += frame {
			s.Frame(frame.Seconds())
		}
		err := s.Advance(s.now+s.tick, input)
		ov.server.Measure(s.Server.World())
		return err
	}
	stop := func() bool { return s.Poll != nil && s.Poll(s) }
	interrupted := false
	for s.now < end && !interrupted {
		if err := step(); err != nil {
			return s, Summary{}, err
		}
		interrupted = stop()
	}
	drainStart := s.now
	played := make([][2]uint64, len(s.Clients))
	for i, conn := range s.Conns {
		st := conn.Stats()
		played[i] = [2]uint64{st.SentBytes, st.ReceivedBytes}
	}
	s.draining, driving = true, false
	settled := false
	states := make([]uint64, len(s.Clients))
	for i, c := range s.Clients {
		states[i] = c.Stats.StatesReceived
	}
	for s.now-drainStart < MaxDrain && !interrupted {
		if interrupted = stop(); interrupted {
			break
		}
		if err := step(); err != nil {
			return s, Summary{}, err
		}
		if settled = s.settled(states); settled {
			break
		}
	}
	drain := (s.now - drainStart).Seconds()
	if settled {
		// The client has the server's state, but the server counts a repair
		// as taken only when it hears that the client stopped asking: run on
		// until it has, so that transfer_cost counts the last repair.
		for tail := s.now; s.now-tail < MaxTail && s.repairing() && !interrupted; interrupted = stop() {
			if err := step(); err != nil {
				return s, Summary{}, err
			}
		}
	}
	playedFor := seconds
	if interrupted && s.now < end {
		playedFor = s.now.Seconds()
	}
	sum := s.summary(0, playedFor, drain, settled, played[0])
	sum.Interrupted = interrupted
	sum.DisplayJump.MaxCorrection = maxJump
	if len(s.Clients) > 1 {
		for i := range s.Clients {
			p := sum
			if i > 0 {
				p = s.summary(i, playedFor, drain, settled, played[i])
			}
			sum.Players = append(sum.Players, p)
		}
	}
	if len(s.Clients)+len(s.Bots) > 1 {
		sv := s.Server.Summary(s.Config.StartTick)
		sum.Server = &sv
	}
	for i, c := range s.Clients {
		ov.clients[i].Measure(c.World())
	}
	ov.fill(&sum)
	return s, sum, nil
}

// settled reports whether, since the drain began (states, the messages each
// client had taken then), every client took a server state that matched
// its prediction, and every client's cube is at rest.
func (s *Session) settled(states []uint64) bool {
	for i, c := range s.Clients {
		if !c.Settled(states[i]) {
			return false
		}
	}
	return true
}

// repairing reports whether the server still counts a repair under way,
// or asked for, for any client.
func (s *Session) repairing() bool {
	for _, c := range s.Clients {
		if !c.Welcomed() {
			continue
		}
		if ps, ok := s.Server.PlayerStats(c.Slot()); ok && ps.Repairing {
			return true
		}
	}
	return false
}

// summary collects client i's measurements (the position errors and the
// display's, of client 0 only), and what the server and the session's
// configuration know about it.
func (s *Session) summary(i int, seconds, drain float64, settled bool, played [2]uint64) Summary {
	cl := s.Clients[i]
	r := ClientRun{Seconds: seconds, DrainSeconds: drain, Settled: settled, Played: played, Link: s.Conns[i].Stats()}
	if i == 0 {
		r.MaxUp, r.MaxDown, r.PosErrors = s.MaxUp, s.MaxDown, s.PosErrors
	}
	m := clientSummary(cl, &r)
	sv := &s.Server.Stats
	m.Preset, m.SnapshotHz = s.Config.Preset, s.Config.SnapshotHz
	if sv.Snapshots > 0 && s.Config.Client.Mode == predict.StateSync {
		m.BodiesPerPacket = float64(sv.BodiesSent) / float64(sv.Snapshots)
	}
	m.Incomplete = sv.Incomplete
	m.RTTms = 2 * float64(s.Config.Conditions.Latency) / float64(time.Millisecond)
	m.Redundancy = s.Config.Client.Redundancy
	m.SkippedTicks, m.RepeatedTicks, m.RefusedInputs, m.Nudges = sv.SkippedTicks, sv.RepeatedTicks, sv.RefusedInputs, sv.Events
	if i == 0 {
		m.DisplayJump.Max = s.MaxDisplay
	}
	rejected := sv.Rejected.Total()
	if ps, ok := s.Server.PlayerStats(cl.Slot()); ok {
		m.InputBufferP95, m.LateInputs = ps.DepthP95, ps.Late
		if len(s.Clients) > 1 {
			// This client's share of the server's counters (the server
			// object holds the totals).
			m.RepeatedTicks, m.RefusedInputs, rejected = ps.Repeated, ps.TooFar, ps.Rejected
		}
	}
	m.Rejected += rejected
	m.LeadTicks = int64(int32(cl.Tick() - s.Server.Tick()))
	s.fillDown(i, &m)
	return m
}
