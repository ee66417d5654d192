package tick

import (
	"testing"
	"time"
)

const testTick = 15625 * time.Microsecond

func TestPacerKeepsAnAbsoluteSchedule(t *testing.T) {
	var p Pacer
	elapsed := time.Duration(0)
	for n := range 1000 {
		if d := p.Wait(elapsed, testTick); d > 0 {
			elapsed += d + 300*time.Microsecond // every sleep overshoots
		}
		if d := p.Wait(elapsed, testTick); d != 0 {
			t.Fatalf("turn %d not due after its sleep: %v", n, d)
		}
		if at := p.Turn(testTick); at != time.Duration(n)*testTick {
			t.Fatalf("turn %d scheduled at %v, want %v: the schedule drifted", n, at, time.Duration(n)*testTick)
		}
	}
	if p.Stalls != 0 || p.Lost != 0 {
		t.Fatalf("overshooting sleeps were taken for stalls: %d, %v", p.Stalls, p.Lost)
	}
}

func TestPacerCatchesUpAFewTurnsThenDropsTheDebt(t *testing.T) {
	var p Pacer
	p.Turn(testTick)
	// A stall of one second: the Pacer runs MaxServerLate+1 turns back to
	// back, then waits again.
	elapsed := time.Second
	back := 0
	for p.Wait(elapsed, testTick) == 0 {
		p.Turn(testTick)
		back++
	}
	if back != MaxServerLate+1 {
		t.Fatalf("%d turns back to back after a stall, want %d", back, MaxServerLate+1)
	}
	if p.Stalls != 1 || p.Lost <= 0 {
		t.Fatalf("stall not counted: %d stalls, %v lost", p.Stalls, p.Lost)
	}
	// A turn a little late is run at once and costs nothing.
	elapsed += testTick + testTick/2
	if p.Wait(elapsed, testTick) != 0 || p.Stalls != 1 {
		t.Fatalf("a turn late by less than %d ticks counted as a stall", MaxServerLate)
	}
}

func TestPacerFollowsTheInterval(t *testing.T) {
	var p Pacer
	fast := testTick * 95 / 100
	for range 100 {
		p.Turn(fast)
	}
	if p.next != 100*fast {
		t.Fatalf("100 turns of %v end at %v", fast, p.next)
	}
}
