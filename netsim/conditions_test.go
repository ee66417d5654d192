package netsim

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestValidateAccepts(t *testing.T) {
	for _, c := range []Conditions{
		{},
		{Latency: MaxDelay, Jitter: MaxDelay, Loss: 1, BurstLen: 1, Duplicate: 1},
		{Loss: 0.3, BurstLen: 1e6, Bandwidth: 1, QueueBytes: 0},
		{Bandwidth: math.MaxInt64, QueueBytes: math.MaxInt},
	} {
		if err := c.Validate(); err != nil {
			t.Errorf("Validate(%+v) = %v, want nil", c, err)
		}
	}
	for _, p := range Presets() {
		if err := p.Conditions.Validate(); err != nil {
			t.Errorf("preset %s: %v", p.Name, err)
		}
	}
}

func TestValidateRefuses(t *testing.T) {
	for _, tc := range []struct {
		c    Conditions
		want string
	}{
		{Conditions{Latency: -time.Millisecond}, "netsim: Latency is -1ms, want a duration in [0, 1h0m0s]"},
		{Conditions{Latency: MaxDelay + 1}, "Latency is 1h0m0.000000001s, want a duration in [0, 1h0m0s]"},
		{Conditions{Jitter: -1}, "netsim: Jitter is -1ns, want a duration in [0, 1h0m0s]"},
		{Conditions{Loss: 1.5}, "netsim: Loss is 1.5, want a probability in [0, 1]"},
		{Conditions{Loss: -0.1}, "netsim: Loss is -0.1, want a probability in [0, 1]"},
		{Conditions{Loss: math.NaN()}, "netsim: Loss is NaN, want a probability in [0, 1]"},
		{Conditions{BurstLen: 0.5}, "netsim: BurstLen is 0.5, want 0 (independent loss) or a finite mean burst length >= 1 packet"},
		{Conditions{BurstLen: -1}, "BurstLen is -1, want 0"},
		{Conditions{BurstLen: math.Inf(1)}, "BurstLen is +Inf, want 0"},
		{Conditions{BurstLen: math.NaN()}, "BurstLen is NaN, want 0"},
		{Conditions{Duplicate: 2}, "netsim: Duplicate is 2, want a probability in [0, 1]"},
		{Conditions{Duplicate: math.Inf(-1)}, "netsim: Duplicate is -Inf, want a probability in [0, 1]"},
		{Conditions{Bandwidth: -5}, "netsim: Bandwidth is -5, want bytes per second >= 0 (0 = unlimited)"},
		{Conditions{QueueBytes: -1}, "netsim: QueueBytes is -1, want bytes >= 0 (0 = unbounded)"},
	} {
		err := tc.c.Validate()
		if err == nil {
			t.Errorf("Validate(%+v) = nil, want %q", tc.c, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %q, want it to contain %q", tc.c, err, tc.want)
		}
		if _, err := NewLink(tc.c, 1); err == nil {
			t.Errorf("NewLink(%+v) succeeded", tc.c)
		}
		if _, err := NewPair(tc.c, 1); err == nil {
			t.Errorf("NewPair(%+v) succeeded", tc.c)
		}
	}
}

// Every bad field is reported, not just the first.
func TestValidateReportsAll(t *testing.T) {
	err := Conditions{Latency: -1, Loss: 2, Duplicate: -1, QueueBytes: -1}.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, f := range []string{"Latency", "Loss", "Duplicate", "QueueBytes"} {
		if !strings.Contains(err.Error(), f+" is") {
			t.Errorf("error %q does not name %s", err, f)
		}
	}
	for _, f := range []string{"Jitter", "BurstLen", "Bandwidth"} {
		if strings.Contains(err.Error(), f+" is") {
			t.Errorf("error %q names valid field %s", err, f)
		}
	}
}

func TestSetConditionsRefusesAndKeeps(t *testing.T) {
	good := Conditions{Latency: 10 * time.Millisecond}
	l, err := NewLink(good, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.SetConditions(Conditions{Loss: math.NaN()}); err == nil {
		t.Fatal("SetConditions accepted NaN loss")
	}
	if l.Conditions() != good {
		t.Errorf("conditions changed to %+v after a refused update", l.Conditions())
	}
}

func TestConditionsString(t *testing.T) {
	for _, tc := range []struct {
		c    Conditions
		want string
	}{
		{Conditions{}, "0s"},
		{presets[3].Conditions, "100ms ±15ms, loss 2%"},
		{presets[2].Conditions, "40ms ±6ms, loss 0.2%"},
		{presets[5].Conditions, "500ms ±50ms, loss 25% in bursts of 4"},
		{Conditions{Latency: time.Millisecond, Duplicate: 0.05, InOrder: true, Bandwidth: 32000, QueueBytes: 4000},
			"1ms, dup 5%, in order, 32000 B/s queue 4000 B"},
	} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}
