package predict

import (
	"math"
	"testing"
	"time"
)

const testTick = time.Second / 64

// TestTimeSyncStart: the first jump covers the round trip and the buffer,
// and the ticks waited for a transfer since the Welcome; off, none.
func TestTimeSyncStart(t *testing.T) {
	ts := TimeSync{On: true}
	ts.start(200*time.Millisecond, testTick, 0) // 12.8 ticks + 1.5
	if j := ts.takeJump(1000); j != 15 || ts.Jumps != 1 || ts.Speed != 1 {
		t.Fatalf("jump %d, %d jumps, speed %v; want 15, 1, 1", j, ts.Jumps, ts.Speed)
	}
	if j := ts.takeJump(1000); j != 0 {
		t.Fatalf("a jump taken twice: %d", j)
	}
	ts.start(200*time.Millisecond, testTick, 40)
	if j := ts.takeJump(1000); j != 55 {
		t.Fatalf("after waiting 40 ticks: jump %d, want 55", j)
	}
	ts.start(10*time.Second, testTick, 1000)
	if j := ts.takeJump(1000); j != maxJump {
		t.Fatalf("jump %d, want at most %d", j, maxJump)
	}
	off := TimeSync{}
	off.start(200*time.Millisecond, testTick, 40)
	if j := off.takeJump(1000); j != 0 || off.Speed != 1 {
		t.Fatalf("time sync off: jump %d, speed %v", j, off.Speed)
	}
}

// TestTimeSyncSpeed: a buffer above the target slows the client, below
// speeds it up, never by more than MaxSpeedChange; a buffer off by more
// than JumpTicks jumps instead, sized by the newest samples; samples of
// inputs sent before a jump are left out, and the average of the first
// ones after it corrects it once if it missed by more than a tick.
func TestTimeSyncSpeed(t *testing.T) {
	for _, c := range []struct {
		buffer int32
		slower bool
	}{{4, true}, {0, false}, {6, true}, {-2, false}} {
		ts := TimeSync{On: true, Speed: 1}
		for k := uint32(0); k < 50; k++ {
			ts.sample(1000+k+uint32(c.buffer), 1000+k, 1000+k+uint32(c.buffer))
		}
		if c.slower != (ts.Speed < 1) || math.Abs(ts.Speed-1) > MaxSpeedChange+1e-12 || ts.Speed == 1 {
			t.Errorf("buffer %d: speed %v", c.buffer, ts.Speed)
		}
		if j := ts.takeJump(1050); j != 0 {
			t.Errorf("buffer %d: jumped %d", c.buffer, j)
		}
	}
	ts := TimeSync{On: true, Speed: 1}
	for k := uint32(0); k < 20; k++ { // on target
		ts.sample(2000+k+2, 2000+k, 2000+k+2)
	}
	// The link gets slower: inputs arrive 10 ticks later. The running
	// mean crosses JumpTicks after a few samples; the jump is sized by the
	// newest ones.
	k := uint32(20)
	for ; ts.jump == 0 && k < 40; k++ {
		ts.sample(2000+k-8, 2000+k, 2000+k-8)
	}
	if ts.jump < 9 || ts.jump > 11 || ts.Jumps != 1 || ts.Speed != 1 {
		t.Fatalf("10 ticks behind: jump %d (%d jumps, speed %v), want 10 +- 1", ts.jump, ts.Jumps, ts.Speed)
	}
	ts.sample(2000+k, 2000+k+8, 2000+k) // a planned jump: left out
	j := ts.takeJump(2100)
	// Samples of inputs before 2100+j are left out, however late.
	for i := uint32(0); i < 100+uint32(j); i++ {
		ts.sample(2000+i, 2040+i, 2000+i)
	}
	if ts.have || ts.takeJump(2200) != 0 {
		t.Fatal("a sample of an input sent before the jump was taken")
	}
	// The first four after it land 6 ticks deep, several more than the
	// target: one more jump back by the difference, a hold.
	for i := uint32(0); i < settleSamples; i++ {
		ts.sample(2300+i+6, 2300+i, 2100+uint32(j)+i)
	}
	want := -int(math.Round(6 - ts.Target))
	if j2 := ts.takeJump(2304); j2 != want || want > -2 || ts.Jumps != 2 {
		t.Fatalf("landed 6 ticks deep, target %.2f: corrected by %d (%d jumps), want %d", ts.Target, j2, ts.Jumps, want)
	}
	// Where that one lands is taken as it is.
	for i := uint32(0); i < settleSamples; i++ {
		ts.sample(2400+i+4, 2400+i, 2304+i)
	}
	if j3 := ts.takeJump(2410); j3 != 0 || !ts.have || ts.Buffer != 4 {
		t.Fatalf("a second correction: %d, buffer %v", j3, ts.Buffer)
	}
	ts.sample(2500+90, 2500, 2590) // then 90 ticks early: hold back
	if j := ts.takeJump(2600); j > -20 {
		t.Fatalf("90 ticks ahead: jump %d", j)
	}
}

// TestTimeSyncBehind: a message about a tick the client has not reached
// makes it jump past it by the round trip and the buffer, once.
func TestTimeSyncBehind(t *testing.T) {
	ts := TimeSync{On: true, RTT: 200 * time.Millisecond}
	ts.behind(40, testTick)
	if j := ts.takeJump(1000); j != 55 || ts.Jumps != 1 {
		t.Fatalf("40 ticks behind: jump %d, want 55", j)
	}
	ts.behind(40, testTick)
	ts.behind(90, testTick) // a jump is planned: the second message changes nothing
	if j := ts.takeJump(1000); j != 55 {
		t.Fatalf("jump %d, want the first one's 55", j)
	}
	off := TimeSync{RTT: time.Second}
	off.behind(40, testTick)
	if off.takeJump(1000) != 0 {
		t.Fatal("time sync off jumped")
	}
}

// TestTimeSyncCountsOnlySamplesTaken: a sample left out (while a jump is
// planned) leaves Samples and Last as they were, so the buffer histogram
// does not count the previous sample again.
func TestTimeSyncCountsOnlySamplesTaken(t *testing.T) {
	ts := TimeSync{On: true, Speed: 1}
	ts.sample(1003, 1000, 1003)
	if ts.Samples != 1 || ts.Last != 3 {
		t.Fatalf("after one sample: %d samples, last %d", ts.Samples, ts.Last)
	}
	ts.start(200*time.Millisecond, testTick, 0) // plans a jump
	ts.sample(1010, 1001, 1010)
	if ts.Samples != 1 || ts.Last != 3 {
		t.Fatalf("a sample during a planned jump was taken: %d samples, last %d", ts.Samples, ts.Last)
	}
}
