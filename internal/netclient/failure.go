package netclient

import (
	"errors"
	"fmt"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/session/summarytext"
	"github.com/cubelab/cube/transport"
)

// Failure returns the one line that says why a turn of client c against
// the server at addr failed, when the server refused the client, the
// connection was lost or no state came to start from; ok is false for
// any other error.
func Failure(err error, addr string, c *predict.Client) (msg string, ok bool) {
	return failure(err, addr, c.Scene(), c.Config.Mode)
}

// BotFailure is Failure for bot b of scene sc.
func BotFailure(err error, addr string, b *predict.Bot, sc *game.Scene) (msg string, ok bool) {
	return failure(err, addr, sc, b.Mode())
}

// failure is Failure for a player of scene sc in mode.
func failure(err error, addr string, sc *game.Scene, mode predict.Mode) (msg string, ok bool) {
	var refused *predict.RefusedError
	if errors.As(err, &refused) {
		return fmt.Sprintf("the server at %s refused this client: %s (this client built %s in %s)",
			addr, refused.Why, sc.ID, summarytext.SyncName(mode)), true
	}
	var lost *transport.LostError
	if errors.As(err, &lost) {
		return lost.Error(), true
	}
	var none *session.NoStateError
	if errors.As(err, &none) {
		named := *none
		named.Addr = addr
		return named.Error(), true
	}
	return "", false
}
