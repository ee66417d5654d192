package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// cpuSeconds returns the CPU time process pid has used so far, user and
// system: fields 14 and 15 of /proc/PID/stat, in clock ticks of 1/100 s
// (Linux's USER_HZ).
func cpuSeconds(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("the server's CPU time: %w", err)
	}
	// The command name, field 2, is in parentheses and may hold spaces.
	_, rest, ok := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 13 {
		return 0, fmt.Errorf("the server's CPU time: /proc/%d/stat is %q", pid, b)
	}
	var ticks int
	for _, v := range f[11:13] { // fields 14 and 15, counted from 3
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("the server's CPU time: %q: %w", v, err)
		}
		ticks += n
	}
	return float64(ticks) / 100, nil
}

// peakRSS returns the peak resident memory of process pid so far, in kB:
// VmHWM from /proc/PID/status (Linux).
func peakRSS(pid int) (int, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("the server's peak memory: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				return 0, fmt.Errorf("the server's peak memory: %q: %w", v, err)
			}
			return kb, nil
		}
	}
	return 0, fmt.Errorf("the server's peak memory: no VmHWM in /proc/%d/status", pid)
}
