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
	if l.Remote == nil || l.Remote.lost == nil {
		return ""
	}
	title := "CONNECTION LOST"
	if errors.Is(l.Remote.cause, predict.ErrRefused) {
		title = "REFUSED BY THE SERVER"
	}
	return title + "\n" + l.Remote.lost.Error() + "\n" + lostQuit
}

// lostNews returns what ended the connection the first time it is asked
// after the connection ended, and nil before and after: the window prints
// it on stderr when it happens, not only when the window closes.
func (l *Lab) LostNews() error {
	if l.Remote == nil || l.Remote.lost == nil || l.Remote.told {
		return nil
	}
	l.Remote.told = true
	return l.Remote.lost
}
