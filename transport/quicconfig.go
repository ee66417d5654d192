package transport

import (
	"crypto/tls"

	"github.com/quic-go/quic-go"
)

// ALPN is the application protocol both ends name in the TLS handshake; a
// client that names another is refused during the handshake.
const ALPN = "cube/1"

// InsecureWarning is the line a command should print when it dials with
// insecure set.
const InsecureWarning = "warning: -insecure: the server's certificate is not checked; use it on this machine only"

// Application error codes sent in QUIC CONNECTION_CLOSE frames.
const (
	codeClosed      quic.ApplicationErrorCode = 0 // an orderly close by either side
	codeKicked      quic.ApplicationErrorCode = 1 // Server.Disconnect
	codeNoDatagrams quic.ApplicationErrorCode = 2 // the client cannot carry datagrams
	codeFull        quic.ApplicationErrorCode = 3 // MaxConns connections are open
)

// quicConfig is the quic-go configuration of both ends: datagrams on,
// streams off, and the idle timeout, keep-alive and handshake timeout
// from o. Anti-amplification, connection IDs, keep-alives and timeouts
// are quic-go's.
func quicConfig(o Options) *quic.Config {
	return &quic.Config{
		HandshakeIdleTimeout:  o.HandshakeTimeout,
		MaxIdleTimeout:        o.IdleTimeout,
		KeepAlivePeriod:       o.KeepAlive,
		EnableDatagrams:       true,
		MaxIncomingStreams:    -1,
		MaxIncomingUniStreams: -1,
	}
}

// serverTLS is the server's TLS configuration: its one certificate and
// ALPN, TLS 1.3 only (QUIC requires it).
func serverTLS(cert tls.Certificate) *tls.Config {
	return &tls.Config{
		Certificates: []tls.Certificate{cert},
		NextProtos:   []string{ALPN},
		MinVersion:   tls.VersionTLS13,
	}
}
