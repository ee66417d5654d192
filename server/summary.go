package server

// ServerSummary is what the server counted in a run, in the JSON form of
// `cube sim -json` with several players.
type ServerSummary struct {
	Ticks         uint32 `json:"ticks"`
	InputsApplied uint64 `json:"inputs_applied"`
	RepeatedTicks uint64 `json:"repeated_player_ticks"`
	LateInputs    uint64 `json:"late_inputs"`
	RefusedInputs uint64 `json:"refused_inputs"`
	Rejected      uint64 `json:"rejected_messages"`
	Events        uint64 `json:"events"`
	Joins         uint64 `json:"joins"`
	Leaves        uint64 `json:"leaves"`
	TimedOut      uint64 `json:"timed_out"`
	Snapshots     uint64 `json:"snapshots_and_relays"`
	SnapshotBytes uint64 `json:"bytes_sent"`
	Transfers     uint64 `json:"transfers"`
	Fragments     uint64 `json:"fragments"`
}

// Summary returns what the server counted since the tick it started at.
func (s *Server) Summary(startTick uint32) ServerSummary {
	sv := &s.Stats
	return ServerSummary{Ticks: s.Tick() - startTick, InputsApplied: sv.InputsApplied, RepeatedTicks: sv.RepeatedTicks,
		LateInputs: sv.LateInputs, RefusedInputs: sv.RefusedInputs, Rejected: sv.Rejected.Total(), Events: sv.Events,
		Joins: sv.Joins, Leaves: sv.Leaves, TimedOut: sv.TimedOut, Snapshots: sv.Snapshots, SnapshotBytes: sv.SnapshotBytes,
		Transfers: sv.Transfers, Fragments: sv.Fragments}
}
