package main

import (
	"io"
	"net"
	"os"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/cubelab/cube/internal/fleet"
	"github.com/goccy/go-yaml"
)

// gameServerSpec is the part of an Agones GameServer's spec the server
// must agree with.
type gameServerSpec struct {
	Ports []struct {
		Name          string `yaml:"name"`
		PortPolicy    string `yaml:"portPolicy"`
		ContainerPort int    `yaml:"containerPort"`
		Protocol      string `yaml:"protocol"`
	} `yaml:"ports"`
	Health struct {
		Disabled            bool `yaml:"disabled"`
		InitialDelaySeconds int  `yaml:"initialDelaySeconds"`
		PeriodSeconds       int  `yaml:"periodSeconds"`
		FailureThreshold    int  `yaml:"failureThreshold"`
	} `yaml:"health"`
	Template struct {
		Metadata struct {
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"metadata"`
		Spec struct {
			Containers []struct {
				Name  string   `yaml:"name"`
				Image string   `yaml:"image"`
				Args  []string `yaml:"args"`
				Ports []struct {
					Name          string `yaml:"name"`
					ContainerPort int    `yaml:"containerPort"`
					Protocol      string `yaml:"protocol"`
				} `yaml:"ports"`
			} `yaml:"containers"`
		} `yaml:"spec"`
	} `yaml:"template"`
}

type manifest[S any] struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec S `yaml:"spec"`
}

type fleetSpec struct {
	Replicas int `yaml:"replicas"`
	Template struct {
		Spec gameServerSpec `yaml:"spec"`
	} `yaml:"template"`
}

type autoscalerSpec struct {
	FleetName string `yaml:"fleetName"`
	Policy    struct {
		Type   string `yaml:"type"`
		Buffer struct {
			BufferSize  int `yaml:"bufferSize"`
			MinReplicas int `yaml:"minReplicas"`
			MaxReplicas int `yaml:"maxReplicas"`
		} `yaml:"buffer"`
	} `yaml:"policy"`
}

// readManifest parses deploy/agones/name into the fields the test
// checks (the others are Kubernetes's own: resources, scheduling).
func readManifest[S any](t *testing.T, name string) manifest[S] {
	t.Helper()
	b, err := os.ReadFile("../../deploy/agones/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var m manifest[S]
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// checkGameServer holds a GameServer spec to cube server's flags and
// health: the container's args parse as cube server's, the UDP port it
// listens on is the GameServer's containerPort, -agones is on (or Agones
// never hears Ready), the metrics port is declared and annotated, and
// Agones's health check leaves room for a ping every fleet.HealthEvery.
func checkGameServer(t *testing.T, name string, s *gameServerSpec) {
	t.Helper()
	if len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("%s: %d containers, want 1", name, len(s.Template.Spec.Containers))
	}
	c := s.Template.Spec.Containers[0]
	f, err := parseServeFlags(c.Args, io.Discard)
	if err != nil {
		t.Fatalf("%s: args %q are not cube server's: %v", name, c.Args, err)
	}
	host, port, _ := net.SplitHostPort(f.listen)
	if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
		t.Errorf("%s: -listen %s: the pod's port is reached from outside; want 0.0.0.0 or [::]", name, f.listen)
	}
	if len(s.Ports) != 1 || strconv.Itoa(s.Ports[0].ContainerPort) != port || s.Ports[0].Protocol != "UDP" {
		t.Errorf("%s: ports %+v; the server listens on UDP %s", name, s.Ports, port)
	}
	if !f.fleet.agones || !f.fleet.exitWhenEmpty {
		t.Errorf("%s: args %q: want -agones and -exit-when-empty", name, c.Args)
	}
	if f.scene.workers.n != 1 {
		t.Errorf("%s: -workers %d: a fleet's server steps on one worker (sessions are the fleet's parallelism)", name, f.scene.workers.n)
	}
	if f.seconds != 0 {
		t.Errorf("%s: -seconds %v: a fleet's server runs until its session ends", name, f.seconds)
	}
	if f.fleet.metrics != "" {
		_, mport, _ := net.SplitHostPort(f.fleet.metricsAddr())
		ok := slices.ContainsFunc(c.Ports, func(p struct {
			Name          string `yaml:"name"`
			ContainerPort int    `yaml:"containerPort"`
			Protocol      string `yaml:"protocol"`
		}) bool {
			return strconv.Itoa(p.ContainerPort) == mport && p.Protocol == "TCP"
		})
		if !ok || s.Template.Metadata.Annotations["prometheus.io/port"] != mport {
			t.Errorf("%s: -metrics %s: its TCP port is not the container's and the annotation's (%+v, %v)", name, f.fleet.metrics, c.Ports, s.Template.Metadata.Annotations)
		}
	}
	h := s.Health
	period := time.Duration(h.PeriodSeconds) * time.Second
	if h.Disabled || period < fleet.HealthEvery || h.FailureThreshold < 1 || h.InitialDelaySeconds < 1 {
		t.Errorf("%s: health %+v: want it on, a period of at least %v (the server's ping), a threshold and an initial delay", name, h, fleet.HealthEvery)
	}
}

// TestAgonesManifests: deploy/agones's GameServer, Fleet and
// FleetAutoscaler parse, agree with cube server and with one another.
func TestAgonesManifests(t *testing.T) {
	gs := readManifest[gameServerSpec](t, "gameserver.yaml")
	if gs.APIVersion != "agones.dev/v1" || gs.Kind != "GameServer" {
		t.Errorf("gameserver.yaml: %s %s", gs.APIVersion, gs.Kind)
	}
	checkGameServer(t, "gameserver.yaml", &gs.Spec)

	fl := readManifest[fleetSpec](t, "fleet.yaml")
	if fl.APIVersion != "agones.dev/v1" || fl.Kind != "Fleet" || fl.Spec.Replicas < 1 {
		t.Errorf("fleet.yaml: %s %s, %d replicas", fl.APIVersion, fl.Kind, fl.Spec.Replicas)
	}
	checkGameServer(t, "fleet.yaml", &fl.Spec.Template.Spec)
	if !reflect.DeepEqual(fl.Spec.Template.Spec, gs.Spec) {
		t.Errorf("fleet.yaml's GameServer template differs from gameserver.yaml:\n%+v\n%+v", fl.Spec.Template.Spec, gs.Spec)
	}

	as := readManifest[autoscalerSpec](t, "fleetautoscaler.yaml")
	b := as.Spec.Policy.Buffer
	if as.APIVersion != "autoscaling.agones.dev/v1" || as.Kind != "FleetAutoscaler" || as.Spec.FleetName != fl.Metadata.Name || as.Spec.Policy.Type != "Buffer" {
		t.Errorf("fleetautoscaler.yaml: %s %s for fleet %q, policy %q; want a Buffer policy for %q", as.APIVersion, as.Kind, as.Spec.FleetName, as.Spec.Policy.Type, fl.Metadata.Name)
	}
	if b.BufferSize < 1 || b.MinReplicas < b.BufferSize || b.MaxReplicas < b.MinReplicas {
		t.Errorf("fleetautoscaler.yaml: buffer %+v: want 1 <= bufferSize <= minReplicas <= maxReplicas", b)
	}
}
