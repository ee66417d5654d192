package record

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/physics"
)

// A stage trace file is gzip-compressed; inside, little endian:
//
//	magic    "CUBESTG\x00"
//	version  uint32 (1)
//	tick     uint32, engine uint64, stages uint32
//	stage    name (uint16 length, bytes), hash uint64, items uint32, then
//	         each item: what (uint16 length, bytes), field (uint8
//	         length, bytes), bits uint64
const (
	stageMagic   = "CUBESTG\x00"
	stageVersion = 1
	// MaxTraceBytes bounds what ReadStageTrace takes, decompressed.
	MaxTraceBytes = 256 << 20
)

// WriteStageTrace writes t to out in the stage trace file format.
func WriteStageTrace(out io.Writer, t *physics.StageTrace) error {
	z := gzip.NewWriter(out)
	b := bufio.NewWriter(z)
	var tmp []byte
	tmp = append(tmp, stageMagic...)
	tmp = le.AppendUint32(tmp, stageVersion)
	tmp = le.AppendUint32(tmp, t.Tick)
	tmp = le.AppendUint64(tmp, t.Engine)
	tmp = le.AppendUint32(tmp, uint32(len(t.Stages)))
	b.Write(tmp)
	for _, s := range t.Stages {
		tmp = appendStr16(tmp[:0], s.Name)
		tmp = le.AppendUint64(tmp, s.Hash)
		tmp = le.AppendUint32(tmp, uint32(len(s.Items)))
		b.Write(tmp)
		for _, it := range s.Items {
			tmp = appendStr16(tmp[:0], it.What)
			tmp = append(tmp, byte(len(it.Field)))
			tmp = append(tmp, it.Field...)
			tmp = le.AppendUint64(tmp, it.Bits)
			b.Write(tmp)
		}
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("stage trace: %w", err)
	}
	if err := z.Close(); err != nil {
		return fmt.Errorf("stage trace: %w", err)
	}
	return nil
}

// appendStr16 appends s with a uint16 length, cut at 65535 bytes.
func appendStr16(b []byte, s string) []byte {
	s = s[:min(len(s), 0xffff)]
	b = le.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

// ReadStageTrace reads a stage trace file, refusing one that is not one,
// is damaged, or holds more than MaxTraceBytes once decompressed.
func ReadStageTrace(in io.Reader) (*physics.StageTrace, error) {
	z, err := gzip.NewReader(in)
	if err != nil {
		return nil, fmt.Errorf("stage trace: not a stage trace file (%v)", err)
	}
	data, err := io.ReadAll(io.LimitReader(z, MaxTraceBytes+1))
	if err != nil {
		return nil, fmt.Errorf("stage trace: %w", err)
	}
	if len(data) > MaxTraceBytes {
		return nil, fmt.Errorf("stage trace: more than %d bytes decompressed", MaxTraceBytes)
	}
	return decodeStageTrace(data)
}

// errTraceShort is what a decode that runs out of bytes returns.
var errTraceShort = errors.New("stage trace: cut short")

// decodeStageTrace reads the decompressed bytes of a stage trace.
func decodeStageTrace(p []byte) (*physics.StageTrace, error) {
	if len(p) < len(stageMagic)+4 || string(p[:len(stageMagic)]) != stageMagic {
		return nil, errors.New("stage trace: not a stage trace file")
	}
	p = p[len(stageMagic):]
	if v := le.Uint32(p); v != stageVersion {
		return nil, fmt.Errorf("stage trace: version %d; this program reads version %d", v, stageVersion)
	}
	p = p[4:]
	if len(p) < 16 {
		return nil, errTraceShort
	}
	t := &physics.StageTrace{Tick: le.Uint32(p), Engine: le.Uint64(p[4:])}
	n := le.Uint32(p[12:])
	p = p[16:]
	str := func(wide bool) (string, bool) {
		l := 0
		switch {
		case wide && len(p) >= 2:
			l, p = int(le.Uint16(p)), p[2:]
		case !wide && len(p) >= 1:
			l, p = int(p[0]), p[1:]
		default:
			return "", false
		}
		if len(p) < l {
			return "", false
		}
		s := string(p[:l])
		p = p[l:]
		return s, true
	}
	// Every stage takes at least 14 bytes and every item 11: counts
	// beyond what is left are damage, refused before anything is sized
	// by them.
	if uint64(n)*14 > uint64(len(p)) {
		return nil, errTraceShort
	}
	t.Stages = make([]physics.TracedStage, 0, n)
	for range n {
		name, ok := str(true)
		if !ok || len(p) < 12 {
			return nil, errTraceShort
		}
		s := physics.TracedStage{Name: name, Hash: le.Uint64(p)}
		m := le.Uint32(p[8:])
		p = p[12:]
		if uint64(m)*11 > uint64(len(p)) {
			return nil, errTraceShort
		}
		s.Items = make([]physics.TraceItem, 0, m)
		for range m {
			what, ok := str(true)
			if !ok {
				return nil, errTraceShort
			}
			field, ok := str(false)
			if !ok || len(p) < 8 {
				return nil, errTraceShort
			}
			s.Items = append(s.Items, physics.TraceItem{What: what, Field: field, Bits: le.Uint64(p)})
			p = p[8:]
		}
		t.Stages = append(t.Stages, s)
	}
	if len(p) != 0 {
		return nil, fmt.Errorf("stage trace: %d bytes after the last stage", len(p))
	}
	return t, nil
}

// TraceTick steps tick of rec with a stage trace, which it returns: from
// the newest full state the record stores at or before tick (the initial
// state if none), it re-simulates the record's steps up to tick and traces
// that one. Two machines that trace one record so start from the same
// bits, and what differs in their traces was made by the traced step. It
// refuses a tick the record does not simulate (skipped, before its start
// or after its end).
func TraceTick(rec *Record, at uint32) (*physics.StageTrace, error) {
	tr, _, err := traceStep(rec, at)
	return tr, err
}

// traceStep is TraceTick, and also returns the step's stage hashes
// (physics.World.HashStages).
func traceStep(rec *Record, at uint32) (*physics.StageTrace, *physics.StageHashes, error) {
	w, sc, bd, err := Build(&rec.Header)
	if err != nil {
		return nil, nil, fmt.Errorf("record: trace: %w", err)
	}
	defer w.Close()
	from := 0
	for i := range rec.Len() {
		s := rec.Step(i)
		if s.Kind == StepTick && s.Full != nil && !tick.After(s.Full.Tick, at) {
			from = i + 1
			if err := w.Restore(s.Full); err != nil {
				return nil, nil, fmt.Errorf("record: trace: the state stored at tick %d: %w", s.Full.Tick, err)
			}
		}
		if s.Kind == StepTick && s.Tick == at {
			break
		}
	}
	for i := from; i < rec.Len(); i++ {
		s := rec.Step(i)
		var tr physics.StageTrace
		traced := s.Kind == StepTick && s.Tick == at
		if traced {
			w.HashStages(true)
			w.TraceNext(&tr)
		}
		if _, err := apply(w, sc, bd, &s); err != nil {
			return nil, nil, err
		}
		if traced {
			h := *w.StageHashes()
			h.Hashes = append([]uint64(nil), h.Hashes...)
			return &tr, &h, nil
		}
	}
	return nil, nil, fmt.Errorf("record: trace: the record does not simulate tick %d (it ends at tick %d, and skipped ticks are not simulated)", at, w.Tick())
}
