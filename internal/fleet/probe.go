package fleet

import (
	"time"

	"github.com/cubelab/cube/internal/serve"
)

// Probe is the serve.Probe that feeds a run's health, its metrics (when
// set) and its Agones lifecycle (when set).
type Probe struct {
	Health  *Health
	Metrics *Metrics   // nil: no metrics
	Agones  *Lifecycle // nil: not under Agones
	started bool
}

// Start readies the probe before the run: the lifecycle's goroutine
// waits for the server to take players.
func (p *Probe) Start() {
	if p.Agones != nil && !p.started {
		p.started = true
		p.Agones.start()
	}
}

// Serving implements serve.Probe.
func (p *Probe) Serving(string) {
	p.Health.serving()
	if p.Agones != nil {
		close(p.Agones.serving)
	}
}

// Turned implements serve.Probe.
func (p *Probe) Turned(d time.Duration, read func(*serve.Counters)) {
	p.Health.turned()
	if p.Metrics != nil {
		p.Metrics.turned(d, read)
	}
}

// Stopped implements serve.Probe: the final counters, then Shutdown,
// which it waits for so that the process does not exit before Agones
// hears it.
func (p *Probe) Stopped(c *serve.Counters, _ string) {
	p.Health.stopped()
	if p.Metrics != nil {
		p.Metrics.set(c)
	}
	p.Close()
}

// Close ends the lifecycle if it is still running (a run that failed
// before it stopped): Shutdown goes out. It may be called again.
func (p *Probe) Close() {
	if p.Agones == nil || !p.started {
		return
	}
	p.started = false
	close(p.Agones.stop)
	<-p.Agones.done
}
