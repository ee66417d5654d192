package transport

import (
	"os"
	"testing"
)

// TestQuietSetsQUICGosVariable: Quiet sets the variable quic-go reads
// before it warns about the receive buffer.
func TestQuietSetsQUICGosVariable(t *testing.T) {
	t.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "") // restored at the end
	Quiet()
	if got := os.Getenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING"); got != "true" {
		t.Fatalf("the variable is %q, want true", got)
	}
}
