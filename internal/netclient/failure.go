package netclient

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cubelab/cube/internal/summarytext"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/transport"
)

// Failure returns the one line that says why a turn of client c against
// the server at addr failed, when the server refused the client or the
// connection was lost; ok is false for any other error.
func Failure(err error, addr string, c *predict.Client) (msg string, ok bool) {
	if errors.Is(err, predict.ErrRefused) {
		why := err.Error()
		if i := strings.Index(why, predict.ErrRefused.Error()+": "); i >= 0 {
			why = why[i+len(predict.ErrRefused.Error())+2:]
		}
		return fmt.Sprintf("the server at %s refused this client: %s (this client built %s in %s)",
			addr, why, c.Scene().ID, summarytext.SyncName(c.Config.Mode)), true
	}
	var lost *transport.LostError
	if errors.As(err, &lost) {
		return lost.Error(), true
	}
	return "", false
}
