package fleet

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/cubelab/cube/internal/agones"
)

// HealthEvery is how often the server pings Agones while its turns
// advance; a GameServer's health.periodSeconds must leave room for it.
const HealthEvery = 2 * time.Second

// Lifecycle drives the Agones calls of one run: Ready once the server
// takes players (again at each tick until the sidecar answers, since it
// may start after the server), Health at each tick while turns advance
// and none while they do not, Shutdown when the run ends.
type Lifecycle struct {
	SDK    *agones.SDK
	Health *Health
	// Ticks, when set, replaces the HealthEvery ticker (tests); each
	// tick's time is the moment health is judged at.
	Ticks <-chan time.Time
	Log   io.Writer // failed calls, one line each

	serving, stop chan struct{}
	done          chan struct{}
	// tickDone, when set (tests), is called once a tick has been dealt
	// with.
	tickDone func()
}

// start runs the lifecycle's goroutine.
func (l *Lifecycle) start() {
	l.serving, l.stop, l.done = make(chan struct{}), make(chan struct{}), make(chan struct{})
	go l.run()
}

func (l *Lifecycle) run() {
	defer close(l.done)
	ticks := l.Ticks
	if ticks == nil {
		t := time.NewTicker(HealthEvery)
		defer t.Stop()
		ticks = t.C
	}
	select {
	case <-l.serving:
	case <-l.stop:
		select {
		case <-l.serving: // a server that listened says Ready before Shutdown
		default:
			l.call("shutdown", l.SDK.Shutdown)
			return
		}
	}
	ready := l.call("ready", l.SDK.Ready)
	failed := false // a health ping failed: say so once until one goes through
	for {
		select {
		case at := <-ticks:
			switch {
			case !ready:
				ready = l.call("ready", l.SDK.Ready)
			case l.Health.HealthyAt(at):
				err := l.SDK.Health(context.Background())
				if err != nil && !failed {
					fmt.Fprintf(l.Log, "agones: health ping failed: %v\n", err)
				}
				failed = err != nil
			}
			if l.tickDone != nil {
				l.tickDone()
			}
		case <-l.stop:
			l.call("shutdown", l.SDK.Shutdown)
			return
		}
	}
}

// call makes one call and reports its failure.
func (l *Lifecycle) call(what string, f func(context.Context) error) bool {
	if err := f(context.Background()); err != nil {
		fmt.Fprintf(l.Log, "agones: %s failed: %v\n", what, err)
		return false
	}
	return true
}
