package lab

import (
	"errors"

	"github.com/cubelab/cube/predict"
)

// lostQuit is the last line of a lost connection's banner: how to leave.
const lostQuit = "Esc or closing the window quits (exit status 1)"

// lostBanner returns the window's banner for a connection that ended,
// refused or lost: a title, the reason in full (the banner wraps it), and
// how to leave. It returns "" while the connection stands.
func (l *Lab) LostBanner() string {
	r, ok := l.play.(*Remote)
	if !ok || r.lost == nil {
		return ""
	}
	title := "CONNECTION LOST"
	if errors.Is(r.cause, predict.ErrRefused) {
		title = "REFUSED BY THE SERVER"
	}
	return title + "\n" + r.lost.Error() + "\n" + lostQuit
}

// lostNews returns what ended the connection the first time it is asked
// after the connection ended, and nil before and after: the window prints
// it on stderr when it happens, not only when the window closes.
func (l *Lab) LostNews() error {
	r, ok := l.play.(*Remote)
	if !ok || r.lost == nil || r.told {
		return nil
	}
	r.told = true
	return r.lost
}
