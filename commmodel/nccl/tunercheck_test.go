package nccl

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tunerJob is a job of two communicators: one 8 x H100 node, and two such
// nodes whose NIC is a SYS path away, so that LL128 is off across them
// (NCCL 2.30.7 src/graph/tuning.cc: LL128 needs the NIC at most PXN away
// on Hopper) and NVLS is too (it needs CollNet across nodes).
func tunerJob(t testing.TB) []TunerComm {
	t.Helper()
	one, err := New(h100Node(Latest))
	if err != nil {
		t.Fatal(err)
	}
	cfg := hopperConfig(Latest, 2, PathSYS)
	cfg.Graphs.CollNetDirect, cfg.Graphs.CollNetChain = Graph{}, Graph{}
	two, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return []TunerComm{{1, one}, {2, two}}
}

// TestTunerRulesDefault: the rules that keep NCCL's own choice cover every
// size from 0 to the largest without a gap, each rule's algorithm and
// protocol are NCCL's at both of its ends (Choose), its channels
// NCCLChannels (NCCL's own count), neighbours differ, each rule of an algorithm NCCL may leave
// out of a call (MayBeIgnored) is followed by rules covering its sizes with
// NCCL's choice among Ring and Tree (FallbackPick), and the check finds
// nothing in a file of them for every function.
func TestTunerRulesDefault(t *testing.T) {
	job := tunerJob(t)
	var all []TunerRule
	fallbacks := 0
	for _, c := range job {
		for f := range Func(NumFuncs) {
			rules, err := c.Model.TunerRules(f, c.Nodes, c.Model.DefaultPick(f), nil)
			if err != nil {
				t.Fatal(err)
			}
			next := uint64(0)
			var prev TunerRule
			for i := 0; i < len(rules); i++ {
				r := rules[i]
				if r.MinBytes != next || r.Func != f || r.Nodes != c.Nodes || r.Ranks != 8*c.Nodes {
					t.Errorf("%v: want %v from %d on %v", r, f, next, c)
				}
				next = r.MaxBytes + 1
				if i > 0 && prev.Algo == r.Algo && prev.Proto == r.Proto && prev.Channels == r.Channels {
					t.Errorf("%v: same as the rule before", r)
				}
				prev = r
				for _, n := range []uint64{r.MinBytes, min(r.MaxBytes, 1<<tunerProbeTop)} {
					e, err := c.Model.Choose(f, float64(n))
					if err != nil || e.Algo != r.Algo || e.Proto != r.Proto || r.Channels != NCCLChannels {
						t.Errorf("%v at %d B: NCCL runs %v/%v (%v); want it on NCCL's own channels", r, n, e.Algo, ProtocolName(e.Proto), err)
					}
				}
				if !MayBeIgnored(r.Algo) {
					continue
				}
				// The rules after it cover its sizes with NCCL's choice
				// without the algorithms it may leave out.
				at := r.MinBytes
				for i+1 < len(rules) && rules[i+1].MinBytes == at && rules[i+1].MaxBytes <= r.MaxBytes {
					i++
					b := rules[i]
					fallbacks++
					a, p, _ := c.Model.FallbackPick(f)(b.MinBytes)
					if MayBeIgnored(b.Algo) || b.Algo != a || b.Proto != p || b.Channels != NCCLChannels {
						t.Errorf("%v after %v: want %v/%v on NCCL's own channels", b, r, a, ProtocolName(p))
					}
					at = b.MaxBytes + 1
				}
				if at != r.MaxBytes+1 {
					t.Errorf("%v: the rules after it end at %d", r, at-1)
				}
			}
			if next != 0 { // wrapped past the largest uint64
				t.Errorf("%v on %v: rules end at %d", f, c, next-1)
			}
			all = append(all, rules...)
		}
	}
	// NCCL 2.30.7 runs NVLS for AllReduce on one node of 8 H100s at large
	// sizes (src/graph/tuning.cc), so some rules need a fallback.
	if fallbacks == 0 {
		t.Error("no rule after an NVLS rule: the 8 x H100 node runs NVLS at large sizes")
	}
	var b bytes.Buffer
	if err := WriteTunerRules(&b, []string{"NCCL's own choices"}, all); err != nil {
		t.Fatal(err)
	}
	probs, err := CheckTunerRules(&b, "default.conf", job)
	if err != nil || len(probs) != 0 {
		t.Errorf("the check of NCCL's own rules: %v %v", probs, err)
	}
}

// TestCheckTunerRules gives the check a file with each hazard of the
// plugin (plugins/tuner/example/plugin.c at NCCL 2.30.7) and the job of
// tunerJob, and wants each reported at its line.
func TestCheckTunerRules(t *testing.T) {
	job := tunerJob(t)
	// The continuation of a comment of more than 255 bytes: byte 256 on,
	// which holds ten fields, so the plugin loads it as a rule.
	long := "# calibrated on " + strings.Repeat("x", 239) + "allreduce,0,4294967296,ring,simple,2,1,8"
	lines := []string{
		"# a job's rules", // 1
		long,              // 2
		"allreduce,0,18446744073709551615,ring,ll,-1,1,8",          // 3: every call it takes on one channel
		"allreduce,0,1000,ring,simple,4,1,8",                       // 4: shadowed by 3
		"allgather,0,18446744073709551615,tree,simple,4,1,8",       // 5: NCCL has no Tree AllGather
		"allgather,0,18446744073709551615,ring,simple,24,1,8",      // 6
		"allreduce,0,18446744073709551615,ring,ll128,24,2,16",      // 7: LL128 off across the SYS NICs
		"allreduce,0,18446744073709551615,nvls,simple,16,2,-1",     // 8: no NVLS across nodes without CollNet
		"allreduce,0,1048575,ring,ll,8,2,16",                       // 9: above 1 MiB falls through
		"allreduce,0,18446744073709551615,ring,simple,8,1,1",       // 10: nRanks 1
		"allreduce,100,10,ring,simple,8,1,8",                       // 11: min above max
		"allreduce,0,18446744073709551615,ring,simple,8,4,32",      // 12: not a communicator of the job
		"all_reduce,0,18446744073709551615,ring,simple,8,4,32",     // 13: read as allreduce
		"broadcast,0,18446744073709551615,ring,simple,8,-1,-1",     // 14
		"reducescatter,0,18446744073709551615,ring,simple,8,-1,-1", // 15
		"allgather,0,18446744073709551615,ring,ll,0,-1,8",          // 16: any nNodes, after 6: for other counts
		"broadcast,0,1000,ring,ll,0,-1,-1",                         // 17: shadowed by 14, as wide
		"allreduce,0,65536,ring,ll,0,-1,-1",                        // 18: any nRanks after 2 and 9: shadowed
		"allgather,0,1000,ring,ll,0,-1,8",                          // 19: any nNodes after 6 alone: for other counts
		"allgather,0,18446744073709551615,ring,simple,0,-1,16",     // 20: takes 2 x 8's AllGather
		"allgather,0,1000,ring,ll,0,-1,16",                         // 21: after 20, of any nNodes: shadowed
	}
	probs, err := CheckTunerRules(strings.NewReader(strings.Join(lines, "\n")+"\n"), "job.conf", job)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		line   int
		hazard TunerHazard
		says   string
	}{
		{2, HazardLongLine, "295 bytes"},
		{2, HazardMisread, "the rest of a long line the plugin loads as allreduce,0,4294967296,ring,simple,2,1,8,-1,-1"},
		{2, HazardFewerChannels, "2 channels of ring/simple, fewer than NCCL's own tuning runs it on at the rule's largest size on 1 x 8 (24)"},
		{3, HazardOneChannel, "channels -1"},
		{4, HazardShadowed, "line 2"}, // the rest of line 2 comes first
		{5, HazardIgnored, "NCCL does not run Tree for AllGather"},
		{7, HazardIgnored, "LL128 is off"},
		{8, HazardIgnored, "NCCL runs NVLS across nodes only with CollNet support"},
		{9, HazardFewerChannels, "8 channels of ring/ll, fewer than NCCL's own tuning runs it on at the rule's largest size on 2 x 8 (15)"},
		{10, HazardDead, "nRanks 1"},
		{11, HazardMisread, "matches nothing"},
		{11, HazardDead, "min_bytes 100 above max_bytes 10"},
		{12, HazardUnused, "no call"},
		{13, HazardMisread, `collective "all_reduce"`},
		{13, HazardUnused, "no call"},
		{14, HazardFewerChannels, "8 channels of ring/simple, fewer than NCCL's own tuning runs it on at the rule's largest size on 1 x 8 (24), 2 x 8 (24)"},
		{15, HazardFewerChannels, "8 channels of ring/simple, fewer than NCCL's own tuning runs it on at the rule's largest size on 1 x 8 (24), 2 x 8 (24)"},
		{16, HazardUnused, "matches only calls that rules of the job's own counts of nodes take first (line 6)"},
		{17, HazardShadowed, "line 14"},
		{18, HazardShadowed, "line 2"}, // the rest of line 2 comes first
		{19, HazardUnused, "matches only calls that rules of the job's own counts of nodes take first (line 6)"},
		{21, HazardShadowed, "line 20"},
		{0, HazardOneChannel, "Reduce of every size on 1 x 8"},
		{0, HazardOneChannel, "Reduce of every size on 2 x 8"},
		{0, HazardOneChannel, "AllReduce of 1048576 B and more on 2 x 8"},
	}
	for _, w := range want {
		found := false
		for _, p := range probs {
			found = found || p.Line == w.line && p.Hazard == w.hazard && strings.Contains(p.Message, w.says)
		}
		if !found {
			t.Errorf("no %v at line %d saying %q", w.hazard, w.line, w.says)
		}
	}
	if len(probs) != len(want) || t.Failed() {
		for _, p := range probs {
			t.Logf("%d:%d: %v: %s", p.Line, p.Column, p.Hazard, p.Message)
		}
		t.Errorf("%d problems, want %d", len(probs), len(want))
	}
	for _, p := range probs {
		if p.Fails() != (p.Hazard != HazardUnused && p.Hazard != HazardFewerChannels) {
			t.Errorf("%v: Fails %v", p.Hazard, p.Fails())
		}
	}
}

// TestCheckTunerRulesNUL: a line with a NUL byte is read by the plugin
// only up to it (fgets keeps the rest, strtok and strcspn stop at the
// NUL): the fields past it do not exist for the plugin, and a NUL first
// hides the whole line.
func TestCheckTunerRulesNUL(t *testing.T) {
	lines := []string{
		"allreduce,0,1000,ring,simple,0,1,8\x00,4,1", // 1: loaded without numPipeOps and regBuff
		"\x00allreduce,1001,2000,ring,simple,0,1,8",  // 2: nothing
		"allreduce,2001,3000,ri\x00ng,simple,0,1,8",  // 3: 4 fields: skipped
	}
	probs, err := CheckTunerRules(strings.NewReader(strings.Join(lines, "\n")+"\n"), "nul.conf", tunerJob(t)[:1])
	if err != nil {
		t.Fatal(err)
	}
	nul := map[int]int{}
	for _, p := range probs {
		t.Logf("%d:%d: %v: %s", p.Line, p.Column, p.Hazard, p.Message)
		if p.Hazard == HazardMisread && strings.Contains(p.Message, "NUL") {
			nul[p.Line] = p.Column
		}
	}
	if want := map[int]int{1: 35, 2: 1, 3: 23}; !maps.Equal(nul, want) {
		t.Errorf("NUL at line:column %v, want %v", nul, want)
	}
	// Line 1 is loaded as its first 8 fields say: a call of 4 pipelined
	// operations takes it, and no call from 1001 B on is taken by a rule.
	ones := 0
	for _, p := range probs {
		if p.Hazard == HazardOneChannel && strings.Contains(p.Message, "AllReduce") {
			ones++
			if !strings.Contains(p.Message, "1001 B and more") {
				t.Errorf("one channel: %s, want calls of 1001 B and more alone", p.Message)
			}
		}
	}
	if ones == 0 {
		t.Error("no call runs on one channel: lines 2 and 3 were loaded")
	}
}

// TestCheckTunerRulesCalls: the rules that tell numPipeOps or regBuff
// apart leave the other calls to one channel, and NCCL never asks about a
// communicator of one rank.
func TestCheckTunerRulesCalls(t *testing.T) {
	job := tunerJob(t)[:1]
	file := "allreduce,0,18446744073709551615,ring,simple,24,1,8,1,1\n"
	for f := range Func(NumFuncs) {
		if f != FuncAllReduce {
			file += tunerFuncNames[f] + ",0,18446744073709551615,ring,simple,24,1,8\n"
		}
	}
	probs, err := CheckTunerRules(strings.NewReader(file), "calls.conf", job)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range probs {
		got = append(got, p.Message)
	}
	want := []string{
		"AllReduce of every size on 1 x 8 (nNodes 1, nRanks 8), numPipeOps 1, regBuff 0: no rule takes them",
		"AllReduce of every size on 1 x 8 (nNodes 1, nRanks 8), numPipeOps other than 1, regBuff 0: no rule takes them",
		"AllReduce of every size on 1 x 8 (nNodes 1, nRanks 8), numPipeOps other than 1, regBuff 1: no rule takes them",
	}
	if len(got) != len(want) {
		t.Fatalf("problems %q, want %d", got, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %q, want %q", got[i], want[i])
		}
	}
	cfg := h100Node(Latest)
	cfg.Ranks = 1
	single, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if probs, _ := CheckTunerRules(strings.NewReader(""), "empty.conf", []TunerComm{{1, single}}); len(probs) != 0 {
		t.Errorf("one rank: %v, want nothing (NCCL never asks)", probs)
	}
}

// TestFoldComment: comment lines are folded to the plugin's 255 bytes, at
// spaces where there are, within a word (at a rune boundary) where not, and
// read back as comments.
func TestFoldComment(t *testing.T) {
	text := "calibrated on: " + strings.Repeat("/very/long/path/µ-table.log, ", 20) + strings.Repeat("é", 300)
	var b bytes.Buffer
	if err := WriteTunerRules(&b, []string{text}, nil); err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if len(l) > 255 || l[0] != '#' || !strings.ContainsRune(l, ' ') && l != TunerHeader {
			t.Errorf("line of %d bytes %q", len(l), l)
		}
		if l != TunerHeader {
			words = append(words, strings.TrimLeft(l, "# "))
		}
	}
	if got := strings.Join(words, ""); strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(text, " ", "") {
		t.Errorf("folded text reads back as %q", got)
	}
	if _, err := ReadTunerRules(&b, "folded"); err != nil {
		t.Error(err)
	}
	if _, err := ReadTunerRules(strings.NewReader("# "+strings.Repeat("x", 300)+"\n"), "long"); err == nil || !strings.Contains(err.Error(), "another line") {
		t.Errorf("a comment of 302 bytes: %v, want it refused", err)
	}
	if p := cStrtoull("-1"); p != math.MaxUint64 {
		t.Errorf("strtoull(\"-1\") = %d, want 2^64-1 (C negates modulo 2^64)", p)
	}
}

// TestCheckTunerRulesFallback: on one node of 8 H100s, where NCCL 2.30.7
// keeps NVLS in the cost table, a lone NVLS rule leaves the calls NCCL
// leaves NVLS out of (an ncclAvg of floats: ncclNvlsSupported,
// src/include/device.h) to one channel, which the check reports at the
// rule's line for its sizes; a Ring rule after it for part of them settles
// those, and the rest are still reported.
func TestCheckTunerRulesFallback(t *testing.T) {
	job := tunerJob(t)[:1]
	var rest string
	for f := range Func(NumFuncs) {
		if f != FuncAllReduce {
			rest += tunerFuncNames[f] + ",0,18446744073709551615,ring,simple,24,1,8\n"
		}
	}
	cases := []struct {
		file string
		want []string // the messages' starts, at line 1
	}{
		{"allreduce,0,18446744073709551615,nvls,simple,16,1,8\n", []string{"AllReduce of every size on 1 x 8"}},
		{"allreduce,0,18446744073709551615,nvls,simple,16,1,8\nallreduce,0,1048575,ring,simple,24,1,8\n",
			[]string{"AllReduce of 1048576 B and more on 1 x 8"}},
		{"allreduce,0,18446744073709551615,nvls,simple,16,1,8\nallreduce,0,18446744073709551615,tree,simple,24,1,8\n", nil},
	}
	for _, c := range cases {
		probs, err := CheckTunerRules(strings.NewReader(c.file+rest), "nvls.conf", job)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range probs {
			if p.Hazard != HazardNoFallback || p.Line != 1 || !p.Fails() {
				t.Errorf("%q: %d: %v: %s", c.file, p.Line, p.Hazard, p.Message)
				continue
			}
			got = append(got, p.Message)
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: %q, want %q", c.file, got, c.want)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], c.want[i]) {
				t.Errorf("%q: %q, want it to start %q", c.file, got[i], c.want[i])
			}
		}
	}
}

// TestLeftOutCauses: the ignored-rule message names the cause NCCL's code
// at the model's release has, and no other. Each case's source is NCCL's
// code at that release, as named.
func TestLeftOutCauses(t *testing.T) {
	with := func(c Config, edit func(*Config)) Config { edit(&c); return c }
	two := hopperConfig(Latest, 2, PathPIX)
	cases := []struct {
		name string
		cfg  Config
		f    Func
		a    Algo
		p    Protocol
		want string
	}{
		// src/graph/tuning.cc ncclTopoTuneModel: without CollNet support
		// "a == NCCL_ALGO_NVLS && comm->nNodes > 1" is disabled; the
		// NVSwitch and Hopper GPUs are there.
		{"NVLS across nodes, 2.30.7", two, FuncAllReduce, AlgoNVLS, Simple,
			"NCCL runs NVLS across nodes only with CollNet support, off here"},
		{"NVLS across nodes, 2.18.6", hopperConfig(Version{2, 18, 6}, 2, PathPIX), FuncAllReduce, AlgoNVLS, Simple,
			"NCCL runs NVLS across nodes only with CollNet support, off here"},
		// src/graph/search.cc ncclTopoCompute: no NVLS graph without an
		// NVSwitch or below compute capability 9.0.
		{"NVLS on A100", with(h100Node(Latest), func(c *Config) { c.MinCompCap = 80 }), FuncAllReduce, AlgoNVLS, Simple,
			"NCCL searches no NVLS graph without an NVSwitch and Hopper or later GPUs"},
		{"NVLS without NVSwitch", with(h100Node(Latest), func(c *Config) { c.NVSwitch = false }), FuncAllReduce, AlgoNVLS, Simple,
			"NCCL searches no NVLS graph without an NVSwitch and Hopper or later GPUs"},
		// ncclTopoTuneModel: "Disable NVLS Tree on a single node".
		{"NVLSTree on one node", h100Node(Latest), FuncAllReduce, AlgoNVLSTree, Simple, "NVLSTree needs more than one node"},
		// src/include/nccl_common.h: 2.23.4 adds NCCL_ALGO_PAT (6) to
		// NCCL_NUM_ALGORITHMS 7; 2.21.5 counts 6, without it.
		{"PAT, 2.21.5", with(hopperConfig(Version{2, 21, 5}, 1, PathPIX), func(c *Config) { c.Ranks, c.Nodes = 2, 2 }),
			FuncAllGather, AlgoPAT, Simple, "NCCL 2.21.5 has no PAT"},
		// ncclTopoTuneModel 2.18.6 computes Ring alone for AllGather
		// ("coll == ncclFuncAllGather && a != NCCL_ALGO_RING" skipped);
		// 2.19 adds NVLS for AllGather and ReduceScatter.
		{"NVLS AllGather, 2.18.6", h100Node(Version{2, 18, 6}), FuncAllGather, AlgoNVLS, Simple,
			"NCCL 2.18.6 runs NVLS for AllReduce only; 2.19 and later run it for AllGather too"},
		// Tree has no AllGather in any release.
		{"Tree AllGather", h100Node(Latest), FuncAllGather, AlgoTree, Simple, "NCCL does not run Tree for AllGather"},
		// src/enqueue.cc topoGetAlgoInfo 2.21.5: NVLS is skipped for
		// AllGather and ReduceScatter "&& comm->nNodes > 1", with CollNet
		// on.
		{"NVLS AllGather across nodes, 2.21.5", with(hopperConfig(Version{2, 21, 5}, 2, PathPIX), func(c *Config) { c.CollNet = true }),
			FuncAllGather, AlgoNVLS, Simple, "NCCL 2.21.5 runs NVLS for AllGather on one node only"},
		// ncclPatEnable: "PAT only supports 1 GPU per node".
		{"PAT on 8 a node", two, FuncAllGather, AlgoPAT, Simple, "PAT needs one rank per node"},
		// ncclTopoTuneModel: CollNet disabled without CollNet support.
		{"CollNet off", two, FuncAllReduce, AlgoCollNetChain, Simple, "CollNet is off here"},
	}
	for _, c := range cases {
		m, err := New(c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if m.Available(c.f, c.a, c.p) {
			t.Errorf("%s: %v/%v/%v is available", c.name, c.f, c.a, c.p)
			continue
		}
		if got := m.leftOut(c.f, c.a, c.p); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want it to start %q", c.name, got, c.want)
		}
	}
}

// TestCheckTunerRulesFallbackCauses: the no-fallback problem names only the
// calls NCCL leaves the rule's algorithm out of for the rule's function
// (LeftOutCalls, NCCL 2.30.7 src/enqueue.cc updateCollCostTable and
// src/graph/tuning.cc ncclPatEnable). A lone PAT rule for AllGather, on
// one GPU of each of 4 nodes where NCCL runs PAT (TestEnableMasks), is
// passed over only on a network device that offloads, never for ncclAvg,
// which leaves PAT out of ReduceScatter alone, nor for NVLS's datatypes.
// NCCL 2.22.3 keeps NVLS in every AllGather's cost table ("nvlsSupport ="
// gains "|| func == ncclFuncAllGather"), so a lone NVLS AllGather rule on
// one node of 8 H100s needs no fallback there, and does under 2.21.5,
// whose ncclNvlsSupported left NVLS out of an AllGather of 8-bit types.
// Across nodes, with CollNet on, NVLS AllReduce is also left out of a call
// whose collNetSupport is not 1 ("a == NCCL_ALGO_NVLS && collNetSupport !=
// 1 && comm->nNodes > 1"), a reduction the CollNet plugin does not support
// (ncclGetCollNetSupport).
func TestCheckTunerRulesFallbackCauses(t *testing.T) {
	cfg := hopperConfig(Latest, 1, PathPIX)
	cfg.Ranks, cfg.Nodes = 4, 4
	perNode1, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg = hopperConfig(Latest, 2, PathPIX)
	cfg.CollNet = true
	collNet2, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	node := func(v Version) TunerComm {
		m, err := New(h100Node(v))
		if err != nil {
			t.Fatal(err)
		}
		return TunerComm{1, m}
	}
	for _, c := range []struct {
		name      string
		comm      TunerComm
		rule      string
		want, not []string // nil want: no problem
	}{
		{"PAT AllGather", TunerComm{4, perNode1}, "allgather,0,18446744073709551615,pat,simple,4,4,4",
			[]string{"(a network device that offloads (ncclPatEnable))"}, []string{"ncclAvg", "NVLS", "CollNet"}},
		{"PAT ReduceScatter", TunerComm{4, perNode1}, "reducescatter,0,18446744073709551615,pat,simple,4,4,4",
			[]string{"a ReduceScatter of ncclAvg or of a pre-multiplied sum", "offloads"}, []string{"NVLS", "CollNet"}},
		{"NVLS AllReduce", node(Latest), "allreduce,0,18446744073709551615,nvls,simple,16,1,8",
			[]string{"a reduction or datatype NVLS does not run"}, []string{"PAT", "CollNet", "ReduceScatter"}},
		// From 2.29.2 a group of Broadcasts from several roots reaches
		// the plugin as an AllGather without NVLS (red team); 2.28.9's
		// AllGather leaves NVLS out of no call.
		{"NVLS AllGather, 2.30.7", node(Latest), "allgather,0,18446744073709551615,nvls,simple,16,1,8",
			[]string{"a group of Broadcasts from several roots, which NCCL runs as an AllGather without NVLS"}, []string{"PAT", "8-bit"}},
		{"NVLS AllGather, 2.28.9", node(Version{2, 28, 9}), "allgather,0,18446744073709551615,nvls,simple,16,1,8", nil, nil},
		{"NVLS AllReduce across nodes", TunerComm{2, collNet2}, "allreduce,0,18446744073709551615,nvls,simple,16,2,16",
			[]string{"a reduction or datatype NVLS does not run", "or a reduction and datatype the network plugin's CollNet does not support"}, []string{"PAT"}},
		{"NVLS AllGather, 2.21.5", node(Version{2, 21, 5}), "allgather,0,18446744073709551615,nvls,simple,16,1,8",
			[]string{"an AllGather of a datatype NVLS does not run, 8-bit types"}, []string{"PAT", "ncclAvg"}},
	} {
		f, _, _ := strings.Cut(c.rule, ",")
		file := c.rule + "\n"
		for g := range Func(NumFuncs) {
			if tunerFuncNames[g] != f {
				file += fmt.Sprintf("%s,0,18446744073709551615,ring,simple,4,%d,%d\n", tunerFuncNames[g], c.comm.Nodes, c.comm.Model.nRanks)
			}
		}
		probs, err := CheckTunerRules(strings.NewReader(file), "causes.conf", []TunerComm{c.comm})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range probs {
			if p.Fails() {
				got = append(got, fmt.Sprintf("%d: %v: %s", p.Line, p.Hazard, p.Message))
			}
		}
		if c.want == nil {
			if len(got) > 0 {
				t.Errorf("%s: %q; want none", c.name, got)
			}
			continue
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], "1: no fallback: ") {
			t.Errorf("%s: %q; want one no-fallback problem at line 1", c.name, got)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(got[0], w) {
				t.Errorf("%s: %q; want it to name %q", c.name, got[0], w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(got[0], n) {
				t.Errorf("%s: %q names %q, which does not leave it out", c.name, got[0], n)
			}
		}
	}
}

// TestTunerRulesAlternatives: two nodes of 8 H100s with the NICs taken to
// be next to the GPUs (PIX), where NCCL 2.30.7 runs LL128 across nodes,
// and the same nodes with the NICs behind the CPU (SYS), where it runs none
// (ll128Auto) and the plugin passes over an LL128 rule. Rules written for
// PIX with SYS as an alternative follow every LL128 rule with SYS's own
// choices for its sizes, on its channels; the one file then runs every
// call as NCCL's own on either machine (the check finds nothing), where
// the rules written without the alternative leave calls on one channel on
// SYS.
func TestTunerRulesAlternatives(t *testing.T) {
	newModel := func(path PathType) *Model {
		cfg := hopperConfig(Latest, 2, path)
		cfg.Graphs.CollNetDirect, cfg.Graphs.CollNetChain = Graph{}, Graph{}
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	pix, sys := newModel(PathPIX), newModel(PathSYS)
	var with, without []TunerRule
	ll128 := 0
	for f := range Func(NumFuncs) {
		rules, err := pix.TunerRules(f, 2, pix.DefaultPick(f), nil, sys)
		if err != nil {
			t.Fatal(err)
		}
		of := FallbackOf(rules)
		for i, r := range rules {
			if r.Proto != LL128 || of[i] >= 0 {
				continue
			}
			ll128++
			at := r.MinBytes
			for j := i + 1; j < len(rules) && of[j] == i; j++ {
				b := rules[j]
				e, err := sys.Choose(f, float64(b.MinBytes))
				if err != nil || b.MinBytes != at || b.Algo != e.Algo || b.Proto != e.Proto || b.Channels != NCCLChannels {
					t.Errorf("%v after %v: want from %d B NCCL's %v/%v on SYS, on its own channels", b, r, at, e.Algo, ProtocolName(e.Proto))
				}
				at = b.MaxBytes + 1
			}
			if at != r.MaxBytes+1 {
				t.Errorf("%v: the rules after it end at %d", r, at-1)
			}
		}
		with = append(with, rules...)
		own, err := pix.TunerRules(f, 2, pix.DefaultPick(f), nil)
		if err != nil {
			t.Fatal(err)
		}
		without = append(without, own...)
	}
	if ll128 == 0 {
		t.Fatal("no LL128 rule across the PIX nodes")
	}
	check := func(rules []TunerRule, m *Model) []TunerProblem { return checkOnTwoNodes(t, rules, m) }
	for path, m := range map[string]*Model{"PIX": pix, "SYS": sys} {
		if probs := check(with, m); len(probs) != 0 {
			t.Errorf("the rules with fallbacks on %s: %v", path, probs)
		}
	}
	if probs := check(without, sys); !slices.ContainsFunc(probs, func(p TunerProblem) bool { return p.Hazard == HazardOneChannel }) {
		t.Errorf("the rules without fallbacks on SYS: %v, want calls on one channel", probs)
	}
}

// TestFallbackOf: a rule within the sizes of a rule before it that NCCL
// may leave out (MayBeLeftOut), of the same function and communicator, is
// its fallback, and a fallback's own fallbacks hold to it; a rule within a
// Ring/Simple rule's sizes is none, and the check says it is shadowed.
func TestFallbackOf(t *testing.T) {
	r := func(lo, hi uint64, a Algo, p Protocol) TunerRule {
		return TunerRule{Func: FuncAllGather, MinBytes: lo, MaxBytes: hi, Algo: a, Proto: p, Channels: 4, Nodes: 2, Ranks: 16, PipeOps: -1, RegBuff: -1}
	}
	rules := []TunerRule{
		r(0, 99, AlgoRing, LL),
		r(100, 999, AlgoPAT, Simple),     // 1
		r(100, 999, AlgoRing, LL128),     // 2: of 1
		r(100, 499, AlgoRing, LL),        // 3: of 2
		r(500, 999, AlgoRing, Simple),    // 4: of 2
		r(1000, 1<<40, AlgoRing, Simple), // 5
		r(2000, 3000, AlgoRing, LL),      // 6: within 5, which NCCL never leaves out
	}
	want := []int{-1, -1, 1, 2, 2, -1, -1}
	if got := FallbackOf(rules); !slices.Equal(got, want) {
		t.Errorf("FallbackOf = %v, want %v", got, want)
	}
	if got := WithoutFallbacks(rules); len(got) != 4 || got[1] != rules[1] || got[2] != rules[5] {
		t.Errorf("WithoutFallbacks = %v", got)
	}
	m, err := New(hopperConfig(Latest, 2, PathPIX))
	if err != nil {
		t.Fatal(err)
	}
	var shadowed []string
	for _, p := range checkOnTwoNodes(t, rules, m) {
		if p.Hazard == HazardShadowed || p.Hazard == HazardIgnored {
			shadowed = append(shadowed, fmt.Sprintf("%d: %v", p.Line, p.Hazard))
		}
	}
	if want := []string{"8: shadowed rule"}; !slices.Equal(shadowed, want) { // the header, then rule 6
		t.Errorf("shadowed and ignored rules %v, want %v", shadowed, want)
	}
}

// checkOnTwoNodes writes rules to a file and checks it for a job of one
// communicator of two nodes, NCCL's model m.
func checkOnTwoNodes(t *testing.T, rules []TunerRule, m *Model) []TunerProblem {
	t.Helper()
	var b bytes.Buffer
	if err := WriteTunerRules(&b, nil, rules); err != nil {
		t.Fatal(err)
	}
	probs, err := CheckTunerRules(&b, "job.conf", []TunerComm{{2, m}})
	if err != nil {
		t.Fatal(err)
	}
	return probs
}

// FuzzCheckTunerRules: whatever a rules file holds, the check reads it as
// the plugin does without panicking, and each problem it reports names a
// hazard and says what it is.
func FuzzCheckTunerRules(f *testing.F) {
	job := tunerJob(f)
	example, err := os.ReadFile(filepath.Join("testdata", "nccl_tuner_example.conf"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(example))
	f.Add("allreduce,0,18446744073709551615,ring,ll,-1,1,8\nallreduce,0,1000,ring,simple,4,1,8\n")
	f.Add("allreduce,0,18446744073709551615,nvls,simple,16,2,-1\nallreduce,0,65536,ring,ll,0,-1,16\nallreduce,0,65536,ring,ll,0,-1,-1\n")
	f.Add("# c\n\nallgather, 0, 4294967295, nvls, simple, -1, -1, -1\n")
	f.Fuzz(func(t *testing.T, s string) {
		probs, err := CheckTunerRules(strings.NewReader(s), "fuzz", job)
		if err != nil {
			return
		}
		for _, p := range probs {
			if p.Hazard < 0 || int(p.Hazard) >= len(hazardNames) || p.Message == "" || p.Line < 0 {
				t.Fatalf("%q: problem %+v", s, p)
			}
		}
	})
}

// TestCheckTunerRulesEmptyCalls: NCCL discards a collective of count 0
// before its tuner (taskAppend, src/enqueue.cc: "Empty collectives can be
// discarded"), so rules that start at 1 B leave no call on one channel,
// and a gap from 0 is named from 1 B (a red team: "AllGather of 0..0 B").
func TestCheckTunerRulesEmptyCalls(t *testing.T) {
	job := tunerJob(t)
	var lines []string
	for _, f := range []string{"broadcast", "reduce", "allgather", "reducescatter", "allreduce"} {
		lines = append(lines, f+",1,18446744073709551615,ring,simple,0,-1,-1")
	}
	probs, err := CheckTunerRules(strings.NewReader(strings.Join(lines, "\n")+"\n"), "from1.conf", job)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		if p.Hazard == HazardOneChannel {
			t.Errorf("rules from 1 B: %s", p.Message)
		}
	}
	lines[4] = "allreduce,4096,18446744073709551615,ring,simple,0,-1,-1"
	probs, err = CheckTunerRules(strings.NewReader(strings.Join(lines, "\n")+"\n"), "from4k.conf", job)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(probs, func(p TunerProblem) bool {
		return p.Hazard == HazardOneChannel && strings.Contains(p.Message, "AllReduce of 1..4095 B")
	}) {
		t.Errorf("AllReduce rules from 4096 B: want 1..4095 B on one channel, got %+v", probs)
	}
	// A rule NCCL may leave out with no fallback after it names its sizes
	// from 1 B too (a review: "0..1048576 B" there).
	lines[4] = "allreduce,0,1048576,nvls_tree,simple,0,-1,-1\nallreduce,1048577,18446744073709551615,ring,simple,0,-1,-1"
	probs, err = CheckTunerRules(strings.NewReader(strings.Join(lines, "\n")+"\n"), "nvlstree.conf", job)
	if err != nil {
		t.Fatal(err)
	}
	bare := 0
	for _, p := range probs {
		if p.Hazard == HazardNoFallback {
			bare++
			if !strings.Contains(p.Message, "AllReduce of 1..1048576 B") {
				t.Errorf("no fallback: %s; want 1..1048576 B", p.Message)
			}
		}
	}
	if bare == 0 {
		t.Errorf("NVLSTree without a fallback: no such hazard in %+v", probs)
	}
}
