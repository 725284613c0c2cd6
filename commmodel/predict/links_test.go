package predict

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/inframethod/commlab/presets"
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
		intra, inter := h.Links(c.perHost)
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
		intra, inter := h.Links(s.PerHost)
		for _, bw := range []float64{intra.BW, inter.BW} {
			if !(bw > 0) || math.IsInf(bw, 0) {
				t.Errorf("%s: intra %+v, inter %+v", s.Name, intra, inter)
			}
		}
		node := max(s.Domain, s.PerHost)
		c, err := h.Cluster(2*node, s.PerHost)
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
		cl, err := c.h.Cluster(c.ranks, c.perHost)
		if err != nil || cl.Nodes != c.wantNodes || cl.PerNode != c.wantPerNod {
			t.Errorf("%s, %d on hosts of %d: %+v, %v; want %d nodes of %d", c.h.GPU.Name, c.ranks, c.perHost, cl, err, c.wantNodes, c.wantPerNod)
		}
	}
	for _, bad := range [][2]int{{12, 8}, {76, 4}, {0, 8}} {
		if _, err := gb.Cluster(bad[0], bad[1]); !errors.Is(err, ErrShape) {
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
