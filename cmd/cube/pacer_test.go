package main

import (
	"testing"
	"time"
)

const testTick = 15625 * time.Microsecond

func TestPacerKeepsAnAbsoluteSchedule(t *testing.T) {
	var p pacer
	elapsed := time.Duration(0)
	for n := range 1000 {
		if d := p.wait(elapsed, testTick); d > 0 {
			elapsed += d + 300*time.Microsecond // every sleep overshoots
		}
		if d := p.wait(elapsed, testTick); d != 0 {
			t.Fatalf("turn %d not due after its sleep: %v", n, d)
		}
		if at := p.turn(testTick); at != time.Duration(n)*testTick {
			t.Fatalf("turn %d scheduled at %v, want %v: the schedule drifted", n, at, time.Duration(n)*testTick)
		}
	}
	if p.stalls != 0 || p.lost != 0 {
		t.Fatalf("overshooting sleeps were taken for stalls: %d, %v", p.stalls, p.lost)
	}
}

func TestPacerCatchesUpAFewTurnsThenDropsTheDebt(t *testing.T) {
	var p pacer
	p.turn(testTick)
	// A stall of one second: the pacer runs maxLateTurns+1 turns back to
	// back, then waits again.
	elapsed := time.Second
	back := 0
	for p.wait(elapsed, testTick) == 0 {
		p.turn(testTick)
		back++
	}
	if back != maxLateTurns+1 {
		t.Fatalf("%d turns back to back after a stall, want %d", back, maxLateTurns+1)
	}
	if p.stalls != 1 || p.lost <= 0 {
		t.Fatalf("stall not counted: %d stalls, %v lost", p.stalls, p.lost)
	}
	// A turn a little late is run at once and costs nothing.
	elapsed += testTick + testTick/2
	if p.wait(elapsed, testTick) != 0 || p.stalls != 1 {
		t.Fatalf("a turn late by less than %d ticks counted as a stall", maxLateTurns)
	}
}

func TestPacerFollowsTheInterval(t *testing.T) {
	var p pacer
	fast := testTick * 95 / 100
	for range 100 {
		p.turn(fast)
	}
	if p.next != 100*fast {
		t.Fatalf("100 turns of %v end at %v", fast, p.next)
	}
}
