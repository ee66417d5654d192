package transport

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Errors to match with errors.Is. The errors returned carry more context
// in their text.
var (
	// ErrTooLarge: a datagram larger than MaxDatagram.
	ErrTooLarge = errors.New("transport: datagram too large")
	// ErrUnknownPeer: Send or Disconnect to a peer that is not connected.
	ErrUnknownPeer = errors.New("transport: unknown peer")
	// ErrClosed: the server or client was closed by its owner.
	ErrClosed = errors.New("transport: closed")
	// ErrPinMismatch: the server's certificate does not match the pin.
	ErrPinMismatch = errors.New("transport: certificate does not match the pin")
	// ErrBadPin: a pin that is not a SHA-256 fingerprint.
	ErrBadPin = errors.New("transport: malformed pin")
	// ErrInsecureRemote: insecure mode asked for a non-loopback address.
	ErrInsecureRemote = errors.New("transport: insecure mode refused for a non-loopback address")
	// ErrNoAnswer: nothing answered a dial in time.
	ErrNoAnswer = errors.New("transport: no answer")
	// ErrRefused: the server refused the connection or does not speak
	// this protocol.
	ErrRefused = errors.New("transport: connection refused")
)

// LostError is a client's Err once its connection has ended for a reason
// other than its own Close. Its text is one line meant for a user, for
// example
//
//	transport: no answer from the server at 127.0.0.1:4242 for 5s
type LostError struct {
	Addr    string        // the server's address
	Reason  Reason        // ReasonClosed, ReasonTimeout or ReasonError
	Detail  string        // the server's close message, or the error
	Timeout time.Duration // the idle timeout (ReasonTimeout)
}

// Error says in one line what happened to the connection. The server's
// words (its close message) are quoted with their control characters
// escaped and cut at maxDetail bytes: a newline or an escape sequence
// from a server must not reach the user's terminal.
func (e *LostError) Error() string {
	switch e.Reason {
	case ReasonClosed:
		if e.Detail != "" {
			return fmt.Sprintf("transport: the server at %s closed the connection: %s", e.Addr, printable(e.Detail))
		}
		return fmt.Sprintf("transport: the server at %s closed the connection", e.Addr)
	case ReasonTimeout:
		return fmt.Sprintf("transport: no answer from the server at %s for %v", e.Addr, e.Timeout)
	}
	return fmt.Sprintf("transport: lost the connection to the server at %s: %s", e.Addr, printable(e.Detail))
}

// maxDetail bounds the bytes of a server's words an error repeats.
const maxDetail = 200

// printable returns s with every control or non-printable character
// escaped as Go would quote it, cut at maxDetail bytes.
func printable(s string) string {
	if len(s) > maxDetail {
		s = s[:maxDetail] + "..."
	}
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// kindError is an error with its own message that matches a sentinel (and
// its cause, if any) with errors.Is.
type kindError struct {
	msg   string
	kind  error
	cause error
}

func (e *kindError) Error() string { return e.msg }

func (e *kindError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}

// errorf returns an error with the formatted message that matches kind.
func errorf(kind, cause error, format string, args ...any) error {
	return &kindError{msg: fmt.Sprintf(format, args...), kind: kind, cause: cause}
}

// tooLarge is the error for a datagram of n bytes.
func tooLarge(n int) error {
	return errorf(ErrTooLarge, nil, "transport: datagram of %d bytes, want at most %d", n, MaxDatagram)
}

// unknownPeer is the error for a peer that is not connected.
func unknownPeer(p PeerID) error {
	return errorf(ErrUnknownPeer, nil, "transport: peer %d is not connected", p)
}
