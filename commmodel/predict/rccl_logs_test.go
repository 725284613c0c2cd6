package predict

import (
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/topo"
)

// The two tables of prasad-nair-amd/aion's host of 8 GPUs printed as "AMD
// Radeon Graphics" (rccl-tests, RCCL 2.27.7, one process driving all 8).
const (
	radeonAllReduce = realDir + "radeon_1x8_g8_allreduce_aion.log"
	radeonAllToAll  = realDir + "radeon_1x8_g8_alltoall_aion.log"
)

// rccl2277 is the RCCL release both Radeon logs print (rccl-library=22707).
var rccl2277 = nccl.Version{Major: 2, Minor: 27, Patch: 7}

// radeonMachine calibrates the model on both Radeon tables, as a user who
// gives the logs and nothing else has it (FromTables).
func radeonMachine(t *testing.T) (*Machine, []Table) {
	t.Helper()
	tabs := []Table{firstTable(t, radeonAllReduce), firstTable(t, radeonAllToAll)}
	return newUserMachine(t, tabs), tabs
}

// newUserMachine calibrates the model on tabs as a user who gives their
// logs and nothing else has it: what Describe makes of their GPU's name,
// with what the tables say of the machine (FromTables).
func newUserMachine(t *testing.T, tabs []Table) *Machine {
	t.Helper()
	h, err := Describe(tabs[0].GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	h, _ = h.FromTables(tabs, 0)
	m, err := Calibrate(h, tabs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRCCLLibraryVersion: rccl-tests' header "rccl-headers=22803
// rccl-library=22707" gives RCCL 2.27.7 in NCCL's code, which the tables
// take as their NCCL release, so the calibration assumes no version.
func TestRCCLLibraryVersion(t *testing.T) {
	for _, f := range []string{radeonAllReduce, radeonAllToAll} {
		if tab := firstTable(t, f); tab.Version != (rccl2277) {
			t.Errorf("%s: version %v, want 2.27.7", f, tab.Version)
		}
	}
	m, _ := radeonMachine(t)
	if slices.ContainsFunc(m.Notes, func(n string) bool { return strings.Contains(n, "version unknown") }) {
		t.Errorf("notes %q; want no unknown version", m.Notes)
	}
	if m.Version() != (rccl2277) {
		t.Errorf("machine's version %v, want 2.27.7", m.Version())
	}
}

// TestUnreadVersion: a header whose library code reads as no release
// (nccl-library=2950, neither NCCL 2.8's four digits nor a later five)
// leaves the version unknown, and the note says which line printed what,
// with the pin that gives it; the same log as printed names no unknown
// version. The log is Voltage Park's one-node AllReduce (nccl-tests 2.17.9,
// nccl-library=22403 on line 5, no NCCL version line).
func TestUnreadVersion(t *testing.T) {
	const file = realDir + "h100_1x8_g8_allreduce_voltagepark.log"
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(raw), "nccl-library=22403", "nccl-library=2950", 1)
	if edited == string(raw) {
		t.Fatalf("%s: no nccl-library=22403", file)
	}
	for _, c := range []struct {
		log, want string
	}{
		{string(raw), ""},
		{edited, `vp.log#0: NCCL version unknown, as line 5's "2950" is no release (FILE:version=2.MINOR.PATCH gives it); NCCL ` + nccl.Latest.String() + "'s tuner is assumed"},
	} {
		tabs, _, err := ReadBytes([]byte(c.log), "vp.log", nil)
		if err != nil {
			t.Fatal(err)
		}
		m := newUserMachine(t, tabs[:1])
		i := slices.IndexFunc(m.Notes, func(n string) bool { return strings.Contains(n, "version unknown") })
		switch {
		case c.want == "" && i >= 0:
			t.Errorf("the log as printed: note %q, want no unknown version", m.Notes[i])
		case c.want != "" && (i < 0 || m.Notes[i] != c.want):
			t.Errorf("notes %q; want %q", m.Notes, c.want)
		}
	}
}

// TestRCCLAllToAllNoEnqueue: RCCL's AllToAll of one process driving 8 GPUs
// pays no host enqueue per send (p2pEnqueue), so the Radeon AllReduce alone
// (45.99 us at 4 B, its launch floor) predicts the AllToAll's flat floor of
// 38.24 to 48.55 us from 128 B to 8 MiB (the log's rows) within 20%, where
// NCCL's cost, 1 + 14·0.108 launches a GPU, would put it near 115 us. An
// AMD GPU of the catalog (gfx942) takes none either, only RCCL's own
// launches a call (8 + rcclLaunches), and an NVIDIA A100 of -g 8 keeps
// NCCL's.
func TestRCCLAllToAllNoEnqueue(t *testing.T) {
	ar, a2a := firstTable(t, radeonAllReduce), firstTable(t, radeonAllToAll)
	h, err := Describe(ar.GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	h, _ = h.FromTables([]Table{ar}, 0)
	m, err := Calibrate(h, []Table{ar}, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := m.predictTable(&a2a)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if pt := a2a.Points[i]; pt.Size <= 8<<20 && math.Abs(p.Time/pt.Time-1) > 0.2 {
			t.Errorf("AllToAll of %g B: %.4g us predicted, %.4g measured", pt.Size, p.Time*1e6, pt.Time*1e6)
		}
	}
	for _, c := range []struct {
		gpu      string
		launches float64
	}{
		{"AMD Instinct MI300X", 8 + rcclLaunches},
		{"A100-SXM4-40GB", 8 * (1 + 14*p2pEnqueue)},
	} {
		hw, err := Describe(c.gpu, "")
		if err != nil {
			t.Fatal(err)
		}
		u := &Machine{Hardware: hw, refs: &references{hw: &hw, m: map[runKey]*reference{}}}
		rn, err := u.run(Query{Collective: commmodel.AllToAll, Ranks: 8, PerNode: 8, Layout: Layout{GPUsPerThread: 8}})
		if err != nil {
			t.Fatal(err)
		}
		tm, err := u.refs.termOf(rn, 128)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(tm.launches-c.launches) > 1e-9 {
			t.Errorf("%s: AllToAll of -g 8 costs %g launches, want %g", c.gpu, tm.launches, c.launches)
		}
	}
}

// TestAssumedPCIeBoundsNothing: Azure's NC96 A100 v4 VM joins its 4 A100
// PCIe cards in NVLink-bridged pairs (its nvidia-smi topo -m: NV12 within a
// pair, topo/testdata/real), which the GPU's name does not say: the fabric
// is an assumed PCIe. Its AllReduce moves 30.99 GB/s of bus bandwidth at 1
// GiB, above the PCIe Gen4 figure of 24 GB/s, which then bounds nothing: the
// table with NCCL's topology file calibrates alone and predicts the table
// without it (the same host, 30.80 GB/s) within 3% at 1 GiB, the first note
// naming the links beyond PCIe and -topo. Given as PCIe (-hw fabric=pcie),
// the rate bounds intra_bw again, and the prediction is 20% slow or more.
// The VM's capture (topo/testdata/real), whose pairs' NVLinks make no
// uniform fabric, gives PCIe with the bridges: unbounded, and no note.
func TestAssumedPCIeBoundsNothing(t *testing.T) {
	read := func(f string) Table {
		tabs, _, err := ReadFile(realDir+f, func(int) Pins {
			return Pins{Nodes: 1, PerNode: 4, GPU: "NVIDIA A100 80GB PCIe"}
		})
		if err != nil || len(tabs) != 1 {
			t.Fatalf("%s: %d tables, %v", f, len(tabs), err)
		}
		return tabs[0]
	}
	cal, held := read("a100_1x4_allreduce_topofile_azure_ncv4.log"), read("a100_1x4_allreduce_graphfile_azure_ncv4.log")
	var at Point
	for _, p := range held.Points {
		if p.Size == 1<<30 {
			at = p
		}
	}
	capture, _, err := topo.ParseFile("../../topo/testdata/real/a100_80g_azure_nc96_4gpu_nv12_pairs_blog.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec     string
		topo     bool
		near     bool
		firstHas string
	}{{"", false, true, "-topo FILE"}, {"fabric=pcie", false, false, ""}, {"", true, true, ""}} {
		h, err := Describe(cal.GPU, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if c.topo {
			h.SetTopology(capture)
			if h.Fabric != FabricPCIe || h.Sources.Fabric != SourceTopo {
				t.Fatalf("the capture: fabric %v from %q; want pcie from it", h.Fabric, h.Sources.Fabric)
			}
		}
		m, err := Calibrate(h, []Table{cal}, &Settings{NoIntervals: true})
		if err != nil {
			t.Fatal(err)
		}
		ps, err := m.Predict(held.Query(), []float64{at.Size})
		if err != nil {
			t.Fatal(err)
		}
		r := ps[0].Time / at.Time
		if near := math.Abs(r-1) < 0.03; near != c.near || !c.near && r < 1.2 {
			t.Errorf("-hw %q: %v at 1 GiB, %.3f of the measured %g s; want within 3%% %v (else 1.2 or more)", c.spec, ps[0], r, at.Time, c.near)
		}
		if has := len(m.Notes) > 0 && strings.Contains(m.Notes[0], "more than PCIe"); has != (c.firstHas != "") || has && !strings.Contains(m.Notes[0], c.firstHas) {
			t.Errorf("-hw %q: notes %q; want the links beyond PCIe first, naming %q: %v", c.spec, m.Notes, c.firstHas, c.firstHas != "")
		}
	}
}

// TestBeyondPCIe: the Radeon tables, whose GPU the catalog lacks and whose
// fabric is assumed PCIe, move 322.36 GB/s of bus bandwidth at 1 GiB
// (AllReduce) where PCIe Gen5 carries 48 GB/s: the first note says so and
// describes an Infinity Fabric host of 7 links a GPU (the Rank lines' 8
// GPUs), which Describe takes, at the rate that gives back the fitted
// intra_bw. Without the logs' RCCL lines the GPU's name makes it AMD's, and
// a name of no brand gets a note that names NVLink or, on an AMD Instinct
// host, Infinity Fabric, and -gpu with an AMD name (red team 36: it named
// NVLink alone); a GPU whose fabric the catalog gives (MI300X)
// gets no such note.
func TestBeyondPCIe(t *testing.T) {
	m, tabs := radeonMachine(t)
	if len(m.Notes) == 0 || !strings.Contains(m.Notes[0], "more than PCIe") {
		t.Fatalf("notes %q; want the fit beyond PCIe first", m.Notes)
	}
	hint := regexp.MustCompile(`-hw (\S+)`).FindStringSubmatch(m.Notes[0])
	if hint == nil || !strings.HasPrefix(hint[1], "fabric=infinity,links=7,link-bw=") {
		t.Fatalf("note %q; want -hw fabric=infinity,links=7,link-bw=RATE", m.Notes[0])
	}
	h, err := Describe(tabs[0].GPU, hint[1])
	if err != nil {
		t.Fatalf("%s: %v", hint[1], err)
	}
	told := &Machine{Hardware: h, refs: &references{hw: &h, m: map[runKey]*reference{}}}
	if fit, prior := m.Params[parIntraBW].Value, told.intraPrior(); h.Fabric != FabricInfinity || math.Abs(prior/fit-1) > 0.02 {
		t.Errorf("-hw %s: fabric %v, intra_bw prior %.4g B/s; want infinity, the fitted %.4g", hint[1], h.Fabric, prior, fit)
	}

	// Without the RCCL lines, the GPU's name ("AMD Radeon Graphics") still
	// makes it AMD's (nccl.UnknownGPU); a name of no brand leaves NVLink
	// or Infinity Fabric open.
	for name, want := range map[string]string{
		tabs[0].GPU:         "; its name is AMD's, so it is an AMD GPU, whose Infinity Fabric links each GPU to the others: describe it with -hw fabric=infinity,links=7,",
		"Accelerator 9000X": "by NVLink or, on an AMD Instinct host, Infinity Fabric: name the GPU with -gpu NAME if the catalog holds it (-gpu \"AMD Instinct MI300X\")",
	} {
		plain := slices.Clone(tabs)
		for i := range plain {
			plain[i].Evidence.RCCL = nccltests.Fact[bool]{}
			plain[i].GPU = name
		}
		hp, err := Describe(name, "")
		if err != nil {
			t.Fatal(err)
		}
		hp, _ = hp.FromTables(plain, 0)
		mp, err := Calibrate(hp, plain, &Settings{NoIntervals: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(mp.Notes) == 0 || !strings.Contains(mp.Notes[0], want) {
			t.Errorf("%s without RCCL lines: notes %q; want %q first", name, mp.Notes, want)
		}
	}

	mi := firstTable(t, realDir+"mi300x_1x8_allreduce_rocmblogs.log")
	hm, err := Describe(mi.GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	mm, err := Calibrate(hm, []Table{mi}, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(mm.Notes, func(n string) bool { return strings.Contains(n, "more than PCIe") }) {
		t.Errorf("MI300X: notes %q; want none of PCIe", mm.Notes)
	}
}
