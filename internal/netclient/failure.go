package netclient

import (
	"errors"
	"fmt"

	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session/summarytext"
	"github.com/cubelab/cube/transport"
)

// Failure returns the one line that says why a turn of client c against
// the server at addr failed, when the server refused the client, the
// connection was lost or no state came to start from; ok is false for
// any other error.
func Failure(err error, addr string, c *predict.Client) (msg string, ok bool) {
	var refused *predict.RefusedError
	if errors.As(err, &refused) {
		return fmt.Sprintf("the server at %s refused this client: %s (this client built %s in %s)",
			addr, refused.Why, c.Scene().ID, summarytext.SyncName(c.Config.Mode)), true
	}
	var lost *transport.LostError
	if errors.As(err, &lost) {
		return lost.Error(), true
	}
	var none *NoStateError
	if errors.As(err, &none) {
		return none.Error(), true
	}
	return "", false
}
