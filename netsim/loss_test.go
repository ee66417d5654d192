package netsim

import (
	"math"
	"testing"
)

// lossRuns feeds n packets through a link with no delay and returns the
// loss rate and the mean length of runs of consecutive lost packets.
func lossRuns(t *testing.T, c Conditions, n int, seed uint64) (rate, meanRun float64) {
	t.Helper()
	l := mustLink(t, c, seed)
	var lost, runs, run int
	for i := range n {
		l.Send(0, []byte{byte(i)})
		if len(l.Receive(0)) == 0 {
			lost++
			run++
			continue
		}
		if run > 0 {
			runs++
			run = 0
		}
	}
	if run > 0 {
		runs++
	}
	if runs == 0 {
		return float64(lost) / float64(n), 0
	}
	return float64(lost) / float64(n), float64(lost) / float64(runs)
}

// At 25% loss over 200,000 packets, independent loss gives runs of mean
// 1/(1-0.25) = 1.33 packets; Gilbert-Elliott with BurstLen 6 gives runs of
// mean 6 (geometric, sd ≈ 5.5, about 8,300 runs: se 0.06, 1%).
// Asserted: the burst runs are at least 3 times longer, both rates stay
// within 5 sd of 25% (see lossSigma), and each mean run is within 5% of
// its theoretical value (5 se for the bursts, ~20 se for independent).
func TestBurstLossMakesLongerRuns(t *testing.T) {
	const n = 200_000
	ind := Conditions{Loss: 0.25}
	bur := Conditions{Loss: 0.25, BurstLen: 6}
	indRate, indRun := lossRuns(t, ind, n, 77)
	burRate, burRun := lossRuns(t, bur, n, 77)
	t.Logf("independent: loss %.4f, mean run %.3f; bursts: loss %.4f, mean run %.3f", indRate, indRun, burRate, burRun)
	if burRun < 3*indRun {
		t.Errorf("burst runs %.2f packets, independent %.2f: want at least 3x longer", burRun, indRun)
	}
	for _, x := range []struct {
		c         Conditions
		rate, run float64
		wantRun   float64
		name      string
	}{
		{ind, indRate, indRun, 1 / (1 - 0.25), "independent"},
		{bur, burRate, burRun, 6, "bursts"},
	} {
		if tol := 5 * lossSigma(x.c, n); math.Abs(x.rate-0.25) > tol {
			t.Errorf("%s: loss %.4f, want 0.25 ± %.4f", x.name, x.rate, tol)
		}
		if math.Abs(x.run-x.wantRun) > 0.05*x.wantRun {
			t.Errorf("%s: mean run %.3f, want %.3f ± 5%%", x.name, x.run, x.wantRun)
		}
	}
}

// The terrible and outage presets must burst: their mean loss runs must
// be at least twice those of independent loss at the same rate and within
// 10% of BurstLen. Over 100,000 packets outage has about 6,250 runs of
// geometric length (sd 7.5), so the mean has se 0.095 (1.2%): 10% is 8 se.
func TestPresetBursts(t *testing.T) {
	for _, name := range []string{"terrible", "outage"} {
		p, _ := PresetByName(name)
		c := p.Conditions
		c.Latency, c.Jitter = 0, 0
		_, run := lossRuns(t, c, 100_000, 3)
		indep := 1 / (1 - c.Loss)
		if run < 2*indep || math.Abs(run-c.BurstLen) > 0.1*c.BurstLen {
			t.Errorf("%s: mean loss run %.2f, want %.0f ± 10%% (independent: %.2f)", name, run, c.BurstLen, indep)
		}
	}
}

// When Loss > BurstLen/(BurstLen+1) the burst is lengthened to
// Loss/(1-Loss) so that the average loss is still Loss: for 90% and
// BurstLen 2, bursts of 9 between single good packets.
func TestBurstLengthRaisedToKeepLoss(t *testing.T) {
	c := Conditions{Loss: 0.9, BurstLen: 2}
	rate, run := lossRuns(t, c, 200_000, 5)
	if tol := 5 * lossSigma(c, 200_000); math.Abs(rate-0.9) > tol {
		t.Errorf("loss %.4f, want 0.9 ± %.4f", rate, tol)
	}
	if math.Abs(run-9) > 0.05*9 {
		t.Errorf("mean run %.2f, want 9 ± 5%%", run)
	}
}

func TestLossExtremes(t *testing.T) {
	for _, c := range []Conditions{{Loss: 1}, {Loss: 1, BurstLen: 5}} {
		if rate, _ := lossRuns(t, c, 1000, 1); rate != 1 {
			t.Errorf("%+v: loss %v, want 1", c, rate)
		}
	}
	for _, c := range []Conditions{{}, {BurstLen: 5}} {
		if rate, _ := lossRuns(t, c, 1000, 1); rate != 0 {
			t.Errorf("%+v: loss %v, want 0", c, rate)
		}
	}
}
