package main

import (
	"fmt"
	"io"
	"net"
	"time"

	"github.com/cubelab/cube/internal/agones"
	"github.com/cubelab/cube/internal/buildinfo"
	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/internal/fleet"
)

// fleetFlags are cube server's flags for running in a fleet: metrics,
// health, the Agones lifecycle.
type fleetFlags struct {
	metrics       string
	agones        bool
	exitWhenEmpty bool
}

func (f *fleetFlags) register(fs *cli.Flags) {
	fs.StringVar(&f.metrics, "metrics", "", "serve Prometheus metrics on http://ADDR/metrics, with /healthz and /readyz beside them (TCP HOST:PORT; an empty host means 127.0.0.1, 0.0.0.0:PORT lets other machines scrape); off when empty")
	fs.BoolVar(&f.agones, "agones", false, "run under Agones: Ready once listening, Health every 2 s while turns advance, Shutdown when the server stops; the SDK sidecar's REST gateway on localhost, port from "+agones.PortEnv+" (default 9358)")
	fs.BoolVar(&f.exitWhenEmpty, "exit-when-empty", false, "stop once the last player has left, after at least one joined (one session per process, as a fleet runs it)")
}

// check refuses a -metrics that is no TCP address.
func (f *fleetFlags) check() error {
	if f.metrics == "" {
		return nil
	}
	return checkHostPort("-metrics", f.metrics, 0)
}

// metricsAddr is -metrics with an empty host made loopback.
func (f *fleetFlags) metricsAddr() string {
	host, port, _ := net.SplitHostPort(f.metrics)
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// start builds the run's probe and binds its HTTP server; stop closes
// both. With neither -metrics nor -agones it returns a nil probe.
func (f *fleetFlags) start(stderr io.Writer, getenv func(string) string) (probe *fleet.Probe, stop func(), err error) {
	if f.metrics == "" && !f.agones {
		return nil, func() {}, nil
	}
	p := &fleet.Probe{Health: fleet.NewHealth(time.Now)}
	var srv *fleet.Server
	if f.metrics != "" {
		p.Metrics = fleet.NewMetrics(buildinfo.Line(version, commit))
		srv, err = fleet.Listen(f.metricsAddr(), fleet.Handler(p.Health, p.Metrics))
		if err != nil {
			return nil, nil, exitError{code: 1, msg: fmt.Sprintf("-metrics %s: %v", f.metrics, err)}
		}
		fmt.Fprintf(stderr, "metrics on http://%s/metrics, health on /healthz and /readyz\n", srv.Addr())
	}
	if f.agones {
		sdk, err := agones.FromEnv(getenv)
		if err != nil {
			if srv != nil {
				_ = srv.Close()
			}
			return nil, nil, exitError{code: 1, msg: err.Error()}
		}
		p.Agones = &fleet.Lifecycle{SDK: sdk, Health: p.Health, Log: stderr}
	}
	p.Start()
	return p, func() {
		p.Close()
		if srv != nil {
			_ = srv.Close()
		}
	}, nil
}
