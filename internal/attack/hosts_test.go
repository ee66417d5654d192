package attack

import (
	"net"
	"testing"
)

// TestHostsAreManyAndLoopback: the first 64,000 hosts are distinct
// loopback addresses, none a network or broadcast address of its /24,
// and Host wraps instead of leaving 127.0.0.0/8.
func TestHostsAreManyAndLoopback(t *testing.T) {
	seen := make(map[string]bool, MaxHosts)
	for i := range MaxHosts {
		h := Host(i)
		ip := net.ParseIP(h).To4()
		if ip == nil || !ip.IsLoopback() || ip[3] == 0 || ip[3] == 255 || seen[h] {
			t.Fatalf("Host(%d) = %s", i, h)
		}
		seen[h] = true
	}
	if Host(MaxHosts) != Host(0) || Host(-1) != Host(MaxHosts-1) || Host(250) != "127.10.1.1" {
		t.Errorf("Host(%d) = %s, Host(-1) = %s, Host(250) = %s", MaxHosts, Host(MaxHosts), Host(-1), Host(250))
	}
}
