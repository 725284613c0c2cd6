package predict

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// The collnet fact: assumed false, set by Describe's collnet key.
func TestCollNetFact(t *testing.T) {
	for _, c := range []struct {
		spec string
		want Fact
	}{
		{"", Fact{Name: "collnet", Value: "false", Source: SourceAssumed, Key: "collnet"}},
		{"collnet=true", Fact{Name: "collnet", Value: "true", Source: SourceUser, Key: "collnet"}},
	} {
		h, err := Describe("A100-SXM4-40GB", c.spec)
		if err != nil {
			t.Fatal(err)
		}
		facts := h.Facts()
		k := slices.IndexFunc(facts, func(f Fact) bool { return f.Name == "collnet" })
		if k < 0 || facts[k] != c.want || h.CollNet != (c.want.Value == "true") {
			t.Errorf("Describe(%q): collnet %+v (CollNet %v), want %+v", c.spec, facts, h.CollNet, c.want)
		}
	}
	if _, err := Describe("A100-SXM4-40GB", "collnet=sharp"); err == nil || !strings.Contains(err.Error(), "want true or false") {
		t.Errorf("collnet=sharp: %v, want an error asking for true or false", err)
	}
}

// A pin that leaves only CollNet runs where the machine has it, and where
// its collnet false is assumed, as the job that pins it runs only with
// CollNet set up, with Beyond's sentence saying so; it is refused with
// ErrPin where the user said collnet=false. On one node NCCL disables
// CollNet whatever the machine (its node threshold of 2, src/init.cc), so
// the pin's error is NCCL's, not ErrPin.
func TestCollNetPin(t *testing.T) {
	plain, err := Describe("A100-SXM4-40GB", "")
	if err != nil {
		t.Fatal(err)
	}
	sharp, err := Describe("A100-SXM4-40GB", "collnet=true")
	if err != nil {
		t.Fatal(err)
	}
	none, err := Describe("A100-SXM4-40GB", "collnet=false")
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8, Algo: "CollNetDirect,CollNetChain"}
	sizes := []float64{8, 1 << 20}
	if _, err := Reference(none, q, sizes); !errors.Is(err, ErrPin) || !strings.Contains(err.Error(), "-hw collnet=true") {
		t.Errorf("collnet=false: %v, want ErrPin naming -hw collnet=true", err)
	}
	for _, c := range []struct {
		name   string
		h      Hardware
		beyond bool
	}{{"collnet=true", sharp, false}, {"collnet assumed", plain, true}} {
		preds, err := Reference(c.h, q, sizes)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, p := range preds {
			if !strings.HasPrefix(p.Algorithm, "CollNet") || !(p.Time > 0) {
				t.Errorf("%s at %g B: %s in %g s, want a CollNet time", c.name, p.Size, p.Algorithm, p.Time)
			}
		}
		beyond, err := Uncalibrated(c.h).Beyond(q)
		if err != nil {
			t.Fatal(err)
		}
		said := slices.ContainsFunc(beyond, func(b string) bool { return strings.Contains(b, "takes it as set up") })
		if said != c.beyond {
			t.Errorf("%s: Beyond %q, want a sentence on the CollNet taken as set up: %v", c.name, beyond, c.beyond)
		}
	}
	one := q
	one.Ranks = 8
	if _, err := Reference(sharp, one, sizes); err == nil || errors.Is(err, ErrPin) {
		t.Errorf("one node with collnet: %v, want NCCL's error", err)
	}
}

// ABCI's SHARP AllReduce (data/nccltests/testdata/real, NCCL 2.8 with
// NCCL_COLLNET_ENABLE=1 per its source lines; its log prints no version,
// so NCCL 2.30.7's tuner is assumed) calibrated as a new user, with and
// without -hw collnet=true. NCCL's tuner from 2.18 runs CollNet with Simple
// only, whose latency is above Tree/LL's, so the small sizes stay Tree/LL
// (measured 22.5 to 25.5 us up to 512 B) and CollNet takes the large ones:
// CollNetDirect or CollNetChain from 1 MiB on.
func TestCollNetABCI(t *testing.T) {
	tabs, _, err := ReadFile("../../data/nccltests/testdata/real/a100_2x8_allreduce_collnet_sharp_abci.log", nil)
	if err != nil || len(tabs) == 0 {
		t.Fatalf("%d tables, %v", len(tabs), err)
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	sizes := []float64{8, 512, 1 << 20, 64 << 20}
	var got [2][]Prediction
	for i, spec := range []string{"", "collnet=true"} {
		h, err := Describe(tabs[0].GPU, spec)
		if err != nil {
			t.Fatal(err)
		}
		h, _ = h.WithEvidence(tabs)
		m, err := Calibrate(h, tabs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got[i], err = m.Predict(q, sizes); err != nil {
			t.Fatal(err)
		}
		for _, p := range got[i] {
			t.Logf("%q: %g B %.1f us %s/%s", spec, p.Size, p.Time*1e6, p.Algorithm, p.Protocol)
		}
	}
	for k, p := range got[1] {
		collNet := strings.HasPrefix(p.Algorithm, "CollNet")
		if collNet != (p.Size >= 1<<20) || strings.HasPrefix(got[0][k].Algorithm, "CollNet") {
			t.Errorf("%g B: %s with collnet, %s without; want CollNet from 1 MiB on with it only", p.Size, p.Algorithm, got[0][k].Algorithm)
		}
	}
	// Small sizes: the same algorithm, each time inside the other's
	// interval; the two fits differ in what explains the large sizes.
	if a, b := got[1][0], got[0][0]; !a.Holds(b.Time) || !b.Holds(a.Time) {
		t.Errorf("8 B: %g s [%g, %g] with collnet, %g s [%g, %g] without", a.Time, a.Low, a.High, b.Time, b.Low, b.High)
	}
}

// TestCollNetFromPin: AICR's SHARP AllReduce of 2 x 8 B200 (its job set
// NCCL_ALGO=CollNetChain,CollNetDirect and NCCL_PROTO=Simple, per the log's
// source lines; the log prints neither) pinned as its job ran it, on a
// machine described from the GPU's name alone (collnet false). NCCL fails a
// call its NCCL_ALGO leaves no algorithm for, so the run had CollNet set up:
// it calibrates where it was refused with ErrPin (as it still is where the
// user says collnet=false), its run is modelled with CollNet, and a note
// says so. A prediction that pins CollNet runs it; one
// that does not keeps the machine's collnet false; and on a machine whose
// tables ran no CollNet, the pinned prediction is still refused.
func TestCollNetFromPin(t *testing.T) {
	real := "../../data/nccltests/testdata/real/"
	pins := Pins{Algo: "CollNetChain,CollNetDirect", Proto: "Simple"}
	sharp, _, err := ReadFile(real+"b200_2x8_g8_allreduce_collnet_sharp_aicr_mghpcc.log", func(int) Pins { return pins })
	if err != nil || len(sharp) != 1 {
		t.Fatalf("%d tables, %v", len(sharp), err)
	}
	h, err := Describe(sharp[0].GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	h, notes := h.WithEvidence(sharp)
	if h.CollNet || !slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "leaves allreduce only CollNet") }) {
		t.Errorf("collnet %v, notes %q: want false and a note on the table's CollNet run", h.CollNet, notes)
	}
	m, err := Calibrate(h, sharp, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatalf("calibrating the CollNet run: %v", err)
	}
	// The user's -hw collnet=false outranks the pin: refused, as before.
	none, err := Describe(sharp[0].GPU, "collnet=false")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Calibrate(none, sharp, &Settings{NoIntervals: true}); !errors.Is(err, ErrPin) {
		t.Errorf("the CollNet run on a machine the user says has no CollNet: %v, want ErrPin", err)
	}
	sizes := []float64{64 << 20, 1 << 30}
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8, Algo: pins.Algo, Proto: pins.Proto}
	ps, err := m.Predict(q, sizes)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if !strings.HasPrefix(p.Algorithm, "CollNet") {
			t.Errorf("pinned to CollNet, %g B runs %s", p.Size, p.Algorithm)
		}
	}
	q.Algo, q.Proto = "", ""
	if ps, err = m.Predict(q, sizes); err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if strings.HasPrefix(p.Algorithm, "CollNet") {
			t.Errorf("unpinned, %g B runs %s on a machine of collnet false", p.Size, p.Algorithm)
		}
	}
	// Where no table ran CollNet, Beyond says the pinned prediction takes
	// it as set up; where one did, it does not.
	q.Algo = pins.Algo
	off, _, err := ReadFile(real+"b200_2x8_g8_allreduce_sharp_off_aicr_mghpcc.log", nil)
	if err != nil {
		t.Fatal(err)
	}
	mo, err := Calibrate(h, off, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m    *Machine
		want bool
	}{{mo, true}, {m, false}} {
		beyond, err := c.m.Beyond(q)
		if err != nil {
			t.Fatal(err)
		}
		if said := slices.ContainsFunc(beyond, func(b string) bool { return strings.Contains(b, "no table ran CollNet") }); said != c.want {
			t.Errorf("calibrated on %v: Beyond %q, want the CollNet sentence: %v", c.m.Tables, beyond, c.want)
		}
	}
}

// TestLegacyCollNetPin: before NCCL 2.14, NCCL_ALGO named one CollNet
// (ncclAlgoStr: Tree, Ring, CollNet, src/init.cc at v2.8.4-1 to
// v2.13.4-1): 2.8's a chain through the GPUs (ncclPatternCollTreeUp and
// Down), 2.9 to 2.13's the direct pattern; 2.14 names them CollNetChain
// and CollNetDirect. The model runs a table of those releases under the
// oldest tuner it follows, whose names lack CollNet: a 2.8 log's
// "NCCL_ALGO set by environment to CollNet" was refused by predict ("no
// algorithm ... available") and modelled on Tree and Ring by diagnose,
// beside a note that said CollNet (a red team); a 2.12 log's pin was
// dropped without a word (a review). Read as the later name, the table
// calibrates and its own query runs it; a query's own pin of both CollNets
// (-algo collnet), which pins the tables as well, runs CollNet too.
func TestLegacyCollNetPin(t *testing.T) {
	base := firstTable(t, "../../data/nccltests/testdata/real/h100_2x8_allreduce_default_doca_nccltests319.log")
	h, err := Describe(base.GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v          nccl.Version
		algo, want string
	}{
		{nccl.Version{Major: 2, Minor: 8, Patch: 4}, "CollNet", "CollNetChain"},
		{nccl.Version{Major: 2, Minor: 12, Patch: 12}, "CollNet", "CollNetDirect"},
		{nccl.Version{Major: 2, Minor: 8, Patch: 4}, "CollNetDirect,CollNetChain", ""},
	} {
		tab := base
		tab.Version, tab.Algo = c.v, c.algo
		m, err := Calibrate(h, []Table{tab}, nil)
		if err != nil {
			t.Fatalf("a %v table pinned to %s: %v", c.v, c.algo, err)
		}
		ps, err := m.Predict(tab.Query(), []float64{1 << 20, 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if c.want != "" && p.Algorithm != c.want || c.want == "" && !strings.HasPrefix(p.Algorithm, "CollNet") {
				t.Errorf("%v, %s: %g B on %s/%s; want %s", c.v, c.algo, p.Size, p.Algorithm, p.Protocol, cmp.Or(c.want, "CollNet"))
			}
		}
	}
	// An exclusion of the one CollNet of its release excludes both later
	// ones (a review: ^CollNet of 2.12 left CollNetChain to the model, and
	// tune wrote rules for both).
	for _, v := range []nccl.Version{{Major: 2, Minor: 8, Patch: 4}, {Major: 2, Minor: 12, Patch: 12}} {
		if got := nccl.AlgoListAt(v, nccl.Oldest, "^collnet,tree"); got != "^CollNetDirect,CollNetChain,tree" {
			t.Errorf("AlgoListAt(%v, %v, ^collnet,tree) = %q; want ^CollNetDirect,CollNetChain,tree", v, nccl.Oldest, got)
		}
	}
	// The tables' shared setting, which the pins line and tune's
	// exclusions read, is in the later names too.
	tab := base
	tab.Version, tab.Algo = nccl.Version{Major: 2, Minor: 12, Patch: 12}, "CollNet"
	if e := TablesEnv([]Table{tab}); e.Algo != "CollNetDirect" {
		t.Errorf("TablesEnv of a 2.12 CollNet table: %q, want CollNetDirect", e.Algo)
	}
	for _, v := range []nccl.Version{nccl.Oldest, {Major: 2, Minor: 14, Patch: 3}, {}} {
		if got := nccl.AlgoListAt(v, nccl.Oldest, "CollNet"); got != "CollNet" {
			t.Errorf("a list of %v: %q, want it as given", v, got)
		}
	}
}

// TestCollNetPinSource: on a Hardware built in code, CollNet false alone
// does not refuse a pin that leaves only CollNet; its source does, as
// ErrPin and Query.Algo say (red team D §6: the doc read as if collnet
// false refused it).
func TestCollNetPinSource(t *testing.T) {
	h, err := DefaultHardware("A100-SXM4-40GB")
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8, Algo: "CollNetDirect"}
	h.CollNet = false
	if ps, err := Uncalibrated(h).Predict(q, []float64{1 << 20}); err != nil || !strings.HasPrefix(ps[0].Algorithm, "CollNet") {
		t.Errorf("CollNet false, assumed: %v, %v; want a CollNet time", ps, err)
	}
	h.Sources.CollNet = SourceUser
	if _, err := Uncalibrated(h).Predict(q, []float64{1 << 20}); !errors.Is(err, ErrPin) {
		t.Errorf("CollNet false, the user's: %v; want ErrPin", err)
	}
}

// TestSwitchGatherBytes: AllGather and ReduceScatter on CollNetDirect
// (SHARP) or NVLS have no commmodel algorithm, yet a node's NICs still
// carry the other nodes' share of the buffer, (nodes−1)/nodes of it, and a
// GPU's links the whole of it: a call is no faster than either allows at
// the description's rates (a red team: 16 GiB in 46.6 µs on 256 nodes of
// 8 H100s with collnet=true, the same time as 1 MiB).
func TestSwitchGatherBytes(t *testing.T) {
	h, err := Describe("H100 SXM", "collnet=true,nics=8,nic-bw=400Gb/s")
	if err != nil {
		t.Fatal(err)
	}
	sizes := []float64{1 << 20, 1 << 30, 16 << 30}
	// NVLS runs AllGather and ReduceScatter across nodes from NCCL 2.27 on,
	// with CollNet set up (nccl.Model's skips).
	for _, c := range []commmodel.Collective{commmodel.AllGather, commmodel.ReduceScatter} {
		for _, run := range []struct {
			nodes      int
			algo, name string
		}{{2, "collnetdirect", "CollNetDirect"}, {256, "collnetdirect", "CollNetDirect"}, {2, "nvls", "NVLS"}, {256, "nvls", "NVLS"}} {
			nodes := run.nodes
			ps, err := Uncalibrated(h).Predict(Query{Collective: c, Ranks: 8 * nodes, PerNode: 8, Algo: run.algo}, sizes)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range ps {
				// The NICs' line rate and the GPU's NVLink egress at their
				// catalog rates (18 x 25 GB/s), the least time either allows.
				net := sizes[i] * float64(nodes-1) / float64(nodes) / (8 * 50e9)
				links := sizes[i] / (18 * 25e9)
				if least := max(net, links); p.Algorithm != run.name || p.Time < least {
					t.Errorf("%v on %d x 8 at %.0f B: %s %.3g s; want %s, at least %.3g s", c, nodes, sizes[i], p.Algorithm, p.Time, run.name, least)
				}
				if i > 0 && p.Time < 10*ps[i-1].Time {
					t.Errorf("%v on %d x 8: %.3g s at %.0f B, %.3g s at %.0f B; want the larger call's time to grow with its bytes", c, nodes, p.Time, sizes[i], ps[i-1].Time, sizes[i-1])
				}
			}
		}
	}
}
