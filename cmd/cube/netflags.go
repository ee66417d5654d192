package main

import (
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/internal/netclient"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/transport"
)

// netSceneFlags choose the world a server runs; its clients must give the
// same ones, which the server checks (the Hello carries the scene's
// identity): the scene, its bodies, quantisation, the player slots and the
// sync mode.
type netSceneFlags struct {
	scene      string
	bodies     int
	quantize   bool
	maxPlayers int
	sync       string
	workers    workersFlag
}

func (f *netSceneFlags) register(fs *cli.Flags) {
	fs.StringVar(&f.scene, "scene", "arena", "scene: "+strings.Join(game.Names(), ", ")+" (client and server must agree)")
	fs.IntVar(&f.bodies, "bodies", 0, fmt.Sprintf("with -scene drop: number of cubes, 1 to %d (0: %d)", game.MaxDropBodies, game.DefaultDropBodies))
	fs.BoolVar(&f.quantize, "quantize", false, "both ends put every moving body on a grid after each step (client and server must agree)")
	fs.IntVar(&f.maxPlayers, "max-players", game.MaxPlayers, fmt.Sprintf("player slots of the server's world, 1 to %d: part of the scene, so client and server must agree", game.MaxPlayers))
	fs.StringVar(&f.sync, "sync", "state", "state (snapshots of body states) or inputs (the inputs and events the server applied, and a hash); client and server must agree")
	f.workers.register(fs)
}

// check validates the flags and returns the scene's options and the mode.
func (f *netSceneFlags) check() (game.Options, predict.Mode, error) {
	_, o, err := sceneConfig(f.scene, f.bodies)
	if err != nil {
		return o, 0, err
	}
	if f.maxPlayers < 1 || f.maxPlayers > game.MaxPlayers {
		return o, 0, cli.Usagef("-max-players %d is out of range: want 1 to %d", f.maxPlayers, game.MaxPlayers)
	}
	if err := checkDropPlayers(f.scene, f.bodies, f.maxPlayers); err != nil {
		return o, 0, err
	}
	if err := f.workers.check(); err != nil {
		return o, 0, err
	}
	o.Players, o.Quantize = f.maxPlayers, f.quantize
	mode, err := syncMode(f.sync)
	return o, mode, err
}

// build checks the flags and builds the world.
func (f *netSceneFlags) build() (*physics.World, *game.Scene, predict.Mode, error) {
	o, mode, err := f.check()
	if err != nil {
		return nil, nil, 0, err
	}
	w, sc, err := game.Build(f.scene, f.workers.config(), o)
	if err != nil {
		return nil, nil, 0, err
	}
	return w, sc, mode, nil
}

// syncMode parses -sync.
func syncMode(s string) (predict.Mode, error) {
	switch s {
	case "state":
		return predict.StateSync, nil
	case "inputs":
		return predict.InputSync, nil
	}
	return 0, cli.Usagef("-sync %q: want state or inputs", s)
}

// checkHostPort refuses an address that is not HOST:PORT with a port from
// minPort to 65535.
func checkHostPort(flag, addr string, minPort int) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return cli.Usagef("%s %q is not an address: want HOST:PORT, such as 127.0.0.1:4242", flag, addr)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < minPort || n > 65535 {
		return cli.Usagef("%s %q: the port must be a number from %d to 65535", flag, addr, minPort)
	}
	return nil
}

// isLoopback reports whether addr's host is a loopback address
// (127.0.0.0/8, ::1, or a name that resolves to one).
func isLoopback(addr string) bool {
	ua, err := net.ResolveUDPAddr("udp", addr)
	return err == nil && ua.IP.IsLoopback()
}

// connectFlags are the flags of a client that connects to a server: `cube
// client` and `cube window -connect`.
type connectFlags struct {
	addr     string
	pin      string
	insecure bool
}

func (f *connectFlags) register(fs *cli.Flags, what string) {
	fs.StringVar(&f.addr, "connect", "", what)
	fs.StringVar(&f.pin, "pin", "", "the server's pin, printed on its 'listening' line: the SHA-256 fingerprint of its certificate, 64 hex digits")
	fs.BoolVar(&f.insecure, "insecure", false, "without -pin, do not check the server's certificate: for loopback addresses only")
}

// target returns the server the flags name, with seed for the client's
// own link.
func (f *connectFlags) target(seed uint64) netclient.Target {
	return netclient.Target{Addr: f.addr, Pin: f.pin, Insecure: f.insecure, Seed: seed}
}

// check validates the flags, and warns on stderr about -insecure.
func (f *connectFlags) check(stderr io.Writer) error {
	if f.addr == "" {
		return cli.Usagef("no server given: want -connect HOST:PORT and -pin PIN, both printed by 'cube server' on its 'listening' line (or -insecure instead of -pin, for a server on this machine)")
	}
	if err := checkHostPort("-connect", f.addr, 1); err != nil {
		return err
	}
	if f.pin == "" && !f.insecure {
		return cli.Usagef("-connect needs -pin PIN, printed by the server on its 'listening' line (or -insecure, for a server on this machine)")
	}
	if f.pin != "" && f.insecure {
		return cli.Usagef("-pin and -insecure exclude each other: -pin checks the server's certificate, -insecure checks nothing")
	}
	if f.pin != "" {
		if _, err := transport.ParsePin(f.pin); err != nil {
			return cli.Usagef("-pin: %s", strings.TrimPrefix(err.Error(), "transport: "))
		}
	}
	if f.insecure && !isLoopback(f.addr) {
		return cli.Usagef("-insecure is only for loopback addresses (127.0.0.1, ::1), not %s: give the server's -pin", f.addr)
	}
	if f.insecure {
		fmt.Fprintln(stderr, transport.InsecureWarning)
	}
	return nil
}
