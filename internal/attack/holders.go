package attack

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cubelab/cube/transport"
)

// Hold keeps perHost connections open from each of hosts loopback hosts
// (Host(0) onward), dialling each again 20 ms after it closes; the
// connections never send a Hello, so they never hold a slot. Before the
// server evicted such connections for new ones, 64 of them from 4 hosts
// kept every player out.
func Hold(ctx context.Context, t Target, hosts, perHost int) (Result, error) {
	var dials, refused atomic.Uint64
	var wg sync.WaitGroup
	for h := range hosts {
		if _, err := hostAddr(h); err != nil {
			return Result{}, err
		}
		for range perHost {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					dials.Add(1)
					c, err := transport.Dial(ctx, t.Addr, t.Pin, false, &transport.Options{LocalAddr: Host(h) + ":0", HandshakeTimeout: 2 * time.Second})
					if err != nil {
						refused.Add(1)
						sleep(ctx, 20*time.Millisecond)
						continue
					}
					for ctx.Err() == nil && c.Err() == nil {
						_ = c.Receive(0, nil)
						sleep(ctx, 20*time.Millisecond)
					}
					_ = c.Close()
					sleep(ctx, 20*time.Millisecond)
				}
			}()
		}
	}
	wg.Wait()
	return Result{Dials: dials.Load(), Refused: refused.Load()}, nil
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
