package transport

import (
	"errors"

	"github.com/quic-go/quic-go"
)

// sender hands datagrams to one QUIC connection from a goroutine of its
// own. quic.Conn.SendDatagram blocks while quic-go's queue of 32 frames is
// full, as it stays when the path is dead and congestion control waits
// for acknowledgements that never come; the caller's Send must not wait
// with it, so it only copies into a bounded queue, dropping and counting
// what does not fit.
type sender struct {
	q    chan []byte // datagrams waiting for SendDatagram
	free chan []byte // buffers ready for reuse
	c    *counters
}

func newSender(n int, c *counters) *sender {
	return &sender{q: make(chan []byte, n), free: make(chan []byte, n), c: c}
}

// send queues a copy of b, or drops and counts it when the queue is full.
func (s *sender) send(b []byte) {
	var buf []byte
	select {
	case buf = <-s.free:
	default:
		buf = make([]byte, 0, MaxDatagram)
	}
	buf = append(buf[:0], b...)
	select {
	case s.q <- buf:
	default:
		s.c.countSendQueue(len(b))
		s.recycle(buf)
	}
}

func (s *sender) recycle(b []byte) {
	select {
	case s.free <- b:
	default:
	}
}

// run sends the queued datagrams on conn until conn closes.
func (s *sender) run(conn *quic.Conn) {
	done := conn.Context().Done()
	for {
		select {
		case b := <-s.q:
			err := conn.SendDatagram(b)
			var tl *quic.DatagramTooLargeError
			if errors.As(err, &tl) {
				s.c.countSize(len(b))
			}
			// Any other error means the connection is closing; the
			// receiving goroutine reports why.
			s.recycle(b)
		case <-done:
			return
		}
	}
}
