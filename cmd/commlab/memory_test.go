package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReadLogMemory: a log is read into one buffer of its size, not
// readInput's and data.ReadMeasurements' growing copy of it (red team 38:
// a 240 MB log took 1.1 GB, over the 1 GiB a file within maxInput may
// cost): reading a 16 MB log allocates less than 4 times its size.
func TestReadLogMemory(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector's sync.Pool drops regexp's matchers: its allocations are not the program's")
	}
	m := readLogMemory
	if !m.measured {
		m = measureReadLog(t.TempDir())
	}
	if m.err != nil {
		t.Fatal(m.err)
	}
	t.Logf("reading a log of %d bytes allocated %.2f times its size", m.size, float64(m.alloc)/float64(m.size))
	if m.alloc > uint64(4*m.size) {
		t.Errorf("reading a log of %d bytes allocated %d bytes, %.1f times its size; want under 4", m.size, m.alloc, float64(m.alloc)/float64(m.size))
	}
}

// readLogMemory is TestReadLogMemory's measure when TestMain takes it
// before it starts building the exhibits beside the tests, whose
// allocations would count among the reading's: the test then need not
// wait for them, holding up the tests that follow on one core of two.
var readLogMemory readLogMeasure

// A readLogMeasure is what reading a log of size bytes allocated.
type readLogMeasure struct {
	measured bool
	size     int
	alloc    uint64
	err      error
}

// measureReadLog writes a 16 MB log into dir and measures what reading it
// allocates.
func measureReadLog(dir string) readLogMeasure {
	b, err := os.ReadFile(ringLog)
	if err != nil {
		return readLogMeasure{measured: true, err: err}
	}
	chatter := strings.Repeat("# "+strings.Repeat("chatter ", 12)+"\n", (16<<20)/100)
	path := filepath.Join(dir, "big.log")
	if err := os.WriteFile(path, []byte(chatter+string(b)), 0o644); err != nil {
		return readLogMeasure{measured: true, err: err}
	}
	m := readLogMeasure{measured: true, size: len(chatter) + len(b)}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := readLog(path, nil); err != nil {
		m.err = err
		return m
	}
	runtime.ReadMemStats(&after)
	m.alloc = after.TotalAlloc - before.TotalAlloc
	return m
}

// TestReadLogLongLine: a file of one line without a newline is named at
// its line, and read as a stream (data's TestReadFileLongLine bounds the
// memory; red team rt2 F3: 256 MiB on one line took 1.07 GB).
func TestReadLogLongLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "oneline.log")
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 4<<20)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := readLog(path, nil)
	if err == nil || !strings.Contains(err.Error(), "no measurement table") || !strings.Contains(err.Error(), path+":1: line too long") {
		t.Errorf("one line of 4 MiB: %v; want no measurement table, line 1 too long", err)
	}
}
