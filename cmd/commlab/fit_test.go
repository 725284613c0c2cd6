package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/inframethod/commlab/data"
	"gonum.org/v1/gonum/floats/scalar"
)

// writeTemp writes b to a file called name in a fresh directory.
func writeTemp(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// withoutLines writes the log at src, less the lines drop reports, to a
// file named name in a temporary directory: a real log with its Rank lines
// cut, say.
func withoutLines(t *testing.T, src, name string, drop func(line string) bool) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if !drop(l) {
			keep = append(keep, l)
		}
	}
	return writeTemp(t, name, []byte(strings.Join(keep, "\n")))
}

// isRankLine reports nccl-tests' "#  Rank N Group G Pid P on HOST ..." lines.
func isRankLine(l string) bool { return strings.HasPrefix(l, "#  Rank") }

// publicLog writes the embedded public log name (data/logs) to a file.
func publicLog(t *testing.T, name string) string {
	t.Helper()
	b, err := data.Files.ReadFile("logs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return writeTemp(t, name, b)
}

// fitJSON runs "commlab fit -json" with args and decodes the result, both
// into the contract's fields and into a map to check their names.
func fitJSON(t *testing.T, args ...string) (fitOutput, map[string]any) {
	t.Helper()
	code, out, stderr := runCLI(append([]string{"fit", "-json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res fitOutput
	var raw map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	return res, raw
}

func TestFitJSONContract(t *testing.T) {
	t.Parallel()
	res, raw := fitJSON(t, publicLog(t, "h20-3e_2x2_alltoall_nccltests321.log"))
	// The command-line contract (docs/design.md) names these fields.
	for _, k := range []string{"collective", "p", "n_points", "single", "regimes", "median_rel_err", "max_rel_err", "loo_median_rel_err"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	single := raw["single"].(map[string]any)
	for _, k := range []string{"alpha_s", "bw_Bps", "median_rel_err", "max_rel_err"} {
		if _, ok := single[k]; !ok {
			t.Errorf("single lacks %q", k)
		}
	}
	for _, r := range raw["regimes"].([]any) {
		for _, k := range []string{"min_bytes", "max_bytes", "alpha_s", "bw_Bps"} {
			if _, ok := r.(map[string]any)[k]; !ok {
				t.Errorf("regime lacks %q", k)
			}
		}
	}
	// The log: alltoall_perf on 2 VMs x 2 GPUs, 13 sizes 1 MiB..4 GiB.
	if res.Collective != "alltoall" || res.P != 4 || res.NPoints != 13 {
		t.Errorf("collective %q p %d n %d, want alltoall 4 13", res.Collective, res.P, res.NPoints)
	}
	// Issue 5's targets.
	if res.MedianRelErr > 0.03 || res.MaxRelErr > 0.15 || res.LOOMedianRelErr > 0.08 {
		t.Errorf("errors median %.3f max %.3f LOO %.3f miss 3%%/15%%/8%%", res.MedianRelErr, res.MaxRelErr, res.LOOMedianRelErr)
	}
	// Large sizes run at ~67 GB/s algorithm bandwidth (the log's algbw
	// column tops out at 67.17 GB/s), busBW = algBW·3/4 for AllToAll at P = 4.
	last := res.Regimes[len(res.Regimes)-1]
	if !scalar.EqualWithinAbs(deref(last.BWBps), 67e9, 0.02*67e9) || !scalar.EqualWithinAbs(deref(last.BusBWBps), deref(last.BWBps)*0.75, 1e-12*deref(last.BWBps)*0.75) {
		t.Errorf("last regime BW %g, busBW %g; want ~67e9 and 3/4 of it", deref(last.BWBps), deref(last.BusBWBps))
	}
	if res.Regimes[0].MinBytes != 1<<20 || last.MaxBytes != 4<<30 {
		t.Errorf("regimes span %d..%d B, want the log's 1 MiB..4 GiB", res.Regimes[0].MinBytes, last.MaxBytes)
	}
	if len(res.Points) != 13 {
		t.Errorf("%d points, want 13", len(res.Points))
	}
}

// deref is *p, NaN when p is nil (a bandwidth the data did not measure).
func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

func TestFitFlags(t *testing.T) {
	t.Parallel()
	log := publicLog(t, "h20-3e_2x2_alltoall_nccltests321.log")
	res, _ := fitJSON(t, log, "-regimes", "1")
	if len(res.Regimes) != 1 || res.Regimes[0].AlphaS != res.Single.AlphaS {
		t.Errorf("-regimes 1: %d regimes, alpha %g vs single %g", len(res.Regimes), res.Regimes[0].AlphaS, res.Single.AlphaS)
	}
	res, _ = fitJSON(t, "-regimes", "3", log, "-placement", "in-place")
	if len(res.Regimes) != 3 || res.Placement != "in-place" {
		t.Errorf("-regimes 3 -placement in-place: %d regimes, placement %s", len(res.Regimes), res.Placement)
	}
	// The DeepEP log does not name its binary; -collective and -p override,
	// and its five 0-byte rows are left out.
	res, _ = fitJSON(t, publicLog(t, "h20_1x8_alltoall_or_allgather_deepep303.log"), "-collective", "alltoall", "-p", "8")
	if res.Collective != "alltoall" || res.P != 8 || res.DroppedZeroBytes != 5 || res.NPoints != 5 {
		t.Errorf("got collective %q p %d dropped %d n %d", res.Collective, res.P, res.DroppedZeroBytes, res.NPoints)
	}
	// Through ring AllReduce at P = 16 on the NVLS log: the link's BW is the
	// plain fit's BW scaled by the ring's 2(P-1)/P bytes per byte, roughly.
	res, _ = fitJSON(t, publicLog(t, "h20_2x8_allreduce_nvls_nccl1244.log"), "-algo", "ring")
	if res.Through == nil || res.Through.Algorithm != "ring" || !(res.Through.BWBps > 0) || !(res.Through.AlphaS >= 0) {
		t.Errorf("-algo ring: %+v", res.Through)
	}
	if res.P != 16 || res.Collective != "allreduce" {
		t.Errorf("NVLS log: collective %q p %d, want allreduce 16", res.Collective, res.P)
	}
}

func TestFitTable(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("fit", publicLog(t, "h20_2x8_allreduce_nvls_nccl1244.log"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"allreduce", "p = 16", "single T = alpha + S/BW", "piecewise:", "min bytes", "busBW", " GB/s", "1048576", "536870912"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// A real log whose reduce_scatter busbw oscillates from 64 MiB up (the 2019
// DGX-2 log, test 4: 1073741808 B in 20415 us, a busbw of 45.45 GB/s between
// sizes at 59-64 GB/s): the table names the points the robust loss set
// aside (their times to three significant digits, as every amount in text),
// and the clean log has none.
func TestFitTableOutliers(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("fit", realLog("v100_dgx2_five_tests_2019.log"), "-test", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "set aside by the robust loss") || !strings.Contains(out, "1073741808 B: measured 20.4 ms") {
		t.Errorf("oscillating point not listed:\n%s", out)
	}
	_, out, _ = runCLI("fit", publicLog(t, "h20-3e_2x2_alltoall_nccltests321.log"))
	if strings.Contains(out, "set aside") {
		t.Errorf("clean log lists outliers:\n%s", out)
	}
}

// realLog is the path of a real log of package nccltests' testdata.
func realLog(name string) string { return "../../data/nccltests/testdata/real/" + name }

// A real sweep over a narrow size range (T4, 100-110 MiB in steps of 1 MiB)
// gets a warning that alpha and BW are poorly separated, on stderr at the
// regime's first row; a sweep over decades does not.
func TestFitNarrowRegimeNote(t *testing.T) {
	t.Parallel()
	log := realLog("t4_3node_allreduce_stepbytes_srun.log")
	_, out, stderr := runCLI("fit", log)
	// The log's first row (104857600 B) is on line 17.
	if !strings.HasPrefix(stderr, log+":17: the regime 104857600..") || !strings.Contains(stderr, "spans less than 2x in size") || strings.Contains(out, "spans less") {
		t.Errorf("narrow sweep: stderr %q; want the note at %s:17, not on stdout:\n%s", stderr, log, out)
	}
	_, out, stderr = runCLI("fit", publicLog(t, "h20-3e_2x2_alltoall_nccltests321.log"))
	if strings.Contains(out+stderr, "spans less than 2x") {
		t.Errorf("wide sweep with a note:\n%s%s", stderr, out)
	}
}

// Warnings go to stderr as FILE:LINE: message in text mode, and into the
// JSON's problems with -json, where stdout holds the JSON object alone and
// stderr nothing. The fixture's line 71 is a row cut short (6 fields of 13).
func TestFitWarningsStreams(t *testing.T) {
	t.Parallel()
	log := "../../data/nccltests/testdata/mpirun_noisy_allreduce.log"
	const msg = `wrong number of fields: 6, want 13 for columns "size count type redop root time algbw busbw #wrong time algbw busbw #wrong"`
	code, out, stderr := runCLI("fit", log)
	if code != 0 || stderr != log+":71: "+msg+"\n" {
		t.Errorf("text: exit %d, stderr %q; want the skipped row at %s:71", code, stderr, log)
	}
	if strings.Contains(out, "wrong number") || strings.Contains(out, "note:") || !strings.Contains(out, "piecewise:") {
		t.Errorf("text: stdout holds a warning or lacks the fit:\n%s", out)
	}
	code, out, stderr = runCLI("fit", log, "-json")
	if code != 0 || stderr != "" {
		t.Fatalf("-json: exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
	var res fitOutput
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("-json: stdout is not JSON: %v\n%s", err, out)
	}
	if dec.More() {
		t.Errorf("-json: stdout holds more than one JSON object:\n%s", out)
	}
	if want := (problem{File: log, Line: 71, Message: msg}); len(res.Problems) != 1 || res.Problems[0] != want {
		t.Errorf("-json: problems %+v, want [%+v]", res.Problems, want)
	}
	// A clean log has an empty problems array and no non-monotone points.
	_, raw := fitJSON(t, publicLog(t, "h20_2x8_allreduce_nvls_nccl1244.log"))
	if p, ok := raw["problems"].([]any); !ok || len(p) != 0 {
		t.Errorf("clean log: problems %#v, want []", raw["problems"])
	}
	if nm, ok := raw["non_monotone"].([]any); !ok || len(nm) != 0 {
		t.Errorf("clean log: non_monotone %#v, want []", raw["non_monotone"])
	}
	// A fit that fails still reports the rows the reader skipped.
	two := writeTemp(t, "two.log", []byte("#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n"+
		"1024 256 float sum -1 10.0 0.10 0.19 0 10.1 0.10 0.19 0\n"+
		"2048 512 float\n"+
		"4096 1024 float sum -1 10.5 0.39 0.73 0 10.4 0.39 0.74 0\n"))
	code, out, stderr = runCLI("fit", two, "-json")
	if code == 0 || out != "" || !strings.HasPrefix(stderr, two+":3: wrong number of fields") || !strings.Contains(stderr, "at least 3") {
		t.Errorf("failed fit: exit %d, stdout %q, stderr %q; want the skipped row at line 3, then the error", code, out, stderr)
	}
}

// A table without the binary's name whose #wrong columns all print "N/A"
// (a run with -c 0; here DeepEP #303's H20 AllGather log so rewritten, its
// file name naming both) cannot tell AllGather from AllToAll: the CLI says
// so, on stderr at the table's first line (line 4), and in
// collective_candidates, and names -collective; with -collective there is
// no note. The fit is the same either way: the bus factor of both is
// (P-1)/P (commmodel.BusFactor).
func TestFitAmbiguousCollective(t *testing.T) {
	t.Parallel()
	const name = "h20_1x8_alltoall_or_allgather_deepep303.log"
	b, err := data.Files.ReadFile("logs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	unchecked := regexp.MustCompile(`(?m)^(\s+\d+\s+\d+\s+float\s+none\s+-1(?:\s+\S+){3}\s+)0((?:\s+\S+){3}\s+)0$`)
	log := writeTemp(t, name, unchecked.ReplaceAll(b, []byte("${1}N/A${2}N/A")))
	code, out, stderr := runCLI("fit", log)
	if code != 0 || !strings.HasPrefix(stderr, log+":4: ambiguous collective: the table fits allgather and alltoall alike") || !strings.Contains(stderr, "give the collective: -collective NAME to commlab fit, FILE:collective=NAME to -calibrate (FILE:test=K:collective=NAME for test K of several)\n") {
		t.Errorf("text: exit %d, stderr %q; want the note at %s:4 naming -collective", code, stderr, log)
	}
	if strings.Contains(out, "alike") {
		t.Errorf("text: the note is on stdout:\n%s", out)
	}
	if _, _, stderr := runCLI("fit", log, "-collective", "alltoall"); stderr != "" {
		t.Errorf("-collective alltoall: stderr %q, want none", stderr)
	}
	amb, raw := fitJSON(t, log)
	if got := amb.CollectiveCandidates; len(got) != 2 || got[0] != "allgather" || got[1] != "alltoall" {
		t.Errorf("collective_candidates %v, want [allgather alltoall]", got)
	}
	if len(amb.Problems) != 1 || amb.Problems[0].Line != 4 || !strings.Contains(amb.Problems[0].Message, "-collective") {
		t.Errorf("problems %+v, want the note at line 4", amb.Problems)
	}
	for _, c := range []string{"alltoall", "allgather"} {
		set, raw2 := fitJSON(t, log, "-collective", c)
		if _, ok := raw2["collective_candidates"]; ok || len(set.Problems) != 0 {
			t.Errorf("-collective %s: collective_candidates %v, problems %+v; want neither", c, raw2["collective_candidates"], set.Problems)
		}
		if set.Collective != c || set.P != amb.P || set.BusFactor != amb.BusFactor || !reflect.DeepEqual(set.Single, amb.Single) ||
			!reflect.DeepEqual(set.Regimes, amb.Regimes) || set.MaxRelErr != amb.MaxRelErr {
			t.Errorf("-collective %s: %s p %d bus factor %g single %+v; want the fit of %s: p %d bus factor %g single %+v",
				c, set.Collective, set.P, set.BusFactor, set.Single, amb.Collective, amb.P, amb.BusFactor, amb.Single)
		}
	}
	// P = 8 (from the count column): bus factor 7/8.
	if !scalar.EqualWithinAbs(amb.BusFactor, 7.0/8, 1e-12*7.0/8) || raw["collective"] != "allgather" {
		t.Errorf("bus factor %g, collective %v; want 7/8, allgather", amb.BusFactor, raw["collective"])
	}
}

// The public H200 2 x 8 AllReduce whose 16 MiB (304.32 us) is slower than
// 32 MiB (276.88 us), the log's out-of-place times: the fit lists 16 MiB as
// non-monotone against 32 MiB, in text and JSON, fits 32 MiB (no longer set
// aside by the robust loss) and keeps the worst error under 15%.
func TestFitNonMonotone(t *testing.T) {
	t.Parallel()
	log := publicLog(t, "h200_2x8_allreduce_spectrumx_openshift.log")
	res, _ := fitJSON(t, log)
	var found bool
	for _, nm := range res.NonMonotone {
		if nm.SizeBytes == 16<<20 {
			found = true
			// Lines 79 and 80 of the log hold the 16 MiB and 32 MiB rows.
			want := fitNonMonotone{SizeBytes: 16 << 20, TimeS: 304.32e-6, Line: 79, ContradictsSizeBytes: 32 << 20, ContradictsTimeS: 276.88e-6, ContradictsLine: 80,
				PredictedS: nm.PredictedS, RelErr: nm.RelErr}
			if nm != want || !scalar.EqualWithinAbs(nm.RelErr, nm.PredictedS/nm.TimeS-1, 1e-9*math.Abs(nm.PredictedS/nm.TimeS-1)) {
				t.Errorf("non_monotone %+v, want %+v", nm, want)
			}
		}
	}
	if !found {
		t.Errorf("16 MiB not in non_monotone %+v", res.NonMonotone)
	}
	for _, pt := range res.Points {
		switch pt.SizeBytes {
		case 16 << 20:
			t.Errorf("16 MiB is among the fitted points %+v", pt)
		case 32 << 20:
			if pt.Weight < outlierWeight || !scalar.EqualWithinAbs(pt.PredictedS, pt.TimeS, 0.15*pt.TimeS) {
				t.Errorf("32 MiB: %+v; want it fitted within 15%%, weight >= %g", pt, outlierWeight)
			}
		}
	}
	if res.MaxRelErr > 0.15 || res.NPoints != 25 {
		t.Errorf("max_rel_err %.3f, n_points %d; want <= 0.15 of 25 points", res.MaxRelErr, res.NPoints)
	}
	_, out, stderr := runCLI("fit", log)
	if !strings.Contains(out, "left out as non-monotone") || !strings.Contains(out, "16777216 B: measured 304 µs, +9.9% against 33554432 B at 277 µs") || stderr != "" {
		t.Errorf("text: 16 MiB not listed (stderr %q):\n%s", stderr, out)
	}
	if strings.Contains(out, "33554432 B: measured") {
		t.Errorf("text: 32 MiB listed as set aside:\n%s", out)
	}
}

func TestFitTidyCSV(t *testing.T) {
	t.Parallel()
	b, err := data.Files.ReadFile("article_h20.csv")
	if err != nil {
		t.Fatal(err)
	}
	// The first test of the article's CSV is 8 x H20 AllToAll, 4 points
	// (64 KiB..64 MiB); the second, -test 1, is 2 x 8 GPUs with 3 points.
	res, _ := fitJSON(t, writeTemp(t, "article.csv", b))
	if res.Collective != "alltoall" || res.P != 8 || res.NPoints != 4 {
		t.Errorf("article CSV: collective %q p %d n %d, want alltoall 8 4", res.Collective, res.P, res.NPoints)
	}
	res, _ = fitJSON(t, writeTemp(t, "article.csv", b), "-test", "1")
	if res.P != 16 || res.NPoints != 3 {
		t.Errorf("article CSV test 1: p %d n %d, want 16 3", res.P, res.NPoints)
	}
}

func TestFitBadInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args func(t *testing.T) []string
		want string // in the error message
	}{
		{"empty file", func(t *testing.T) []string { return []string{writeTemp(t, "empty.log", nil)} }, "empty.log"},
		{"no table", func(t *testing.T) []string {
			return []string{writeTemp(t, "notes.log", []byte("# nThread 1 nGpus 1\nhello world\nNCCL INFO nothing here\n"))}
		}, "notes.log"},
		{"not text", func(t *testing.T) []string {
			return []string{writeTemp(t, "core.bin", []byte{0x7f, 'E', 'L', 'F', 0, 0, 0, 1, 2, 3, 0xff, 0xfe, 0})}
		}, "core.bin"},
		{"missing file", func(t *testing.T) []string { return []string{filepath.Join(t.TempDir(), "nope.log")} }, "nope.log"},
		{"no file", func(t *testing.T) []string { return nil }, "FILE"},
		{"two rows", func(t *testing.T) []string {
			return []string{writeTemp(t, "two.log", []byte("#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n"+
				"1024 256 float sum -1 10.0 0.10 0.19 0 10.1 0.10 0.19 0\n"+
				"2048 512 float sum -1 10.5 0.20 0.37 0 10.4 0.20 0.37 0\n"))}
		}, "at least 3"},
		{"bad regimes", func(t *testing.T) []string {
			return []string{publicLog(t, "h20-3e_2x2_alltoall_nccltests321.log"), "-regimes", "many"}
		}, "-regimes"},
		{"too many regimes", func(t *testing.T) []string {
			return []string{publicLog(t, "h20-3e_2x2_alltoall_nccltests321.log"), "-regimes", "9"}
		}, "regimes"},
		{"bad collective", func(t *testing.T) []string {
			return []string{publicLog(t, "h20-3e_2x2_alltoall_nccltests321.log"), "-collective", "gossip"}
		}, "gossip"},
		{"bad test", func(t *testing.T) []string {
			return []string{publicLog(t, "h20-3e_2x2_alltoall_nccltests321.log"), "-test", "3"}
		}, "-test 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runCLI(append([]string{"fit"}, tc.args(t)...)...)
			if code == 0 {
				t.Fatalf("exit 0, want an error; stdout:\n%s", out)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q does not mention %q", stderr, tc.want)
			}
		})
	}
}

func TestFitInPlaceOnlyCSV(t *testing.T) {
	t.Parallel()
	// A tidy CSV whose points are all in-place is fitted on them; the times
	// follow T = 10 us + S/(100 GB/s) exactly, so the fit gives that back.
	csv := "source,system,collective,algorithm,nranks,nnodes,size_bytes,time_us,busbw_gbps,placement,note\n"
	for _, s := range []int64{1 << 10, 1 << 16, 1 << 20, 1 << 24, 1 << 28} {
		csv += fmt.Sprintf("test,H20,allreduce,NCCL,8,1,%d,%.6f,,in-place,\n", s, 10+float64(s)/100e9*1e6)
	}
	res, _ := fitJSON(t, writeTemp(t, "inplace.csv", []byte(csv)), "-regimes", "1")
	if res.Placement != "in-place" || res.NPoints != 5 {
		t.Fatalf("placement %q, %d points; want in-place, 5", res.Placement, res.NPoints)
	}
	if !scalar.EqualWithinAbs(res.Single.AlphaS, 10e-6, 1e-4*10e-6) || !scalar.EqualWithinAbs(deref(res.Single.BWBps), 100e9, 1e-4*100e9) {
		t.Errorf("alpha %g s, BW %g B/s; want 1e-5, 1e11", res.Single.AlphaS, deref(res.Single.BWBps))
	}
	// busBW = BW·2(P-1)/P for AllReduce at P = 8 (nccl-tests' bus factor).
	if !scalar.EqualWithinAbs(deref(res.Single.BusBWBps), 100e9*14/8, 1e-4*100e9*14/8) {
		t.Errorf("busBW %g, want %g", deref(res.Single.BusBWBps), 100e9*14/8)
	}
}

// TestFitListAndAll lists the five tests of the DGX-2 log (AllGather,
// AllReduce, Broadcast, Reduce and ReduceScatter of 12 V100, as its
// README.md says) and fits them all in one run.
func TestFitListAndAll(t *testing.T) {
	t.Parallel()
	const dgx2 = "../../data/logs/paired/v100-sxm3-dgx2/five_tests_2019.log"
	code, out, stderr := runCLI("fit", dgx2, "-list", "-json")
	var list struct {
		Tests []struct {
			Op    string `json:"op"`
			Ranks int    `json:"ranks"`
			Rows  int    `json:"rows"`
		} `json:"tests"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list.Tests) != 5 {
		t.Fatalf("-list: exit %d, %s, %s", code, stderr, out)
	}
	for i, op := range []string{"all_gather", "all_reduce", "broadcast", "reduce", "reduce_scatter"} {
		if l := list.Tests[i]; l.Op != op || l.Ranks != 12 || l.Rows != 31 {
			t.Errorf("test %d: %+v, want %s on 12 ranks, 31 rows", i, l, op)
		}
	}
	code, out, stderr = runCLI("fit", dgx2, "-test", "all", "-bootstrap", "0", "-json")
	var all struct {
		Fits []json.RawMessage `json:"fits"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &all) != nil || len(all.Fits) != 5 {
		t.Errorf("-test all: exit %d, %d fits, %s", code, len(all.Fits), stderr)
	}
	code, _, stderr = runCLI("fit", dgx2, "-test", "9")
	if code == 0 || !strings.Contains(stderr, "give 0..4 or all (-list lists them)") {
		t.Errorf("-test 9: exit %d, %q", code, stderr)
	}
}

// TestFitLatencyBound: the H200 log's rows of 1, 2 and 4 KiB take 45.06,
// 43.84 and 43.51 µs (out-of-place), no longer as the size grows, so their
// regime measures no bandwidth. Text, JSON and CSV must say so and print no
// bandwidth figure for it.
func TestFitLatencyBound(t *testing.T) {
	t.Parallel()
	log := publicLog(t, "h200_2x8_allreduce_spectrumx_openshift.log")
	res, raw := fitJSON(t, log)
	first := res.Regimes[0]
	if first.MinBytes != 1024 || first.MaxBytes != 4096 || !first.LatencyBound {
		t.Fatalf("first regime %d..%d B latency-bound %v; want 1024..4096 B, latency-bound", first.MinBytes, first.MaxBytes, first.LatencyBound)
	}
	if first.BWBps != nil || first.BusBWBps != nil || first.BWCIBps != [2]*float64{} {
		t.Errorf("latency-bound regime carries BW %v, busBW %v, CI %v; want none", first.BWBps, first.BusBWBps, first.BWCIBps)
	}
	r0 := raw["regimes"].([]any)[0].(map[string]any)
	if v, ok := r0["bw_Bps"]; !ok || v != nil {
		t.Errorf("JSON bw_Bps = %v (present %v), want null", v, ok)
	}
	// A regime whose bootstrap reached the cap has a measured BW but no
	// measured top of its interval. None does here since resamples of one
	// size are left out (TestFitFewPointsBounded); the 8..32 KiB one did.
	open := 0
	for _, g := range res.Regimes[1:] {
		if g.BWBps == nil || g.LatencyBound {
			t.Errorf("regime %d..%d B: BW %v, latency-bound %v; want a measured BW", g.MinBytes, g.MaxBytes, g.BWBps, g.LatencyBound)
		}
		if g.BWCIOpen {
			open++
			if g.BWCIBps[0] == nil || g.BWCIBps[1] != nil {
				t.Errorf("open interval %v, want [lo, nil]", g.BWCIBps)
			}
		}
	}

	code, text, stderr := runCLI("fit", log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	row := regexp.MustCompile(`(?m)^\s+1024\s+4096\s+3\s.*$`).FindString(text)
	if !strings.Contains(row, "latency-bound") || strings.Contains(row, "/s") {
		t.Errorf("text row %q: want latency-bound and no bandwidth", row)
	}
	if !strings.Contains(text, "latency-bound: no bandwidth measured") || strings.Contains(text, ">") {
		t.Errorf("text lacks the latency-bound note or keeps a '>' marker:\n%s", text)
	}

	code, csv, stderr := runCLI("fit", log, "-format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(csv, "\n")
	header, cells := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
	for i, h := range header {
		switch h {
		case "bw_Bps", "bus_bw_Bps":
			if cells[i] != "" {
				t.Errorf("CSV %s = %q for the latency-bound regime, want empty", h, cells[i])
			}
		case "latency_bound":
			if cells[i] != "true" {
				t.Errorf("CSV latency_bound = %q, want true", cells[i])
			}
		}
	}
}

// TestFitHeaderWithoutTestName: a log that names no test (the B200 -g 8
// log has no "# Collective test starting" line) heads its fit "test 0 of
// 1: allreduce", without the stray " :" of an empty name.
func TestFitHeaderWithoutTestName(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("fit", realLog("b200_1x8_g8_allreduce_gke_a4.log"), "-bootstrap", "0")
	first, _, _ := strings.Cut(out, "\n")
	if code != 0 || !strings.Contains(first, ", test 0 of 1: allreduce (from table)") {
		t.Errorf("exit %d, first line %q (%s); want \", test 0 of 1: allreduce (from table)\"", code, first, stderr)
	}
}

// TestFitListProblems: fit -list says on standard error what the reader
// set aside, as fit does: a row cut short in a copy of AMD's MI300X log.
func TestFitListProblems(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(realLog("mi300x_1x8_2x8_allreduce_rccltests.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	path := filepath.Join(t.TempDir(), "cut.log")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:60], "")+"  268435456      67108864     float     sum      -1   1713\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI("fit", "-list", path)
	if code != 0 || !strings.Contains(out, "allreduce") || !strings.Contains(stderr, path+":61: wrong number of fields") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the tests listed and line 61 named", code, out, stderr)
	}
}

// TestFitTestOutOfRange: -test past a file's tests names the ones it
// holds, in the singular for one ("holds 1 tests: give 0..0" before).
func TestFitTestOutOfRange(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI("fit", realDir+"h100_2x8_allreduce_default_nccltests309.log", "-test", "5")
	if want := "-test 5: the file holds 1 test: give 0 or all (-list lists them)"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, %s; want 1 and %q", code, stderr, want)
	}
}
