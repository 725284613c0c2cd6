package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/data/nccltests"
)

// TestReadInput: one bound on every file read. A regular file over
// maxInput is refused by its size before it is read (a sparse file, so the
// test writes nothing); /dev/zero, an endless stream, is refused by its
// first bytes; a log is read whole.
func TestReadInput(t *testing.T) {
	t.Parallel()
	big := filepath.Join(t.TempDir(), "big.log")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxInput + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, c := range []struct {
		path, want string // want: a part of the error, "" for none
	}{
		{big, "larger than 256 MiB"},
		{"/dev/zero", "not a text file"},
		{ringLog, ""},
		{filepath.Join(t.TempDir(), "missing.log"), "no such file"},
	} {
		b, err := readInput(c.path)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.path, err)
		case c.want == "" && len(b) == 0:
			t.Errorf("%s: read nothing", c.path)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one saying %q", c.path, err, c.want)
		}
	}
	// Every command that reads a log goes through it.
	for _, args := range [][]string{
		{"fit", "/dev/zero"},
		{"compare", "/dev/zero", ringLog},
		{"predict", "-calibrate", "/dev/zero", "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"},
		{"predict", "-hw", "/dev/zero", "-gpu", "NVIDIA H100 80GB HBM3", "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"},
		{"topo", "/dev/zero"},
	} {
		if code, _, stderr := runCLI(args...); code != 1 || !strings.Contains(stderr, "/dev/zero: not a text file") {
			t.Errorf("%q: exit %d, %q; want 1 and /dev/zero refused", args, code, stderr)
		}
	}
}

// TestWriteOutput: an output is never an input, however spelled; an
// existing file is replaced only when named; a failed write leaves the old
// file whole and no temporary file behind.
func TestWriteOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "in.log")
	link := filepath.Join(dir, "link.log")
	old := filepath.Join(dir, "old.conf")
	for _, f := range []string{in, old} {
		if err := os.WriteFile(f, []byte("keep\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	write := func(tmp string) error { return os.WriteFile(tmp, []byte("new\n"), 0o644) }
	fail := func(tmp string) error {
		os.WriteFile(tmp, []byte("half"), 0o644)
		return errors.New("disk full")
	}
	for _, c := range []struct {
		name    string
		path    string
		replace bool
		write   func(string) error
		want    string // a part of the error, "" for none
		content string // the file's content afterwards
	}{
		{"the input", in, true, write, "is an input", "keep\n"},
		{"a symlink to the input", link, true, write, "is the input", "keep\n"},
		{"another spelling", dir + "/./in.log", true, write, "is the input", "keep\n"},
		{"existing, not named", old, false, write, "give -force", "keep\n"},
		{"failed write", old, true, fail, "disk full", "keep\n"},
		{"existing, named", old, true, write, "", "new\n"},
		{"new file", filepath.Join(dir, "new.conf"), false, write, "", "new\n"},
	} {
		err := writeOutput(c.path, []string{in}, c.replace, c.write)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if b, _ := os.ReadFile(c.path); string(b) != c.content {
			t.Errorf("%s: file holds %q, want %q", c.name, b, c.content)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("%d files in the folder, want in.log, link.log, old.conf and new.conf: a temporary file was left", len(entries))
	}
}

// TestTuneFiles: tune refuses to write over its calibration log, and to
// replace an existing ./nccl_tuner.conf it was not told to write, unless
// -force.
func TestTuneFiles(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "ring.log")
	b, err := os.ReadFile(ringLog)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, b, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"tune", "-calibrate", log + ":algo=ring", "-nodes", "1", "-per-node", "8"}
	if code, _, stderr := runCLI(append(args, "-o", log)...); code != 1 || !strings.Contains(stderr, "is an input") {
		t.Errorf("-o the calibration log: exit %d, %q; want 1, refused", code, stderr)
	}
	if after, _ := os.ReadFile(log); !bytes.Equal(after, b) {
		t.Errorf("the calibration log changed")
	}
	t.Chdir(dir)
	const hand = "# hand-written\n"
	if err := os.WriteFile("nccl_tuner.conf", []byte(hand), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(args...); code != 1 || !strings.Contains(stderr, "-force") {
		t.Errorf("default -o over an existing file: exit %d, %q; want 1, pointing to -force", code, stderr)
	}
	if after, _ := os.ReadFile("nccl_tuner.conf"); string(after) != hand {
		t.Errorf("the hand-written nccl_tuner.conf was replaced")
	}
	if code, _, stderr := runCLI(append(args, "-force")...); code != 0 {
		t.Errorf("-force: exit %d, %q", code, stderr)
	}
	if after, _ := os.ReadFile("nccl_tuner.conf"); string(after) == hand {
		t.Errorf("-force did not replace nccl_tuner.conf")
	}
}

// TestFlagLimits: flags that size work or memory are bounded, with a usage
// error (exit 2) that names the flag. The ranks once overflowed NCCL's
// channels x ranks to 0 and panicked (predict -p 2^60).
func TestFlagLimits(t *testing.T) {
	t.Parallel()
	predict := []string{"predict", "-gpu", "NVIDIA H100 80GB HBM3", "-collective", "allreduce", "-size", "1MiB"}
	plot := []string{"plot", ringLog + ":algo=ring", "-o", filepath.Join(t.TempDir(), "x.png")}
	tune := []string{"tune", "-calibrate", ringLog + ":algo=ring", "-o", "-"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(predict, "-p", "1152921504606846976", "-per-node", "8"), "-p 1152921504606846976: above the limit of 1048576"},
		{append(predict, "-p", "16"), "give -per-node, the GPUs per node, such as -per-node 8"},
		{append(predict, "-p", "2"), "give -per-node, the GPUs per node, such as -per-node 2"},
		{append(predict, "-p", "16", "-per-node", "-1"), "-per-node -1: want"},
		{[]string{"model", "-p", "1152921504606846976", "-link", "h20-intra", "-size", "1MiB"}, "-p 1152921504606846976: above the limit"},
		{[]string{"simulate", "-algo", "ring", "-p", "1152921504606846976", "-size", "1MiB"}, "-p 1152921504606846976: above the limit"},
		{[]string{"fit", ringLog, "-p", "1152921504606846976"}, "-p 1152921504606846976: above the limit"},
		{[]string{"fit", ringLog, "-regimes", "10000000"}, "-regimes 10000000: above the limit of 32"},
		{[]string{"fit", ringLog, "-bootstrap", "1000000000"}, "-bootstrap 1000000000: beyond what an interval needs"},
		{append(plot, "-dpi", "100000"), "-dpi 100000: above the limit of 1200"},
		{append(plot, "-width", "100in", "-height", "100in"), "-width 100in: larger than a poster"},
		{append(plot, "-width", "40in", "-height", "40in", "-dpi", "1200"), "a PNG of 2304 million pixels"},
		{append(tune, "-nodes", "1..3000", "-per-node", "8"), `-nodes "1..3000": want comma-separated`},
		{append(tune, "-nodes", nodeList(65), "-per-node", "8"), "65 communicators; give at most 64"},
		{append(tune, "-nodes", "200000", "-per-node", "8"), "200000 x 8: 1600000 ranks is beyond the 1048576 ranks"},
		// Flags that parse but do not fit together are usage errors too.
		{[]string{"simulate", "-collective", "allreduce", "-algo", "ring", "-p", "6", "-per-node", "4", "-size", "1MiB"}, "-per-node 4 does not divide -p 6"},
		{[]string{"simulate", "-collective", "allreduce", "-p", "4", "-size", "1MiB"}, "need -algo"},
		{[]string{"simulate", "-collective", "allreduce", "-algo", "ring", "-p", "4"}, "need -size"},
		{[]string{"model", "-collective", "allreduce", "-algo", "hierarchical", "-p", "6", "-per-node", "4", "-size", "1MiB"}, "-p 6 is not a multiple of -per-node 4"},
		{[]string{"model", "-p", "8", "-alpha", "2us", "-bw", "100GB/s", "-inter", "10us,25GB/s", "-size", "1MiB"}, "-inter"},
		{[]string{"simulate", "-algo", "ring", "-p", "8", "-intra", "2us", "-size", "1MiB"}, "-intra"},
		{[]string{"simulate", "-algo", "ring", "-p", "8", "-elem", "0", "-size", "1MiB"}, "-elem 0 B: want at least 1 B"},
		{[]string{"simulate", "-algo", "ring", "-collective", "alltoall", "-p", "4", "-size", "1MiB"}, "ring"},
		// More GPUs a node than the documented host holds.
		{[]string{"model", "-server", "mi300x-platform", "-p", "16", "-per-node", "16", "-size", "1GiB"}, "16 GPUs a node, where mi300x-platform holds 8 a host"},
		{append(predict[:1:1], "-gpu", "AMD Instinct MI300X", "-collective", "allreduce", "-size", "1MiB", "-p", "16", "-per-node", "16"), "16 GPUs a node, where AMD Instinct MI300X's platform holds 8 a host"},
		// NVLS on a machine the catalog gives none (MI300X's Infinity Fabric).
		{[]string{"model", "-server", "mi300x-platform", "-p", "8", "-algo", "nvls,ring", "-size", "1GiB"}, "-algo nvls: its GPUs are joined by Infinity Fabric (fabric infinity, catalog)"},
		{[]string{"simulate", "-server", "mi300x-platform", "-p", "8", "-algo", "nvls", "-size", "1MiB"}, "-algo nvls: its GPUs are joined by Infinity Fabric"},
		{[]string{"model", "-server", "dgx-a100", "-p", "8", "-algo", "nvls", "-size", "1MiB"}, "-algo nvls: the machine has no NVLS (nvls false, catalog)"},
		{[]string{"model", "-gpu", "NVIDIA H100 PCIe", "-p", "2", "-per-node", "2", "-algo", "nvls", "-size", "1GiB"}, "-algo nvls: its GPUs are joined by PCIe (fabric pcie, assumed)"},
	} {
		code, _, stderr := runCLI(c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", c.args, code, firstLine(stderr), c.want)
		}
	}
}

func firstLine(s string) string { line, _, _ := strings.Cut(s, "\n"); return line }

// TestJSONNotFinite: where text prints +Inf, JSON prints null rather than
// failing. A bandwidth of 1e-300 B/s, which made 1 GiB take more than the
// largest float64 seconds (14 steps of 1.75 GiB / 1e-300 B/s), is refused
// (plausibleLink), as is compare's -floor inf (above 1), which gave
// "noise_floor": null.
func TestJSONNotFinite(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI("model", "-p", "8", "-alpha", "1us", "-bw", "1e-300B/s", "-size", "1GiB", "-algo", "ring", "-format", "json")
	if code != 2 || !strings.Contains(stderr, "want a bandwidth of 1 B/s to 1000 TB/s") {
		t.Errorf("model -bw 1e-300B/s: exit %d: %s; want 2, the bandwidth refused", code, stderr)
	}
	var b bytes.Buffer
	if err := writeJSON(&b, struct {
		Floor float64 `json:"noise_floor"`
	}{math.Inf(1)}); err != nil || !strings.Contains(b.String(), `"noise_floor": null`) {
		t.Errorf("writeJSON of +Inf: %v, %s; want null", err, b.String())
	}
}

// TestFiniteJSON: for values without infinities, finiteJSON writes what
// encoding/json writes, field for field and in the same order (embedded
// structs, omitempty, pointers, slices and maps).
func TestFiniteJSON(t *testing.T) {
	t.Parallel()
	type inner struct {
		A float64 `json:"a"`
		B string  `json:"b,omitempty"`
	}
	type outer struct {
		inner
		P     *inner         `json:"p"`
		N     *inner         `json:"n,omitempty"`
		S     []int          `json:"s"`
		E     []int          `json:"e"`
		M     map[string]int `json:"m"`
		Skip  int            `json:"-"`
		Plain int
		hide  int
	}
	v := outer{inner: inner{A: 1.5}, P: &inner{B: "x"}, S: []int{1, 2}, M: map[string]int{"k": 3}, Skip: 4, Plain: 5, hide: 6}
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(finiteJSON(reflect.ValueOf(v)))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("finiteJSON: %s (%v), want %s", got, err, want)
	}
}

// TestCompareHalves: a row whose in-place time is 97x its out-of-place one
// (the H20 NVLS log's 4 MiB row, 124.1 us in place, made 12410.0) widens
// the size's noise so far that compare finds nothing beyond it; a warning
// at the row's line says the halves disagree.
func TestCompareHalves(t *testing.T) {
	t.Parallel()
	const log = "../../data/logs/h20_2x8_allreduce_nvls_nccl1244.log"
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if !strings.Contains(lines[8], "  124.1 ") {
		t.Fatalf("line 9 of %s: %q, want the 4 MiB row", log, lines[8])
	}
	// The in-place half 100 times as long, at a hundredth of the
	// bandwidths, as nccl-tests would print it: a time alone made 100
	// times as long disagrees with its algbw, and the reader leaves it out.
	lines[8] = strings.Replace(lines[8], "   124.1   33.79   63.35 ", " 12410.0    0.34    0.63 ", 1)
	bad := filepath.Join(t.TempDir(), "halves.log")
	if err := os.WriteFile(bad, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a, b string
		want string // "" for no warning
	}{
		{log, log, ""},
		{log, bad, bad + ":9: out-of-place and in-place times differ 97.3x"},
		{bad, log, bad + ":9: out-of-place and in-place times differ 97.3x"},
	} {
		code, _, stderr := runCLI("compare", c.a, c.b)
		if code != 0 {
			t.Fatalf("compare %s %s: exit %d: %s", c.a, c.b, code, stderr)
		}
		if c.want == "" && strings.Contains(stderr, "differ") || c.want != "" && !strings.Contains(stderr, c.want) {
			t.Errorf("compare %s %s: stderr %q, want %q", c.a, c.b, stderr, c.want)
		}
	}
}

// TestSmallThings: commlab version; a topo capture given to fit; a bad
// field of 10 MB quoted in a line.
func TestSmallThings(t *testing.T) {
	t.Parallel()
	if code, out, _ := runCLI("version"); code != 0 || !strings.HasPrefix(out, "commlab ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
	const capture = "../../topo/testdata/dgx_a100_nps4.txt"
	if code, _, stderr := runCLI("fit", capture); code != 1 || !strings.Contains(stderr, "commlab topo "+capture) {
		t.Errorf("fit on a topo capture: exit %d, %q; want 1 and a pointer to commlab topo", code, stderr)
	}
	b, err := os.ReadFile(ringLog)
	if err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(t.TempDir(), "long.log")
	// A 10 MB field; under -short (the race detector's pass) 1 MB, still
	// 26000 times what a message quotes, as reading 10 MB takes seconds there.
	n := 10 << 20
	if testing.Short() {
		n = 1 << 20
	}
	field := "x" + strings.Repeat("9", n)
	text := strings.Replace(string(b), "\n", "\n     1048576        262144     float     sum      -1  "+field+"    8.61   16.14      0    126.6    8.28   15.53      0\n", 1)
	if err := os.WriteFile(long, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	// The row's line runs past the 1 MiB of any line nccl-tests prints: it
	// is left unread, with a warning that quotes its start (red team 38).
	_, _, stderr := runCLI("fit", long)
	if len(stderr) > 1000 || !strings.Contains(stderr, `line too long: "1048576        262144     float     sum "... runs past 1048576 bytes`) {
		t.Errorf("fit with a field of %d bytes: %d bytes of warnings, %.300q; want a line quoting its start", len(field), len(stderr), stderr)
	}
}

// TestNotebooksDoc: docs/notebooks.md counts the notebooks it lists, and
// lists every one in notebooks/.
func TestNotebooksDoc(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../docs/notebooks.md")
	if err != nil {
		t.Fatal(err)
	}
	nbs, _ := filepath.Glob("../../notebooks/*.ipynb")
	words := []string{"Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve"}
	if len(nbs) >= len(words) || !bytes.Contains(b, []byte("\n"+words[len(nbs)]+" GoNB notebooks")) {
		t.Errorf("docs/notebooks.md does not say %d GoNB notebooks", len(nbs))
	}
	for _, nb := range nbs {
		name := strings.TrimSuffix(filepath.Base(nb), ".ipynb")
		if !bytes.Contains(b, []byte("| `"+name+"` |")) {
			t.Errorf("docs/notebooks.md does not list %s", name)
		}
	}
}

// nodeList is "1,2,...,n".
func nodeList(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = strconv.Itoa(i + 1)
	}
	return strings.Join(s, ",")
}

// logLines returns the lines of the log at path and the index of its first
// row of floats.
func logLines(t *testing.T, path string) (lines []string, first int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(string(b), "\n")
	first = slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, " float ") })
	if first < 0 {
		t.Fatalf("%s: no row", path)
	}
	return lines, first
}

// TestRowLimit: a log of more measurement rows than maxRows (a real H20
// row of nccl#1244's log, repeated) is refused by fit and predict with the
// line of the first row past the limit and a remedy, before any fit runs
// and before the rest is read (red team 38: 3 million rows took 2.2 GB).
func TestRowLimit(t *testing.T) {
	t.Parallel()
	lines, first := logLines(t, "../../data/logs/h20_2x8_allreduce_nvls_nccl1244.log")
	var log strings.Builder
	log.WriteString(strings.Join(lines[:first], "\n") + "\n")
	for range maxRows + 1 {
		log.WriteString(lines[first] + "\n")
	}
	path := filepath.Join(t.TempDir(), "long.log")
	if err := os.WriteFile(path, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// The reader stops at the first row past the limit, and says where.
	want := fmt.Sprintf("%s:%d: too many rows: more than %d; commlab fits or calibrates on at most", path, first+maxRows+1, maxRows)
	for _, args := range [][]string{{"fit", path}, {"predict", "-calibrate", path, "-collective", "allreduce", "-p", "16", "-per-node", "8", "-size", "1GiB"}} {
		if code, _, stderr := runCLI(args...); code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", args[0], code, stderr, want)
		}
	}
}

// TestBadRowsBounded: a log of bad rows (red team rt2 F2: a million rows
// of 6 fields took 1.8 GB, a 234 MB JSON and a 19 MB line of standard
// error) counts them against maxRows, and below it writes a short line
// for the problems it lists (the reader's first nccltests.MaxProblems and
// one that counts the rest), naming maxPlaces places of a message.
func TestBadRowsBounded(t *testing.T) {
	t.Parallel()
	lines, first := logLines(t, ringLog)
	// A row cut after its out-of-place time, as red team rt2 wrote it.
	cut := strings.Join(strings.Fields(lines[first])[:6], "  ")
	write := func(name string, bad int) string {
		rows := slices.Repeat([]string{cut}, bad)
		path := filepath.Join(t.TempDir(), name)
		text := strings.Join(slices.Concat(lines[:first+1], rows, lines[first+1:]), "\n")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// Past maxRows: refused at the row past it, the bad rows counted (the
	// good row at line first+1, the bad from first+2).
	path := write("many.log", maxRows+1)
	want := fmt.Sprintf("%s:%d: too many rows: more than %d, %d of them left out with a problem", path, first+maxRows+1, maxRows, maxRows-1)
	if code, _, stderr := runCLI("fit", "-bootstrap", "0", path); code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("fit of %d bad rows: exit %d, stderr %.300q; want 1 and %q", maxRows+1, code, stderr, want)
	}
	// Below it: the fit runs; the listed problems of one message take one
	// line, and one line counts the rest.
	const bad = 3000
	path = write("some.log", bad)
	code, _, stderr := runCLI("fit", "-bootstrap", "0", path)
	more := fmt.Sprintf("%s:%d: more problems: %d more, the first at this line, are not listed", path, first+2+nccltests.MaxProblems, bad-nccltests.MaxProblems)
	places := fmt.Sprintf("%s:%d and %d more places: wrong number of fields: 6", path, first+2+maxPlaces-1, nccltests.MaxProblems-maxPlaces)
	if code != 0 || !strings.Contains(stderr, more) || !strings.Contains(stderr, places) || len(stderr) > 4096 {
		t.Errorf("fit of %d bad rows: exit %d, %d bytes of stderr %.600q; want 0, under 4096 bytes, with %q and %q", bad, code, len(stderr), stderr, places, more)
	}
}
