package record

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// perturbed writes the canonical session, perturbs it with spec and reads
// the copy back.
func perturbed(t *testing.T, spec string) (*Record, Change) {
	t.Helper()
	in := writeSession(t, session{ticks: 400, fullEvery: 64, skips: true, events: true, nudgeAt: -1})
	rec, err := Read(bytes.NewReader(in.data), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePerturbation(spec)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ch, err := Perturb(rec, p, &out)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	cp, err := Read(bytes.NewReader(out.Bytes()), 1<<30)
	if err != nil || cp.Truncated {
		t.Fatalf("%s: the copy reads back with %v (truncated %v)", spec, err, cp != nil && cp.Truncated)
	}
	return cp, ch
}

// ulpsApart returns how many float64 steps lie from a to b (both finite,
// of one sign), counted on their bit patterns.
func ulpsApart(a, b uint64) int64 { return int64(b) - int64(a) }

// TestPerturbEveryKind: a copy perturbed in a body's position, rotation,
// velocity and angular velocity, or in a contact's impulse, replays to a
// divergence at the named tick whose field diff is that one field, moved
// by the ulps asked for; a copy with a changed input diverges at the tick
// after it, the input recorded is the new one, and the state of the tick
// itself is unchanged.
func TestPerturbEveryKind(t *testing.T) {
	for _, c := range []struct {
		spec, where, field string
		ulps               int64
	}{
		{"130:0:pos.x", "body 0", "pos.x", 1},
		{"131:0:rot.z:-3", "body 0", "rot.z", -3},
		{"200:0:vel.y:5", "body 0", "vel.y", 5},
		{"250:0:angvel.x:2", "body 0", "angvel.x", 2},
	} {
		cp, ch := perturbed(t, c.spec)
		res, err := Replay(cp)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		d := res.Divergence
		p, _ := ParsePerturbation(c.spec)
		if d == nil || d.Tick != p.Tick || !d.Compared || d.DiffTick != p.Tick {
			t.Fatalf("%s: divergence %+v, want at tick %d with its field diff there", c.spec, d, p.Tick)
		}
		if len(d.Diff) != 1 || d.Diff[0].Where != c.where || d.Diff[0].Field != c.field {
			t.Fatalf("%s: diff %v, want only %s %s", c.spec, d.Diff, c.where, c.field)
		}
		// Diff's A is the record's (the changed value), B the replay's.
		// Counted on the bit patterns, a step up is +1 for a positive value
		// and -1 for a negative one.
		n := ulpsApart(d.Diff[0].B, d.Diff[0].A)
		if math.Signbit(math.Float64frombits(d.Diff[0].B)) {
			n = -n
		}
		if n != c.ulps {
			t.Errorf("%s: %#x against %#x: %d ulps apart, want %d", c.spec, d.Diff[0].A, d.Diff[0].B, n, c.ulps)
		}
		if ch.Before != d.Diff[0].B || ch.After != d.Diff[0].A || !ch.StoredAtChange {
			t.Errorf("%s: change %+v, diff %v", c.spec, ch, d.Diff[0])
		}
	}

	// A contact: the arena's cube rests on the ground, so the state has at
	// least one contact from early on.
	cp, ch := perturbed(t, "300:contact:0:pn:4")
	res, err := Replay(cp)
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Divergence; d == nil || d.Tick != 300 || len(d.Diff) != 1 || d.Diff[0].Where != "contact 0" || d.Diff[0].Field != "pn" ||
		ch.Before != d.Diff[0].B || ch.After != d.Diff[0].A {
		t.Fatalf("contact: divergence %+v, change %+v", d, ch)
	}

	// An input: the copy says player 0 pressed jump (bit 4) at tick 150;
	// the hashes are those of what was simulated.
	cp, ch = perturbed(t, "150:input:0:0x10")
	res, err = Replay(cp)
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Divergence; d == nil || d.Tick != 151 || d.Inputs[0] != 0x10 || ch.After != 0x10 || ch.Before == 0x10 {
		t.Fatalf("input: divergence %+v, change %+v", d, ch)
	}
}

// TestPerturbKeepsEverythingElse: the copy of a perturbation has the
// original's steps (kinds, ticks, skips, events, inputs) and hashes up to
// the changed tick.
func TestPerturbKeepsEverythingElse(t *testing.T) {
	in := writeSession(t, session{ticks: 400, fullEvery: 64, skips: true, events: true, nudgeAt: -1})
	orig, err := Read(bytes.NewReader(in.data), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	cp, _ := perturbed(t, "300:0:vel.x:7")
	if cp.Len() != orig.Len() {
		t.Fatalf("%d steps, the original %d", cp.Len(), orig.Len())
	}
	for i := range orig.Len() {
		a, b := orig.Step(i), cp.Step(i)
		a.Full, b.Full = nil, nil
		before := a.Kind == StepSkip || a.Tick+1 < 300
		if !before {
			a.Hash, b.Hash = 0, 0
		}
		if why := sameStep(&a, &b); why != "" {
			t.Fatalf("step %d (tick %d): %s", i, a.Tick, why)
		}
	}
}

// TestPerturbRefuses: specs that cannot be read, and perturbations the
// record cannot take, are refused with a message naming what is wrong.
func TestPerturbRefuses(t *testing.T) {
	for spec, want := range map[string]string{
		"":                    "too few parts",
		"x:0:pos.x":           "tick \"x\"",
		"10:0:pos.q":          "body field \"pos.q\"",
		"10:0:rest":           "body field \"rest\"",
		"10:0:pos.x:0":        "ulps 0",
		"10:0:pos.x:99999999": "ulps",
		"10:0:pos.x:1:2":      "too many parts",
		"10:contact:0:a":      "contact field \"a\"",
		"10:input:9:1":        "player \"9\"",
		"10:input:0:64":       "bits \"64\"",
		"10:input:0":          "a player and the bits",
		"10:-1:pos.x":         "body \"-1\"",
	} {
		_, err := ParsePerturbation(spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error naming %s", spec, err, want)
		}
	}
	in := writeSession(t, session{ticks: 200, fullEvery: 64, nudgeAt: -1})
	rec, err := Read(bytes.NewReader(in.data), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]string{
		"5000:0:pos.x":      "never reaches tick 5000",
		"100:99999:pos.x":   "bodies",
		"100:contact:99:pn": "contacts",
		"0:0:pos.x":         "initial state",
		"100:input:3:1":     "has 1 players",
	} {
		p, err := ParsePerturbation(spec)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if _, err := Perturb(rec, p, &out); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error naming %s", spec, err, want)
		}
	}
	// A record that already diverges is refused: it would hide the change.
	bad := writeSession(t, session{ticks: 200, fullEvery: 64, nudgeAt: 50})
	rec, err = Read(bytes.NewReader(bad.data), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := ParsePerturbation("100:0:pos.x")
	if _, err := Perturb(rec, p, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "itself diverges") {
		t.Errorf("a diverging record: %v", err)
	}
}

// FuzzParsePerturbation: any text is read or refused, never a panic, and
// what is read is within the documented ranges.
func FuzzParsePerturbation(f *testing.F) {
	for _, s := range []string{"130:0:pos.x", "131:0:rot.z:-3", "300:contact:0:pn:4", "150:input:0:0x10", "1:2:3:4:5", ":::", "4294967295:2147483647:torque.z:1048576", "9:input:7:63"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePerturbation(s)
		if err != nil {
			if !strings.Contains(err.Error(), "want TICK:") {
				t.Fatalf("%q: error %q does not say what is wanted", s, err)
			}
			return
		}
		if p.String() != s || p.Ulps == 0 || p.Ulps > MaxUlps || p.Ulps < -MaxUlps || p.Index < 0 || !p.Input.Valid() {
			t.Fatalf("%q read as %+v", s, p)
		}
		if p.Kind == PerturbBody && (p.Field < 0 || p.Field >= 19) || p.Kind == PerturbContact && (p.Field < 3 || p.Field > 5) {
			t.Fatalf("%q: field %d", s, p.Field)
		}
	})
}
