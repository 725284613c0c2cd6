package predict

import (
	"errors"
	"fmt"
	"gonum.org/v1/gonum/floats/scalar"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/units"
)

// h100 is an 8-GPU H100 host with eight 400 Gb/s NICs.
func h100(t testing.TB) Hardware {
	t.Helper()
	h, err := DefaultHardware("NVIDIA H100 80GB HBM3")
	if err != nil {
		t.Fatal(err)
	}
	h.NICs = 8
	return h
}

// TestDefaultHardware checks the hardware inferred from GPU names against
// the GPU table of commmodel/nccl and the reference systems of nicRates.
func TestDefaultHardware(t *testing.T) {
	cases := []struct {
		name           string
		nvswitch, nvls bool
		nicBW          float64
		domain         int
	}{
		{"NVIDIA H100 80GB HBM3", true, true, 50e9, 0},
		{"NVIDIA A100-SXM4-40GB", true, false, 25e9, 0},
		{"Tesla V100-SXM2-16GB", false, false, 12.5e9, 0}, // the SXM2 boards' cube-mesh (DGX-1), no NVSwitch
		{"NVIDIA GB300", true, true, 50e9, 72},            // 400 Gb/s, its ConnectX-8's 800 tried as a guess
		{"NVIDIA B200", true, true, 50e9, 0},
		{"NVIDIA L40S", false, false, 25e9, 0},
		{"NVIDIA GH200 120GB", false, false, 25e9, 0}, // a mesh of up to 4 superchips (HPE EX254n, NVL2), 200 Gb/s NICs
	}
	for _, c := range cases {
		h, err := DefaultHardware(c.name)
		if err != nil || (h.Fabric == FabricNVSwitch) != c.nvswitch || h.NVLS != c.nvls || h.NICBW != c.nicBW || h.Domain != c.domain {
			t.Errorf("DefaultHardware(%q) = %+v, %v; want NVSwitch %v NVLS %v NIC %g domain %d", c.name, h, err, c.nvswitch, c.nvls, c.nicBW, c.domain)
		}
	}
	// MI250X: the HPE EX235a of its public clusters (presets'
	// hpe-ex235a-mi250x), 4 modules of 2 GCDs and a Slingshot NIC of 200
	// Gb/s each, an AMD EPYC; the host is the catalog's, the NICs and the
	// CPU assumed.
	h, err := DefaultHardware("AMD Instinct MI250X")
	if err != nil || h.hostGPUs != 8 || h.Sources.HostGPUs != SourceCatalog || h.NICs != 4 || h.NICBW != 25e9 || h.given(h.Sources.NICs) || h.given(h.Sources.NICBW) ||
		h.CPU.Vendor != nccl.AMD || h.given(h.Sources.CPU) {
		t.Errorf("DefaultHardware(MI250X) = %+v, %v; want 8 GPUs a host (catalog), 4 NICs of 25 GB/s and an AMD CPU (assumed)", h, err)
	}
	if _, err := DefaultHardware("NVIDIA RTX 6000D"); !errors.Is(err, nccl.ErrUnknownGPU) {
		t.Errorf("NVIDIA RTX 6000D: err = %v, want ErrUnknownGPU", err)
	}
}

// TestShapeOf checks the grouping of hosts into NVLink domains: the GB300
// log's 1, 2 and 16 hosts of 4 GPUs are one rack (one domain of 72), 32
// hosts two racks (data/logs/paired/README.md).
func TestShapeOf(t *testing.T) {
	h := Hardware{Domain: 72}
	for _, c := range []struct{ hosts, nodes, per int }{{1, 1, 4}, {2, 1, 8}, {16, 1, 64}, {32, 2, 64}} {
		s, err := h.shapeOf(c.hosts, 4)
		if err != nil || s.nodes != c.nodes || s.per != c.per || s.hosts*c.nodes != c.hosts {
			t.Errorf("%d hosts of 4: %+v, %v; want %d nodes of %d", c.hosts, s, err, c.nodes, c.per)
		}
	}
	if _, err := h.shapeOf(19, 4); !errors.Is(err, ErrShape) { // 76 GPUs: 2 domains of 38 would split a host
		t.Errorf("19 hosts: err = %v, want ErrShape", err)
	}
}

// TestReferenceSplit checks that NCCL's latency splits into the parts the
// calibration scales: the base, NVLink and network parts never add up to
// more than NCCL's latency (the rest, the network overhead, is not
// negative), and on one node, where NCCL charges no network overhead, they
// add up to it exactly.
func TestReferenceSplit(t *testing.T) {
	a100, _ := DefaultHardware("NVIDIA A100-SXM4-80GB")
	a100.NICs = 4
	h := h100(t)
	cases := []struct {
		hw          Hardware
		nodes, per  int
		version     nccl.Version
		oneNodeOnly bool
	}{
		{h, 1, 8, nccl.Version{Major: 2, Minor: 26, Patch: 2}, true},
		{h, 2, 8, nccl.Latest, false},
		{h, 10, 1, nccl.Version{Major: 2, Minor: 29, Patch: 2}, false}, // PAT and its per-rank term
		{a100, 4, 8, nccl.Oldest, false},
	}
	for _, c := range cases {
		ref, err := newReference(&c.hw, &run{shape: shape{c.nodes, c.per, 1}, version: c.version}, false)
		if err != nil {
			t.Fatal(err)
		}
		for f := range nccl.Func(nccl.NumFuncs) {
			for a := range nccl.Algo(nccl.NumAlgos) {
				for p := range nccl.Protocol(nccl.NumProtocols) {
					if !ref.full.Available(f, a, p) {
						continue
					}
					full := ref.full.Latency(f, a, p)
					b, i, n := ref.latency(f, a, p)
					l0 := ref.parts[3].Latency(f, a, p)
					raw := ref.parts[0].Latency(f, a, p) + ref.parts[1].Latency(f, a, p) + ref.parts[2].Latency(f, a, p) - 2*l0
					if raw > full*(1+1e-12) || c.oneNodeOnly && !scalar.EqualWithinAbs(raw, full, 1e-12*full) {
						t.Errorf("%dx%d %v %v/%v/%v: parts add to %g s, NCCL's latency is %g s", c.nodes, c.per, c.version, f, a, p, raw, full)
					}
					if !scalar.EqualWithinAbs(b+i+n, full, 1e-12*full) || b < 0 || i < 0 || n < 0 {
						t.Errorf("%dx%d %v/%v/%v: split %g + %g + %g != %g", c.nodes, c.per, f, a, p, b, i, n, full)
					}
				}
			}
		}
	}
}

// syntheticTables are tables of the shapes a calibration needs, timed by
// machine m itself: one process per GPU except the one-node AllGather
// (-g 8, which identifies the launch floor).
func syntheticTables(t testing.TB, m *Machine) []Table {
	t.Helper()
	shapes := []struct {
		c          commmodel.Collective
		nodes, per int
		thread     int
	}{
		{commmodel.AllReduce, 1, 8, 1},
		{commmodel.AllReduce, 1, 4, 1},
		{commmodel.AllReduce, 2, 8, 1},
		{commmodel.AllReduce, 4, 8, 1},
		{commmodel.AllGather, 1, 8, 8},
		{commmodel.ReduceScatter, 2, 8, 1},
		{commmodel.Broadcast, 4, 8, 1},
	}
	var sizes []float64
	for s := 8.0; s <= 1<<30; s *= 4 {
		sizes = append(sizes, s)
	}
	var out []Table
	for _, s := range shapes {
		out = append(out, timedTable(t, m, s.c.String()+"-"+string(rune('0'+s.nodes))+"x"+string(rune('0'+s.per)),
			s.c, s.nodes, s.per, s.thread, sizes))
	}
	return out
}

// timedTable returns a table of c on nodes x perNode GPUs (perThread a
// thread) that m times at sizes.
func timedTable(t testing.TB, m *Machine, name string, c commmodel.Collective, nodes, perNode, perThread int, sizes []float64) Table {
	t.Helper()
	tab := Table{Name: name, GPU: m.GPU, Collective: c, Nodes: nodes, PerNode: perNode,
		Layout: Layout{GPUsPerThread: perThread}, Version: m.version}
	ps, err := m.Predict(tab.Query(), sizes)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		tab.Points = append(tab.Points, Point{Size: p.Size, Time: p.Time})
	}
	return tab
}

// truth is a machine whose parameters are the priors times the factors
// given (chosen away from 1 so that recovering them means something).
func truth(t testing.TB) *Machine {
	t.Helper()
	h := h100(t)
	m := &Machine{GPU: "NVIDIA H100 80GB HBM3", Hardware: h, version: nccl.Version{Major: 2, Minor: 26, Patch: 2},
		refs: &references{hw: &h, m: map[runKey]*reference{}}}
	m.x = m.prior()
	for k, f := range [numParams]float64{1.4, 1.3, 1.5, 0.8, 0.8, 0.9, 0.7, 0.95, 0.9, 0.95, 0.6, 1, 1.6, 0.85} {
		m.x[k] *= f
	}
	return m
}

// TestCalibrateRecovers calibrates on tables the model itself timed and
// checks that every parameter the tables use comes back and is identified,
// and that the interval holds the truth. The
// noise scale is set to 0.1% (exact data): at the default 10% the prior
// keeps its pull on the parameters that only a few latency-bound points
// inform (LL's and Tree's efficiencies move 5% towards their priors).
func TestCalibrateRecovers(t *testing.T) {
	want := truth(t)
	tables := syntheticTables(t, want)
	m, err := Calibrate(want.Hardware, tables, &Settings{Noise: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range m.Params {
		if k == parFabric {
			continue // no group is described: TestCalibrateFabric
		}
		if k == parPeer || k == parChannel {
			continue // no table runs grouped sends across nodes: TestAllToAllPeersInterval, TestSendRecvChannels
		}
		if !p.Used {
			t.Errorf("%s: not used by the synthetic tables", p.Name)
			continue
		}
		if !p.Identified {
			t.Errorf("%s: not identified (sd %.3f)", p.Name, p.SD)
		}
		if r := m.x[k] / want.x[k]; !scalar.EqualWithinAbs(r, 1, 0.01) {
			t.Errorf("%s = %g, want %g (ratio %.4f)", p.Name, m.x[k], want.x[k], r)
		}
	}
	if m.Residual > 0.002 {
		t.Errorf("median calibration error %.4f on exact data", m.Residual)
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	ps, err := m.Predict(q, []float64{1 << 10, 1 << 20, 1 << 28})
	if err != nil {
		t.Fatal(err)
	}
	ws, _ := want.Predict(q, []float64{1 << 10, 1 << 20, 1 << 28})
	// One table alone calibrates too; with every table, whose held-out
	// errors are all near 0, the interval is narrower than with one.
	one, err := Calibrate(want.Hardware, tables[:1], &Settings{Noise: 1e-3})
	if err != nil {
		t.Fatalf("one table: %v", err)
	}
	ones, err := one.Predict(q, []float64{1 << 10, 1 << 20, 1 << 28})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if !scalar.EqualWithinAbs(p.Time, ws[i].Time, 0.01*ws[i].Time) || !(p.Low < ws[i].Time && ws[i].Time < p.High) {
			t.Errorf("%g B: %+v, true time %g", p.Size, p, ws[i].Time)
		}
		if o := ones[i]; !(o.High/o.Low > p.High/p.Low) {
			t.Errorf("%g B: one table's interval [%g, %g] is not wider than all %d tables' [%g, %g]",
				p.Size, o.Low, o.High, len(tables), p.Low, p.High)
		}
	}
}

// TestCalibrateErrors checks the errors a caller meets: tables of two
// machines (named with their GPUs), no table, and a point that is not a
// measurement; fewer points than parameters calibrate.
func TestCalibrateErrors(t *testing.T) {
	m := truth(t)
	tables := syntheticTables(t, m)
	mixed := append([]Table(nil), tables...)
	mixed[3].GPU = "NVIDIA A100-SXM4-80GB"
	_, err := Calibrate(m.Hardware, mixed, nil)
	if !errors.Is(err, ErrMixedMachines) || !strings.Contains(err.Error(), tables[3].Name+`: "NVIDIA A100-SXM4-80GB"`) ||
		!strings.Contains(err.Error(), tables[0].Name+`: "NVIDIA H100 80GB HBM3"`) {
		t.Errorf("mixed machines: %v", err)
	}
	if _, err := Calibrate(m.Hardware, nil, nil); !errors.Is(err, ErrTooFew) {
		t.Errorf("no table: %v, want ErrTooFew", err)
	}
	// Two points calibrate: the priors hold the rest, unidentified, and
	// the interval stays finite.
	few := []Table{tables[0], tables[2]}
	few[0].Points, few[1].Points = few[0].Points[:1], few[1].Points[:1]
	fm, err := Calibrate(m.Hardware, few, nil)
	if err != nil {
		t.Fatalf("two points: %v", err)
	}
	identified := 0
	for _, p := range fm.Params {
		if p.Identified {
			identified++
		}
	}
	if identified > 2 {
		t.Errorf("two points identify %d parameters, want at most 2", identified)
	}
	if p, err := fm.Predict(tables[0].Query(), []float64{1 << 20}); err != nil || !(p[0].Low > 0 && p[0].High < math.Inf(1) && p[0].Low < p[0].High) {
		t.Errorf("two points: prediction %v, %v; want a finite interval", p, err)
	}
	bad := append([]Table(nil), tables...)
	bad[1].Points = append([]Point{{Size: 8, Time: math.NaN()}}, bad[1].Points...)
	if _, err := Calibrate(m.Hardware, bad, nil); !errors.Is(err, ErrBadTable) || !strings.Contains(err.Error(), bad[1].Name) {
		t.Errorf("NaN time: %v, want ErrBadTable naming %s", err, bad[1].Name)
	}
	// The bounds of a log's rows (nccltests.MinTime, MaxTime,
	// units.MaxSize) hold in code too: a point of 1 ps, a billion times a
	// sound one's speed, stretched every interval (red team: the 1 GiB
	// interval's top from 14.5 ms to 201 ms).
	for _, p := range []Point{{Size: 8, Time: 1e-12}, {Size: 8, Time: 5e-6, InPlace: 1e-12}, {Size: 8, Time: 2e6}, {Size: 1 << 62, Time: 1}} {
		bad := append([]Table(nil), tables...)
		bad[1].Points = append([]Point{p}, bad[1].Points...)
		if _, err := Calibrate(m.Hardware, bad, nil); !errors.Is(err, ErrBadTable) || !strings.Contains(err.Error(), bad[1].Name) {
			t.Errorf("point %+v: %v, want ErrBadTable naming %s", p, err, bad[1].Name)
		}
	}
	// A table's layout is held to a query's (red team 28): -3 GPUs per
	// thread, and 3 GPUs per thread on nodes of 8, were calibrated on.
	for _, l := range []Layout{{GPUsPerThread: -3}, {GPUsPerThread: 3}} {
		bad := append([]Table(nil), tables...)
		bad[2].Layout = l
		if _, err := Calibrate(m.Hardware, bad, nil); !errors.Is(err, ErrBadTable) || !strings.Contains(err.Error(), bad[2].Name) {
			t.Errorf("%+v on %d GPUs a node: %v, want ErrBadTable naming %s", l, bad[2].PerNode, err, bad[2].Name)
		}
	}
}

// TestPredictErrors checks Predict's refusals.
func TestPredictErrors(t *testing.T) {
	m := truth(t)
	if _, err := m.Predict(Query{Collective: commmodel.AllReduce, Ranks: 12, PerNode: 8}, []float64{1 << 20}); !errors.Is(err, ErrShape) {
		t.Errorf("12 ranks of 8 per node: %v, want ErrShape", err)
	}
	if _, err := m.Predict(Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8}, []float64{0}); err == nil {
		t.Error("size 0: no error")
	}
	if _, err := m.Predict(Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8, Algo: "Bogus"}, []float64{1}); err == nil {
		t.Error("NCCL_ALGO=Bogus (an error from NCCL 2.24 on): no error")
	}
	if _, err := Reference(m.Hardware, Query{Collective: commmodel.AllToAll, Ranks: 8, PerNode: 8}, []float64{1}); err == nil {
		t.Error("Reference of AllToAll: no error")
	}
}

// TestPredictChoice checks that Predict reports the tuner's choice, and a
// pin where one is given, on one H100 node: Ring/LL up to 1 MiB and
// NVLS/Simple from 2 MiB (what NVIDIA/nccl-tests #309 reports, as
// commmodel/nccl's tests check), Ring with NCCL_ALGO=Ring.
func TestPredictChoice(t *testing.T) {
	m := truth(t)
	ps, err := m.Predict(Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8}, []float64{1 << 20, 2 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if got := ps[0].Algorithm + "/" + ps[0].Protocol + " " + ps[1].Algorithm + "/" + ps[1].Protocol; got != "Ring/LL NVLS/Simple" {
		t.Errorf("1 and 2 MiB: %s, want Ring/LL NVLS/Simple", got)
	}
	ps, _ = m.Predict(Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8, Algo: "Ring"}, []float64{2 << 20})
	if ps[0].Algorithm != "Ring" {
		t.Errorf("NCCL_ALGO=Ring at 2 MiB: %s", ps[0].Algorithm)
	}
}

// TestPredictBound checks Prediction.Bound against the largest of the
// term's four parts, and its answers at the extremes of truth's machine:
// one thread launching 8 GPUs (eight launches of 3.1 µs × 1.4, 35 µs, by
// truth's factors) bounds a 1 KiB AllGather on one node; one process per
// GPU leaves the latency (NCCL's Ring/LL base latency of 6.6 µs × 1.3,
// 8.6 µs, alone exceeds one launch); 16 GiB on one node is NVLink's,
// and on four nodes of one GPU, which have no NVLink to cross, the
// network's; Ring/LL128 at 32 MiB on 2 x 8 runs 16 channels, each of
// which carries a node's network bytes over 16 at channel_bw (truth's
// 0.85 × 14 GB/s, 190 GB/s in all), below its 8 NICs (8 × 45 GB/s): the
// channels'.
func TestPredictBound(t *testing.T) {
	m := truth(t)
	for _, c := range []struct {
		name string
		q    Query
		size float64
		want string
	}{
		{"launch", Query{Collective: commmodel.AllGather, Ranks: 8, PerNode: 8, Layout: Layout{GPUsPerThread: 8}}, 1 << 10, TermLaunch},
		{"latency", Query{Collective: commmodel.AllGather, Ranks: 8, PerNode: 8}, 1 << 10, TermLatency},
		{"links", Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8}, 16 << 30, TermLinks},
		{"network", Query{Collective: commmodel.AllReduce, Ranks: 4, PerNode: 1}, 16 << 30, TermNetwork},
		{"channels", Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8, Algo: "Ring"}, 32 << 20, TermChannels},
	} {
		t.Run(c.name, func(t *testing.T) {
			ps, err := m.Predict(c.q, []float64{c.size})
			if err != nil {
				t.Fatal(err)
			}
			rn, err := m.run(c.q)
			if err != nil {
				t.Fatal(err)
			}
			tm, err := m.refs.termOf(rn, c.size)
			if err != nil {
				t.Fatal(err)
			}
			launch, latency, nvlink, network := tm.parts(&m.x)
			if ps[0].Bound != c.want {
				t.Errorf("bound %q, want %q (launch %.3g s, latency %.3g, NVLink %.3g, network %.3g)",
					ps[0].Bound, c.want, launch, latency, nvlink, network)
			}
			largest := map[string]float64{TermLaunch: launch, TermLatency: latency, TermLinks: nvlink, TermNetwork: network, TermChannels: network}[ps[0].Bound]
			if largest < max(launch, latency, nvlink, network) {
				t.Errorf("bound %q is %.3g s, not the largest part (launch %.3g, latency %.3g, NVLink %.3g, network %.3g)",
					ps[0].Bound, largest, launch, latency, nvlink, network)
			}
			if nics, channel := tm.netTimes(&m.x); (ps[0].Bound == TermChannels) != (channel > nics) {
				t.Errorf("bound %q with the network's time %.3g s over the NICs and %.3g over a channel", ps[0].Bound, nics, channel)
			}
		})
	}
}

// TestCalibrateFabric calibrates on AllToAll and AllReduce tables of 1 to
// 32 nodes that the model timed on a network of 2:1 leaves of 4 hosts,
// with its oversubscription's prior at 1 (not described): the tables across
// leaves identify it, and the prediction at 64 nodes follows. AllToAll
// sends (N-4)/(N-1) of its network bytes off a leaf (commmodel's
// Stage.Leaving), which binds from 8 nodes on (4/7 x 2 > 1); the ring of
// AllReduce sends a quarter, which never does.
func TestCalibrateFabric(t *testing.T) {
	h := h100(t)
	h.Group = 4
	want := &Machine{GPU: "NVIDIA H100 80GB HBM3", Hardware: h, version: nccl.Version{Major: 2, Minor: 26, Patch: 2},
		refs: &references{hw: &h, m: map[runKey]*reference{}}}
	want.x = want.prior()
	want.x[parFabric] = 2
	var sizes []float64
	for s := 1024.0; s <= 1<<30; s *= 4 {
		sizes = append(sizes, s)
	}
	var tables []Table
	for _, c := range []commmodel.Collective{commmodel.AllToAll, commmodel.AllReduce} {
		for _, nodes := range []int{1, 2, 4, 8, 16, 32} {
			tab := Table{Name: fmt.Sprintf("%v-%dx8", c, nodes), GPU: want.GPU, Collective: c, Nodes: nodes, PerNode: 8,
				Layout: Layout{GPUsPerThread: 1}, Version: want.version}
			ps, err := want.Predict(tab.Query(), sizes)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				tab.Points = append(tab.Points, Point{Size: p.Size, Time: p.Time})
			}
			tables = append(tables, tab)
		}
	}
	h.Oversubscription = 0 // the calibration does not know it
	m, err := Calibrate(h, tables, &Settings{Noise: 1e-3, NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	p := m.Params[parFabric]
	if !p.Used || !p.Identified || !scalar.EqualWithinAbs(p.Value, 2, 0.01*2) || p.Prior != 1 {
		t.Errorf("fabric_oversubscription %+v, want 2 identified from a prior of 1", p)
	}
	q := Query{Collective: commmodel.AllToAll, Ranks: 512, PerNode: 8}
	got, err := m.Predict(q, []float64{1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	truth, _ := want.Predict(q, []float64{1 << 30})
	if !scalar.EqualWithinAbs(got[0].Time, truth[0].Time, 0.01*truth[0].Time) {
		t.Errorf("AllToAll of 1 GiB on 64 x 8: %g s, true %g s", got[0].Time, truth[0].Time)
	}
	h.Group = 0
	flat, err := Calibrate(h, tables, &Settings{Noise: 1e-3, NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	if fp, _ := flat.Predict(q, []float64{1 << 30}); !(fp[0].Time < 0.8*truth[0].Time) {
		t.Errorf("without groups the model cannot see the fabric: %g s against %g s", fp[0].Time, truth[0].Time)
	}
}

// TestImplausible: a calibration whose LL128 efficiency the tables push
// to its bound (120 data bytes in 128 at the links' rate) says so, and
// so does one whose intra_bw they push from its prior, NCCL's figure, to
// the NVLinks' rate; intra_bw between the two is plausible, and so is a
// bound the tables would pass by less than the smooth maximum of two equal
// terms adds (4.4%).
func TestImplausible(t *testing.T) {
	m := truth(t)
	x0 := m.prior()
	u := m.upper(x0)
	m.x[parLL128], m.held[parLL128] = u[parLL128], true
	m.free[parLL128] = 1.04 * u[parLL128]
	var none [numParams]bool
	for k := range none {
		none[k] = true
	}
	if notes := m.implausible(none); len(notes) != 0 {
		t.Errorf("ll128_efficiency 4%% beyond its bound: %q; want no note", notes)
	}
	m.free[parLL128] = 1.1 * u[parLL128]
	var used [numParams]bool
	for k := range used {
		used[k] = true
	}
	notes := m.implausible(used)
	if len(notes) != 1 || !strings.Contains(notes[0], "ll128_efficiency is held at its bound") {
		t.Errorf("%q", notes)
	}
	m.x[parLL128], m.held[parLL128] = 0.9, false
	links := m.Hardware.intraBW()
	if !(x0[parIntraBW] < 0.95*links) {
		t.Fatalf("intra_bw prior %g, links %g: want NCCL's figure below the links' rate", x0[parIntraBW], links)
	}
	m.x[parIntraBW] = 0.95 * links
	if notes := m.implausible(used); len(notes) != 0 {
		t.Errorf("intra_bw at 0.95 of the links' rate: %q", notes)
	}
	m.x[parIntraBW], m.held[parIntraBW], m.free[parIntraBW] = links, true, 1.1*links
	if notes := m.implausible(used); len(notes) != 1 || !strings.Contains(notes[0], "intra_bw") {
		t.Errorf("intra_bw at the links' rate: %q", notes)
	}
}

// TestVersionOutside: tables of NCCL releases the tuner model does not
// follow calibrate with the nearest it does, and say so: 2.31.2, newer
// than 2.30.x, with Latest; 2.12.12, between 2.8 and 2.18, with Oldest.
func TestVersionOutside(t *testing.T) {
	m := truth(t)
	for _, c := range []struct {
		v, want nccl.Version
	}{
		{nccl.Version{Major: 2, Minor: 31, Patch: 2}, nccl.Latest},
		{nccl.Version{Major: 2, Minor: 12, Patch: 12}, nccl.Oldest},
	} {
		tables := syntheticTables(t, m)
		for i := range tables {
			tables[i].Version = c.v
		}
		cm, err := Calibrate(m.Hardware, tables, &Settings{NoIntervals: true})
		if err != nil {
			t.Fatalf("NCCL %v: %v", c.v, err)
		}
		if cm.Version() != c.want {
			t.Errorf("NCCL %v: tuner of %v, want %v", c.v, cm.Version(), c.want)
		}
		if !slices.ContainsFunc(cm.Notes, func(n string) bool {
			return strings.Contains(n, "NCCL "+c.v.String()+" is outside the releases the tuner model follows")
		}) {
			t.Errorf("NCCL %v: notes %q, want one that says the release is outside the model's", c.v, cm.Notes)
		}
	}
}

// TestPerSizeRules checks that NCCL's per-size rules scale the model's
// terms as they scale NCCL's estimate (ncclTopoGetAlgoTime): on 2 x 8 H100
// with NCCL 2.30.7's constants, Tree/Simple AllReduce's bytes at 1 MiB
// (log2(1 MiB/64) = 14) are divided by treeCorrectionFactor[Simple][14] =
// 0.5 and at 1 GiB (past the table's 23 columns) by nothing, and
// Ring/Simple AllReduce's latency across nodes is multiplied by the ring
// plateau factor for compute capability 8.0 and later once each channel
// and rank carries 64 bytes.
func TestPerSizeRules(t *testing.T) {
	h, err := DefaultHardware("H100 SXM")
	if err != nil {
		t.Fatal(err)
	}
	m := Uncalibrated(h)
	c := nccl.DefaultConstants(nccl.Latest)
	for _, tc := range []struct {
		algo, proto string
		size        float64
		bw, lat     float64 // the factors the bytes are divided by and the latency multiplied by
	}{
		{"tree", "simple", 1 << 20, c.TreeCorrection[nccl.Simple][14], 1},
		{"tree", "simple", 1 << 30, 1, 1},
		{"ring", "simple", 1 << 30, 1, c.RingPlateau[1]},
	} {
		rn, err := m.run(Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8, Algo: tc.algo, Proto: tc.proto})
		if err != nil {
			t.Fatal(err)
		}
		tm, err := m.refs.termOf(rn, tc.size)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := m.refs.get(rn)
		if err != nil {
			t.Fatal(err)
		}
		nics := h.nics(rn.shape.hosts, rn.shape.per/rn.shape.hosts, rn.version)
		intra, net, _ := bytes(commmodel.AllReduce, tm.ch, rn.shape, nics, h.groupNodes(rn.shape), tc.size)
		f, _ := nccl.FuncOf(commmodel.AllReduce)
		var lat [3]float64
		lat[0], lat[1], lat[2] = ref.latency(f, tm.ch.algo, tm.ch.proto)
		name := fmt.Sprintf("%s/%s at %g B", tc.algo, tc.proto, tc.size)
		if tm.ch.algo.String() != map[string]string{"tree": "Tree", "ring": "Ring"}[tc.algo] {
			t.Fatalf("%s: ran %v", name, tm.ch)
		}
		if !scalar.EqualWithinAbs(tm.intra*tc.bw, intra, 1e-12*intra) || !scalar.EqualWithinAbs(tm.net*tc.bw, net, 1e-12*net) {
			t.Errorf("%s: bytes %g and %g, want %g and %g divided by %g", name, tm.intra, tm.net, intra, net, tc.bw)
		}
		for k := range lat {
			if !scalar.EqualWithinAbs(tm.lat[k], lat[k]*tc.lat, 1e-12*lat[k]) {
				t.Errorf("%s: latency part %d %g, want %g times %g", name, k, tm.lat[k], lat[k], tc.lat)
			}
		}
	}
	if c.TreeCorrection[nccl.Simple][14] != 0.5 || c.RingPlateau[1] == 1 {
		t.Errorf("NCCL's constants: tree correction %g, ring plateau %g; the cases above no longer test the rules",
			c.TreeCorrection[nccl.Simple][14], c.RingPlateau[1])
	}
}

// TestDomainNICs: across NVLink domains of several hosts, NCCL's
// algorithms use at most 16 NICs from NCCL 2.27.3 (its release notes), so a
// GB300 rack of 16 hosts of 4 NICs drives 16 of its 64 under 2.28.7, all
// 64 under 2.26.2 (no limit is published before), and AllToAll's grouped
// sends use all 64 whatever the version; a host alone drives its own 4.
func TestDomainNICs(t *testing.T) {
	h, err := DefaultHardware("NVIDIA GB300")
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.shapeOf(32, 4)
	if err != nil {
		t.Fatal(err)
	}
	if s.nodes != 2 || s.hosts != 16 {
		t.Fatalf("32 hosts of 4 GPUs: %+v, want 2 domains of 16 hosts", s)
	}
	for _, c := range []struct {
		v           nccl.Version
		hosts, want int
	}{
		{nccl.Version{Major: 2, Minor: 28, Patch: 7}, 16, 16},
		{nccl.Version{Major: 2, Minor: 27, Patch: 3}, 16, 16},
		{nccl.Version{Major: 2, Minor: 26, Patch: 2}, 16, 64},
		{nccl.Version{Major: 2, Minor: 28, Patch: 7}, 1, 4},
	} {
		if got := h.nics(c.hosts, 4, c.v); got != c.want {
			t.Errorf("NCCL %v, %d hosts: %d NICs, want %d", c.v, c.hosts, got, c.want)
		}
	}
	if got := h.hostNICs(16, 4); got != 64 {
		t.Errorf("grouped sends: %d NICs, want 64", got)
	}
	g, err := h.system(&run{shape: s}, nccl.Version{Major: 2, Minor: 28, Patch: 7}).Graphs(nccl.Version{Major: 2, Minor: 28, Patch: 7})
	if err != nil {
		t.Fatal(err)
	}
	if g.NVLS.NChannels != 16 {
		t.Errorf("NVLS heads across two racks: %d, want one per NIC NCCL uses, 16", g.NVLS.NChannels)
	}
}

// TestAllToAllPeers: a rank's grouped sends cost p2p_peer_latency per
// network peer, scaled as the network's step latency is
// (inter_step_latency; p2pLatency: its proxy serves each network send and
// receive in turn), so a small AllToAll's time grows linearly with the
// ranks. Between 1024 and 16384 ranks of 8 GPUs a 64-byte AllToAll (LL: 4
// bytes or less to each peer) adds 16376 − 1016 = 15360 network peers, each
// p2p_peer_latency (the prior times 1.6 in truth) times the network's
// latency over NCCL's figure (0.8 in truth); the intra-node peers, 7 in
// both, add nothing.
func TestAllToAllPeers(t *testing.T) {
	m := truth(t)
	at := func(ranks int) float64 {
		ps, err := m.Predict(Query{Collective: commmodel.AllToAll, Ranks: ranks, PerNode: 8}, []float64{64})
		if err != nil {
			t.Fatal(err)
		}
		if ps[0].Protocol != "LL" {
			t.Fatalf("%d ranks: protocol %s, want LL", ranks, ps[0].Protocol)
		}
		return ps[0].Time
	}
	got := at(16384) - at(1024)
	want := 15360 * peerPrior * 1.6 * 0.8
	if !scalar.EqualWithinRel(got, want, 0.02) {
		t.Errorf("16384 ranks less 1024: %.4g s, want %.4g s", got, want)
	}
}

// TestAllToAllPeersScaled: a network whose steps take k times NCCL's
// figure takes k times as long per AllToAll peer. Two p5.48xlarge nodes
// over EFA take 68.37 to 69.29 us for an AllReduce of 16 to 128 B
// (aws-k8s-tester#585), whose fit puts the network's step latency at over
// 4 times NCCL's; an AllToAll of the same test job over EFA, 16 ranks
// (bottlerocket-kernel-kit#313), measured 106.88, 111.35 and 122.32 us at
// 2, 16 and 64 KiB, which the AllReduce's calibration predicts within 15%
// (at NCCL's network latency per peer it was 29 us).
func TestAllToAllPeersScaled(t *testing.T) {
	h, tab := pinnedTable(t, "../../data/nccltests/testdata/real/h100_p5_2x8_allreduce_efa_k8stester585.log",
		Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA H100 80GB HBM3"})
	ar := []Table{tab}
	m, err := Calibrate(h, ar, nil)
	if err != nil {
		t.Fatal(err)
	}
	if x := m.Params[parInter]; !(x.Value > 4*x.Prior) {
		t.Errorf("inter_step_latency %.3g s, prior %.3g s: want over 4 times", x.Value, x.Prior)
	}
	measured := map[float64]float64{2048: 106.88e-6, 16384: 111.35e-6, 65536: 122.32e-6}
	sizes := []float64{2048, 16384, 65536}
	ps, err := m.Predict(Query{Collective: commmodel.AllToAll, Ranks: 16, PerNode: 8}, sizes)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if r := p.Time / measured[p.Size]; math.Abs(r-1) > 0.15 {
			t.Errorf("%g B: %.1f us, %.2f of the measured %.2f us; want within 15%%", p.Size, p.Time*1e6, r, measured[p.Size]*1e6)
		}
	}
}

// TestAllToAllPeersInterval: without an AllToAll table p2p_peer_latency
// is its prior, unidentified, and a 2,048-rank AllToAll of 8 KiB (4 bytes
// per peer, where the peers' cost is nearly all of the time) is 11 doublings
// of network peers beyond one; a 2-node AllToAll table of small messages
// identifies it and measures 8 network peers, 8 doublings short of 2,040.
// Both intervals hold the truth, and the one without the AllToAll table is
// wider on the slow side by at least the extra 3 doublings of SlowerAbove.
func TestAllToAllPeersInterval(t *testing.T) {
	tr := truth(t)
	tables := syntheticTables(t, tr)
	a2a := Table{Name: "alltoall-2x8", GPU: tr.GPU, Collective: commmodel.AllToAll, Nodes: 2, PerNode: 8,
		Layout: Layout{GPUsPerThread: 1}, Version: tr.version}
	var sizes []float64
	for s := 1024.0; s <= 1<<20; s *= 4 {
		sizes = append(sizes, s)
	}
	ps, err := tr.Predict(a2a.Query(), sizes)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		a2a.Points = append(a2a.Points, Point{Size: p.Size, Time: p.Time})
	}
	without, err := Calibrate(tr.Hardware, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	with, err := Calibrate(tr.Hardware, append(slices.Clone(tables), a2a), nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := with.Params[parPeer]; !p.Identified {
		t.Errorf("with the AllToAll table: p2p_peer_latency not identified (sd %.3f)", p.SD)
	}
	q := Query{Collective: commmodel.AllToAll, Ranks: 2048, PerNode: 8}
	truthP, err := tr.Predict(q, []float64{8 << 10})
	if err != nil {
		t.Fatal(err)
	}
	width := func(m *Machine) (lo, hi float64) {
		p, err := m.Predict(q, []float64{8 << 10})
		if err != nil {
			t.Fatal(err)
		}
		if !p[0].Holds(truthP[0].Time) {
			t.Errorf("truth %.4g s outside [%.4g, %.4g]", truthP[0].Time, p[0].Low, p[0].High)
		}
		return math.Log(p[0].Time / p[0].Low), math.Log(p[0].High / p[0].Time)
	}
	_, hiWith := width(with)
	_, hiWithout := width(without)
	if hiWithout-hiWith < z80*3*SlowerAbove*0.5 {
		t.Errorf("slow side ln(High/Time) %.3f without an AllToAll table, %.3f with: want wider without", hiWithout, hiWith)
	}
	b, err := without.Beyond(q)
	if err != nil || !slices.ContainsFunc(b, func(s string) bool { return strings.Contains(s, "2040 network peers") }) {
		t.Errorf("Beyond = %q, %v: want the network peers named", b, err)
	}
}

// TestFromPrior: a value 0.442 against a prior of 0.92 is 52% below it
// (0.442/0.92 = 0.480), not near it.
func TestFromPrior(t *testing.T) {
	for _, c := range []struct {
		v, prior float64
		want     string
	}{{0.442, 0.92, "52% below"}, {6.18e-6, 6.6e-6, "6% below"}, {7.83e-6, 6.6e-6, "19% above"}, {0.5, 0.5, "at"}, {0.503, 0.5, "at"}} {
		if got := fromPrior(c.v, c.prior); got != c.want {
			t.Errorf("fromPrior(%g, %g) = %q, want %q", c.v, c.prior, got, c.want)
		}
	}
}

// TestReferencesBounded: a Machine asked for more shapes than
// maxReferences keeps at most maxReferences of NCCL's models, and still
// answers each shape as a fresh Machine does.
func TestReferencesBounded(t *testing.T) {
	m := truth(t)
	var first Prediction
	for n := 1; n <= maxReferences+100; n++ {
		ps, err := m.Predict(Query{Collective: commmodel.AllReduce, Ranks: 8 * n, PerNode: 8}, []float64{1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			first = ps[0]
		}
	}
	if k := len(m.refs.m); k > maxReferences {
		t.Errorf("%d models kept, want at most %d", k, maxReferences)
	}
	again, err := m.Predict(Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8}, []float64{1 << 20})
	if err != nil || again[0] != first {
		t.Errorf("1 x 8 after the cache started afresh: %+v, %v; want %+v", again, err, first)
	}
}

// TestLinkShare: NCCL's tuning model gives every NVSwitch GPU its tables
// hold a Ring/Simple bus bandwidth of LinkShare of its NVLinks times their
// rate (intra_bw's prior against Hardware.intraBW), and an AMD Instinct,
// outside its tables, InfinityShare of its links, which the largest sizes
// of the public one-node tables measure: each within 0.03 of it.
func TestLinkShare(t *testing.T) {
	for _, g := range []string{"Tesla V100-SXM2-32GB", "NVIDIA A100-SXM4-80GB", "NVIDIA A800-SXM4-80GB", "NVIDIA H100 80GB HBM3",
		"NVIDIA H800", "NVIDIA H20", "NVIDIA H200", "NVIDIA B200", "NVIDIA GB200", "NVIDIA GB300", "AMD Instinct MI300X", "AMD Instinct MI355X"} {
		h, err := DefaultHardware(g)
		if err != nil {
			t.Fatal(err)
		}
		want := LinkShare
		if h.Fabric == FabricInfinity {
			want = InfinityShare
		}
		if got := Uncalibrated(h).intraPrior() / h.intraBW(); math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: intra_bw's prior is %.4f of the links' rate, want %g", g, got, want)
		}
	}
	const real = "../../data/nccltests/testdata/real/"
	for _, f := range []string{"mi300x_1x8_2x8_allreduce_rccltests.log", "mi300x_1x8_allreduce_rocmblogs.log", "mi355x_1x8_allreduce_alltoall_trimmed.log"} {
		tab := firstTable(t, real+f)
		h, err := DefaultHardware(tab.GPU)
		if err != nil {
			t.Fatal(err)
		}
		last := tab.Points[len(tab.Points)-1]
		busBW := last.Size / last.Time * commmodel.AllReduce.BusFactor(8)
		if share := busBW / h.intraBW(); tab.Ranks() != 8 || math.Abs(share-InfinityShare) > 0.03 {
			t.Errorf("%s: %d ranks, bus bandwidth %.4g B/s at %g B, %.3f of the links' rate; want 8 ranks within 0.03 of %g", f, tab.Ranks(), busBW, last.Size, share, InfinityShare)
		}
	}
	// At their priors, AMD hosts against public rccl-tests logs (one node
	// of 8): MI355X, -g 8, AllReduce 16 GiB 73913 us
	// (mi355x_1x8_allreduce_alltoall_trimmed.log); MI300X, one process a
	// GPU, AllReduce 1 GiB 5990.7 us (mi300x_1x8_2x8_allreduce_rccltests.log,
	// its 1 x 8 block).
	for _, c := range []struct {
		gpu      string
		g        int
		size, us float64
	}{{"AMD Instinct MI355X", 8, 16 << 30, 73913}, {"AMD Instinct MI300X", 1, 1 << 30, 5990.7}} {
		h, err := DefaultHardware(c.gpu)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := Uncalibrated(h).Predict(Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8, Layout: Layout{GPUsPerThread: c.g}}, []float64{c.size})
		if err != nil || math.Abs(ps[0].Time/(c.us*1e-6)-1) > 0.06 {
			t.Errorf("%s at its priors: %v, %v; want within 6%% of the measured %.1f us", c.gpu, ps, err, c.us)
		}
	}
}

// TestRCCLNodesGain: RCCLNodesGain is the geometric mean, to two digits,
// of what the public rccl-tests tables of 2 x 8 AMD Instinct GPUs move as
// bus bandwidth over what 1 x 8 of the same GPU move, in a Ring AllReduce
// at the largest size both ran: MI300X's AAC8 and AAC10 runs (one file,
// 1 x 8 then 2 x 8; 8 GiB) and MI325X's AAC11 runs (NCCL_ALGO=Ring, no
// Rank lines: the README gives the shapes; 16 GiB). Each ratio lies within
// 0.02 of it. The MI325X 2 x 8 table, which holds only rows of 4 GiB and
// more, calibrated alone predicts its 1 x 8 table within 3% at each size,
// where without the gain it would be 9 to 10% fast.
func TestRCCLNodesGain(t *testing.T) {
	const real = "../../data/nccltests/testdata/real/"
	busBW := func(tab Table, size float64) float64 {
		for _, p := range tab.Points {
			if p.Size == size {
				return p.Size / p.Time * commmodel.AllReduce.BusFactor(tab.Ranks())
			}
		}
		t.Fatalf("%s: no row of %g B", tab.Name, size)
		return 0
	}
	mi325x := func(f string, nodes int) Table {
		tabs, _, err := ReadFile(real+f, func(int) Pins {
			return Pins{Nodes: nodes, PerNode: 8, GPU: "AMD Instinct MI325X", Algo: "ring"}
		})
		if err != nil || len(tabs) != 1 {
			t.Fatalf("%s: %d tables, %v", f, len(tabs), err)
		}
		return tabs[0]
	}
	mi300x, _, err := ReadFile(real+"mi300x_1x8_2x8_allreduce_rccltests.log", nil)
	if err != nil || len(mi300x) != 2 || mi300x[0].Ranks() != 8 || mi300x[1].Ranks() != 16 {
		t.Fatalf("mi300x: %d tables, %v; want 1 x 8 and 2 x 8", len(mi300x), err)
	}
	one, two := mi325x("mi325x_1x8_allreduce_ring_aac11.log", 1), mi325x("mi325x_2x8_allreduce_ring_aac11.log", 2)
	pairs := []struct {
		one, two Table
		size     float64
	}{{mi300x[0], mi300x[1], 8 << 30}, {one, two, 16 << 30}}
	logs := 0.0
	for _, p := range pairs {
		r := busBW(p.two, p.size) / busBW(p.one, p.size)
		logs += math.Log(r)
		if math.Abs(r-RCCLNodesGain) > 0.02 {
			t.Errorf("%s over %s at %g B: %.3f; want within 0.02 of %g", p.two.Name, p.one.Name, p.size, r, RCCLNodesGain)
		}
	}
	if g := math.Exp(logs / float64(len(pairs))); math.Round(g*100)/100 != RCCLNodesGain {
		t.Errorf("geometric mean %.4f; want %g to two digits", g, RCCLNodesGain)
	}
	h, err := DefaultHardware(two.GPU)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Calibrate(h, []Table{two}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sizes := make([]float64, len(one.Points))
	for i, p := range one.Points {
		sizes[i] = p.Size
	}
	ps, err := m.Predict(one.Query(), sizes)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range one.Points {
		if math.Abs(ps[i].Time/p.Time-1) > 0.03 {
			t.Errorf("%s from %s alone at %g B: %v; want within 3%% of %g s", one.Name, two.Name, p.Size, ps[i], p.Time)
		}
	}
}

// TestUntabledLaunchFloor: Stanage's gpu01 ran all_reduce_perf -g 4, one
// thread launching 4 A100s' kernels in turn, and took 15.29 us at 8 B
// (data/nccltests/testdata/real/a100_1x4_g4_allreduce_stanage.log). NCCL's
// model times the kernels alone; the prediction from the GPU's name takes
// the floor of 4 launches at the launch prior, 3.1 us each, and is nearer
// the measurement. With one GPU a thread the floor is under NCCL's time,
// which stands.
func TestUntabledLaunchFloor(t *testing.T) {
	tab := firstTable(t, "../../data/nccltests/testdata/real/a100_1x4_g4_allreduce_stanage.log")
	if tab.Layout.GPUsPerThread != 4 || tab.Points[0].Size != 8 {
		t.Fatalf("layout %+v, first size %g; want 4 GPUs a thread, 8 B", tab.Layout, tab.Points[0].Size)
	}
	measured := tab.Points[0].Time
	hw, err := Describe(tab.GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	hw = hw.ForHosts(4)
	q := tab.Query()
	ref, err := Reference(hw, q, []float64{8})
	if err != nil {
		t.Fatal(err)
	}
	got, why, err := Untabled(hw, q, []float64{8})
	if err != nil || why != "" {
		t.Fatal(why, err)
	}
	if p := got[0]; !scalar.EqualWithinRel(p.Time, 4*3.1e-6, 1e-12) || p.Bound != TermLaunch || !scalar.EqualWithinRel(p.High/p.Low, ref[0].High/ref[0].Low, 1e-12) {
		t.Errorf("-g 4 at 8 B: %v, bound %q; want 12.4 us, the launch floor, and NCCL's interval width", p, p.Bound)
	}
	if math.Abs(got[0].Time/measured-1) >= math.Abs(ref[0].Time/measured-1) {
		t.Errorf("-g 4 at 8 B: %.3g s, NCCL's %.3g s; want nearer the measured %.3g s", got[0].Time, ref[0].Time, measured)
	}
	q.Layout.GPUsPerThread = 1
	one, _, err := Untabled(hw, q, []float64{8})
	if ref1, _ := Reference(hw, q, []float64{8}); err != nil || one[0].Time != ref1[0].Time || one[0].Bound != "" {
		t.Errorf("-g 1 at 8 B: %v, %v; want NCCL's own time", one, err)
	}
}

// TestImplausibleNeedsBandwidth: nccl#652's 32 x 8 A100 table stops at
// 128 B (63.94 us), all latency. Its fit may leave nic_bw at the NICs'
// line rate, but no size it ran tells the links' or the NICs' rate, so no
// note says a rate is held at its bound; the note that no table measured a
// bandwidth does.
func TestImplausibleNeedsBandwidth(t *testing.T) {
	hw, tab := pinnedTable(t, "../../data/nccltests/testdata/real/a100_32x8_allreduce_smallsizes_nccl652.log",
		Pins{Nodes: 32, PerNode: 8, GPU: "NVIDIA A100-SXM4-40GB"})
	m, err := Calibrate(hw, []Table{tab}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(m.Notes, func(n string) bool { return strings.HasPrefix(n, "no table ran a size whose time a bandwidth bounds") }) ||
		slices.ContainsFunc(m.Notes, func(n string) bool { return strings.Contains(n, "held at its bound") }) {
		t.Errorf("notes %q; want no bandwidth measured, and no rate said to be held at its bound", m.Notes)
	}
}

// TestFloorBeaten: hisohara's MI300X tables moved 357.46 GB/s of bus
// bandwidth on 2 x 8 at 16 GiB; described as PCIe cards (-hw fabric=pcie),
// the line rates allow a fraction of that. The calibration says its tables
// beat the description, and a prediction whose interval the floor cuts
// keeps the interval's width, starting at the floor, where it was a sliver
// at it.
func TestFloorBeaten(t *testing.T) {
	tabs, _, err := ReadFile("../../data/nccltests/testdata/real/mi300x_1x8_2x8_allreduce_rccltests.log", nil)
	if err != nil || len(tabs) != 2 {
		t.Fatalf("%d tables, %v", len(tabs), err)
	}
	hw, err := Describe(tabs[0].GPU, "fabric=pcie")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Calibrate(hw, tabs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(slices.DeleteFunc(slices.Clone(m.Notes), func(n string) bool {
		return !strings.Contains(n, "ran faster than the line rates the description gives allow")
	})); n != 2 {
		t.Errorf("notes %q; want both tables said to beat the description", m.Notes)
	}
	ps, err := m.Predict(tabs[1].Query(), []float64{1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if p := ps[0]; !(p.Low <= p.Time && p.Time <= p.High && p.High/p.Low > 2) {
		t.Errorf("1 GiB: %v; want an interval more than 2x wide about the prediction", p)
	}
}

// TestPredictChecksQueryFirst holds Predict and Beyond to one check of the
// query before any size: an unknown pin, a collective that is not one and
// a rank count beyond NCCL's int gave Predict(q, nil) nil, nil and Beyond
// sentences, and a size beyond NCCL's count read "no choice for function
// 4 and 1e+30 bytes".
func TestPredictChecksQueryFirst(t *testing.T) {
	m := Uncalibrated(h100(t))
	for _, q := range []Query{
		{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8, Algo: "bogus"},
		{Collective: commmodel.Collective(99), Ranks: 16, PerNode: 8},
		{Collective: commmodel.AllReduce, Ranks: 1 << 40, PerNode: 8},
	} {
		if _, err := m.Predict(q, nil); err == nil {
			t.Errorf("Predict(%+v, nil): no error", q)
		}
		if s, err := m.Beyond(q); err == nil {
			t.Errorf("Beyond(%+v) = %q, no error", q, s)
		}
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8}
	for _, size := range []float64{1e30, 1 << 62, math.Inf(1), math.NaN(), 0} {
		if _, err := m.Predict(q, []float64{size}); err == nil || !strings.Contains(err.Error(), "below 2^62 B") {
			t.Errorf("Predict at %g B: %v, want the sizes it takes", size, err)
		}
	}
}

// TestOneRankIsRefusedAlike holds Predict, Reference, Untabled and Beyond
// to one error for a query of one rank, naming the rank count that works:
// NCCL runs it as a local copy (src/enqueue.cc, ncclLaunchOneRank), its
// tuner's time 0, and Reference gave 0 s in an 80% interval of [0 s, 0 s]
// while Predict gave a time that did not grow from 8 B to 1 GiB.
func TestOneRankIsRefusedAlike(t *testing.T) {
	m := truth(t)
	sizes := []float64{8, 1 << 20, 1 << 30}
	for _, c := range []commmodel.Collective{commmodel.AllReduce, commmodel.AllGather, commmodel.Broadcast} {
		q := Query{Collective: c, Ranks: 1, PerNode: 1}
		_, perr := m.Predict(q, sizes)
		_, rerr := Reference(m.Hardware, q, sizes)
		_, _, uerr := Untabled(m.Hardware, q, sizes)
		_, berr := m.Beyond(q)
		for name, err := range map[string]error{"Predict": perr, "Reference": rerr, "Untabled": uerr, "Beyond": berr} {
			if err == nil || !strings.Contains(err.Error(), "1 rank") || !strings.Contains(err.Error(), "want 2 ranks or more") {
				t.Errorf("%s of %v on 1 rank: %v, want the one-rank error naming 2 ranks", name, c, err)
			}
		}
	}
	if _, err := m.Predict(Query{Collective: commmodel.AllReduce, Ranks: 2, PerNode: 2}, sizes); err != nil {
		t.Errorf("2 ranks, the count the error names: %v", err)
	}
}

// TestCheckSizeRounding: units.ParseSize reads 2^62 − 1 B, a size below
// units.MaxSize as an int64, but a float64 holds it as 2^62 itself, which
// Predict refuses; the error says why, where it read as if the size given
// were 2^62 or more.
func TestCheckSizeRounding(t *testing.T) {
	n, err := units.ParseSize("4611686018427387903")
	if err != nil {
		t.Fatalf("ParseSize(2^62 - 1): %v", err)
	}
	err = checkSize(float64(n))
	if !errors.Is(err, ErrQuery) || !strings.Contains(err.Error(), "a size within 256 B of it rounds to it as a float64") {
		t.Errorf("checkSize(2^62 - 1 as a float64): %v; want ErrQuery saying it rounds", err)
	}
	if err := checkSize(1 << 61); err != nil {
		t.Errorf("checkSize(2^61): %v", err)
	}
}

// TestSizeBelowOneByte: a call moves whole bytes, and a table's sizes
// start at 1 B (Table's check), but Predict timed 0.5 B and 1e-300 B as
// any size (red team D §8). Every function that times a Query's size
// refuses one below 1 B with ErrQuery, and takes 1 B.
func TestSizeBelowOneByte(t *testing.T) {
	h := h100(t)
	m := Uncalibrated(h)
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	for _, size := range []float64{0.5, 1e-300, math.Nextafter(1, 0)} {
		if ps, err := m.Predict(q, []float64{size}); !errors.Is(err, ErrQuery) || !strings.Contains(err.Error(), "want a size from 1 B") {
			t.Errorf("Predict at %g B: %v, %v; want ErrQuery", size, ps, err)
		}
		if _, err := Reference(h, q, []float64{size}); !errors.Is(err, ErrQuery) {
			t.Errorf("Reference at %g B: %v; want ErrQuery", size, err)
		}
		if _, _, err := Untabled(h, q, []float64{size}); !errors.Is(err, ErrQuery) {
			t.Errorf("Untabled at %g B: %v; want ErrQuery", size, err)
		}
		if _, err := m.Choices(q, size); !errors.Is(err, ErrQuery) {
			t.Errorf("Choices at %g B: %v; want ErrQuery", size, err)
		}
		if v := m.Curve(q)(size); !math.IsNaN(v) {
			t.Errorf("Curve at %g B: %g; want NaN", size, v)
		}
	}
	if _, err := m.Predict(q, []float64{1}); err != nil {
		t.Errorf("Predict at 1 B: %v", err)
	}
}
