package order

import (
	"maps"
	"math/rand"
	randv2 "math/rand/v2"
	"slices"
	"sync"
	"time"
)

// Bad: random order, clocks, the global source, goroutines.

func bad(m map[int]float64, done chan bool) float64 {
	s := 0.0
	for _, v := range m { // want `maprange: range over a map`
		s += v
	}
	for k := range maps.Keys(m) { // want `maprange: maps.Keys yields a map's entries in a random order`
		s += float64(k)
	}
	go func() { done <- true }() // want `goroutine: a go statement`
	var wg sync.WaitGroup
	wg.Go(func() {}) // want `goroutine: WaitGroup.Go starts a goroutine`
	wg.Wait()
	t := time.Now()              // want `clock: time.Now reads the clock`
	_ = time.Since(t)            // want `clock: time.Since`
	s += rand.Float64()          // want `rand: rand.Float64 uses the global random source`
	s += float64(randv2.IntN(3)) // want `rand: rand.IntN uses the global random source`
	return s
}

// Good: slices, sorted keys, a seeded source, durations.

func good(m map[int]float64, xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s += m[k]
	}
	r := rand.New(rand.NewSource(1))
	s += r.Float64()
	p := randv2.New(randv2.NewPCG(1, 2))
	s += p.Float64()
	d := 16 * time.Millisecond
	return s + d.Seconds()
}
