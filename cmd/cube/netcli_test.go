package main

import (
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cubelab/cube/internal/netclient"
	"github.com/cubelab/cube/internal/runctl"
)

// freePort returns a loopback UDP address nothing listens on.
func freePort(t *testing.T) string {
	t.Helper()
	u, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	addr := u.LocalAddr().String()
	u.Close()
	return addr
}

// oneLine checks that a failure said one line on stderr and nothing on
// stdout, with no stack trace.
func oneLine(t *testing.T, what string, code, want int, out, errs, contains string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
	if code != want || out != "" || strings.Contains(errs, "goroutine") || !strings.Contains(errs, contains) {
		t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", what, code, out, errs, want, contains)
	}
	// A usage error adds its "run 'cube X -h'" line.
	if n := len(lines); n != 1 && (want != 2 || n != 2) {
		t.Errorf("%s: %d lines on stderr: %q", what, n, errs)
	}
}

func TestClientAgainstADeadAddress(t *testing.T) {
	t.Parallel()
	addr := freePort(t)
	code, out, errs := runCube("client", "-connect", addr, "-pin", strings.Repeat("ab", 32), "-seconds", "1")
	oneLine(t, "dead address", code, 1, out, errs, "no answer from "+addr)
}

func TestInsecureOnlyForLoopback(t *testing.T) {
	code, out, errs := runCube("client", "-connect", "192.0.2.1:4242", "-insecure")
	oneLine(t, "-insecure to a remote address", code, 2, out, errs, "only for loopback")
	code, out, errs = runCube("client", "-connect", "[2001:db8::1]:4242", "-insecure")
	oneLine(t, "-insecure to a remote IPv6 address", code, 2, out, errs, "only for loopback")
}

func TestNetworkFlagsAreRefusedWithTheValidRange(t *testing.T) {
	pin := strings.Repeat("0", 64)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"server", "-max-players", "9"}, "want 1 to 8"},
		{[]string{"server", "-max-players", "0"}, "want 1 to 8"},
		{[]string{"server", "-snapshot-hz", "3"}, "[64 32 16 8 4 2 1]"},
		{[]string{"server", "-seconds", "-1"}, "want 0 (until a signal) to"},
		{[]string{"server", "-budget-kbps", "NaN"}, "want 0 (none) to 1000000"},
		{[]string{"server", "-listen", "nowhere"}, "want HOST:PORT"},
		{[]string{"server", "-listen", "127.0.0.1:70000"}, "from 0 to 65535"},
		{[]string{"server", "-sync", "telepathy"}, "want state or inputs"},
		{[]string{"server", "-scene", "moon"}, "want one of arena"},
		{[]string{"server", "-scene", "drop", "-bodies", "3"}, "want 8 to 4096"},
		{[]string{"server", "-full-every", "0"}, "want 1 to 65536"},
		{[]string{"server", "-per-address", "0"}, "want 1 to 64"},
		{[]string{"client"}, "want -connect HOST:PORT and -pin PIN"},
		{[]string{"client", "-connect", "127.0.0.1:0", "-pin", pin}, "from 1 to 65535"},
		{[]string{"client", "-connect", "127.0.0.1:4242"}, "needs -pin"},
		{[]string{"client", "-connect", "127.0.0.1:4242", "-pin", "cafe"}, "want 64"},
		{[]string{"client", "-connect", "127.0.0.1:4242", "-pin", pin, "-preset", "mars"}, "1 perfect, 2 lan"},
		{[]string{"client", "-connect", "127.0.0.1:4242", "-pin", pin, "-seconds", "-2"}, "want 0 to"},
		{[]string{"client", "-connect", "127.0.0.1:4242", "-pin", pin, "-max-players", "12"}, "want 1 to 8"},
		{[]string{"client", "-connect", "127.0.0.1:4242", "-pin", pin, "-inject-nondeterminism", "-1"}, "want a whole number"},
	}
	for _, c := range cases {
		code, out, errs := runCube(c.args...)
		oneLine(t, strings.Join(c.args, " "), code, 2, out, errs, c.want)
	}
}

func TestAddressInUse(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	code, out, errs := runCube("server", "-listen", srv.addr)
	oneLine(t, "a second server on "+srv.addr, code, 1, out, errs, "is in use")
}

// TestReconnectAndRefusals: on a server with one slot, a second client is
// refused while the first plays, so is a client of another scene; once
// the first has gone, a new client takes the freed slot; both that played
// end in sync.
func TestReconnectAndRefusals(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	t.Parallel()
	srv := startServer(t, "-max-players", "1", "-json")
	var first clientResult
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		first = runTestClient(srv, "-max-players", "1", "-preset", "average", "-seconds", "6", "-seed", "1")
	}()
	time.Sleep(2 * time.Second)
	full := runTestClient(srv, "-max-players", "1", "-seconds", "1")
	oneLine(t, "a client of a full server", full.code, 1, full.out, full.errs, "refused this client: it is full")
	other := runTestClient(srv, "-max-players", "1", "-scene", "stack", "-seconds", "1")
	oneLine(t, "a client of another scene", other.code, 1, other.out, other.errs, "refused this client: it runs another scene")
	// The refused client is told what the server runs.
	if !strings.Contains(other.errs, "the server runs arena (1 player) in state sync") {
		t.Errorf("the refusal does not say what the server runs: %q", other.errs)
	}
	wg.Wait()
	first.check(t, "the first client")
	second := runTestClient(srv, "-max-players", "1", "-preset", "average", "-seconds", "4", "-seed", "2")
	second.check(t, "the client in the freed slot")
	if second.report.Transfers == 0 {
		t.Error("the client in the freed slot did not start from a transfer")
	}
	time.Sleep(500 * time.Millisecond) // the server sees the client's close
	m := srv.stop(t)
	if m.Players.Joined != 2 || m.Players.Left != 2 || m.Players.NeverJoined != 2 || m.Players.Peak != 1 {
		t.Errorf("players %+v, want 2 joined, 2 left, 2 never joined, at most 1 at once", m.Players)
	}
	for _, p := range m.PerPlayer {
		if p.Slot != 0 || p.How != "closed by the client" {
			t.Errorf("player record %+v", p)
		}
	}
}

// TestServerRecordReplays: a record `cube server -record` made with three
// players replays on this machine.
func TestServerRecordReplays(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	t.Parallel()
	path := filepath.Join(t.TempDir(), "net.rec")
	srv := startServer(t, "-record", path, "-full-every", "16", "-json")
	var wg sync.WaitGroup
	results := make([]clientResult, 3)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 700 * time.Millisecond) // join at different ticks
			results[i] = runTestClient(srv, "-preset", "lan", "-seconds", "3", "-seed", string(rune('1'+i)))
		}()
	}
	wg.Wait()
	for i := range results {
		results[i].check(t, "client "+string(rune('0'+i)))
	}
	m := srv.stop(t)
	if m.Players.Joined != 3 || m.Record != path {
		t.Fatalf("summary %+v", m)
	}
	code, out, errs := runCube("replay", path)
	if code != 0 || !strings.HasPrefix(out, "ok ") {
		t.Fatalf("replay: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	t.Logf("replay: %s", strings.TrimSpace(out))
}

// TestClientInterruptedAndServerGone: a client stopped by SIGINT prints
// its summary so far and exits 130; a client whose server stops says so
// in one line and exits 1.
func TestClientInterruptedAndServerGone(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	t.Parallel()
	srv := startServer(t)
	ctl := runctl.Quiet()
	var out, errs syncBuffer
	done := make(chan int)
	go func() {
		done <- runCommand("client", func(a []string, o, e io.Writer) error { return connect(a, o, e, ctl) },
			[]string{"-connect", srv.addr, "-pin", srv.pin, "-seconds", "60", "-json"}, &out, &errs)
	}()
	time.Sleep(2 * time.Second)
	ctl.Deliver(os.Interrupt)
	code := <-done
	var rep netclient.Report
	if err := json.Unmarshal([]byte(out.String()), &rep); err != nil || code != 130 || !rep.Interrupted || rep.Ticks == 0 ||
		!strings.Contains(errs.String(), "stopped by interrupt") {
		t.Fatalf("interrupted client: exit %d, stdout %q, stderr %q, %v", code, out.String(), errs.String(), err)
	}
	go func() {
		r := runTestClient(srv, "-seconds", "60")
		done <- r.code
		oneLine(t, "a client whose server stopped", r.code, 1, r.out, r.errs, "closed the connection: server closed")
	}()
	time.Sleep(2 * time.Second)
	srv.ctl.Deliver(syscall.SIGINT)
	<-srv.done
	if srv.code != 0 {
		t.Errorf("server stopped by SIGINT: exit %d, %s", srv.code, srv.errs.String())
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the client did not notice its server had gone")
	}
}
