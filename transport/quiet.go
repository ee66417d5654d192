package transport

import (
	"os"
	"sync"
)

// quietOnce sets quic-go's variable once a process.
var quietOnce sync.Once

// quiet keeps quic-go from printing its warning about the socket's
// receive buffer: the game's datagrams are small and few, and users cannot
// act on it. quic-go reads the variable from the environment when it opens
// a socket, so the process's environment is the only way to say it; Listen
// and Dial call quiet before they open one, so no caller has to remember.
func quiet() {
	quietOnce.Do(func() { _ = os.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "true") })
}
