package main

import (
	"context"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/tick"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/transport"
)

// remoteLink is the window's client playing against a server over a real
// network: an Endpoint over QUIC, run on the window's clock at the
// client's own pace, its own traffic conditioned by a preset.
type remoteLink struct {
	addr   string
	ep     *session.Endpoint
	conn   transport.Client
	preset netsim.Preset
	pace   pacer
	clock  time.Duration // the window's time, summed from its frames
	at     time.Duration // the time of the client's newest turn
	rates  rateWindow
	lost   error // what ended the connection, or the server's refusal
	cause  error // the error behind lost, as the client's turn returned it
	told   bool  // lost was printed on stderr
}

// dialRemote connects client c to the server cf names and conditions its
// own traffic with preset p (seed: the conditioner's).
func dialRemote(cf *connectFlags, c *predict.Client, p netsim.Preset, seed uint64) (*remoteLink, error) {
	quietQUIC()
	conn, err := transport.Dial(context.Background(), cf.addr, cf.pin, cf.insecure, &transport.Options{Seed: seed})
	if err != nil {
		return nil, dialError(err)
	}
	r := &remoteLink{addr: cf.addr, conn: conn, ep: session.NewEndpoint(c, conn), pace: pacer{maxLate: clientMaxLate}}
	if err := r.setPreset(p); err != nil {
		conn.Close()
		return nil, err
	}
	c.Clock = func() time.Duration { return r.at }
	return r, nil
}

// setPreset conditions the client's own link, both ways.
func (r *remoteLink) setPreset(p netsim.Preset) error {
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
func (r *remoteLink) advance(elapsed float64, in func() game.Input, after func()) {
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
		if r.pace.wait(r.clock, interval) > 0 {
			return
		}
		r.at = r.pace.turn(interval)
		if err := r.ep.Turn(r.at, in()); err != nil {
			r.lost, r.cause = turnFailure(err, r.addr, c), err
			return
		}
		r.rates.add(r.at, &r.ep.Traffic, c.Stats.BodiesReceived)
		r.ep.Traffic = session.Traffic{}
		after()
	}
}

// close closes the connection: the server sees the client go.
func (r *remoteLink) close() { _ = r.conn.Close() }

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
