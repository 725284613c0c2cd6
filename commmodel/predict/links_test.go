package predict

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/topo"
	"github.com/inframethod/commlab/units"
	"gonum.org/v1/gonum/floats/scalar"
)

// TestLinks holds Links to the textbook figures of each machine: intra BW
// is NVLinks x one link's rate in one direction, inter BW is
// min(perHost, NICs) x NIC rate / perHost, and the alphas are NCCL's
// Ring/Simple step latencies, 3.4 us over NVLink, 5.7 us over PCIe and
// 14 us over the network (src/graph/tuning.cc, hwLatencies).
//
//   - DGX H100: 18 NVLinks of 25 GB/s (450 GB/s, half the datasheet's
//     900 GB/s both ways), 8 NICs of 400 Gb/s for 8 GPUs (50 GB/s).
//   - DGX A100: 12 of 25 GB/s (300 GB/s), 8 NICs of 200 Gb/s (25 GB/s).
//   - DGX B200: 18 of 50 GB/s (900 GB/s), 8 NICs of 400 Gb/s (50 GB/s).
//   - GB200 NVL72: 18 of 50 GB/s, a 400 Gb/s NIC per GPU (50 GB/s).
//   - HGX H100 4-GPU, a mesh of 6 NVLinks per pair: 3 x 6 = 18 of 25 GB/s
//     (450 GB/s); with 2 NICs of 400 Gb/s for 4 GPUs, 25 GB/s.
//   - H100 SXM boards cabled as PCIe: NCCL's Gen5 x16 figure, 48 GB/s
//     (nccl.PCIeBW); 2 NICs of 200 Gb/s for 8 GPUs, 6.25 GB/s.
//   - L40S, a PCIe Gen4 card: 24 GB/s; one NIC per GPU at the reference
//     rate of its generation, 8.x being Ampere to NCCL (nccl.ArchOf):
//     DGX A100's 200 Gb/s (nicRates), 25 GB/s.
func TestLinks(t *testing.T) {
	cases := []struct {
		gpu, spec                        string
		perHost                          int
		intraA, intraBW, interA, interBW float64
	}{
		{"H100 80GB HBM3", "system=dgx-h100", 8, 3.4e-6, 450e9, 14e-6, 50e9},
		{"A100-SXM4-80GB", "system=dgx-a100", 8, 3.4e-6, 300e9, 14e-6, 25e9},
		{"B200", "system=dgx-b200", 8, 3.4e-6, 900e9, 14e-6, 50e9},
		{"GB200", "system=gb200-nvl72", 4, 3.4e-6, 900e9, 14e-6, 50e9},
		{"H100 80GB HBM3", "system=hgx-h100-4gpu,nics=2,nic-bw=400Gb/s", 4, 3.4e-6, 450e9, 14e-6, 25e9},
		{"H100 80GB HBM3", "fabric=pcie,nics=2,nic-bw=200Gb/s", 8, 5.7e-6, 48e9, 14e-6, 6.25e9},
		{"L40S", "", 8, 5.7e-6, 24e9, 14e-6, 25e9},
	}
	for _, c := range cases {
		h, err := Describe(c.gpu, c.spec)
		if err != nil {
			t.Fatalf("%s %s: %v", c.gpu, c.spec, err)
		}
		intra, inter := h.Links(commmodel.AllReduce, c.perHost)
		if !scalar.EqualWithinRel(intra.Alpha, c.intraA, 1e-12) || !scalar.EqualWithinRel(intra.BW, c.intraBW, 1e-12) ||
			!scalar.EqualWithinRel(inter.Alpha, c.interA, 1e-12) || !scalar.EqualWithinRel(inter.BW, c.interBW, 1e-12) {
			t.Errorf("%s %s: intra %+v, inter %+v; want %g s %g B/s, %g s %g B/s",
				c.gpu, c.spec, intra, inter, c.intraA, c.intraBW, c.interA, c.interBW)
		}
	}
}

// TestLinksCatalog: every system of the catalog gives links with a positive
// finite bandwidth on hosts of its size, and nodes of its NVLink domain,
// or of one host where it has none.
func TestLinksCatalog(t *testing.T) {
	for _, s := range presets.Systems {
		h, err := Describe(s.GPU, "system="+s.Name)
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		intra, inter := h.Links(commmodel.AllReduce, s.PerHost)
		for _, bw := range []float64{intra.BW, inter.BW} {
			if !(bw > 0) || math.IsInf(bw, 0) {
				t.Errorf("%s: intra %+v, inter %+v", s.Name, intra, inter)
			}
		}
		node := max(s.Domain, s.PerHost)
		c, err := h.Cluster(commmodel.AllReduce, 2*node, s.PerHost)
		if err != nil || c.Nodes != 2 || c.PerNode != node {
			t.Errorf("%s: 2 x %d GPUs make %+v, %v; want 2 nodes of %d", s.Name, node, c, err, node)
		}
	}
}

// TestCluster: the nodes are NVLink domains where they span hosts (GB200
// NVL72: 144 GPUs on hosts of 4 are 2 domains of 72; 16 are one node of
// 16) and hosts otherwise; a rank count that is not whole hosts, or hosts
// that do not split into equal domains (76 GPUs: 19 hosts into 2 domains),
// is ErrShape.
func TestCluster(t *testing.T) {
	gb, err := Describe("GB200", "system=gb200-nvl72")
	if err != nil {
		t.Fatal(err)
	}
	h100, err := Describe("H100 80GB HBM3", "system=dgx-h100")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		h                     *Hardware
		ranks, perHost        int
		wantNodes, wantPerNod int
	}{
		{&gb, 144, 4, 2, 72},
		{&gb, 16, 4, 1, 16},
		{&h100, 16, 8, 2, 8},
		{&h100, 16, 4, 4, 4},
	} {
		cl, err := c.h.Cluster(commmodel.AllReduce, c.ranks, c.perHost)
		if err != nil || cl.Nodes != c.wantNodes || cl.PerNode != c.wantPerNod {
			t.Errorf("%s, %d on hosts of %d: %+v, %v; want %d nodes of %d", c.h.GPU.Name, c.ranks, c.perHost, cl, err, c.wantNodes, c.wantPerNod)
		}
	}
	for _, bad := range [][2]int{{12, 8}, {76, 4}, {0, 8}} {
		if _, err := gb.Cluster(commmodel.AllReduce, bad[0], bad[1]); !errors.Is(err, ErrShape) {
			t.Errorf("%d on hosts of %d: %v, want ErrShape", bad[0], bad[1], err)
		}
	}
}

// TestAssumedLinkFacts: a bare H100 SXM name leaves its fabric and NICs
// assumed (DefaultHardware), which a catalog system settles.
func TestAssumedLinkFacts(t *testing.T) {
	bare, err := Describe("H100 80GB HBM3", "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range bare.AssumedLinkFacts() {
		names = append(names, f.Name)
	}
	if want := []string{"fabric", "nics_per_node", "nic_bw"}; !slices.Equal(names, want) {
		t.Errorf("bare H100: assumed %v, want %v", names, want)
	}
	dgx, err := Describe("H100 80GB HBM3", "system=dgx-h100")
	if err != nil {
		t.Fatal(err)
	}
	if a := dgx.AssumedLinkFacts(); len(a) != 0 {
		t.Errorf("dgx-h100: assumed %v, want none", a)
	}
}

// TestRunLinks: on a host whose GPUs are joined pair by pair a run of k of
// its G GPUs drives the links of its k−1 peers alone, PairLinks·(k−1):
//
//   - HGX A100 4-GPU (the catalog's 4 NVLinks a pair, 12 a GPU): 4 links
//     (100 GB/s at 25 GB/s each) for 2 GPUs, 8 for 3, all 12 for 4;
//   - an MI300X platform (1 Infinity Fabric link a pair of 8, 64 GB/s): 1
//     link for 2 GPUs, 7 for 8;
//   - a capture of 4 H100s NV4 to each other: 4 of 12 for 2 GPUs.
//
// An MI300X by name alone is one of its platform's 8 (its 7 links, one a
// pair): 1 link for 2 GPUs. Through NVSwitch every GPU drives all its
// links (DGX A100: 12), and where the host's GPUs are not known (an A100
// board known only to hold the 2 GPUs of the run) so does the model.
func TestRunLinks(t *testing.T) {
	mesh, _, err := topo.ParseFile("../../topo/testdata/real/nv4_4gpu_empty_cpu_affinity_slurm.txt")
	if err != nil {
		t.Fatal(err)
	}
	captured, err := Describe("H100", "")
	if err != nil {
		t.Fatal(err)
	}
	captured.SetTopology(mesh)
	describe := func(gpu, spec string) Hardware {
		h, err := Describe(gpu, spec)
		if err != nil {
			t.Fatalf("%s %s: %v", gpu, spec, err)
		}
		return h
	}
	for _, c := range []struct {
		name  string
		h     Hardware
		k     int
		links int
		bw    float64 // Links(k)'s intra bandwidth, B/s
	}{
		{"hgx-a100-4gpu", describe("A100-SXM4-80GB", "system=hgx-a100-4gpu"), 2, 4, 100e9},
		{"hgx-a100-4gpu", describe("A100-SXM4-80GB", "system=hgx-a100-4gpu"), 3, 8, 200e9},
		{"hgx-a100-4gpu", describe("A100-SXM4-80GB", "system=hgx-a100-4gpu"), 4, 12, 300e9},
		{"mi300x-platform", describe("MI300X", "system=mi300x-platform"), 2, 1, 64e9},
		{"mi300x-platform", describe("MI300X", "system=mi300x-platform"), 8, 7, 448e9},
		{"capture of 4 NV4 H100s", captured, 2, 4, 100e9},
		{"dgx-a100", describe("A100-SXM4-80GB", "system=dgx-a100"), 2, 12, 300e9},
		{"MI300X by name", describe("MI300X", ""), 2, 1, 64e9},
		{"MI300X by name", describe("MI300X", ""), 8, 7, 448e9},
		{"A100 board of 2 known GPUs", describe("A100-SXM4-80GB", "").ForHosts(2), 2, 12, 300e9},
	} {
		intra, _ := c.h.Links(commmodel.AllReduce, c.k)
		if got := c.h.runLinks(c.k); got != c.links || !scalar.EqualWithinRel(intra.BW, c.bw, 1e-12) {
			t.Errorf("%s, %d GPUs: %d links, intra %g B/s; want %d, %g", c.name, c.k, got, intra.BW, c.links, c.bw)
		}
	}
}

// TestLinksSendRecv: the textbook's link of a SendRecv, whose rank sends
// to one neighbour, is on a mesh one pair's links whatever the run's GPUs
// (an MI300X platform's one Infinity Fabric link a pair, 64 GB/s a
// direction in the catalog; an HGX A100 4-GPU board's 4 NVLinks a pair of
// 25 GB/s, 100 GB/s), and through NVSwitch all a GPU's links (DGX H100:
// 18 of 25 GB/s, 450 GB/s). An AllToAll's sends go to every peer at once:
// all 7 of the MI300X's links, 448 GB/s.
func TestLinksSendRecv(t *testing.T) {
	for _, c := range []struct {
		gpu, spec string
		coll      commmodel.Collective
		k         int
		bw        float64
	}{
		{"MI300X", "system=mi300x-platform", commmodel.SendRecv, 8, 64e9},
		{"MI300X", "system=mi300x-platform", commmodel.SendRecv, 2, 64e9},
		{"MI300X", "", commmodel.SendRecv, 8, 64e9},
		{"A100-SXM4-80GB", "system=hgx-a100-4gpu", commmodel.SendRecv, 4, 100e9},
		{"H100 80GB HBM3", "system=dgx-h100", commmodel.SendRecv, 8, 450e9},
		{"H100 80GB HBM3", "system=dgx-h100", commmodel.SendRecv, 2, 450e9},
		{"MI300X", "system=mi300x-platform", commmodel.AllToAll, 8, 448e9},
	} {
		h, err := Describe(c.gpu, c.spec)
		if err != nil {
			t.Fatalf("%s %s: %v", c.gpu, c.spec, err)
		}
		if intra, _ := h.Links(c.coll, c.k); !scalar.EqualWithinRel(intra.BW, c.bw, 1e-12) {
			t.Errorf("%s %q, %s on %d GPUs: intra %g B/s; want %g", c.gpu, c.spec, c.coll, c.k, intra.BW, c.bw)
		}
	}
}

// TestLeonardoSendRecv: CINECA Leonardo's nodes are 4 A100s joined pair
// by pair by 4 NVLinks (an HGX A100 4-GPU board). A SendRecv between two
// of them (nccl-tests#331, NCCL 2.22.3) flattens at 72 GB/s, 14892 us at 1
// GiB: 4 links at NCCL's 20 GB/s, not the 12 of the GPU. The model at its
// priors, given the board, holds it in its interval and within 15% (all
// 12 links would put it at a third of that); and NCCL's model of an
// AllReduce of the two runs 8 channels, as the log's NCCL INFO line says
// NCCL gave the communicator ("8 coll channels").
func TestLeonardoSendRecv(t *testing.T) {
	tab := firstTable(t, "../../data/nccltests/testdata/real/a100_1x2_sendrecv_leonardo_nccltests331.log")
	h, err := Describe(tab.GPU, "system=hgx-a100-4gpu")
	if err != nil {
		t.Fatal(err)
	}
	m := Uncalibrated(h)
	q := tab.Query()
	const gib, measured = 1 << 30, 14892e-6
	ps, err := m.Predict(q, []float64{gib})
	if err != nil {
		t.Fatal(err)
	}
	if p := ps[0]; !p.Holds(measured) || !scalar.EqualWithinRel(p.Time, measured, 0.15) {
		t.Errorf("SendRecv of 1 GiB on 2 of 4 GPUs: %.4g s in [%.4g, %.4g]; want the measured %g within 15%% and inside", p.Time, p.Low, p.High, measured)
	}
	q.Collective = commmodel.AllReduce
	ps, err = m.Predict(q, []float64{gib})
	if err != nil {
		t.Fatal(err)
	}
	if ps[0].Channels != 8 {
		t.Errorf("AllReduce of 1 GiB on 2 of 4 GPUs under NCCL %v: %d channels, want 8", tab.Version, ps[0].Channels)
	}
}

// TestSlowLinks: one node's tables that fit intra_bw below minLinkShare of
// its prior are named, with what to do, and docs/predict.md's figures
// hold. Polaris' one-node A100 AllReduce (a100_1x4_allreduce_polaris_ss11.log,
// no GPU name in the log; 15895.0 us at 2 GiB, its line 37) named as a B200
// fits 0.51 of the B200's prior, and predicts 2 GiB in 8.9 ms; as the A100
// it ran on, 0.84. NCCL_GRAPH_FILE on Azure's A100 pair fits 0.33, and one
// process driving Voltage Park's 8 H100s in its AllGather 0.42. Leonardo's
// SendRecv of an A100 pair, grouped sends over the links a pair shares, is
// not named.
func TestSlowLinks(t *testing.T) {
	const real = "../../data/nccltests/testdata/real/"
	for _, c := range []struct {
		file, gpu, share string
		named            bool
	}{
		{"a100_1x4_allreduce_polaris_ss11.log", "B200", "0.51", true},
		{"a100_1x4_allreduce_polaris_ss11.log", "A100-SXM4-40GB", "0.84", false},
		{"a100_1x2_allreduce_graphfile_azure_ncv4.log", "NVIDIA A100 80GB PCIe", "0.33", true},
		{"h100_1x8_g8_allgather_voltagepark.log", "", "0.42", true},
		{"a100_1x2_sendrecv_leonardo_nccltests331.log", "", "", false},
	} {
		tabs, _, err := ReadFile(real+c.file, func(int) Pins { return Pins{GPU: c.gpu, Nodes: 1} }) // each ran on one host
		if err != nil || len(tabs) == 0 {
			t.Fatalf("%s: %d tables, %v", c.file, len(tabs), err)
		}
		h, err := Describe(tabs[0].GPU, "")
		if err != nil {
			t.Fatal(err)
		}
		h, _ = h.FromTables(tabs, tabs[0].PerNode)
		m, err := Calibrate(h, tabs, &Settings{NoIntervals: true})
		if err != nil {
			t.Fatal(err)
		}
		p := m.Params[parIntraBW]
		note := m.slowLinks(tabs)
		named := note != "" && slices.Contains(m.Notes, note)
		// Voltage Park's run is one thread driving its 8 GPUs (-g 8).
		if g := strings.Contains(note, "one thread driving several GPUs (-g)"); named && g != strings.Contains(c.file, "_g8_") {
			t.Errorf("%s: note %q names -g: %v", c.file, note, g)
		}
		if share := fmt.Sprintf("%.2f", p.Value/p.Prior); named != c.named || c.share != "" && share != c.share {
			t.Errorf("%s as %s: intra_bw %s of its prior, note %q; want %s, named: %v", c.file, h.GPU.Name, share, note, c.share, c.named)
		}
		if c.gpu == "B200" {
			ps, err := m.Predict(tabs[0].Query(), []float64{2 << 30})
			if err != nil || units.FormatDuration(ps[0].Time) != "8.9 ms" {
				t.Errorf("Polaris as B200: 2 GiB in %v, %v; want 8.9 ms", ps, err)
			}
		}
	}
}

// TestLinksNote: -hw links beyond the catalog's count for the GPU (its
// datasheet's every link: the MI300X's 7 Infinity Fabric links, the
// H100's 18 NVLinks) is taken as given and named against the catalog's;
// fewer (links down) and a GPU the catalog lacks say nothing.
func TestLinksNote(t *testing.T) {
	for _, c := range []struct {
		gpu, spec, want string
	}{
		{"AMD Instinct MI300X", "links=9", "-hw links=9: the catalog gives AMD Instinct MI300X 7 Infinity Fabric links"},
		{"NVIDIA H100 80GB HBM3", "links=20", "the catalog gives H100 SXM 18 NVLinks"},
		{"NVIDIA H100 80GB HBM3", "links=12", ""},
		{"NVIDIA H100 PCIe", "links=20", "the catalog gives H100 PCIe 12 NVLinks on its bridge"},
		{"NVIDIA H100 PCIe", "links=12", ""},
		{"NVIDIA H100 80GB HBM3", "", ""},
		{"Acme X1", "links=40,link-bw=50GB/s", ""},
	} {
		h, err := Describe(c.gpu, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if n := h.LinksNote(); c.want == "" && n != "" || !strings.Contains(n, c.want) {
			t.Errorf("%s -hw %s: %q, want %q", c.gpu, c.spec, n, c.want)
		}
	}
}
