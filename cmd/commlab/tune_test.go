package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
)

// tuneCalibration is Together's node's pinned sweep, as tune's -calibrate
// takes it.
const tuneCalibration = togetherDir + "all_reduce_ring.log:algo=ring," + togetherDir + "all_reduce_nvls.log:algo=auto," +
	togetherDir + "all_gather_ring.log:algo=ring"

// TestTune writes rules for a job of tensor-parallel groups of 4 inside
// 8-GPU nodes, data-parallel groups of 2 per node across 3 nodes and the
// world of 3 x 8, from Together's pinned sweep, and reads them back: for
// every function and communicator the rules cover every size from 0 to
// the largest without a gap; at every decided size the rule that applies is
// NCCL's own choice, or the model's fastest where it Beats NCCL's; every
// line fits the plugin's 255 bytes; the header says which NCCL the plugin
// needs, and standard error that the tables' NCCL is older. The file the
// old flags write for 1 and 2 nodes of 8 leaves every call of this job to
// one channel; this one leaves none.
func TestTune(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "nccl_tuner.conf")
	job := []string{"-comms", "1x4,3x2,3x8"}
	code, _, stderr := runCLI(append([]string{"tune", "-calibrate", tuneCalibration, "-collective", "allreduce,allgather", "-o", out}, job...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The tables ran NCCL 2.26.2 (their header); the plugin needs 2.30.3.
	if !strings.Contains(stderr, "the tables ran NCCL 2.26.2, and the example tuner plugin needs NCCL 2.30.3 or later") ||
		!strings.Contains(stderr, "\non 3 x 2 and 3 x 8, beyond the tables' 1 node, every rule keeps NCCL's own choice") {
		t.Errorf("stderr %q: want the version warning and the communicators beyond the tables' nodes", stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if len(l) > 255 {
			t.Errorf("line %d: %d bytes, more than the plugin's 255", i+1, len(l))
		}
	}
	for _, want := range []string{"NCCL 2.30.3 or later", nccl.TunerPluginPatch, "NCCL_TUNER_CONFIG_FILE", "calibrated on:",
		"(nodes x GPUs per node): 1 x 4, 3 x 2, 3 x 8; a rule's nNodes", "NCCL 2.26.2's tuning model"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the header lacks %q", want)
		}
	}
	rules, err := nccl.ReadTunerRules(strings.NewReader(string(b)), out)
	if err != nil {
		t.Fatal(err)
	}
	// The count each rank's plugin logs (plugin.c's "Loaded %d tuning
	// configurations") is the file's rules, named in the header to check.
	if want := fmt.Sprintf(`"TUNER/ExamplePlugin: Loaded %d tuning configurations"`, len(rules)); !strings.Contains(strings.ReplaceAll(string(b), "\n#   ", " "), want) {
		t.Errorf("the header lacks %s, the plugin's line for the file's %d rules", want, len(rules))
	}
	type key struct {
		f            nccl.Func
		nodes, ranks int
	}
	next := map[key]uint64{}
	for i, r := range rules {
		// A rule after one NCCL may ignore for a call, within its sizes,
		// is the fallback for such calls.
		if i > 0 && nccl.MayBeIgnored(rules[i-1].Algo) && nccl.MayBeIgnored(r.Algo) && r.MinBytes >= rules[i-1].MinBytes && r.MaxBytes <= rules[i-1].MaxBytes {
			t.Errorf("%v after %v: a fallback NCCL may ignore too", r, rules[i-1])
		}
	}
	for _, r := range nccl.WithoutFallbacks(rules) {
		k := key{r.Func, r.Nodes, r.Ranks}
		if r.MinBytes != next[k] {
			t.Errorf("%v: starts at %d, want %d (a gap or an overlap)", r, r.MinBytes, next[k])
		}
		next[k] = r.MaxBytes + 1
		if r.Channels != nccl.NCCLChannels || r.PipeOps != -1 || r.RegBuff != -1 || r.Ranks < 2 {
			t.Errorf("%v: want NCCL's own channels (0), any pipeOps and regBuff, two ranks or more", r)
		}
	}
	if len(next) != 5*3 {
		t.Errorf("rules for %d (function, communicator), want 5 x 3", len(next))
	}
	for k, n := range next {
		if n != 0 { // wrapped past the largest uint64
			t.Errorf("%v: rules end at %d", k, n-1)
		}
	}
	hw, tables := calibrationTables(t, tuneCalibration, predict.Pins{})
	m, err := predict.Calibrate(hw, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	own := 0
	for _, c := range []predict.Comm{{Nodes: 1, PerNode: 4}, {Nodes: 3, PerNode: 2}, {Nodes: 3, PerNode: 8}} {
		q := predict.Query{Collective: commmodel.AllReduce, Ranks: c.Nodes * c.PerNode, PerNode: c.PerNode}
		for _, s := range defaultTuneSizes() {
			cs, err := m.Choices(q, s)
			if err != nil {
				t.Fatal(err)
			}
			tm, err := m.TunerModel(c)
			if err != nil {
				t.Fatal(err)
			}
			e, err := tm.Choose(nccl.FuncAllReduce, s)
			if err != nil {
				t.Fatal(err)
			}
			ref := []predict.Prediction{{Algorithm: e.Algo.String(), Protocol: nccl.ProtocolName(e.Proto)}}
			r, ok := nccl.FirstMatch(rules, nccl.FuncAllReduce, s, c.Nodes, q.Ranks, 1, 0)
			k := slices.IndexFunc(cs, func(p predict.Prediction) bool {
				return r.Algo.String() == p.Algorithm && nccl.ProtocolName(r.Proto) == p.Protocol
			})
			d := slices.IndexFunc(cs, func(p predict.Prediction) bool {
				return ref[0].Algorithm == p.Algorithm && ref[0].Protocol == p.Protocol
			})
			switch {
			case !ok || k < 0 || d < 0:
				t.Errorf("AllReduce of %.0f B on %v: rule %v %v", s, c, r, ok)
			case k == d:
				own++
				if r.Channels != nccl.NCCLChannels {
					t.Errorf("AllReduce of %.0f B on %v: rule %v, want NCCL's own channels (0)", s, c, r)
				}
			case k != 0 || !cs[0].Beats(cs[d]):
				t.Errorf("AllReduce of %.0f B on %v: rule %v, which the model does not expect to beat NCCL's %s/%s beyond its interval",
					s, c, r, ref[0].Algorithm, ref[0].Protocol)
			}
		}
	}
	if own == 0 {
		t.Error("no rule keeps NCCL's own choice")
	}
	// Before: the rules for 1 and 2 nodes of 8 leave every call of the job
	// (5 functions on 3 communicators) to one channel. After: none.
	old := filepath.Join(dir, "old.conf")
	if code, _, stderr := runCLI("tune", "-calibrate", tuneCalibration, "-nodes", "1,2", "-per-node", "8", "-o", old); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, stdout, _ := runCLI(append([]string{"tune", "-check", old, "-calibrate", tuneCalibration}, job...)...)
	if n := strings.Count(stdout, "one channel: "); code != 1 || n != 15 {
		t.Errorf("the old rules: exit %d, %d ranges on one channel, want exit 1 and 15:\n%s", code, n, stdout)
	}
	code, stdout, stderr = runCLI(append([]string{"tune", "-check", out, "-calibrate", tuneCalibration}, job...)...)
	if code != 0 || !strings.Contains(stdout, "every call of 1 x 4, 3 x 2, 3 x 8 takes a rule") {
		t.Errorf("the new rules: exit %d, %s%s", code, stdout, stderr)
	}
	// The check needs NCCL's tuning model of the job's communicators, which
	// the GPU's name gives without a table.
	code, stdout, stderr = runCLI(append([]string{"tune", "-check", out, "-gpu", "NVIDIA H100 80GB HBM3"}, job...)...)
	if code != 0 || !strings.Contains(stdout, "every call of 1 x 4, 3 x 2, 3 x 8 takes a rule") {
		t.Errorf("the new rules checked with -gpu: exit %d, %s%s", code, stdout, stderr)
	}
}

// TestTuneLongComment: a calibration file whose path runs past 255 bytes
// gives header lines that still fit the plugin's line, so that no piece of
// them is read as a line of its own (the check would refuse the file).
func TestTuneLongComment(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	long := filepath.Join(dir, strings.Repeat("d", 120), strings.Repeat("e", 120))
	if err := os.MkdirAll(long, 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(long, "all_reduce_ring.log")
	b, err := os.ReadFile(togetherDir + "all_reduce_ring.log")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("tune", "-calibrate", log+":algo=ring", "-nodes", "1", "-per-node", "8", "-o", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "eeee/all_reduce_ring.log\n") || !strings.Contains(stdout, "\n#   eeee") {
		t.Error("the path is not folded into the header")
	}
	for i, l := range strings.Split(stdout, "\n") {
		if len(l) > 255 {
			t.Errorf("line %d: %d bytes", i+1, len(l))
		}
	}
}

// TestTuneSizes: sizes are sorted and each decided once; ranges that
// overlap are refused.
// TestTuneNVLinkDomains: NCCL counts a communicator's nodes by the first
// rank of their ring (src/init.cc, "Determine nNodes"), so the 18 GB200 hosts
// of one NVL72 rack are one node to it, and its tuner plugin receives 1. The
// rules for 18 x 4 and 36 x 4 say 1 and 2 nodes, as NCCL counts them where
// the job runs MNNVL, and so do those for 36 x 1 and 36 x 2, one or two
// GPUs of each of 36 hosts of 4, which span two racks (a red team: the
// model counted 72 hosts a rack for them, and wrote nNodes 1). A job
// without MNNVL counts the hosts, 18 and 36, and the file has rules for
// them too, of NCCL's own choices there (a red team: with none, every call
// of such a job ran on one channel). A communicator placed across a rack's
// edge (10 x 4 on hosts 14 to 23) spans one rack more than it needs, 2
// nodes to NCCL: rules of nNodes -1 for its ranks, after all others, take
// its calls whatever the placement. The file passes tune -check as each of
// those jobs reads it (-hw domain=4: no domain across hosts).
func TestTuneNVLinkDomains(t *testing.T) {
	t.Parallel()
	cal := gb200Dir + "allreduce_1rack.log:nodes=18:per-node=4"
	file := filepath.Join(t.TempDir(), "gb200.conf")
	const comms = "18x4,36x4,36x1,36x2,10x4"
	code, out, stderr := runCLI("tune", "-calibrate", cal, "-gpu", "NVIDIA GB200", "-comms", comms, "-o", file)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// What they cost at worst, as docs/tune.md quotes it.
	if want := "at worst 2.10x NCCL's own choice's time by NCCL's model (AllReduce of 256 KiB on 36 x 4 across 32 domains)"; !strings.Contains(stderr, want) || !strings.Contains(string(b), "at worst 2.10x") {
		t.Errorf("stderr and header do not say %q:\n%s", want, stderr)
	}
	rules := readRules(t, string(b))
	nodes := map[int][]int{} // nRanks -> nNodes, in the file's order
	for _, r := range rules {
		if !slices.Contains(nodes[r.Ranks], r.Nodes) {
			nodes[r.Ranks] = append(nodes[r.Ranks], r.Nodes)
		}
	}
	want := map[int][]int{72: {1, 18, 2, 36, -1}, 144: {2, 36, -1}, 36: {2, 36, -1}, 40: {1, 10, -1}}
	if len(nodes) != len(want) {
		t.Errorf("nNodes by nRanks %v; want %v", nodes, want)
	}
	for ranks, w := range want {
		if !slices.Equal(nodes[ranks], w) {
			t.Errorf("%d ranks: nNodes %v, want %v", ranks, nodes[ranks], w)
		}
	}
	// Every rule of any nNodes comes after every rule of one.
	if i := slices.IndexFunc(rules, func(r nccl.TunerRule) bool { return r.Nodes == -1 }); i < 0 || slices.ContainsFunc(rules[i:], func(r nccl.TunerRule) bool { return r.Nodes != -1 }) {
		t.Errorf("the rules of any nNodes do not close the file")
	}
	// 10 x 4 across a rack's edge, and spread over 3 racks: every
	// function's call takes a rule.
	for _, n := range []int{2, 3} {
		for f := range nccl.Func(nccl.NumFuncs) {
			if !slices.ContainsFunc(rules, func(r nccl.TunerRule) bool { return r.Matches(f, 1<<20, n, 40, -1, -1) }) {
				t.Errorf("%v of 1 MiB on 40 ranks of %d nodes: no rule", f, n)
			}
		}
	}
	for _, hw := range []string{"", "domain=4"} {
		if code, out, stderr := runCLI("tune", "-check", file, "-calibrate", cal, "-gpu", "NVIDIA GB200", "-hw", hw, "-comms", comms); code != 0 || !strings.Contains(out, "takes a rule NCCL follows") {
			t.Errorf("tune -check with -hw %q: exit %d, %s%s; want every call to take a rule", hw, code, out, stderr)
		}
	}
	// Without them the check names the calls of 10 x 4 across the edge.
	var kept []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.Contains(l, ",-1,40,") {
			kept = append(kept, l)
		}
	}
	cut := filepath.Join(t.TempDir(), "cut.conf")
	if err := os.WriteFile(cut, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := runCLI("tune", "-check", cut, "-calibrate", cal, "-gpu", "NVIDIA GB200", "-comms", comms); code == 0 || !strings.Contains(out+stderr, "10 x 4 placed across more NVLink domains than it needs: 40 problems at the 8 counts of nodes checked; the first: one channel: Broadcast of every size on 2 x 20") {
		t.Errorf("tune -check without the rules of any nNodes: exit %d, %s%s; want 10 x 4's 8 placements named", code, out, stderr)
	}
}

// TestTuneCostTable: CoreWeave's GB200 rack log names its GPU "NVIDIA
// Graphics Device", described here as a GPU of compute capability 10.0 on
// PCIe (undescribed, tune refuses it: TestTuneUnknownGPU), where NCCL's
// automatic rule leaves LL128 out of its cost table. The model prices LL128 (NCCL_PROTO
// can force it), but a tuner picks only from the cost table: the rules do
// too, so tune's own check ignores none of them and the file is written.
func TestTuneCostTable(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("tune", "-calibrate", gb200Dir+"allreduce_1rack.log:nodes=18:per-node=4", "-hw", "cc=10.0,fabric=pcie", "-comms", "18x4", "-o", "-")
	if code != 0 || strings.Contains(stderr, "ignored rule") || !strings.Contains(out, "allreduce,") {
		t.Errorf("exit %d, stderr %q; want rules written, none ignored", code, stderr)
	}
}

// TestTuneOneSize: ABCI's A100 tables pick Ring/Simple over NCCL's
// Ring/LL128 for Broadcast at 2 MiB on 8 x 8, the one size given: the
// tables ran Ring/Simple there (the 8 x 8 Broadcast from 4 MiB), and measured
// NCCL's own at 807 µs. An override stops where the model's choice no longer
// beats NCCL's: at 1 B and at 1 GiB the rules are NCCL's own, as with no
// override (the rules for AllReduce alone), and 2 MiB is overridden.
func TestTuneOneSize(t *testing.T) {
	t.Parallel()
	dir := "../../data/logs/paired/a100-sxm4-abci-ib4xhdr/"
	var cal []string
	for _, f := range []string{"allreduce_1x8", "allreduce_2x8", "allreduce_4x8", "allreduce_8x8", "allreduce_16x8", "broadcast_2x8", "broadcast_8x8"} {
		n := strings.TrimSuffix(f[strings.Index(f, "_")+1:], "x8")
		cal = append(cal, dir+f+".log:nodes="+n+":per-node=8:algo=auto:proto=auto")
	}
	rulesOf := func(collective string) []nccl.TunerRule {
		// The facts the model would assume, given, so that the override
		// does not rest on them (TestTuneWithheld).
		code, out, stderr := runCLI("tune", "-calibrate", strings.Join(cal, ","), "-hw", "nics=8,nic-bw=200Gb/s,nic-path=PIX,cpu=intel",
			"-comms", "8x8", "-size", "2MiB", "-collective", collective, "-o", "-")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		// The header names each rule that takes the model's choice, with
		// what the model expects of it and of NCCL's own.
		if collective == "broadcast" && (!strings.Contains(out, "#   broadcast on 8 x 8, ") || !strings.Contains(out, "x faster (") || !strings.Contains(out, "over its 80% interval")) {
			t.Errorf("the header lacks the model's choices:\n%s", out)
		}
		return readRules(t, out)
	}
	at := func(rules []nccl.TunerRule, n float64) nccl.TunerRule {
		for _, r := range rules {
			if r.Matches(nccl.FuncBroadcast, n, 8, 64, -1, -1) {
				return r
			}
		}
		t.Fatalf("no rule for %g B", n)
		return nccl.TunerRule{}
	}
	tuned, own := rulesOf("broadcast"), rulesOf("allreduce")
	for _, n := range []float64{1, 1 << 30} {
		if a, b := at(tuned, n), at(own, n); a.Algo != b.Algo || a.Proto != b.Proto || a.Channels != b.Channels {
			t.Errorf("at %g B: %v; want NCCL's own %v", n, a, b)
		}
	}
	if a, b := at(tuned, 2<<20), at(own, 2<<20); a.Algo != nccl.AlgoRing || a.Proto != nccl.Simple || b.Proto != nccl.LL128 {
		t.Errorf("at 2 MiB: %v, NCCL's %v; want the model's Ring/Simple over NCCL's Ring/LL128", a, b)
	}
}

// TestTuneWithheld: ABCI's A100 tables (TestTuneOneSize) pick Ring/Simple
// over NCCL's Ring/LL128 for Broadcast at 2 MiB on 8 x 8 only with the NICs
// and the CPU the model assumes, one NIC per GPU of 200 Gb/s and Intel's:
// with half of the NICs, half their rate or AMD's CPU the gain is within
// the interval (0.77x, 0.86x and 0.98x at its low end). Tune withholds it, with the range its
// rule has where those facts are given (-hw nics=8,nic-bw=200Gb/s,cpu=intel),
// names the three facts with one -hw setting for them on stderr and in the
// file, offers the systems of the catalog whose entries give them
// (predict.SystemsGiving), and keeps NCCL's own. dgx-a100, one of them,
// gives 8 NICs of 200 Gb/s and AMD's CPUs, and leaves the choice resting on
// the NICs' PCIe path alone, which no entry gives. With the documented 4 HDR
// NICs of 200 Gb/s (data/logs/paired/README.md, docs.abci.ai), that path and
// the CPU given, nothing is withheld: the override stands at 2 MiB alone.
// Alps' GH200 log of 2 x 1 on hosts of 8 takes NVSwitch and NVLS as
// assumed (predict.Hardware.ForHosts): NVLS on 1 x 4, which NCCL cannot run
// without them, is withheld, resting on both and settled with nvls= and
// fabric=. (Its 2 x 4 log's NVLSTree on 2 x 4 at 4 MiB was withheld so
// too; its Simple rows near 4 MiB measure 1.25 times the model, and the
// model's choice no longer beats NCCL's there: predict's slowNear.)
func TestTuneWithheld(t *testing.T) {
	t.Parallel()
	dir := "../../data/logs/paired/a100-sxm4-abci-ib4xhdr/"
	var cal []string
	for _, f := range []string{"allreduce_1x8", "allreduce_2x8", "allreduce_4x8", "allreduce_8x8", "allreduce_16x8", "broadcast_2x8", "broadcast_8x8"} {
		n := strings.TrimSuffix(f[strings.Index(f, "_")+1:], "x8")
		// The release the model assumes for logs that print none, given:
		// tune builds no rules for the other releases that load the plugin.
		cal = append(cal, dir+f+".log:nodes="+n+":per-node=8:algo=auto:proto=auto:version=2.30.7")
	}
	tune := func(hw string) (string, string) {
		args := []string{"tune", "-calibrate", strings.Join(cal, ","), "-comms", "8x8", "-size", "2MiB", "-collective", "broadcast", "-o", "-"}
		if hw != "" {
			args = append(args, "-hw", hw)
		}
		code, out, stderr := runCLI(args...)
		if code != 0 {
			t.Fatalf("-hw %q: exit %d: %s", hw, code, stderr)
		}
		return out, stderr
	}
	// span is the sizes of the header's line for the choice at 2 MiB.
	span := func(out string) string {
		_, rest, ok := strings.Cut(out, "#   broadcast on 8 x 8, ")
		line, _, _ := strings.Cut(rest, ": Ring/Simple")
		if !ok {
			t.Fatalf("no choice in the header:\n%s", out)
		}
		return line
	}
	settled, _ := tune("nics=8,nic-bw=200Gb/s,cpu=intel")
	if strings.Contains(settled, "Withheld") {
		t.Fatalf("with the facts given, the choice is still withheld:\n%s", settled)
	}
	out, stderr := tune("")
	if got, want := span(out), span(settled); got != want || strings.Contains(got, "18446744073709551615") {
		t.Errorf("withheld choice's sizes %q; want %q, its rule's with the facts given", got, want)
	}
	facts := "nics_per_node one per GPU, nic_bw 200 Gb/s and cpu intel, which are assumed"
	if !strings.Contains(stderr, "rests on "+facts) || !strings.Contains(stderr, "Settle them with -hw nics=N,nic-bw=RATE,cpu=intel|amd|arm|power (RATE: ") ||
		!strings.Contains(stderr, ", or -hw system=NAME if the machine is dgx-a100, ") ||
		!strings.Contains(stderr, "  with nics_per_node 4 and nic_bw 100 Gb/s: ") ||
		!strings.Contains(out, "# Withheld") || !strings.Contains(strings.ReplaceAll(out, "\n#   ", " "), "it rests on "+facts) || !strings.Contains(out, "No rule takes the model's choice") {
		t.Errorf("stderr %q, file:\n%s\nwant the override withheld on the three facts, settled with one -hw setting", stderr, out)
	}
	if _, stderr := tune("system=dgx-a100"); !strings.Contains(stderr, "rests on nic_path PIX, which is assumed") ||
		!strings.Contains(stderr, "Settle it with -hw nic-path=PIX|PXB|P2C|PXN|PHB|SYS (no system of the catalog gives it)") || strings.Contains(stderr, "nics_per_node") {
		t.Errorf("-hw system=dgx-a100: stderr %q; want the choice withheld on nic_path alone", stderr)
	}
	rules := readRules(t, out)
	if r, ok := nccl.FirstMatch(rules, nccl.FuncBroadcast, 2<<20, 8, 64, 1, 0); !ok || r.Algo != nccl.AlgoRing || r.Proto != nccl.LL128 {
		t.Errorf("at 2 MiB: %v %v; want NCCL's own Ring/LL128", r, ok)
	}
	if out, stderr = tune("nics=4,nic-bw=200Gb/s,nic-path=PIX,cpu=intel"); strings.Contains(out, "Withheld") || !strings.Contains(out, "The rules that take the model's choice") {
		t.Errorf("with ABCI's NICs: %s\n%s", stderr, out)
	}
	// Alps' 2 x 1 table says nothing of one node of 4 or 8: the model's
	// NVLS there, which rested on nvls and fabric assumed, is no choice at
	// all below the tables' nodes (TestTuneBeyondNodes).
	code, out, stderr := runCLI("tune", "-calibrate", realLog("gh200_2x1_allreduce_slingshot_alps_sarus.log"), "-comms", "1x4,1x8", "-o", "-")
	if code != 0 || strings.Contains(out, "Withheld") || !strings.Contains(out, "# On 1 x 4 and 1 x 8, beyond the tables' 2 nodes, every rule keeps NCCL's own choice") {
		t.Errorf("Alps: exit %d, stderr %q; want no choice below the tables' nodes:\n%s", code, stderr, out)
	}
	rules = readRules(t, out)
	if r, ok := nccl.FirstMatch(rules, nccl.FuncAllReduce, 4<<20, 1, 4, 1, 0); !ok || r.Algo == nccl.AlgoNVLS {
		t.Errorf("Alps, 4 MiB on 1 x 4: %v; want NCCL's own", r)
	}
}

// TestTuneFallback: on GCP's a3-mega log, NCCL 2.30.7's model runs NVLS
// for AllReduce on one node of 8 H100s at large sizes; NCCL leaves NVLS out
// of an ncclAvg of floats (ncclNvlsSupported, src/include/device.h), so
// every NVLS or NVLSTree rule is followed by one of Ring or Tree for the
// same sizes, and the file passes its check.
func TestTuneFallback(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("tune", "-calibrate", realLog("h100_2x8_allreduce_gcp_a3mega.log"), "-comms", "1x8,2x8",
		"-collective", "allreduce,allgather,reducescatter", "-o", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rules := readRules(t, out)
	n := 0
	for i, r := range rules {
		if !nccl.MayBeIgnored(r.Algo) {
			continue
		}
		n++
		if i+1 == len(rules) || nccl.MayBeIgnored(rules[i+1].Algo) || rules[i+1].MinBytes != r.MinBytes || rules[i+1].Func != r.Func || rules[i+1].Ranks != r.Ranks {
			t.Errorf("%v: no Ring or Tree rule after it from %d B", r, r.MinBytes)
		}
	}
	if n == 0 {
		t.Error("no NVLS rule: NCCL's model runs NVLS for large AllReduce on 8 H100s")
	}
}

// TestTuneUnnamedGPU: MSCCL's A100 log names no GPU and no hosts; the rules
// would be an assumed PCIe card's (4 channels where an A100 host has 24),
// so tune refuses with a usage error naming -gpu NAME. A system of the
// catalog names the GPU as -gpu does, in tune as in predict (dgx-a100, an
// A100 SXM4 host); the together H100 log's Rank lines name an H100 SXM,
// which dgx-a100 contradicts: a usage error. diagnose and plot take the
// system's GPU as theirs too, and no command says the log's GPU is assumed
// where -hw system= or -gpu names it: the facts give the catalog's A100.
func TestTuneUnnamedGPU(t *testing.T) {
	t.Parallel()
	msccl := realLog("a100_2x8_alltoall_msccl48.log") + ":nodes=2:per-node=8"
	plot := []string{"plot", "-hw", "system=dgx-a100", msccl, "-o", filepath.Join(t.TempDir(), "msccl.png")}
	if testing.Short() {
		// What plot says of the hardware does not depend on the image's
		// size; drawing it at 300 DPI takes seconds under the race detector.
		plot = append(plot, "-dpi", "30")
	}
	for _, args := range [][]string{
		{"diagnose", "-hw", "system=dgx-a100", msccl},
		{"diagnose", "-gpu", "A100-SXM4-80GB", msccl},
		plot,
		{"predict", "-calibrate", msccl, "-collective", "alltoall", "-p", "16", "-per-node", "8", "-size", "1MiB", "-hw", "system=dgx-a100"},
	} {
		code, out, stderr := runCLI(args...)
		if code != 0 || !strings.Contains(out, "hardware: A100 SXM4, ") || !strings.Contains(out, "NVSwitch 12 NVLinks") || strings.Contains(stderr, "give gpu=NAME") {
			t.Errorf("%q: exit %d, %s\n%s; want an A100 SXM4 and no note of an assumed GPU", args, code, stderr, out)
		}
		if args[0] == "diagnose" && !strings.Contains(out, "facts: gpu A100 SXM4 (catalog)") {
			t.Errorf("%q: %s; want the facts to give the catalog's A100 SXM4", args, out)
		}
	}
	if code, _, stderr := runCLI("diagnose", msccl); code != 0 || !strings.Contains(stderr, "no Rank line names the GPU") {
		t.Errorf("diagnose without a GPU: exit %d, %s; want the note of an assumed GPU", code, stderr)
	}
	code, out, stderr := runCLI("tune", "-calibrate", msccl, "-comms", "2x8", "-hw", "system=dgx-a100", "-o", "-")
	if code != 0 || !strings.Contains(out, "hardware: A100 SXM4, 8 a host, NVSwitch 12 NVLinks, 8 NICs per host") {
		t.Errorf("-hw system=dgx-a100: exit %d, %s\n%s; want the rules of a DGX A100", code, stderr, out)
	}
	code, out, stderr = runCLI("predict", "-calibrate", msccl, "-collective", "alltoall", "-p", "16", "-per-node", "8", "-size", "1MiB", "-hw", "system=dgx-a100")
	if code != 0 || !strings.Contains(out, "hardware: A100 SXM4") {
		t.Errorf("predict -hw system=dgx-a100: exit %d, %s\n%s; want an A100 SXM4", code, stderr, out)
	}
	code, _, stderr = runCLI("tune", "-calibrate", togetherDir+"all_gather_ring.log", "-comms", "1x8", "-hw", "system=dgx-a100", "-o", "-")
	if code != 2 || !strings.Contains(stderr, "dgx-a100 is a system of A100 SXM4, not of H100 SXM") {
		t.Errorf("an H100 log with -hw system=dgx-a100: exit %d, %s; want 2 and the contradiction", code, stderr)
	}
	code, _, stderr = runCLI("tune", "-calibrate", realLog("a100_2x8_alltoall_msccl48.log"), "-comms", "2x8", "-o", "-")
	if code != 2 || !strings.Contains(stderr, "the logs name no GPU") || !strings.Contains(stderr, "-gpu NAME") {
		t.Errorf("exit %d, %s; want 2 and -gpu NAME", code, stderr)
	}
	code, _, stderr = runCLI("tune", "-calibrate", realLog("a100_2x8_alltoall_msccl48.log"), "-gpu", "A100-SXM4-80GB", "-comms", "2x8", "-o", "-")
	if code != 0 {
		t.Errorf("with -gpu: exit %d, %s", code, stderr)
	}
}

// TestTuneSizes: -size's sizes come sorted, each given once: a size given
// twice, alone or within a range, is refused, naming the size and the
// items that give it, as overlapping ranges are.
func TestTuneSizes(t *testing.T) {
	t.Parallel()
	got, err := tuneSizes("1GiB,1KiB,1MiB")
	if want := []float64{1 << 10, 1 << 20, 1 << 30}; err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v %v, want %v", got, err, want)
	}
	for text, want := range map[string]string{
		"1GiB,1KiB,1MiB,1KiB": "-size: 1 KiB is given twice (1KiB twice): give each size once",
		"1MiB..4MiB,2MiB":     "-size: 2 MiB is given twice (1MiB..4MiB and 2MiB): give each size once",
		"1MiB,1048576":        "-size: 1 MiB is given twice (1MiB and 1048576): give each size once",
	} {
		if _, err := tuneSizes(text); err == nil || err.Error() != want {
			t.Errorf("-size %s: %v; want %q", text, err, want)
		}
	}
	if _, err := tuneSizes("1KiB..1MiB,512KiB..1GiB"); err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("overlapping ranges: %v", err)
	}
	if got, err := tuneSizes("1KiB..4KiB,1MiB..2MiB"); err != nil || len(got) != 5 {
		t.Errorf("two ranges apart: %v %v", got, err)
	}
	var fe *flagError
	if _, err := tuneSizes("0,1MiB"); !errors.As(err, &fe) {
		t.Errorf("-size 0: %v; want a usage error", err)
	}
}

// TestTuneErrors checks that a bad command line exits 2 and names what
// works.
func TestTuneErrors(t *testing.T) {
	t.Parallel()
	cal := []string{"-calibrate", togetherDir + "all_gather_ring.log"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-nodes", "1", "-per-node", "8"}, "-calibrate"},
		{cal, "-comms NODESxGPUS"},
		{append([]string{"-nodes", "1"}, cal...), "-per-node"},
		{append([]string{"-per-node", "8"}, cal...), "-nodes"},
		{append([]string{"-nodes", "1,2,1", "-per-node", "8"}, cal...), "1 x 8 given twice"},
		{append([]string{"-comms", "1x8", "-nodes", "1", "-per-node", "8"}, cal...), "1 x 8 given twice"},
		{append([]string{"-comms", "1x1,2x8"}, cal...), "one rank"},
		{append([]string{"-comms", "8"}, cal...), "NODESxGPUS"},
		{append([]string{"-comms", "1x8", "-collective", "allreduce,allgather,allreduce"}, cal...), "allreduce given twice"},
		{append([]string{"-comms", "1x8", "-collective", "alltoall"}, cal...), "never asks a tuner plugin"},
		{append([]string{"-comms", "1x8", "-collective", "sendrecv"}, cal...), "never asks a tuner plugin"},
		{append([]string{"-comms", "1x8", "-size", "1GiB..1KiB"}, cal...), "A <= B"},
		{append([]string{"-comms", "1x8", "-size", "1KiB..1MiB,512KiB..1GiB"}, cal...), "overlap"},
		{append([]string{"-comms", "1x8", "-size", "1MiB,1MiB"}, cal...), "1 MiB is given twice"},
		{append([]string{"-comms", "1x8", "-size", "1MiB..4MiB,2MiB"}, cal...), "2 MiB is given twice"},
	} {
		code, _, stderr := runCLI(append([]string{"tune"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// TestTuneHostsOfMatchingComm: the same 10-rank table without hosts, for a
// job whose communicators 2 x 5 and 10 x 1 both hold 10 ranks, takes the
// first of them; with 1 x 8 and 2 x 5 only, 2 hosts of 5 fit.
func TestTuneHostsOfMatchingComm(t *testing.T) {
	t.Parallel()
	path := withoutLines(t, clusterDir+"nccl_N10_G1.log", "norank.log", isRankLine)
	for _, c := range []struct{ comms, want string }{
		{"1x8,10x1,2x5,4x4", "10 nodes of 1 GPU are assumed"},
		{"1x8,2x5", "2 nodes of 5 GPUs are assumed"},
	} {
		code, _, stderr := runCLI("tune", "-calibrate", path+":test=0", "-gpu", "NVIDIA H100 80GB HBM3", "-comms", c.comms, "-o", "-")
		if code != 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("-comms %s: exit %d, stderr %q; want %q", c.comms, code, stderr, c.want)
		}
	}
}

// TestTuneRanVersion: the warning about the example plugin's NCCL names the
// release the tables ran as they printed it (ABCI's 2.8.4, pinned), not the
// nearer tuner the model follows (2.18).
func TestTuneRanVersion(t *testing.T) {
	t.Parallel()
	abci := "../../data/logs/paired/a100-sxm4-abci-ib4xhdr/allreduce_2x8.log:version=2.8.4"
	code, _, stderr := runCLI("tune", "-calibrate", abci, "-comms", "2x8", "-o", filepath.Join(t.TempDir(), "r.conf"))
	if code != 0 || !strings.Contains(stderr, "the tables ran NCCL 2.8.4,") {
		t.Errorf("exit %d, stderr %q; want the tables' 2.8.4", code, stderr)
	}
}

// TestTuneCompCapAMD: a GPU the logs do not name, described by a compute
// capability that only AMD's GPUs carry, is AMD's (the red team's
// commands: -hw cc=9.5,links=7,link-bw=76.8GB/s on the OCI MI355X logs,
// cc=9.4,links=7,link-bw=64GB/s on AAC's MI325X logs, which wrote 58 rules
// of NCCL's for an "unnamed GPU, NVSwitch 7 NVLinks"): tune refuses as it
// does with -gpu "AMD Instinct MI355X", and predict's facts give its links
// as Infinity Fabric, with a note that the cc made it AMD's. A hyphenated
// name of the MI355X gets the catalog's name as a hint, as MI355 does.
func TestTuneCompCapAMD(t *testing.T) {
	t.Parallel()
	R := "../../data/nccltests/testdata/real/"
	mi355x := R + "mi355x_1x8_allreduce_pollara_oci.log," + R + "mi355x_2x8_allreduce_pollara_oci.log"
	mi325x := R + "mi325x_1x8_allreduce_ring_aac11.log," + R + "mi325x_2x8_allreduce_ring_aac11.log"
	dir := t.TempDir()
	lastLine := func(s string) string {
		lines := strings.Split(strings.TrimSpace(s), "\n")
		return lines[len(lines)-1]
	}
	tune := func(args ...string) (int, string, bool) {
		out := filepath.Join(dir, "r.conf")
		os.Remove(out)
		code, _, stderr := runCLI(append([]string{"tune", "-o", out, "-collective", "allreduce", "-comms", "2x8,4x8"}, args...)...)
		_, err := os.Stat(out)
		return code, stderr, err == nil
	}
	code, named, written := tune("-calibrate", mi355x, "-gpu", "MI355X")
	if code != 1 || written || !strings.Contains(named, "tune writes no rules for RCCL") {
		t.Fatalf("-gpu MI355X: exit %d, file written %v, stderr %q; want RCCL refused", code, written, named)
	}
	// Logs that ran RCCL and name no GPU are refused so at once: tune
	// asked for the GPU's name (exit 2), and with it refused them (red
	// team B: a dead end).
	unnamed := R + "mi300x_2x8_allreduce_oci_oke_slurm.log"
	if code, stderr, written := tune("-calibrate", unnamed); code != 1 || written || lastLine(stderr) != lastLine(named) || strings.Contains(stderr, "name it with") {
		t.Errorf("an unnamed GPU's RCCL log: exit %d, file written %v, stderr %q; want RCCL refused, no name asked for", code, written, stderr)
	}
	for _, c := range []struct{ logs, hw, isa string }{
		{mi355x, "cc=9.5,links=7,link-bw=76.8GB/s", "gfx950"},
		{mi325x, "cc=9.4,links=7,link-bw=64GB/s", "gfx942"},
	} {
		code, stderr, written := tune("-calibrate", c.logs, "-hw", c.hw)
		if code != 1 || written || lastLine(stderr) != lastLine(named) || !strings.Contains(stderr, "-hw: unnamed GPU is taken as AMD's") {
			t.Errorf("tune -hw %s: exit %d, file written %v, stderr %q; want it refused as -gpu MI355X is (%q), with the note that cc made it AMD's",
				c.hw, code, written, stderr, lastLine(named))
		}
		predict := []string{"predict", "-calibrate", c.logs, "-collective", "allreduce", "-nodes", "2", "-per-node", "8", "-size", "1MiB,64MiB"}
		code, out, stderr := runCLI(append(predict, "-hw", c.hw)...)
		cc, _, _ := strings.Cut(c.hw, ",")
		if code != 0 || !strings.Contains(out, "fabric infinity") || !strings.Contains(out, "Infinity Fabric mesh of 7 links") ||
			!strings.Contains(stderr, cc+" is no NVIDIA GPU's compute capability but the GFXIP version of AMD's "+c.isa) {
			t.Errorf("predict -hw %s: exit %d, stderr %q, output:\n%s\nwant Infinity Fabric's facts, and a note that %s made it AMD's", c.hw, code, stderr, out, cc)
		}
		// It predicts what the catalog's GPU of its target does.
		_, catalog, _ := runCLI(append(predict, "-gpu", nccl.ISAGPUs(c.isa)[0])...)
		if _, rows, ok := strings.Cut(out, "    size "); !ok || !strings.Contains(catalog, rows) {
			t.Errorf("predict -hw %s: rows\n%s\nwant the catalog's %s's:\n%s", c.hw, rows, nccl.ISAGPUs(c.isa)[0], catalog)
		}
	}
	code, out, stderr := runCLI("predict", "-gpu", "MI-355X", "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB")
	if code != 0 || !strings.Contains(out, `if it is the catalog's AMD Instinct MI355X, -gpu "AMD Instinct MI355X"`) {
		t.Errorf("predict -gpu MI-355X: exit %d, stderr %q, output:\n%s\nwant the catalog's MI355X as a hint", code, stderr, out)
	}
}

// TestTuneRCCL: RCCL runs a tuner plugin's channel count as given, and
// its own counts are not NCCL's (112 channels on one node of 8 gfx950 from
// RCCL 2.26.6): tune writes no rules for tables of an AMD GPU (the MI355X
// log's "RCCL version : 2.26.6"), nor for those of a GPU the catalog lacks
// whose rccl-tests header makes it AMD's (the Radeon host's, RCCL 2.27.7),
// and says why; tune -check still reads a rules file for them, and says
// that RCCL takes its channel counts as written.
func TestTuneRCCL(t *testing.T) {
	t.Parallel()
	R := "../../data/nccltests/testdata/real/"
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-calibrate", R + "mi355x_2x8_allreduce_pollara_roce.log", "-gpu", "AMD Instinct MI355X", "-comms", "2x8"},
		{"-calibrate", R + "radeon_1x8_g8_allreduce_aion.log," + R + "radeon_1x8_g8_alltoall_aion.log", "-comms", "1x8"},
	} {
		out := filepath.Join(dir, "r.conf")
		code, _, stderr := runCLI(append([]string{"tune", "-o", out}, args...)...)
		if _, err := os.Stat(out); code != 1 || err == nil || !strings.Contains(stderr, "tune writes no rules for RCCL") || !strings.Contains(stderr, "112 channels") {
			t.Errorf("%v: exit %d, file written %v, stderr %q; want exit 1, no file and RCCL's channels named", args, code, err == nil, stderr)
		}
	}
	// A file of NCCL's rules for 2 x 8 H100s whose NICs are given next to
	// the GPUs, without the rules after each LL128 one for a job without
	// P2P, checked for an MI300X job: first the channels' caveat, then its
	// rules that name LL128, which RCCL leaves off on gfx942, fail.
	rules := filepath.Join(dir, "nccl.conf")
	if code, _, stderr := runCLI("tune", "-calibrate", R+"h100_2x8_allreduce_baremetal_qoofyk_nccltests309.log", "-comms", "2x8", "-hw", "nic-path=PIX", "-o", rules); code != 0 {
		t.Fatalf("H100 rules: exit %d, %s", code, stderr)
	}
	b, rs := readRulesFile(t, rules)
	// The header stays, and the rule lines after LL128 ones go (the
	// file's rules are its lines that are not comments, in order).
	of := nccl.FallbackOf(rs)
	var kept []string
	i := 0
	for _, line := range strings.SplitAfter(b, "\n") {
		if line != "" && line != "\n" && line[0] != '#' {
			if of[i] >= 0 && rs[of[i]].Proto == nccl.LL128 {
				line = ""
			}
			i++
		}
		kept = append(kept, line)
	}
	if bare := strings.Join(kept, ""); bare == b {
		t.Fatalf("H100 rules: no rule follows an LL128 one")
	} else if err := os.WriteFile(rules, []byte(bare), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI("tune", "-check", rules, "-gpu", "AMD Instinct MI300X", "-comms", "2x8")
	if code != 1 || !strings.HasPrefix(out, rules+": the GPUs are AMD's: RCCL runs each call a rule takes on the rule's channel count but 0") || !strings.Contains(out, "LL128 is off on this machine") {
		t.Errorf("-check for MI300X: exit %d, stderr %q, output:\n%s", code, stderr, out)
	}
	// Checked against the AAC MI300X tables, which ran RCCL 2.22.3: the
	// release is RCCL's, not an NCCL 2.22.3 that the plugin's needs fault.
	// Nor is the header's NCCL release compared with it: RCCL's releases
	// follow NCCL's numbers, not its tuning.
	_, out, stderr = runCLI("tune", "-check", rules, "-calibrate", R+"mi300x_1x8_2x8_allreduce_rccltests.log", "-comms", "2x8")
	if strings.Contains(stderr, "ran NCCL 2.22.3") || !strings.Contains(stderr, "the tables ran RCCL 2.22.3, not NCCL") || strings.Contains(out, "its header") {
		t.Errorf("-check on RCCL 2.22.3's tables: stderr %q; want the release named RCCL's and not compared with the header's:\n%s", stderr, out)
	}
}

// TestTuneTablesExclusion: Alps' two GH200 tables over Slingshot, each
// pinned proto=^LL128 as CSCS sets NCCL_PROTO on Alps: the rules name no
// LL128 (NCCL would not run them), and the header says why; without the
// pins NCCL's own choices on 2 x 4 include LL128 rules.
func TestTuneTablesExclusion(t *testing.T) {
	t.Parallel()
	r := "../../data/nccltests/testdata/real/"
	tables := []string{r + "gh200_2x4_allreduce_slingshot_alps.log", r + "gh200_2x1_allreduce_slingshot_alps_sarus.log"}
	rules := func(pin string) string {
		out := filepath.Join(t.TempDir(), "r.conf")
		code, _, stderr := runCLI("tune", "-calibrate", tables[0]+pin+","+tables[1]+pin, "-hw", "system=hpe-ex254n-gh200", "-comms", "2x4", "-o", out)
		b, err := os.ReadFile(out)
		if code != 0 || err != nil {
			t.Fatalf("pin %q: exit %d, %v, %s", pin, code, err, stderr)
		}
		return string(b)
	}
	if plain := rules(""); !strings.Contains(plain, ",ll128,") {
		t.Fatalf("without the pins: no LL128 rule; the test tells nothing apart")
	}
	pinned := rules(":proto=^LL128")
	if strings.Contains(pinned, ",ll128,") || !strings.Contains(pinned, "Every calibration table ran with NCCL_PROTO=^LL128") {
		t.Errorf("pinned ^LL128: %s; want no LL128 rule and the header's reason", pinned)
	}
}

// TestTuneCalibrationNotes: tune says what predict says of its calibration:
// nccl-tests#309's default 2 x 8 log prints no NCCL version, and qoofyk's
// bare-metal log of the same thread prints 2.26.2; the tuner assumed for
// the first is named on standard error, with the other's release and the
// key that pins it, and pinned, the note goes.
func TestTuneCalibrationNotes(t *testing.T) {
	t.Parallel()
	const (
		R        = "../../data/nccltests/testdata/real/"
		unknown  = R + "h100_2x8_allreduce_default_nccltests309.log"
		versions = R + "h100_2x8_allreduce_baremetal_qoofyk_nccltests309.log"
	)
	code, _, stderr := runCLI("tune", "-calibrate", unknown+","+versions, "-comms", "2x8", "-o", filepath.Join(t.TempDir(), "r.conf"))
	want := fmt.Sprintf("h100_2x8_allreduce_default_nccltests309.log#0: NCCL version unknown; NCCL %v's tuner is assumed (%s#0 ran 2.26.2: if this run did too, give FILE:version=2.26.2 for its file)", nccl.Latest, versions)
	if code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want the unknown version named: %s", code, stderr, want)
	}
	code, _, stderr = runCLI("tune", "-calibrate", unknown+":version=2.26.2,"+versions, "-comms", "2x8", "-o", filepath.Join(t.TempDir(), "p.conf"))
	if code != 0 || strings.Contains(stderr, "version unknown") {
		t.Errorf("version=2.26.2: exit %d, stderr %q; want no unknown version", code, stderr)
	}
}

// TestTuneCheckOneProblem: a file of Ring/Simple rules for every function
// of a 1 x 2 job, with its last rule written twice, has one problem, the
// shadowed copy, and the check counts it in the singular.
func TestTuneCheckOneProblem(t *testing.T) {
	t.Parallel()
	var file string
	for _, f := range []string{"broadcast", "reduce", "allgather", "reducescatter", "allreduce"} {
		file += f + ",0,18446744073709551615,ring,simple,2,1,2,-1,-1\n"
	}
	file += "allreduce,0,18446744073709551615,ring,simple,2,1,2,-1,-1\n"
	path := filepath.Join(t.TempDir(), "one.conf")
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("tune", "-check", path, "-gpu", "NVIDIA H100 80GB HBM3", "-comms", "1x2")
	if code != 1 || !strings.Contains(stdout, "one.conf:6: shadowed rule") || !strings.Contains(stderr, "one.conf: 1 problem: a job that loads it") {
		t.Errorf("exit %d, %s%s; want exit 1 and 1 problem", code, stdout, stderr)
	}
}

// TestTuneCheckCauses: an ignored rule's cause is what NCCL's code does at
// the machine's release. On two DGX H100 nodes (nvls true) NVLS is there,
// but ncclTopoTuneModel (src/graph/tuning.cc) disables it across nodes
// without CollNet support; NCCL 2.21.5 has no PAT at all (2.23.4's
// src/include/nccl_common.h adds NCCL_ALGO_PAT).
func TestTuneCheckCauses(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "causes.conf")
	file := "allreduce,0,18446744073709551615,nvls,simple,16,2,16\nallgather,0,18446744073709551615,pat,simple,2,2,2\n"
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	h100 := realLog("h100_2x8_allreduce_default_nccltests309.log")
	for _, c := range []struct {
		args      []string
		want, not []string
	}{
		{[]string{"-gpu", "NVIDIA H100 80GB HBM3"},
			[]string{"causes.conf:1: ignored rule: nvls/simple is not in NCCL's cost table of AllReduce on 2 x 8 (NCCL runs NVLS across nodes only with CollNet support"},
			[]string{"NVLS is absent", "needs NVSwitch"}},
		{[]string{"-calibrate", h100 + ":version=2.21.5"},
			[]string{"causes.conf:2: ignored rule: pat/simple is not in NCCL's cost table of AllGather on 2 x 1 (NCCL 2.21.5 has no PAT)",
				"causes.conf:1: ignored rule: nvls/simple is not in NCCL's cost table of AllReduce on 2 x 8 (NCCL runs NVLS across nodes only with CollNet support"},
			[]string{"does not run PAT for AllGather"}},
	} {
		args := append([]string{"tune", "-check", path, "-comms", "2x8,2x1", "-hw", "system=dgx-h100"}, c.args...)
		code, stdout, stderr := runCLI(args...)
		if code != 1 {
			t.Errorf("%q: exit %d, %s; want 1", c.args, code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%q: %s; want %q", c.args, stdout, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(stdout, n) {
				t.Errorf("%q: %s; names %q, which is not the cause", c.args, stdout, n)
			}
		}
	}
}

// tuneTo runs tune with args, writing a file in a temporary folder, and
// returns the file's path; the test fails where tune does.
func tuneTo(t *testing.T, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nccl_tuner.conf")
	if code, _, stderr := runCLI(append([]string{"tune", "-o", path}, args...)...); code != 0 {
		t.Fatalf("tune %q: exit %d: %s", args, code, stderr)
	}
	return path
}

// readRulesFile reads the file at path and its rules, as NCCL's example
// plugin reads them.
func readRulesFile(t *testing.T, path string) (string, []nccl.TunerRule) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), readRules(t, string(b))
}

// readRules reads the rules tune wrote to standard output, as NCCL's
// example plugin reads a file.
func readRules(t *testing.T, out string) []nccl.TunerRule {
	t.Helper()
	rules, err := nccl.ReadTunerRules(strings.NewReader(out), "-")
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// TestTuneCheckFailuresFirst: a file of rules for a 4 x 4 job, checked
// against a 2 x 4 job, leaves every call of 2 x 4 on one channel, and its
// rules match none of them. The check prints the one-channel calls, which
// fail it, before the unused rules, which are harmless, and those as one
// line, "lines 1 to 3, 3 rules": a file of many unused rules used to bury
// the failures under one line per rule.
func TestTuneCheckFailuresFirst(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "other.conf")
	file := "allreduce,0,65535,ring,ll,-1,4,16,-1,-1\nallreduce,65536,1048575,ring,ll128,-1,4,16,-1,-1\nallreduce,1048576,18446744073709551615,ring,simple,-1,4,16,-1,-1\n"
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("tune", "-check", path, "-gpu", "GH200", "-comms", "2x4")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 1 || len(lines) != 6 || !strings.Contains(stderr, "other.conf: 5 problems") {
		t.Fatalf("exit %d, %d lines:\n%s%s; want exit 1, 5 problems and one line of unused rules", code, len(lines), stdout, stderr)
	}
	for _, l := range lines[:5] {
		if !strings.Contains(l, ": one channel: ") {
			t.Errorf("%q: want the one-channel calls first", l)
		}
	}
	if want := path + ":1: unused rule: lines 1 to 3, 3 rules, each matches no call of the job's communicators"; lines[5] != want {
		t.Errorf("last line %q, want %q", lines[5], want)
	}
}

// TestTuneLL128BehindCPU: the rules keep NCCL's own LL128 across nodes at
// an assumed NIC path of PIX (Polaris' hosts described but for the path),
// while on hosts whose NICs sit behind the CPU NCCL runs no LL128 across
// nodes and the plugin passes over those rules. Each is followed by rules
// for its sizes with NCCL's own choice behind the CPU, which the header
// says, and the one file passes tune -check on both paths. With the path
// known, given or from the catalog (ALCF Polaris, whose entry says PHB),
// the header says nothing of it.
func TestTuneLL128BehindCPU(t *testing.T) {
	t.Parallel()
	polaris := realLog("a100_1x4_allreduce_polaris_ss11.log") + ":version=2.28.3:nodes=1," +
		realLog("a100_4x4_allreduce_simple_polaris_ss11.log") + ":proto=simple:version=2.28.3:nodes=4"
	comms := "1x4,64x1,64x4"
	args := []string{"tune", "-calibrate", polaris, "-comms", comms, "-o", "-"}
	code, out, stderr := runCLI(append(args, "-gpu", "A100-SXM4-40GB", "-hw", "nics=2,nic-bw=200Gb/s,cpu=amd")...)
	want := "# nic_path PIX is assumed: on hosts whose NICs sit behind the CPU"
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "-hw nic-path=PIX|PXB|P2C|PXN|PHB|SYS") || strings.Contains(stderr, "nic_path PIX is assumed") {
		t.Fatalf("exit %d, stderr %s\nout %s; want the LL128 rules' fallbacks in the header alone", code, stderr, out)
	}
	f := filepath.Join(t.TempDir(), "pix.conf")
	if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"PHB", "PIX"} {
		code, check, stderr := runCLI("tune", "-check", f, "-calibrate", polaris, "-comms", comms, "-hw", "system=alcf-polaris,nic-path="+path)
		if code != 0 || !strings.Contains(check, "every call of") {
			t.Errorf("tune -check with nic-path=%s: exit %d, %s\n%s", path, code, check, stderr)
		}
	}
	for _, hw := range []string{"system=alcf-polaris", "system=alcf-polaris,nic-path=PHB", "system=alcf-polaris,nic-path=PIX"} {
		code, out, _ := runCLI(append(args, "-hw", hw)...)
		if code != 0 || strings.Contains(out, "nic_path") && strings.Contains(out, "is assumed: on hosts") {
			t.Errorf("-hw %s: exit %d; want no word of the path in\n%s", hw, code, out)
		}
	}
}

// TestTuneReleaseNote: a job that loads the example plugin runs NCCL 2.28
// or later, so the rules that keep NCCL's own choice must be that job's
// release's. AWS's p5 table (2 x 8 H100 over EFA) prints no release: the
// rules keep the assumed 2.30.7's choices, and with the table taken as
// 2.28.3's, which loads the plugin too, the 2 x 8 AllReduce rules choose
// otherwise; tune says so on standard error and in the header, and names
// FILE:version=V. Given the release, it says nothing. A p4d table of NCCL
// 2.9.9 gives rules of a release no job that loads the plugin runs.
func TestTuneReleaseNote(t *testing.T) {
	t.Parallel()
	p5 := "../../data/nccltests/testdata/real/h100_2x8_allreduce_efa_p5_slurm_awsome.log"
	gpu := []string{"-gpu", "NVIDIA H100 80GB HBM3", "-comms", "2x8,1x8", "-o", "-"}
	code, stdout, stderr := runCLI(append([]string{"tune", "-calibrate", p5}, gpu...)...)
	want := "the logs print no NCCL release, and the rules keep NCCL 2.30.7's own choices"
	if code != 0 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "first: AllReduce of nNodes 2, nRanks 16 at 484138 B: tree/ll128 here, nvls_tree/simple with 2.28.3") ||
		!strings.Contains(stderr, "FILE:version=V") || !strings.Contains(stdout, "# "+want) {
		t.Errorf("exit %d, stderr %q: want the release note, with 2.28.3's choice, in it and the header", code, stderr)
	}
	code, stdout, stderr = runCLI(append([]string{"tune", "-calibrate", p5 + ":version=2.30.7"}, gpu...)...)
	if code != 0 || strings.Contains(stderr+stdout, "print no NCCL release") {
		t.Errorf("exit %d, stderr %q: the release given, want no note", code, stderr)
	}
	p4d := "../../data/nccltests/testdata/real/a100_2x8_allreduce_efa_p4d_ncclinfo.log"
	code, _, stderr = runCLI("tune", "-calibrate", p4d, "-comms", "2x8", "-o", "-")
	if code != 0 || !strings.Contains(stderr, "the model's nearest to the tables' NCCL 2.9.9, but a job that loads the plugin of NCCL 2.30.3 runs NCCL 2.28 or later (NCCL 2.9.9 loads no example plugin that reads the file)") {
		t.Errorf("exit %d, stderr %q: want the old release's note", code, stderr)
	}
}

// TestFirstDifferenceSmallestSize: the size named is the smallest whose
// first matching rule differs, where the other release's rule bounds lie
// inside ours: with ours Tree/LL128 up to 1968825 B and theirs NVLSTree
// from 484138 B (AWS's p5 2 x 8 AllReduce with 2.28.3), the first
// difference is at 484138 B, not at our rule's end (red team 35's note
// named 1968825 B). A call one file has no rule for differs too.
func TestFirstDifferenceSmallestSize(t *testing.T) {
	rule := func(lo, hi uint64, a nccl.Algo, p nccl.Protocol) nccl.TunerRule {
		return nccl.TunerRule{Func: nccl.FuncAllReduce, MinBytes: lo, MaxBytes: hi, Algo: a, Proto: p, Channels: nccl.NCCLChannels, Nodes: 2, Ranks: 16, PipeOps: -1, RegBuff: -1}
	}
	ours := []nccl.TunerRule{rule(0, 244815, nccl.AlgoTree, nccl.LL), rule(244816, 1968825, nccl.AlgoTree, nccl.LL128),
		rule(1968826, 1<<60, nccl.AlgoNVLSTree, nccl.Simple)}
	theirs := []nccl.TunerRule{rule(0, 244815, nccl.AlgoTree, nccl.LL), rule(244816, 484137, nccl.AlgoTree, nccl.LL128),
		rule(484138, 1<<60, nccl.AlgoNVLSTree, nccl.Simple)}
	v := nccl.Version{Major: 2, Minor: 28, Patch: 3}
	want := "AllReduce of nNodes 2, nRanks 16 at 484138 B: tree/ll128 here, nvls_tree/simple with 2.28.3"
	if got := firstDifference(ours, theirs, v); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := firstDifference(ours, ours, v); got != "" {
		t.Errorf("the same rules: got %q, want none", got)
	}
	if got, want := firstDifference(ours[:2], ours, v), "no rule here, nvls_tree/simple with 2.28.3"; !strings.HasSuffix(got, want) {
		t.Errorf("got %q, want it to end %q", got, want)
	}
}

// TestTuneInPlaceMeasured: AWS's p5 2 x 8 AllReduce measured NCCL's own
// choice at 256 KiB in 128.0 us out of place and 104.7 us in place; the
// model's Tree/LL there, 78.1 us [57.6, 123], beat the first and not the
// second, and a rule took it (red team 35). NCCL's own ran that fast, so
// no rule takes the model's choice.
func TestTuneInPlaceMeasured(t *testing.T) {
	t.Parallel()
	p5 := "../../data/nccltests/testdata/real/h100_2x8_allreduce_efa_p5_slurm_awsome.log"
	code, stdout, stderr := runCLI("tune", "-calibrate", p5, "-gpu", "NVIDIA H100 80GB HBM3", "-comms", "2x8", "-o", "-")
	if code != 0 || !strings.Contains(stdout, "# No rule takes the model's choice") {
		t.Errorf("exit %d, stderr %q: want no rule taking the model's choice:\n%s", code, stderr, stdout)
	}
}

// TestTuneBeyondOnce: the note that rules go beyond the tables' ranks is
// one line for the communicators it concerns alike, each named with its
// doublings (one node of 8's tables: 1 x 2 and 1 x 4 lie 2 and 1 doublings
// below), not one line of the same note for each; communicators beyond the
// tables' nodes, whose rules all keep NCCL's own choice, get one line that
// says so, and no note of the model's extrapolation, which decides nothing
// there.
func TestTuneBeyondOnce(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI("tune", "-calibrate", tuneCalibration, "-collective", "allreduce", "-comms", "1x2,1x4,2x8,4x8", "-o", filepath.Join(t.TempDir(), "rules.conf"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var lines []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "doublings") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "allreduce on 1 x 2: 2 ranks is 2.0 doublings below the tables' 8") ||
		!strings.HasSuffix(lines[0], "; the same for allreduce on 1 x 4 at 1.0 doublings") {
		t.Errorf("notes beyond the tables:\n%s\nwant one line for 1 x 2, naming 1 x 4 with its doublings", strings.Join(lines, "\n"))
	}
	if !strings.Contains(stderr, "\non 2 x 8 and 4 x 8, beyond the tables' 1 node, every rule keeps NCCL's own choice") {
		t.Errorf("stderr %q: want one line for the communicators beyond the tables' nodes", stderr)
	}
}

// TestTuneCountLine: the last line of standard error counts the rules and
// says whether any takes the model's choice, where -o names a file and
// where it is "-" (standard output, which holds the file alone).
func TestTuneCountLine(t *testing.T) {
	t.Parallel()
	args := []string{"tune", "-calibrate", togetherDir + "all_reduce_ring.log:algo=ring," + togetherDir + "all_reduce_nvls.log", "-comms", "2x1"}
	file := filepath.Join(t.TempDir(), "rules.conf")
	for _, o := range []string{file, "-"} {
		code, out, stderr := runCLI(append(args, "-o", o)...)
		if code != 0 {
			t.Fatalf("-o %s: exit %d: %s", o, code, stderr)
		}
		where := "standard output"
		if o != "-" {
			where = o
			b, err := os.ReadFile(o)
			if err != nil {
				t.Fatal(err)
			}
			out = string(b)
		}
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		want := fmt.Sprintf("commlab tune: %d rules written to %s; each keeps NCCL's own algorithm, protocol and channels, and none takes the model's choice", len(readRules(t, out)), where)
		if last := lines[len(lines)-1]; !strings.HasPrefix(last, want) {
			t.Errorf("-o %s: last line of stderr %q; want %q", o, last, want)
		}
		if !strings.HasPrefix(out, "# NCCL example tuner plugin rules") || strings.Contains(out, "rules written to") {
			t.Errorf("-o %s: the file holds more than the rules:\n%s", o, out)
		}
	}
}

// TestTunePluginProto: the AWS OFI plugin of the 8 x 1 RTX PRO 6000 EFA
// log set NCCL_PROTO=simple itself ("NET/OFI Need to force simple
// protocol: GDR not supported", then "Adding NCCL_PROTO=simple to
// environment"), as it does in every job on those hosts. Without -proto,
// tune writes its rules for a job under it, names no LL or LL128 (which
// NCCL leaves out of its cost table there, and the plugin would pass
// over), and says why on standard error and in the header; -proto auto
// writes them for a job that leaves the protocols to NCCL, on hosts it
// says differ, and -check of that file without -proto finds the calls it
// leaves to one channel.
func TestTunePluginProto(t *testing.T) {
	t.Parallel()
	log := realLog("rtxpro6000_8x1_allreduce_efa_g7e_slurm.log")
	dir := t.TempDir()
	const said = "the OFI network plugin set NCCL_PROTO=simple itself in "
	for _, c := range []struct {
		proto []string
		ll    bool // the file names LL or LL128
	}{
		{nil, false},
		{[]string{"-proto", "auto"}, true},
	} {
		out := filepath.Join(dir, fmt.Sprintf("%v.conf", c.ll))
		code, _, stderr := runCLI(append([]string{"tune", "-calibrate", log, "-comms", "8x1", "-o", out}, c.proto...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", c.proto, code, stderr)
		}
		b, rules := readRulesFile(t, out)
		ll := slices.ContainsFunc(rules, func(r nccl.TunerRule) bool { return r.Proto != nccl.Simple })
		// Both say what the plugin set; -proto auto, that the rules are
		// for other hosts.
		auto := strings.Contains(stderr, "with -proto auto the rules are for hosts where it does not")
		if ll != c.ll || !strings.Contains(stderr, said) || !strings.Contains(b, "# "+said) || auto != c.ll {
			t.Errorf("%q: LL or LL128 rules %v, the plugin's setting said on stderr %v and in the header %v, -proto auto's hosts said %v; want %v, true, true, %v\n%s",
				c.proto, ll, strings.Contains(stderr, said), strings.Contains(b, "# "+said), auto, c.ll, c.ll, stderr)
		}
		if !c.ll {
			continue
		}
		code, stdout, stderr := runCLI("tune", "-check", out, "-calibrate", log, "-comms", "8x1")
		if code != 1 || !strings.Contains(stdout, "no rule takes them, and the plugin runs them on one channel") {
			t.Errorf("-check of the -proto auto file under the plugin's setting: exit %d, stdout:\n%s\nstderr:\n%s\nwant exit 1 and the calls left to one channel", code, stdout, stderr)
		}
	}
}

// TestTuneNoP2PFallbacks: on Voltage Park's 1 x 8 H100 log, the rules that
// name LL128 (AllReduce of 3.6 to 36 MB, AllGather and ReduceScatter of
// 4.6 to 23 MB) are each followed by rules for their sizes that NCCL runs
// without P2P between the GPUs (tuning.cc: LL128 only on an intra-node
// path of NVB or nearer), and the header counts them; tune -check of the
// file on GPUs joined through PCIe, as such a job finds them, leaves no
// call to one channel. So on OCI's GB200 racks, whose 32 x 4 file holds
// placed rules (nNodes -1) for a communicator across a rack's edge, and on
// GCP's GB300 hosts of one NVLink domain.
func TestTuneNoP2PFallbacks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ log, comms string }{
		{realLog("h100_1x8_g8_allreduce_voltagepark.log"), "1x8"},
		{realLog("gb200_32x4_allreduce_two_racks_oci_oke.log"), "32x4,2x4"},
		// Two hosts of one GB300 NVLink domain, one node to NCCL, whose
		// NICs' path is assumed: the NICs behind the CPU leave LL128 in
		// that node, and the rules without P2P still follow.
		{realLog("gb300_2x4_allgather_crossdomain_gcpa4xmax.log"), "2x4"},
	} {
		out := tuneTo(t, "-calibrate", c.log, "-comms", c.comms)
		b, rules := readRulesFile(t, out)
		of := nccl.FallbackOf(rules)
		n, placed := 0, 0
		for i, r := range rules {
			if r.Proto != nccl.LL128 {
				continue
			}
			n++
			if r.Nodes == -1 {
				placed++
			}
			if i+1 == len(rules) || of[i+1] != i || rules[i+1].Proto == nccl.LL128 {
				t.Errorf("%s: %v: no rule after it that runs without LL128", c.comms, r)
			}
		}
		if n == 0 || !strings.Contains(strings.ReplaceAll(b, "\n#   ", " "), fmt.Sprintf("each of the %d rules that name LL128 is followed by rules for its sizes that name none", n)) {
			t.Errorf("%s: %d LL128 rules; the header does not count them:\n%s", c.comms, n, b)
		}
		if strings.Contains(c.comms, "32x4") && placed == 0 {
			t.Errorf("%s: no placed rule names LL128: the case is not tried", c.comms)
		}
		code, stdout, stderr := runCLI("tune", "-check", out, "-calibrate", c.log, "-comms", c.comms, "-hw", "fabric=pcie")
		if strings.Contains(stdout, "one channel:") {
			t.Errorf("%s: -check without P2P: exit %d, some calls on one channel:\n%s\n%s", c.comms, code, stdout, stderr)
		}
	}
}

// TestTuneCollNetJob: a file whose communicators cross nodes says in its
// header that its rules are for a job without CollNet, and how to write
// them for one that sets NCCL_COLLNET_ENABLE=1 (the plugin sets every
// other algorithm's cost to 0, so a rule naming Tree takes SHARP away: a
// red team); a file of one node, or one written with -hw collnet=true,
// does not, nor one where the user or the logs say whether the machine has
// CollNet (-hw collnet=false: a review).
func TestTuneCollNetJob(t *testing.T) {
	t.Parallel()
	log := realLog("rtxpro6000_8x1_allreduce_efa_g7e_slurm.log")
	dir := t.TempDir()
	const said = "# For a job without CollNet (NCCL_COLLNET_ENABLE unset, as NCCL leaves it; collnet false)"
	for i, c := range []struct {
		args []string
		want bool
	}{
		{[]string{log, "-comms", "8x1"}, true},
		{[]string{log, "-comms", "8x1", "-hw", "collnet=true"}, false},
		{[]string{log, "-comms", "8x1", "-hw", "collnet=false"}, false},
		{[]string{togetherDir + "all_gather_ring.log", "-comms", "1x8"}, false},
	} {
		out := filepath.Join(dir, fmt.Sprintf("%d.conf", i))
		code, _, stderr := runCLI(append([]string{"tune", "-o", out, "-calibrate"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", c.args, code, stderr)
		}
		b, _ := readRulesFile(t, out)
		if got := strings.Contains(b, said); got != c.want {
			t.Errorf("%q: the header says the rules are for a job without CollNet: %v, want %v\n%s", c.args, got, c.want, b)
		}
	}
}
