package lab

import (
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/tick"
	"github.com/cubelab/cube/netsim"
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
	pace   Pacer
	clock  time.Duration // the window's time, summed from its frames
	at     time.Duration // the time of the client's newest turn
	rates  rateWindow
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
	r := &Remote{Addr: addr, conn: conn, ep: session.NewEndpoint(c, conn), pace: Pacer{MaxLate: ClientMaxLate}, fail: fail}
	if err := r.setPreset(p); err != nil {
		return nil, err
	}
	c.Clock = func() time.Duration { return r.at }
	return r, nil
}

// setPreset conditions the client's own link, both ways.
func (r *Remote) setPreset(p netsim.Preset) error {
	if err := r.conn.SetConditions(p.Conditions, p.Conditions); err != nil {
		return err
	}
	r.preset = p
	return nil
}

// advance moves the window's clock on by elapsed seconds and runs the
// client's turns due by then, each with in(), calling after() after each.
// Unlike the window's in-process clock it pays a stall's whole debt at
// once (see clientMaxLate): a client behind its server is lost. Once the
// connection is lost it does nothing: the window shows why.
func (r *Remote) advance(elapsed float64, in func() game.Input, after func()) {
	if r.lost != nil {
		return
	}
	if elapsed > 0 {
		r.clock += time.Duration(elapsed * float64(time.Second))
	}
	c := r.ep.Client
	td := tick.Duration(c.World().Config())
	for {
		interval := time.Duration(float64(td) / c.Sync.Speed)
		if r.pace.Wait(r.clock, interval) > 0 {
			return
		}
		r.at = r.pace.Turn(interval)
		if err := r.ep.Turn(r.at, in()); err != nil {
			r.lost, r.cause = err, err
			if r.fail != nil {
				r.lost = r.fail(err, r.Addr, c)
			}
			return
		}
		r.rates.add(r.at, &r.ep.Traffic, c.Stats.BodiesReceived)
		r.ep.Traffic = session.Traffic{}
		after()
	}
}

// Close closes the connection: the server sees the client go.
func (r *Remote) Close() { _ = r.conn.Close() }

// rateWindow keeps a client's traffic turn by turn for the HUD's rates
// over the last second.
type rateWindow struct {
	ring  [256]rateSample // more than a second of turns at 64 Hz
	next  int
	n     int
	total session.Traffic
}

type rateSample struct {
	at     time.Duration
	total  session.Traffic // sums since the start
	bodies uint64
}

// add records a turn at time at that moved t (bodies: the client's bodies
// received so far).
func (w *rateWindow) add(at time.Duration, t *session.Traffic, bodies uint64) {
	w.total.UpBytes += t.UpBytes
	w.total.DownBytes += t.DownBytes
	w.total.UpPackets += t.UpPackets
	w.total.DownPackets += t.DownPackets
	w.ring[w.next] = rateSample{at: at, total: w.total, bodies: bodies}
	w.next = (w.next + 1) % len(w.ring)
	w.n = min(w.n+1, len(w.ring))
}

// rates returns the traffic of the last second as the HUD shows it.
func (w *rateWindow) rates() session.Rates {
	var r session.Rates
	if w.n < 2 {
		return r
	}
	newest := &w.ring[(w.next-1+len(w.ring))%len(w.ring)]
	oldest := newest
	for k := 2; k <= w.n; k++ {
		s := &w.ring[(w.next-k+len(w.ring))%len(w.ring)]
		if newest.at-s.at > time.Second {
			break
		}
		oldest = s
	}
	span := (newest.at - oldest.at).Seconds()
	up := newest.total.UpBytes - oldest.total.UpBytes
	down := newest.total.DownBytes - oldest.total.DownBytes
	upN := newest.total.UpPackets - oldest.total.UpPackets
	downN := newest.total.DownPackets - oldest.total.DownPackets
	if span > 0 {
		r.UpKbps, r.DownKbps = float64(up)*8/1000/span, float64(down)*8/1000/span
	}
	if upN > 0 {
		r.UpBytesPerPacket = float64(up) / float64(upN)
	}
	if downN > 0 {
		r.DownBytesPerPacket = float64(down) / float64(downN)
		r.BodiesPerPacket = float64(newest.bodies-oldest.bodies) / float64(downN)
	}
	return r
}

// Lost returns what ended the connection, or nil while it stands.
func (r *Remote) Lost() error { return r.lost }

// Preset returns the preset that conditions the client's own link.
func (r *Remote) Preset() netsim.Preset { return r.preset }
