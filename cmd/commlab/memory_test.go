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
	if exhibitsBuilding {
		exhibits() // built beside the tests, they would count among this one's allocations
	}
	b, err := os.ReadFile(ringLog)
	if err != nil {
		t.Fatal(err)
	}
	chatter := strings.Repeat("# "+strings.Repeat("chatter ", 12)+"\n", (16<<20)/100)
	path := filepath.Join(t.TempDir(), "big.log")
	if err := os.WriteFile(path, []byte(chatter+string(b)), 0o644); err != nil {
		t.Fatal(err)
	}
	size := len(chatter) + len(b)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := readLog(path, nil); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(4*size) {
		t.Errorf("reading a log of %d bytes allocated %d bytes, %.1f times its size; want under 4", size, got, float64(got)/float64(size))
	}
}
