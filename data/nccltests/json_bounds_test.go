package nccltests

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestJSONLongArrays: a run's devices, args and env past what a run holds
// are left unread with a warning each, and bad devices records past
// maxBadDevices are counted in one warning, so that a small file of many
// short records does not cost a warning and a record each (a million "{}"
// devices records, 6 MB, took 830 MB and printed a million warnings).
func TestJSONLongArrays(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "json", "all_reduce_2x8_nccltests309.json"))
	if err != nil {
		t.Fatal(err)
	}
	run, _, _ := strings.Cut(string(b), "\n") // the file's first run
	devices := strings.Repeat("{},", maxJSONRanks+5)
	args := strings.Repeat(`"-x",`, maxJSONStrings+3)
	in := strings.Replace(run, `"devices":[`, `"devices":[`+devices, 1)
	in = strings.Replace(in, `"args":["all_reduce_perf",`, `"args":["all_reduce_perf",`+args, 1)
	r := NewReader(strings.NewReader(in))
	r.Name = "long.json"
	tests, err := r.ReadAll()
	if err != nil || len(tests) != 1 || len(tests[0].Rows) != 14 {
		t.Fatalf("%d tests, %v; want the run's 14 rows", len(tests), err)
	}
	var named, counted, unread int
	for _, p := range r.Problems() {
		switch s := p.Error(); {
		case strings.Contains(s, "where each is a count"):
			named++
		case strings.Contains(s, "devices records more are no counts") && strings.Contains(s, fmt.Sprintf(": %d devices", maxJSONRanks-maxBadDevices)):
			counted++
		case errors.Is(p, ErrInconsistent) && strings.Contains(s, "left unread"):
			unread++
		}
	}
	if named != maxBadDevices || counted != 1 || unread != 2 || len(r.Problems()) != maxBadDevices+3 {
		t.Errorf("%d problems: %d bad records named, %d counted, %d arrays cut; want %d, 1 and 2: %.300v", len(r.Problems()), named, counted, unread, maxBadDevices, r.Problems())
	}
}

// TestJSONGPUsAProcess: a header of more GPUs a process than a host holds
// is said, and each process's first GPU alone listed (ngpus 1e9 was cut to
// 1024 without a word, and the run read as 1039 ranks).
func TestJSONGPUsAProcess(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "json", "all_reduce_2x8_nccltests309.json"))
	if err != nil {
		t.Fatal(err)
	}
	run, _, _ := strings.Cut(string(b), "\n")
	r := NewReader(strings.NewReader(strings.Replace(run, `"ngpus":1,`, `"ngpus":1000000000,`, 1)))
	r.Name = "ngpus.json"
	tests, err := r.ReadAll()
	if err != nil || len(tests) != 1 || tests[0].Ranks != 16 {
		t.Fatalf("%d tests, %v; want one of 16 ranks, its 16 records'", len(tests), err)
	}
	if !slices.ContainsFunc(r.Problems(), func(p error) bool {
		return errors.Is(p, ErrInconsistent) && strings.Contains(p.Error(), "ngpus 1000000000 make more GPUs a process than a host holds (at most 1024)")
	}) {
		t.Errorf("problems %v; want the GPUs a process named", r.Problems())
	}
}

// TestJSONWrongKind: a run whose value is of another kind than nccl-tests
// writes is read as text, where the problem names the key and the kind
// (it said that JSON inside a text log is left unread, for a file that
// is JSON alone).
func TestJSONWrongKind(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "json", "all_reduce_2x8_nccltests309.json"))
	if err != nil {
		t.Fatal(err)
	}
	run, _, _ := strings.Cut(string(b), "\n")
	for _, c := range []struct{ from, to, want string }{
		{`"nccl_version":0,`, `"nccl_version":"2.18.3",`, "nccl_version: string where a number goes"},
		{`"env":[],`, `"env":{"NCCL_ALGO":"Ring"},`, "env: object where an array goes"},
	} {
		r := NewReader(strings.NewReader(strings.Replace(run, c.from, c.to, 1)))
		r.Name = "kind.json"
		_, err := r.ReadAll()
		if !errors.Is(err, ErrNoTable) || len(r.Problems()) != 1 || !errors.Is(r.Problems()[0], ErrJSON) ||
			!strings.Contains(r.Problems()[0].Error(), "a run of nccl-tests -J but for a value of another kind than nccl-tests writes") ||
			!strings.Contains(r.Problems()[0].Error(), c.want) {
			t.Errorf("%s: %v, problems %v; want no table, and the problem saying %q", c.to, err, r.Problems(), c.want)
		}
	}
}
