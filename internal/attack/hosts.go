package attack

import (
	"fmt"
	"net"
)

// MaxHosts is how many loopback hosts Host names.
const MaxHosts = 250 * 256

// Host returns the i-th of the attacker's many loopback hosts (i modulo
// MaxHosts), 127.10.0.1 onward, none ending in 0 or 255: each is another
// host as the server sees it. Linux routes the whole of 127.0.0.0/8 to
// the loopback interface, so any of them can be bound without set-up.
func Host(i int) string {
	i %= MaxHosts
	if i < 0 {
		i += MaxHosts
	}
	return fmt.Sprintf("127.10.%d.%d", i/250, i%250+1)
}

// hostAddr returns the UDP address to bind on host i, any port, or an
// error if it is not a loopback one.
func hostAddr(i int) (*net.UDPAddr, error) {
	ip := net.ParseIP(Host(i))
	if ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("attack: %s is not a loopback address: the attacks stay on this machine", Host(i))
	}
	return &net.UDPAddr{IP: ip}, nil
}
