package predict

import (
	"fmt"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// TestForHosts: an H100 SXM board of 4 is a mesh without NVLS (HGX H100
// 4-GPU: NV6 between each pair), unless the user or a capture said
// otherwise; boards of 8 and NVL72 domains keep their NVSwitch.
func TestForHosts(t *testing.T) {
	h, err := DefaultHardware("NVIDIA H100 80GB HBM3")
	if err != nil {
		t.Fatal(err)
	}
	if four := h.ForHosts(4); four.Fabric != FabricMesh || four.NVLS {
		t.Errorf("4 GPUs a host: %v, NVLS %v; want a mesh without NVLS", four.Fabric, four.NVLS)
	}
	if eight := h.ForHosts(8); eight.Fabric != FabricNVSwitch || !eight.NVLS {
		t.Errorf("8 GPUs a host: %v, NVLS %v; want NVSwitch with NVLS", eight.Fabric, eight.NVLS)
	}
	told, err := Describe("NVIDIA H100 80GB HBM3", "fabric=nvswitch")
	if err != nil {
		t.Fatal(err)
	}
	if four := told.ForHosts(4); four.Fabric != FabricNVSwitch || !four.NVLS {
		t.Errorf("fabric=nvswitch given: %v, NVLS %v; want it kept", four.Fabric, four.NVLS)
	}
	gb, err := DefaultHardware("NVIDIA GB200")
	if err != nil {
		t.Fatal(err)
	}
	if four := gb.ForHosts(4); four.Fabric != FabricNVSwitch || four.Domain != 72 {
		t.Errorf("GB200 hosts of 4 in an NVL72 domain: %v, domain %d; want NVSwitch", four.Fabric, four.Domain)
	}
}

// TestFacts: every fact of DefaultHardware names its source: the catalog
// for what nccl.ParseGPU's table gives, assumed for the fabric, NVLS and
// the NICs; a Describe key makes its fact the user's.
func TestFacts(t *testing.T) {
	h, err := Describe("NVIDIA H100 80GB HBM3", "nics=4,nic-bw=200Gb/s")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		value  string
		source Source
	}{
		"gpu":           {"H100 SXM", SourceCatalog},
		"nvlinks":       {"18", SourceCatalog},
		"fabric":        {"nvswitch", SourceAssumed},
		"nvls":          {"true", SourceAssumed},
		"nics_per_node": {"4", SourceUser},
		"nic_bw":        {"200 Gb/s", SourceUser},
	}
	for _, f := range h.Facts() {
		if w, ok := want[f.Name]; ok && (f.Value != w.value || f.Source != w.source) {
			t.Errorf("%s = %q from %s, want %q from %s", f.Name, f.Value, f.Source, w.value, w.source)
		}
		if f.Source == "" {
			t.Errorf("%s has no source", f.Name)
		}
	}
}

// TestGuesses: on 2 x 8 H100 with nothing said of the network, Ring
// AllReduce of 1 GiB is bound by the NICs (2(n-1)/n·S over each node's
// NICs), so halving their rate nearly doubles NCCL's uncalibrated time; a
// rate the user gives is no guess.
func TestGuesses(t *testing.T) {
	h, err := DefaultHardware("NVIDIA H100 80GB HBM3")
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8, Algo: "Ring"}
	gs, err := Guesses(h, nil, q, []float64{1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	var rate *Guess
	for i := range gs {
		if gs[i].Fact.Name == "nic_bw" {
			rate = &gs[i]
		}
	}
	if rate == nil || rate.Ratio < 1.5 || rate.Hint != "nic-bw=RATE (such as 200Gb/s)" {
		t.Fatalf("guesses %+v: want nic_bw, about 2x slower at half the rate", gs)
	}
	told, err := Describe("NVIDIA H100 80GB HBM3", "nic-bw=400Gb/s,nics=8")
	if err != nil {
		t.Fatal(err)
	}
	gs, err = Guesses(told, nil, q, []float64{1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		if g.Fact.Name == "nic_bw" || g.Fact.Name == "nics_per_node" {
			t.Errorf("%+v: the user gave it", g)
		}
	}
}

// TestGuessesHostFacts: across nodes, the NICs' PCIe path is a guess too.
// NCCL runs no LL128 across nodes where a NIC sits behind the CPU (PHB),
// so NCCL's model of a 2 x 8 H100 AllReduce of 1 MiB, Tree/LL128 with the
// assumed PIX, is more than 10% slower with PHB; the hint's value works in
// -hw. Within a node no run crosses the NICs, and neither the path nor the
// CPU is a guess.
func TestGuessesHostFacts(t *testing.T) {
	h, err := DefaultHardware("NVIDIA H100 80GB HBM3")
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	gs, err := Guesses(h, nil, q, []float64{1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	var path *Guess
	for i := range gs {
		if gs[i].Fact.Name == "nic_path" {
			path = &gs[i]
		}
	}
	if path == nil || path.Alternative != "PHB" || path.Ratio < 1+GuessMoves || path.Hint != "nic-path=PIX|PXB|PHB|SYS" {
		t.Fatalf("guesses %+v: want nic_path, slower with PHB, settled by nic-path=", gs)
	}
	told, err := Describe("NVIDIA H100 80GB HBM3", "nic-path=PHB")
	if err != nil || told.Sources.NICPath != SourceUser {
		t.Fatalf("the hint's nic-path=PHB: %v, source %q", err, told.Sources.NICPath)
	}
	gs, err = Guesses(h, nil, Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8}, []float64{1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		if g.Fact.Name == "nic_path" || g.Fact.Name == "cpu" {
			t.Errorf("%+v: a run within a node", g)
		}
	}
}

// TestWithEvidence takes the facts NCCL's debug lines state: from the H800
// log, 1 NIC ("NET/Socket : Using [0]enx785ee8a015a1:... [1]veth6f0b7dd:...",
// line 24, a container's veth left out) and NVLS ("NVLS multicast support is
// available on dev 4", line 42); a NIC count the user gave stands. The V100
// EFA log's "Forcing AWS OFI ndev 4" (line 20) counts emulated devices, not
// NICs, and leaves the count assumed.
func TestWithEvidence(t *testing.T) {
	read := func(path string) Table {
		t.Helper()
		tabs, _, err := ReadFile(path, nil)
		if err != nil || len(tabs) == 0 {
			t.Fatalf("%s: %d tables, %v", path, len(tabs), err)
		}
		return tabs[0]
	}
	h800 := read("../../data/nccltests/testdata/real/h800_1x8_broadcast_ncclinfo.log")
	h, err := DefaultHardware(h800.GPU)
	if err != nil {
		t.Fatal(err)
	}
	h.NVLS = false // as if assumed off
	got, notes := h.WithEvidence([]Table{h800})
	if !got.NVLS || got.Sources.NVLS != SourceNCCLDebug || got.Fabric != FabricNVSwitch || got.NICs != 1 || got.Sources.NICs != SourceNCCLDebug || len(notes) != 0 {
		t.Errorf("H800: NVLS %v from %q on %v, %d NICs from %q, notes %q; want NVLS on NVSwitch and 1 NIC, from nccl-debug",
			got.NVLS, got.Sources.NVLS, got.Fabric, got.NICs, got.Sources.NICs, notes)
	}
	told, err := Describe(h800.GPU, "nics=8")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := told.WithEvidence([]Table{h800}); got.NICs != 8 || got.Sources.NICs != SourceUser {
		t.Errorf("nics=8 given: %d NICs from %q, want the user's 8", got.NICs, got.Sources.NICs)
	}
	efa := read("../../data/nccltests/testdata/real/v100_efa_2x1_allreduce_pre2022.log")
	h, err = DefaultHardware(efa.GPU)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := h.WithEvidence([]Table{efa}); got.NICs != 0 || got.Sources.NICs == SourceNCCLDebug {
		t.Errorf("EFA: %d NICs from %q; want them still assumed", got.NICs, got.Sources.NICs)
	}
}

// A calibrated machine's nic_bw fact carries what the tables fit for it
// where they identify it: cluster01's 10 x 8 AllReduce and 2 x 8 tables
// (data/logs/paired) fix nic_bw, which Facts reports beside the assumed
// 400 Gb/s line rate as the parameter's value; NCCL's uncalibrated model
// fits nothing.
func TestMachineFactsFitted(t *testing.T) {
	dir := "../../data/logs/paired/h100-sxm-10node-cluster01/"
	var tables []Table
	for _, f := range []string{"nccl_N10_G8.log", "nccl_N2_G8_cnode3-002_cnode3-003.log", "nccl_N1_G8_cnode3-002.log"} {
		tabs, _, err := ReadFile(dir+f, nil)
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, tabs...)
	}
	h, err := Describe(tables[0].GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Calibrate(h, tables, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	p := m.Params[parNICBW]
	if !p.Identified {
		t.Fatalf("nic_bw not identified by %d tables across nodes", len(tables))
	}
	for _, f := range m.Facts() {
		switch {
		case f.Name == "nic_bw" && f.Fitted != formatBitRate(p.Value):
			t.Errorf("nic_bw fitted %q, want the parameter's %s", f.Fitted, formatBitRate(p.Value))
		case f.Name != "nic_bw" && f.Fitted != "":
			t.Errorf("%s fitted %q, want none", f.Name, f.Fitted)
		}
	}
	for _, f := range Uncalibrated(h).Facts() {
		if f.Fitted != "" {
			t.Errorf("uncalibrated: %s fitted %q", f.Name, f.Fitted)
		}
	}
}

// TestFitNICs: tables across nodes at 1, 2, 4 and 8 GPUs a node that the
// model timed on 2 NICs per node of 8 GPUs tell 2 NICs from the assumed
// one per GPU: with 8 the nodes of 4 and 8 GPUs would move 2x and 4x what
// they moved. Tables of 8 GPUs a node alone cannot tell them apart (the
// fitted nic_bw absorbs the count), nor can one table a shape, and a count
// the user gave stands.
func TestFitNICs(t *testing.T) {
	tr := truth(t)
	tr.Hardware.NICs = 2
	tr.refs = &references{hw: &tr.Hardware, m: map[runKey]*reference{}}
	var tables []Table
	for _, per := range []int{1, 2, 4, 8} {
		for _, c := range []commmodel.Collective{commmodel.AllReduce, commmodel.AllGather} {
			tab := Table{Name: fmt.Sprintf("%v-2x%d", c, per), GPU: tr.GPU, Collective: c, Nodes: 2, PerNode: per,
				Layout: Layout{GPUsPerThread: 1}, Version: tr.version}
			ps, err := tr.Predict(tab.Query(), []float64{1 << 20, 16 << 20, 256 << 20, 1 << 30})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				tab.Points = append(tab.Points, Point{Size: p.Size, Time: p.Time})
			}
			tables = append(tables, tab)
		}
	}
	assumed := h100(t)
	if assumed.Sources.NICs != "" && assumed.Sources.NICs != SourceAssumed {
		t.Fatalf("h100's NICs come from %s, want assumed", assumed.Sources.NICs)
	}
	got, note := assumed.FitNICs(tables)
	if got.NICs != 2 || got.Sources.NICs != SourceFitted || !strings.Contains(note, "nics_per_node = 2 is chosen by the held-out fit") || !strings.Contains(note, "-hw nics=N") {
		t.Errorf("FitNICs: %d NICs from %s, note %q; want 2, fitted", got.NICs, got.Sources.NICs, note)
	}
	t.Log(note)
	var eight []Table
	for _, tab := range tables {
		if tab.PerNode == 8 {
			eight = append(eight, tab)
		}
	}
	if got, note := assumed.FitNICs(eight); got.Sources.NICs == SourceFitted || note != "" {
		t.Errorf("from 8 GPUs a node alone: %d NICs from %s, note %q; want the assumption kept", got.NICs, got.Sources.NICs, note)
	}
	// A public pair of runs, 2 hosts of 1 L40S over sockets and 2 hosts of
	// 2 over RoCE (the log's source lines): one table a shape, whose
	// networks differ, chooses nothing.
	l40s, _, err := ReadFile("../../data/nccltests/testdata/real/l40s_2node_allreduce_openshift.log", nil)
	if err != nil || len(l40s) != 2 || l40s[0].PerNode == l40s[1].PerNode {
		t.Fatalf("L40S log: %d tables, %v; want two of 1 and 2 GPUs a node", len(l40s), err)
	}
	hl, err := Describe(l40s[0].GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	if got, note := hl.FitNICs(l40s); got.Sources.NICs == SourceFitted || note != "" {
		t.Errorf("L40S, one table a shape: %d NICs from %s, note %q; want the assumption kept", got.NICs, got.Sources.NICs, note)
	}
	given, err := Describe(tr.GPU, "nics=8")
	if err != nil {
		t.Fatal(err)
	}
	if got, note := given.FitNICs(tables); got.NICs != 8 || note != "" {
		t.Errorf("-hw nics=8: %d NICs, note %q; want the user's 8", got.NICs, note)
	}
}
