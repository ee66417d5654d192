package record

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/cubelab/cube/physics"
)

// TestTraceTickOfAPerturbedCopy: the stage traces of one tick of a record
// and of its copy with a contact's impulse one ulp up at that tick agree
// until the step first reads the changed value; written and read back,
// they are the same traces.
func TestTraceTickOfAPerturbedCopy(t *testing.T) {
	in := writeSession(t, session{ticks: 300, fullEvery: 64, nudgeAt: -1})
	rec, err := Read(bytes.NewReader(in.data), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePerturbation("200:contact:0:pn")
	if err != nil {
		t.Fatal(err)
	}
	var cp bytes.Buffer
	if _, err := Perturb(rec, p, &cp); err != nil {
		t.Fatal(err)
	}
	other, err := Read(bytes.NewReader(cp.Bytes()), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	a, err := TraceTick(rec, 200)
	if err != nil {
		t.Fatal(err)
	}
	b, err := TraceTick(other, 200)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []*physics.StageTrace{a, b} {
		var f bytes.Buffer
		if err := WriteStageTrace(&f, tr); err != nil {
			t.Fatal(err)
		}
		back, err := ReadStageTrace(&f)
		if err != nil {
			t.Fatal(err)
		}
		if d := physics.DiffTraces(tr, back); !d.Same || len(back.Stages) != len(tr.Stages) || back.Stages[3].Name != tr.Stages[3].Name {
			t.Fatalf("read back: %v", d)
		}
	}
	// The cache's impulse warm-starts the contact: "contacts" (its points
	// prepared from the cache) is the first stage that differs.
	d := physics.DiffTraces(a, b)
	if d.Same || d.Name != "contacts" || !strings.HasPrefix(d.What, "contact (") {
		t.Fatalf("diff: %v (%+v)", d, d)
	}
	if _, err := TraceTick(rec, 5000); err == nil || !strings.Contains(err.Error(), "does not simulate tick 5000") {
		t.Errorf("a tick past the end: %v", err)
	}
}

// TestReadStageTraceRefusesDamage: what is not a trace, a cut one and one
// of another version are refused with what is wrong.
func TestReadStageTraceRefusesDamage(t *testing.T) {
	tr := &physics.StageTrace{Tick: 7, Engine: physics.EngineRevision, Stages: []physics.TracedStage{
		{Name: "activate", Hash: 1, Items: []physics.TraceItem{{What: "body 1", Field: "pos.x", Bits: 42}}}}}
	var f bytes.Buffer
	if err := WriteStageTrace(&f, tr); err != nil {
		t.Fatal(err)
	}
	raw := rawTrace(t, f.Bytes())
	for name, data := range map[string][]byte{
		"not gzip":   []byte("hello"),
		"cut":        gz(raw[:len(raw)-3]),
		"version 9":  gz(append(append([]byte(stageMagic), 9, 0, 0, 0), raw[12:]...)),
		"trailing":   gz(append(append([]byte{}, raw...), 1)),
		"huge count": gz(append(append([]byte{}, raw[:28]...), 0xff, 0xff, 0xff, 0x7f)),
	} {
		if _, err := ReadStageTrace(bytes.NewReader(data)); err == nil || !strings.HasPrefix(err.Error(), "stage trace: ") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// rawTrace decompresses a trace file.
func rawTrace(t testing.TB, b []byte) []byte {
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// gz compresses b as a trace file is.
func gz(b []byte) []byte {
	var out bytes.Buffer
	z := gzip.NewWriter(&out)
	z.Write(b)
	z.Close()
	return out.Bytes()
}

// FuzzReadStageTrace: any bytes inside the gzip are read or refused,
// never a panic; what is read writes back to a file that reads the same.
func FuzzReadStageTrace(f *testing.F) {
	tr := &physics.StageTrace{Tick: 7, Engine: 3, Stages: []physics.TracedStage{
		{Name: "pairs", Hash: 9, Items: []physics.TraceItem{{What: "pair (1,2)", Field: "found", Bits: 1}}}, {Name: "sleep"}}}
	var buf bytes.Buffer
	if err := WriteStageTrace(&buf, tr); err != nil {
		f.Fatal(err)
	}
	f.Add(rawTrace(f, buf.Bytes()))
	f.Add([]byte(stageMagic))
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := decodeStageTrace(raw)
		if err != nil {
			return
		}
		var again bytes.Buffer
		if err := WriteStageTrace(&again, got); err != nil {
			t.Fatal(err)
		}
		back, err := ReadStageTrace(&again)
		if err != nil || !physics.DiffTraces(got, back).Same || len(back.Stages) != len(got.Stages) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
