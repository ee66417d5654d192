package netsim

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestPresetTable(t *testing.T) {
	ms := time.Millisecond
	want := []struct {
		name            string
		latency, jitter time.Duration
		loss            float64
		bursts          bool
	}{
		{"perfect", 0, 0, 0, false},
		{"lan", 5 * ms, 1 * ms, 0, false},
		{"good", 40 * ms, 6 * ms, 0.002, false},
		{"average", 100 * ms, 15 * ms, 0.02, false},
		{"bad", 250 * ms, 30 * ms, 0.10, false},
		{"terrible", 500 * ms, 50 * ms, 0.25, true},
		{"outage", 1000 * ms, 100 * ms, 0.50, true},
	}
	ps := Presets()
	if len(ps) != len(want) {
		t.Fatalf("%d presets, want %d", len(ps), len(want))
	}
	for i, w := range want {
		p := ps[i]
		c := p.Conditions
		if p.Key != i+1 || p.Name != w.name || c.Latency != w.latency || c.Jitter != w.jitter || c.Loss != w.loss {
			t.Errorf("preset %d = %+v, want key %d %+v", i, p, i+1, w)
		}
		if (c.BurstLen > 1) != w.bursts {
			t.Errorf("preset %s: BurstLen %v, bursts want %v", p.Name, c.BurstLen, w.bursts)
		}
		if c.Duplicate != 0 || c.InOrder || c.Bandwidth != 0 {
			t.Errorf("preset %s: unexpected extras %+v", p.Name, c)
		}
		byName, err := PresetByName(w.name)
		if err != nil || byName != p {
			t.Errorf("PresetByName(%q) = %+v, %v", w.name, byName, err)
		}
		byKey, err := PresetByKey(i + 1)
		if err != nil || byKey != p {
			t.Errorf("PresetByKey(%d) = %+v, %v", i+1, byKey, err)
		}
	}
}

func TestPresetsReturnsCopy(t *testing.T) {
	a := Presets()
	a[0].Name = "changed"
	a[0].Conditions.Loss = 1
	if b := Presets(); b[0].Name != "perfect" || b[0].Conditions.Loss != 0 {
		t.Errorf("modifying Presets() changed the table: %+v", b[0])
	}
}

func TestPresetByNameLenient(t *testing.T) {
	for _, n := range []string{"Average", " average ", "AVERAGE"} {
		if p, err := PresetByName(n); err != nil || p.Name != "average" {
			t.Errorf("PresetByName(%q) = %+v, %v", n, p, err)
		}
	}
}

func TestPresetUnknown(t *testing.T) {
	_, err := PresetByName("dialup")
	if err == nil {
		t.Fatal("PresetByName(dialup) succeeded")
	}
	msg := err.Error()
	if !strings.Contains(msg, `"dialup"`) {
		t.Errorf("error %q does not quote the name", msg)
	}
	for _, p := range Presets() {
		if !strings.Contains(msg, p.Name) {
			t.Errorf("error %q does not list %s", msg, p.Name)
		}
	}
	for _, k := range []int{0, 8, -1} {
		if _, err := PresetByKey(k); err == nil || !strings.Contains(err.Error(), "want 1 to 7") {
			t.Errorf("PresetByKey(%d) error = %v", k, err)
		}
	}
}

// lossSigma is the standard deviation of the measured loss rate over n
// packets. Independent loss is binomial: sqrt(L(1-L)/n). A two-state chain
// with second eigenvalue lambda = 1-p-r inflates the variance of a long-run
// average by (1+lambda)/(1-lambda).
func lossSigma(c Conditions, n int) float64 {
	l := c.Loss
	v := l * (1 - l) / float64(n)
	if c.BurstLen > 1 && l > 0 && l < 1 {
		var m lossModel
		m.configure(l, c.BurstLen)
		lambda := 1 - m.p - m.r
		v *= (1 + lambda) / (1 - lambda)
	}
	return math.Sqrt(v)
}

// TestPresetStatistics sends 200,000 packets at 64 Hz through each preset
// with a fixed seed and compares the measurements with the configuration.
//
// Tolerances are 5 standard deviations, so a correct model fails for
// fewer than 1 seed in a million while a wrong rate or mean shows at once:
//   - loss rate: lossSigma (binomial, inflated for bursts). For "good"
//     (0.2%) that is 0.2% ± 0.05%; for "outage" 50% ± 1.2%.
//   - mean delay: uniform jitter has sd J/sqrt(3), so the mean of n
//     delays has sd J/sqrt(3n): ±0.6 ms at most ("outage").
//   - sd of the delays: J/sqrt(3) within 1% (the sample sd of a uniform
//     variable has relative sd sqrt(0.8/n)/2 ≈ 0.1%).
//   - every delay lies in [Latency-Jitter, Latency+Jitter], exactly.
func TestPresetStatistics(t *testing.T) {
	const n = 200_000
	for _, p := range Presets() {
		t.Run(p.Name, func(t *testing.T) {
			c := p.Conditions
			l := mustLink(t, c, 20240601)
			d := stream(t, l, n, time.Second/64)
			s := l.Stats()
			checkBalance(t, l)
			if s.Sent != n || s.Delivered != uint64(len(d)) || s.Duplicated != 0 || s.QueueDropped != 0 {
				t.Fatalf("stats %+v for %d sends, %d received", s, n, len(d))
			}
			loss := float64(s.Lost) / n
			if tol := 5 * lossSigma(c, n); math.Abs(loss-c.Loss) > tol {
				t.Errorf("loss %.5f, want %.5f ± %.5f", loss, c.Loss, tol)
			}

			var sum, sumSq float64
			lo, hi := time.Duration(math.MaxInt64), time.Duration(0)
			for _, x := range d {
				delay := x.deliver - x.sent
				lo, hi = min(lo, delay), max(hi, delay)
				f := float64(delay)
				sum += f
				sumSq += f * f
			}
			k := float64(len(d))
			mean := sum / k
			sd := math.Sqrt(sumSq/k - mean*mean)
			j := float64(c.Jitter)
			if tol := 5 * j / math.Sqrt(3*k); math.Abs(mean-float64(c.Latency)) > tol {
				t.Errorf("mean delay %v, want %v ± %v", time.Duration(mean), c.Latency, time.Duration(tol))
			}
			if want := j / math.Sqrt(3); math.Abs(sd-want) > 0.01*want {
				t.Errorf("delay sd %v, want %v ± 1%%", time.Duration(sd), time.Duration(want))
			}
			if lo < c.Latency-c.Jitter || hi > c.Latency+c.Jitter {
				t.Errorf("delays span [%v, %v], want within %v ± %v", lo, hi, c.Latency, c.Jitter)
			}
			t.Logf("loss %.4f%% (want %.4g%%), mean delay %v, sd %v, range [%v, %v], reordered %d",
				100*loss, 100*c.Loss, time.Duration(mean), time.Duration(sd), lo, hi, reorders(d))
		})
	}
}
