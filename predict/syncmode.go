package predict

import (
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/wire"
)

// syncMode is what the client's core (history, rewind and replay, time
// sync, smoothing, classification) asks of the part only one sync mode
// has: clientState in state sync, clientInputs in input sync. The core
// calls it wherever the modes differ, so that a reader changing one mode
// finds its every difference here and in the part's own fields.
type syncMode interface {
	// onRelay takes a decoded relay: the other players' inputs and the
	// server's events in state sync; the run of ticks the server applied,
	// to confirm or correct the prediction, in input sync.
	onRelay(c *Client, m *wire.Relay) error
	// onSnapshot takes a snapshot; input sync refuses it.
	onSnapshot(c *Client, b []byte) error
	// confirmedFrom returns the first tick whose inputs the server may still
	// lack, when the mode's messages say it (input sync, after a relay).
	confirmedFrom(c *Client) (uint32, bool)
	// ringFull is told that a whole ring of ticks awaits the server's word.
	ringFull(c *Client)
	// heldViews returns the views newer than v that the client holds, for
	// its Input's ack: the baselines a state-sync server may use.
	heldViews(v *protocol.View) uint64
	// eventsByCount reports whether the client knows the server's events
	// only by their count (state sync), so that a replay from a repair
	// older than its newest state cannot give the server's state.
	eventsByCount() bool
}

func (*clientState) confirmedFrom(*Client) (uint32, bool) { return 0, false }

func (in *clientInputs) confirmedFrom(c *Client) (uint32, bool) {
	return in.confirmed, c.view.haveNewest
}

func (*clientState) ringFull(*Client) {}

// ringFull: no relay for a whole ring means the server no longer holds the
// ticks since the confirmed one; only its whole state brings the client
// back.
func (*clientInputs) ringFull(c *Client) {
	if c.Config.Corrections {
		c.view.askXfer = true
	}
}

func (st *clientState) heldViews(v *protocol.View) uint64 { return st.views.Newer(v) }

func (*clientInputs) heldViews(*protocol.View) uint64 { return 0 }

func (*clientState) eventsByCount() bool { return true }

func (*clientInputs) eventsByCount() bool { return false }
