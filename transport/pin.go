package transport

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// A pin is the SHA-256 fingerprint of the server's certificate (its DER
// bytes), written as 64 lowercase hex digits. ParsePin also accepts
// uppercase and colons between bytes, the form of
// `openssl x509 -noout -fingerprint -sha256`.

// PinOf returns the pin of a DER-encoded certificate.
func PinOf(der []byte) string {
	sum := sha256.Sum256(der)
	return hex.EncodeToString(sum[:])
}

// ParsePin decodes a pin into the fingerprint it names.
func ParsePin(pin string) ([sha256.Size]byte, error) {
	var fp [sha256.Size]byte
	s := strings.ReplaceAll(strings.TrimSpace(pin), ":", "")
	if len(s) != 2*sha256.Size {
		return fp, errorf(ErrBadPin, nil, "transport: the pin %q has %d hex digits, want %d (the server prints it)", pin, len(s), 2*sha256.Size)
	}
	if _, err := hex.Decode(fp[:], []byte(s)); err != nil {
		return fp, errorf(ErrBadPin, nil, "transport: the pin %q is not hex: %v", pin, err)
	}
	return fp, nil
}

// newCertificate makes a self-signed ECDSA P-256 certificate for a server
// and returns it with its pin. Clients check the pin and nothing else, so
// the names and dates in it matter to no one; it is valid for a year.
func newCertificate() (tls.Certificate, string, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, "", fmt.Errorf("transport: making the server key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return tls.Certificate{}, "", fmt.Errorf("transport: making the certificate serial: %w", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "cube server"},
		DNSNames:              []string{"cube"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, "", fmt.Errorf("transport: making the certificate: %w", err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, PinOf(der), nil
}

// errPinMismatch is what the TLS verifier returns; Dial turns it into a
// clear error.
var errPinMismatch = fmt.Errorf("certificate does not match the pin")

// pinVerifier returns a tls.Config.VerifyPeerCertificate that accepts
// exactly the leaf certificate whose fingerprint is fp, and calls
// mismatch when it refuses one.
func pinVerifier(fp [sha256.Size]byte, mismatch func()) func([][]byte, [][]*x509.Certificate) error {
	return func(raw [][]byte, _ [][]*x509.Certificate) error {
		if len(raw) == 0 {
			mismatch()
			return errPinMismatch
		}
		sum := sha256.Sum256(raw[0])
		if subtle.ConstantTimeCompare(sum[:], fp[:]) != 1 {
			mismatch()
			return errPinMismatch
		}
		return nil
	}
}
