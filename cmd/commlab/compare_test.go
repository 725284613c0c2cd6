package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/internal/testlogs"
	"gonum.org/v1/gonum/floats/scalar"
)

// The two tables of one H100 node's AllReduce compared below (sources in the
// files): NCCL_ALGO=RING with NVLS off, and the tuner with NVLS on.
const (
	ringLog = togetherDir + "all_reduce_ring.log"
	nvlsLog = togetherDir + "all_reduce_nvls.log"
)

// runCompareJSON runs compare with -format json, which must succeed, and
// checks that the object has the keys of the contract (the points' keys are
// the CSV's header, which TestCompareCSV checks).
func runCompareJSON(t *testing.T, args ...string) compareOutput {
	t.Helper()
	code, out, stderr := runCLI(append(append([]string{"compare"}, args...), "-format", "json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	var keys map[string]json.RawMessage
	var got compareOutput
	if err := json.Unmarshal([]byte(out), &keys); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, k := range []string{"a", "b", "noise_floor", "median_ratio", "differing", "points", "ranges", "problems"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("%v: the JSON lacks %q", args, k)
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return got
}

// printedTimes reads the out-of-place and in-place times, in seconds, that
// line n of an nccl-tests log prints for a row of size bytes, by splitting
// the line: size count type redop root time algbw busbw #wrong time ...
func printedTimes(t *testing.T, path string, n int, size int64) (oop, ip float64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(strings.Split(string(b), "\n")[n-1])
	if len(f) != 13 || f[0] != strconv.FormatInt(size, 10) {
		t.Fatalf("%s:%d is not the 13-column row of size %d: %q", path, n, size, f)
	}
	oop, err1 := strconv.ParseFloat(f[5], 64)
	ip, err2 := strconv.ParseFloat(f[9], 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("%s:%d: times %q %q", path, n, f[5], f[9])
	}
	return oop * 1e-6, ip * 1e-6
}

// TestCompareRatio compares Ring against the tuner with NVLS on one H100
// node: the ratio and noise at a size follow from the times the two rows
// print, and from 32 MiB up NVLS is faster beyond noise.
func TestCompareRatio(t *testing.T) {
	t.Parallel()
	got := runCompareJSON(t, ringLog, nvlsLog)
	if got.A.Collective != "allreduce" || got.A.Ranks != 8 || got.B.Sizes != 31 || len(got.Points) != 31 || got.NoiseFloor != defaultNoiseFloor {
		t.Fatalf("tables %+v and %+v, %d points, floor %v; want two 8-rank allreduce tables of 31 sizes, floor %v",
			got.A, got.B, len(got.Points), got.NoiseFloor, defaultNoiseFloor)
	}
	for _, c := range []struct {
		size         int64
		aLine, bLine int    // the rows of all_reduce_ring.log and all_reduce_nvls.log
		bIs          string // beyond a noise the rows' spread sets
	}{
		{8 << 30, 53, 54, bFaster},      // 40848.8 and 40841.7 us against 31372.3 and 31327.3
		{32 << 20, 45, 46, bFaster},     // 212.82 and 213.69 us against 200.34 and 199.71: 0.94, beyond 5%
		{4 << 10, 32, 33, bWithinNoise}, // 36.35 and 42.21 us against 35.55 and 35.38: 0.90, inside the ring row's 16% spread
	} {
		aO, aI := printedTimes(t, ringLog, c.aLine, c.size)
		bO, bI := printedTimes(t, nvlsLog, c.bLine, c.size)
		ratio := (bO + bI) / (aO + aI)
		noise := math.Exp(max(math.Log(1.05), math.Hypot(math.Log(aO/aI), math.Log(bO/bI))))
		found := false
		for _, p := range got.Points {
			if p.SizeBytes != c.size {
				continue
			}
			found = true
			if !scalar.EqualWithinAbs(p.Ratio, ratio, 1e-12*ratio) || !scalar.EqualWithinAbs(p.NoiseRatio, noise, 1e-12*noise) || p.BIs != c.bIs ||
				p.ALine != c.aLine || p.BLine != c.bLine || !scalar.EqualWithinAbs(p.ATimeS, (aO+aI)/2, 1e-12*((aO+aI)/2)) {
				t.Errorf("%d B: %+v; want ratio %.6f, noise %.6f, B %s, lines %d and %d", c.size, p, ratio, noise, c.bIs, c.aLine, c.bLine)
			}
		}
		if !found {
			t.Errorf("no point at %d B", c.size)
		}
	}
	last := got.Ranges[len(got.Ranges)-1]
	if last.BIs != bFaster || last.FromBytes != 32<<20 || last.ToBytes != 8<<30 || last.Sizes != 9 {
		t.Errorf("last range %+v; want B faster from 32 MiB to 8 GiB, 9 sizes", last)
	}
	if len(got.Problems) != 0 {
		t.Errorf("problems %v; want none for two 8-rank float sum AllReduce tables", got.Problems)
	}
}

// TestCompareSelf compares each of the repository's logs with itself: every
// ratio 1, no size beyond noise, nothing to warn about.
func TestCompareSelf(t *testing.T) {
	t.Parallel()
	var files []string
	for _, g := range []string{"../../data/logs/*.log", "../../data/logs/paired/*/*.log"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 40 {
		t.Fatalf("%d logs found; want the 5 of data/logs and the paired ones", len(files))
	}
	for _, f := range files {
		got := runCompareJSON(t, f, f)
		if got.MedianRatio != 1 || got.Differing != 0 || len(got.Ranges) != 0 || len(got.Points) != got.A.Sizes {
			t.Errorf("%s against itself: median %v, %d differing, ranges %v, %d of %d sizes; want 1, 0, none, all",
				f, got.MedianRatio, got.Differing, got.Ranges, len(got.Points), got.A.Sizes)
		}
		for _, p := range got.Points {
			if p.Ratio != 1 {
				t.Errorf("%s:%d: ratio %v against itself", f, p.ALine, p.Ratio)
			}
		}
		for _, pr := range got.Problems {
			if strings.Contains(pr.Message, "differ in") {
				t.Errorf("%s against itself: %v", f, pr)
			}
		}
	}
}

// TestCompareOneSlowSize compares all_reduce_ring.log with a copy whose
// 1 MiB row (line 40: 44.38 and 43.46 us) takes twice as long, at half
// the bandwidths, as nccl-tests prints a slower run (a time alone doubled
// disagrees with its algbw, and the reader leaves it out): B is slower by
// 2x there, and at no other size.
func TestCompareOneSlowSize(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(ringLog)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	f := strings.Fields(lines[40-1])
	for _, i := range []int{5, 9} { // the times, then algbw and busbw
		for k, scale := range []float64{2, 0.5, 0.5} {
			v, _ := strconv.ParseFloat(f[i+k], 64)
			f[i+k] = fmt.Sprintf("%.2f", scale*v)
		}
	}
	lines[40-1] = strings.Join(f, " ")
	slow := filepath.Join(t.TempDir(), "slow.log")
	if err := os.WriteFile(slow, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	got := runCompareJSON(t, ringLog, slow)
	if got.Differing != 1 || len(got.Ranges) != 1 {
		t.Fatalf("%d sizes differ in %d ranges %+v; want one", got.Differing, len(got.Ranges), got.Ranges)
	}
	if r := got.Ranges[0]; r.BIs != bSlower || r.FromBytes != 1<<20 || r.ToBytes != 1<<20 || !scalar.EqualWithinAbs(r.MaxRatio, 2, 1e-12) {
		t.Errorf("range %+v; want B slower by 2x at 1 MiB", r)
	}
	code, out, _ := runCLI("compare", ringLog, slow)
	if code != 0 || !strings.Contains(out, "B slower by 2.00x at 1 MiB\n") {
		t.Errorf("exit %d, text output lacks the range:\n%s", code, out)
	}
}

// TestCompareMismatch compares the 1 x 8 and 2 x 8 AllReduce tables of
// nccl-tests issue 290 (tables 0 and 1 of one file): they share 6 sizes,
// and their rank and node counts differ.
func TestCompareMismatch(t *testing.T) {
	t.Parallel()
	log := "../../data/logs/paired/h100-sxm-ib8xndr/allreduce_issue290.log"
	got := runCompareJSON(t, log, log, "-test", "0,1")
	if got.A.Test != 0 || got.B.Test != 1 || len(got.Points) != 6 {
		t.Errorf("tests %d and %d, %d points; want 0 and 1, 6 points (128 MiB to 4 GiB)", got.A.Test, got.B.Test, len(got.Points))
	}
	var msgs []string
	for _, p := range got.Problems {
		msgs = append(msgs, p.Message)
	}
	all := strings.Join(msgs, "\n")
	if !strings.Contains(all, "ranks: 8 in A, 16 in B") || !strings.Contains(all, "nodes: 1 in A, 2 in B") || strings.Contains(all, "collective") {
		t.Errorf("problems:\n%s\nwant ranks and nodes to differ, not the collective", all)
	}
	code, _, stderr := runCLI("compare", log, log, "-test", "0,1")
	if code != 0 || !strings.Contains(stderr, "differ in ranks") {
		t.Errorf("text mode: exit %d, stderr %q; want 0 and the warning", code, stderr)
	}
}

// TestCompareCSV checks that the CSV holds the JSON's points, one a row,
// under their JSON names.
func TestCompareCSV(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("compare", ringLog, nvlsLog, "-format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := "size_bytes,a_time_s,b_time_s,ratio,a_bus_bw_Bps,b_bus_bw_Bps,noise_ratio,b_is,a_line,b_line"
	if strings.Join(recs[0], ",") != want || len(recs) != 1+31 || recs[31][0] != "8589934592" {
		t.Errorf("header %v, %d rows, last size %q; want %s, 31 rows, 8589934592", recs[0], len(recs)-1, recs[len(recs)-1][0], want)
	}
}

// TestCompareErrors runs compare on bad input: each fails with its exit
// status and a message that says what to do.
func TestCompareErrors(t *testing.T) {
	t.Parallel()
	nvlstree := "../../data/logs/h20_2x8_allreduce_nvlstree_nccl1244.log" // 4 B to 512 B
	nvls := "../../data/logs/h20_2x8_allreduce_nvls_nccl1244.log"         // 1 MiB to 512 MiB
	cluster01G8 := "../../data/logs/paired/h100-sxm-10node-cluster01/nccl_N10_G8.log"
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"missing.log", nvls}, 1, "missing.log: no such file"},
		{[]string{nvlstree, nvls}, 1, "share no size (A: 4 B..512 B, B: 1 MiB..512 MiB): pick tables that overlap with -test N,M"},
		// cluster01's 10 x 8 AllToAll (test 3) and SendRecv (test 4): one
		// range, the AllToAll's sizes rounded to whole elements a rank.
		{[]string{cluster01G8, cluster01G8, "-test", "3,4"}, 1, "share no size: their rows span the same range (A: 32 MiB..16 GiB, B: 32 MiB..16 GiB) at other bytes (A's first 33553920 B, B's 33554432 B)"},
		{[]string{nvls, nvls, "-test", "1"}, 1, "-test 1: " + nvls + " holds tests 0 to 0"},
		{[]string{nvls, nvls, "-test", "0,x"}, 2, "want N (the same test of both logs) or N,M"},
		{[]string{nvls, nvls, "-floor", "-0.1"}, 2, "-floor -0.1: want a fraction"},
		{[]string{nvls, nvls, "-format", "xml"}, 2, "want text, json or csv"},
		{[]string{nvls}, 2, "give two nccl-tests logs"},
		{[]string{nvls, nvls, nvls}, 2, "unexpected argument"},
		{[]string{nvls, nvls, "-tests", "1"}, 2, "flag provided but not defined: -tests"},
	} {
		code, _, stderr := runCLI(append([]string{"compare"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("compare %v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

// TestDifferingRanges groups hand-made points: runs break where B is
// within noise or turns the other way.
func TestDifferingRanges(t *testing.T) {
	t.Parallel()
	ps := []comparePoint{
		{SizeBytes: 1 << 10, Ratio: 1.3, BIs: bSlower},
		{SizeBytes: 2 << 10, Ratio: 1.6, BIs: bSlower},
		{SizeBytes: 4 << 10, Ratio: 1.01, BIs: bWithinNoise},
		{SizeBytes: 8 << 10, Ratio: 0.5, BIs: bFaster},
		{SizeBytes: 16 << 10, Ratio: 1.2, BIs: bSlower},
	}
	var got []string
	for _, r := range differingRanges(ps) {
		got = append(got, r.String())
	}
	want := []string{"B slower by 1.30-1.60x from 1 KiB to 2 KiB", "B faster by 2.00x at 8 KiB", "B slower by 1.20x at 16 KiB"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("ranges %q; want %q", got, want)
	}
}

// TestCompareProblemsOnce compares a log that holds a cut row (line 71 of
// data/nccltests/testdata/mpirun_noisy_allreduce.log, the 4 KiB row cut
// after its first time) with itself: the reader's problem is reported once,
// at its line.
func TestCompareProblemsOnce(t *testing.T) {
	t.Parallel()
	log := "../../data/nccltests/testdata/mpirun_noisy_allreduce.log"
	got := runCompareJSON(t, log, log)
	if len(got.Problems) != 1 || got.Problems[0].Line != 71 || got.Problems[0].File != log {
		t.Errorf("problems %v; want one, at %s:71", got.Problems, log)
	}
}

// TestCompareRoundedSizes: cluster01's AllGather on 10 x 4 and 10 x 1 (10
// sizes each) share 2 sizes; the other 8 of each are the same sizes rounded
// to whole elements a rank of 40 and of 10 ranks, within 1% of the other's,
// and a note counts them. Olivia's GH200 runs of 2 and 4 nodes lack each
// other's sizes only where the 4-node run's rows failed nccl-tests' check:
// no rounding, no note.
func TestCompareRoundedSizes(t *testing.T) {
	t.Parallel()
	d := "../../data/logs/paired/h100-sxm-10node-cluster01/"
	code, _, stderr := runCLI("compare", "-test", "1,1", d+"nccl_N10_G4.log", d+"nccl_N10_G1.log")
	if code != 0 || !strings.Contains(stderr, "16 sizes of the two tables differ by under 1% from one of the other's") {
		t.Errorf("exit %d, stderr %q; want the 16 rounded sizes counted", code, stderr)
	}
	r := "../../data/nccltests/testdata/real/"
	if _, _, stderr := runCLI("compare", r+"gh200_2x4_allreduce_slingshot_olivia.log", r+"gh200_4x4_allreduce_wrong_rows_olivia.log"); strings.Contains(stderr, "rounds each size") {
		t.Errorf("Olivia: stderr %q; want no rounding note", stderr)
	}
}

// TestCompareHalvesSpread computes the figures docs/compare.md gives for the
// floor: over every distinct table of the repository's logs, the share of
// rows whose two halves (out-of-place, in-place) differ by under each figure,
// |in-place/out-of-place − 1| rounded up to 0.1%, and holds the page's
// sentence to them, and defaultNoiseFloor above the spread of three rows in
// four, as its comment says.
func TestCompareHalvesSpread(t *testing.T) {
	t.Parallel()
	tests, err := testlogs.All("../..")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var d []float64
	for _, tt := range tests {
		if key := fmt.Sprint(tt.Rows); !seen[key] {
			seen[key] = true
			for _, row := range tt.Rows {
				if row.OutOfPlace.OK() && row.InPlace.OK() {
					d = append(d, math.Abs(row.InPlace.Time/row.OutOfPlace.Time-1))
				}
			}
		}
	}
	slices.Sort(d)
	under := func(q float64) float64 { return math.Ceil(1000*d[int(q*float64(len(d)))]) / 10 }
	want := fmt.Sprintf("(the %d\ndistinct tables of `data/logs`, `data/logs/paired` and `data/nccltests/testdata/real`, %d rows\nwith both halves), the two halves of a row differ by under %.1f%% in half the rows, under %.1f%% in\nthree of four and under %.1f%% in nine of ten.",
		len(seen), len(d), under(0.5), under(0.75), under(0.9))
	doc, err := os.ReadFile("../../docs/compare.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), want) {
		t.Errorf("docs/compare.md does not say %q", want)
	}
	if q := d[len(d)*3/4]; !(defaultNoiseFloor > q) {
		t.Errorf("defaultNoiseFloor %g is not above the 75th percentile of the halves' spread, %g", defaultNoiseFloor, q)
	}
}

// TestCompareBusBWOfMeanTime: a size's bus bandwidth is that of its mean
// time, so that the slower table there shows the lower bandwidth. The RTX
// 6000D and RTX PRO 5000 AllReduces' 8 MiB rows (2 x 8 ranks, bus factor
// 2·15/16) print 2005.46 us at 7.84 GB/s with 4856.79 us at 3.24 GB/s, and
// 1387.48 us at 11.34 GB/s with 8916.79 us at 1.76 GB/s: B is 1.50x A's
// mean time, and the means of the printed bandwidths (5.54 and 6.55 GB/s)
// had B the faster. 8 MiB over the mean times is 4.58 and 3.05 GB/s of bus.
func TestCompareBusBWOfMeanTime(t *testing.T) {
	t.Parallel()
	got := runCompareJSON(t, realLog("rtx6000d_2x8_allreduce_late2025.log"), realLog("rtx5kpro_2x8_allreduce_late2025.log"))
	i := slices.IndexFunc(got.Points, func(p comparePoint) bool { return p.SizeBytes == 8<<20 })
	if i < 0 {
		t.Fatalf("no 8 MiB point: %+v", got.Points)
	}
	p := got.Points[i]
	busBW := func(ta, tb float64) float64 { return float64(8<<20) / ((ta + tb) / 2 * 1e-6) * 2 * 15 / 16 }
	wantA, wantB := busBW(2005.46, 4856.79), busBW(1387.48, 8916.79)
	if math.Abs(p.ABusBWBps/wantA-1) > 1e-12 || math.Abs(p.BBusBWBps/wantB-1) > 1e-12 {
		t.Errorf("8 MiB: bus bandwidths %.6g and %.6g B/s, want %.6g and %.6g", p.ABusBWBps, p.BBusBWBps, wantA, wantB)
	}
	if p.Ratio <= 1 || p.BBusBWBps >= p.ABusBWBps {
		t.Errorf("8 MiB: B/A %.2f with B's bus bandwidth %.3g against A's %.3g: the slower table shows the higher bandwidth", p.Ratio, p.BBusBWBps, p.ABusBWBps)
	}
}

// TestCompareBusBWFromTimes: compare computes a size's bus bandwidth from
// its size, its mean time and nccl-tests' bus factor, not from the busbw
// column, which rounds to 0.01 GB/s. The 8-rank Ring AllReduce's 128 B row
// (all_reduce_ring.log line 27) prints 35.10 and 37.62 us at busbw 0.01
// GB/s: 128 B / 36.36 us · 2·7/8 = 6.16 MB/s, where the column gave 10 MB/s;
// its 8 B row (line 23), 37.33 and 37.79 us at 0.00 GB/s, is 8 B / 37.56 us
// · 1.75 = 373 KB/s, where the column gave 0 B/s.
func TestCompareBusBWFromTimes(t *testing.T) {
	t.Parallel()
	got := runCompareJSON(t, ringLog, nvlsLog)
	for _, c := range []struct {
		size int64
		want float64 // B/s, by hand
	}{
		{128, 128 / 36.36e-6 * 1.75},
		{8, 8 / 37.56e-6 * 1.75},
	} {
		i := slices.IndexFunc(got.Points, func(p comparePoint) bool { return p.SizeBytes == c.size })
		if i < 0 {
			t.Fatalf("no %d B point", c.size)
		}
		if p := got.Points[i]; math.Abs(p.ABusBWBps/c.want-1) > 1e-12 {
			t.Errorf("%d B: A's bus bandwidth %.6g B/s; want %.6g", c.size, p.ABusBWBps, c.want)
		}
	}
	code, out, _ := runCLI("compare", ringLog, nvlsLog)
	if code != 0 || !strings.Contains(out, "\n128 B    36.4 µs  35.5 µs  0.98  6.16 MB/s") || !strings.Contains(out, "\n8 B      37.6 µs  35.6 µs  0.95  373 KB/s") {
		t.Errorf("exit %d; the text's 8 B and 128 B rows lack 373 KB/s and 6.16 MB/s:\n%s", code, out)
	}
}

// TestCompareJSONUnknown: compare's JSON gives a table's ranks, nodes and
// GPU as null where the log does not say them, as fit -list does (red
// team L: it wrote 0 and "", which a script reads as a count and a name).
// The 4-NIC H200 VM log prints no Rank lines: its 16 ranks come from its
// columns, its hosts and GPU from nothing.
func TestCompareJSONUnknown(t *testing.T) {
	t.Parallel()
	log := realDir + "h200_2x8_allreduce_4nic_vm_nccltests380.log"
	code, out, stderr := runCLI("compare", log, log, "-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		A map[string]any `json:"a"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"ranks": 16.0, "nodes": nil, "gpu": nil, "collective": "allreduce"} {
		if v, ok := got.A[k]; !ok || v != want {
			t.Errorf("a.%s = %v (present %v), want %v", k, v, ok, want)
		}
	}
}

// TestCompareLowFloorDigits: under a floor below 1% the factors print to
// three decimals, where "B faster by 1.00x at 64 MiB" and a noise of "0%"
// would hide the 0.5% difference that -floor 0.004 counts: together's
// Ring and CollNet runs of one H100 node, 367 and 365 µs there.
func TestCompareLowFloorDigits(t *testing.T) {
	t.Parallel()
	const dir = "../../data/logs/paired/h100-sxm-1x8-together/"
	code, out, stderr := runCLI("compare", dir+"all_reduce_ring.log", dir+"all_reduce_collnet_sharp.log", "-floor", "0.004")
	if code != 0 || !strings.Contains(out, "B faster by 1.005x at 64 MiB") || strings.Contains(out, "1.00x") {
		t.Errorf("exit %d, %s\n%s; want the 64 MiB factor to three decimals", code, stderr, out)
	}
	if _, out, _ := runCLI("compare", dir+"all_reduce_ring.log", dir+"all_reduce_collnet_sharp.log"); !strings.Contains(out, "median B/A 0.99;") {
		t.Errorf("the default floor: want two decimals:\n%s", out)
	}
}
