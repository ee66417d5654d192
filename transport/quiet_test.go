package transport

import (
	"os"
	"sync"
	"testing"
)

// TestListenQuietsQUICGo: Listen sets the variable quic-go reads before it
// warns about the receive buffer, so that no caller has to.
func TestListenQuietsQUICGo(t *testing.T) {
	t.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "") // restored at the end
	quietOnce = sync.Once{}                                // as in a process that has not listened yet
	srv, err := Listen("127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if got := os.Getenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING"); got != "true" {
		t.Fatalf("after Listen the variable is %q, want true", got)
	}
}
