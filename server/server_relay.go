package server

import (
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
)

// appendRelay appends an input-sync relay for p: what the server applied
// from the newest tick p confirmed, as many ticks as fit, and the hash
// after them.
func (s *Server) appendRelay(p *peer, b []byte) []byte {
	from := p.start
	if p.haveAck {
		from = p.ack
	}
	to := s.Tick()
	if !tick.After(to, from) {
		return b // nothing new
	}
	count := int(min(to-from, wire.MaxTicks))
	if _, ok := s.hist.ticks.Get(from); !ok {
		p.needXfer = true // the client is further behind than the server remembers
		return b
	}
	m := &p.in.relay
	m.First, m.Count, m.Players = from, count, len(s.scene.Players)
	m.Inputs = m.Inputs[:0]
	for pl := 0; pl < m.Players; pl++ {
		for t := from; t != from+uint32(count); t++ {
			r, _ := s.hist.ticks.Get(t)
			m.Inputs = append(m.Inputs, r.ins[pl])
		}
	}
	m.Skips, m.Events = m.Skips[:0], m.Events[:0]
	for t := from; t != from+uint32(count); t++ {
		r, _ := s.hist.ticks.Get(t)
		off := t - from
		if r.skip {
			if k := len(m.Skips) - 1; k >= 0 && m.Skips[k].Offset+m.Skips[k].Len == off {
				m.Skips[k].Len++
			} else {
				m.Skips = append(m.Skips, wire.Span{Offset: off, Len: 1})
			}
		}
		for _, e := range r.events {
			m.Events = append(m.Events, wire.TickEvent{Offset: off, Event: e})
		}
	}
	n := wire.FitRelay(m)
	if n == 0 {
		return b
	}
	m.Hash = s.hist.hash(from + uint32(n))
	m.Heard, m.HeardInput = s.heard(p, from+uint32(n))
	return wire.AppendRelay(b, m, n)
}
