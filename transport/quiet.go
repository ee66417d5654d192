package transport

import "os"

// Quiet keeps quic-go from printing its warning about the socket's
// receive buffer (it reads this variable when it opens a socket): the
// game's datagrams are small and few, and users cannot act on it. Call it
// before Listen or Dial.
func Quiet() {
	_ = os.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "true")
}
