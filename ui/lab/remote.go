package lab

import (
	"fmt"
	"time"

	"github.com/cubelab/cube/session/summarytext"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/transport"
)

// Remote is the window's client playing against a server over a real
// network: an Endpoint over QUIC, run on the window's clock at the
// client's own pace, its own traffic conditioned by a preset.
type Remote struct {
	Addr   string // the server's address
	ep     *session.Endpoint
	conn   transport.Client
	preset netsim.Preset
	pace   tick.Pacer
	clock  time.Duration // the window's time, summed from its frames
	at     time.Duration // the time of the client's newest turn
	meter  session.Meter // the client's traffic, turn by turn
	bodies uint64        // bodies received at the last turn
	shown  session.DisplayTrack
	lost   error // what ended the connection, or the server's refusal
	cause  error // the error behind lost, as the client's turn returned it
	told   bool  // lost was printed on stderr
	fail   func(err error, addr string, c *predict.Client) error
}

// Connect makes a Remote of client c over conn, a connection to the server
// at addr, and conditions the client's own traffic with preset p. fail
// turns the error that ends a client's turn into what the window says and
// exits with (nil: the error itself).
func Connect(addr string, conn transport.Client, c *predict.Client, p netsim.Preset, fail func(err error, addr string, c *predict.Client) error) (*Remote, error) {
	r := &Remote{Addr: addr, conn: conn, ep: session.NewEndpoint(c, conn), pace: tick.Pacer{MaxLate: tick.MaxClientLate}, fail: fail,
		meter: session.NewMeter(tick.Duration(c.World().Config().Dt))}
	if err := r.SetPreset(p); err != nil {
		return nil, err
	}
	c.Clock = func() time.Duration { return r.at }
	return r, nil
}

// SetPreset conditions the client's own link, both ways.
func (r *Remote) SetPreset(p netsim.Preset) error {
	if err := r.conn.SetConditions(p.Conditions, p.Conditions); err != nil {
		return err
	}
	r.preset = p
	return nil
}

// Run moves the window's clock on by elapsed seconds and runs the
// client's turns due by then, each with in(), calling after() after each.
// Unlike the window's in-process clock it pays a stall's whole debt at
// once (see clientMaxLate): a client behind its server is lost. Once the
// connection is lost it does nothing: the window shows why.
func (r *Remote) Run(elapsed float64, in func() game.Input, after func()) error {
	if r.lost != nil {
		return nil
	}
	if elapsed > 0 {
		r.clock += time.Duration(elapsed * float64(time.Second))
	}
	c := r.ep.Client
	td := tick.Duration(c.World().Config().Dt)
	for {
		interval := time.Duration(float64(td) / c.Sync.Speed)
		if r.pace.Wait(r.clock, interval) > 0 {
			return nil
		}
		r.at = r.pace.Turn(interval)
		if err := r.ep.Turn(r.at, in()); err != nil {
			r.lost, r.cause = err, err
			if r.fail != nil {
				r.lost = r.fail(err, r.Addr, c)
			}
			return nil
		}
		t := r.ep.Traffic
		t.Bodies = int(c.Stats.BodiesReceived - r.bodies)
		r.bodies = c.Stats.BodiesReceived
		r.meter.Tick(t)
		r.ep.Traffic = session.Traffic{}
		after()
	}
}

// Close closes the connection: the server sees the client go.
func (r *Remote) Close() { _ = r.conn.Close() }

// Client returns the client that plays against the server.
func (r *Remote) Client() *predict.Client { return r.ep.Client }

// Now returns the time of the client's newest turn.
func (r *Remote) Now() time.Duration { return r.at }

// Frame moves the client's display on.
func (r *Remote) Frame(elapsed float64) { r.shown.Frame(r.ep.Client, elapsed) }

// Display returns the displayed pose of the client's cube.
func (r *Remote) Display() (mgl64.Vec3, mgl64.Quat) { return session.DisplayPose(r.ep.Client) }

// Rates returns the client's traffic over the last second.
func (r *Remote) Rates() session.Rates { return r.meter.Rates() }

// Status returns the HUD's lines on the server, this client's link and
// the scene.
func (r *Remote) Status(compact bool) []string {
	c := r.ep.Client
	cond := r.preset.Conditions
	slot := "joining"
	switch {
	case c.Joined():
		slot = fmt.Sprintf("slot %d", c.Slot())
	case r.lost != nil:
		slot = "never joined"
	}
	if compact {
		return []string{fmt.Sprintf("server %s  %s", r.Addr, slot),
			fmt.Sprintf("%s on this link  loss %.1f%%", r.preset.Name, 100*cond.Loss),
			fmt.Sprintf("scene %s  %s", c.Scene().Name, summarytext.SyncName(c.Config.Mode))}
	}
	return []string{
		fmt.Sprintf("server %s  %s  %s", r.Addr, slot, summarytext.JoinRoundTrip(c.Sync.RTT, tick.Duration(c.World().Config().Dt))),
		fmt.Sprintf("%s on this link  one-way %v ±%v  loss %.1f%%", r.preset.Name, cond.Latency, cond.Jitter, 100*cond.Loss),
		fmt.Sprintf("scene %s, %d bodies, %d slots  %s", c.Scene().Name, c.World().NumBodies(), len(c.Scene().Players), summarytext.SyncName(c.Config.Mode))}
}

// Late returns the client's late inputs as the server's messages tell.
func (r *Remote) Late() uint64 { return r.ep.Buffer.Late }

// Rejected returns the messages the client rejected; the server's count
// is the server's.
func (r *Remote) Rejected() string {
	return fmt.Sprintf("rejected: client %d", r.ep.Client.Stats.Rejected.Total())
}

// ServerCube returns false: the server is remote.
func (r *Remote) ServerCube(int) (physics.BodyState, bool) { return physics.BodyState{}, false }

// Speed returns false: the client keeps its own pace, and pays a stall's
// debt at once.
func (r *Remote) Speed() (recent, total float64, ok bool) { return 1, 1, false }

// Lost returns what ended the connection, or nil while it stands.
func (r *Remote) Lost() error { return r.lost }

// Preset returns the preset that conditions the client's own link.
func (r *Remote) Preset() netsim.Preset { return r.preset }
