package predict

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// TestSocketsNICRate: the H800 log's NCCL found no RDMA device ("NET/IB :
// No device found.", line 23) and ran over sockets ("Using network Socket",
// line 25) on the Ethernet interface enx785ee8a015a1, whose speed it reads
// from sysfs and does not print. The NICs' rate is then an Ethernet port's,
// 25 Gb/s and still assumed, not the 400 Gb/s of Hopper's RDMA NICs; the
// guess of it tries NCCL's own 10 Gb/s, says the log shows sockets and names
// the interface's sysfs file, and its flag, pasted, moves the prediction of
// a 2 x 8 broadcast at 1 GiB as the guess says (2.5x). A rate the user
// gives stands.
func TestSocketsNICRate(t *testing.T) {
	h800 := firstTable(t, "../../data/nccltests/testdata/real/h800_1x8_broadcast_ncclinfo.log")
	describe := func(spec string) Hardware {
		t.Helper()
		h, err := Describe(h800.GPU, spec)
		if err != nil {
			t.Fatal(err)
		}
		h, notes := h.WithEvidence([]Table{h800})
		if spec == "" && (len(notes) != 1 || !strings.Contains(notes[0], "NCCL ran over sockets") || !strings.Contains(notes[0], "/sys/class/net/enx785ee8a015a1/speed")) {
			t.Errorf("notes %q, want one that says NCCL ran over sockets and names the interface's speed file", notes)
		}
		return h.ForHosts(8)
	}
	h := describe("")
	if h.NICBW != 25e9/8 || h.given(h.Sources.NICBW) {
		t.Fatalf("nic_bw %s from %q, want 25 Gb/s, assumed", formatBitRate(h.NICBW), h.Sources.NICBW)
	}
	q := Query{Collective: commmodel.Broadcast, Ranks: 16, PerNode: 8}
	sizes := []float64{1 << 20, 1 << 26, 1 << 30}
	gs, err := Guesses(h, []Table{h800}, q, sizes)
	if err != nil {
		t.Fatal(err)
	}
	var g *Guess
	for i := range gs {
		if gs[i].Fact.Key == "nic-bw" {
			g = &gs[i]
		}
	}
	if g == nil {
		t.Fatalf("no guess of nic_bw among %+v", gs)
	}
	if g.Alternative != "10 Gb/s" || !strings.Contains(g.Flag(), "-hw nic-bw=RATE (the log shows NCCL ran over sockets") || !strings.Contains(g.Flag(), "line 25") {
		t.Errorf("guess %q with %s: %s; want 10 Gb/s, and a flag that says the log shows sockets", g.Fact.Value, g.Alternative, g.Flag())
	}
	if math.Abs(g.Ratio-2.5) > 0.05 || g.Size != 1<<30 {
		t.Errorf("ratio %.2f at %g B, want 2.5 at 1 GiB", g.Ratio, g.Size)
	}
	// The flag, pasted with the alternative, gives the guess's times.
	m, err := Calibrate(describe("nic-bw=10Gb/s"), []Table{h800}, nil)
	if err != nil {
		t.Fatal(err)
	}
	preds, err := m.Predict(q, sizes)
	if err != nil {
		t.Fatal(err)
	}
	for i := range preds {
		if r := preds[i].Time / g.Times[i]; math.Abs(r-1) > 0.01 {
			t.Errorf("%g B: -hw nic-bw=10Gb/s predicts %.3g s, the guess %.3g s", sizes[i], preds[i].Time, g.Times[i])
		}
	}
	if told := describe("nic-bw=100Gb/s"); told.NICBW != 100e9/8 || told.Sources.NICBW != SourceUser {
		t.Errorf("nic-bw=100Gb/s given: %s from %q, want the user's", formatBitRate(told.NICBW), told.Sources.NICBW)
	}
}

// TestEvidenceDisagrees: two logs whose NCCL lines give one machine fact
// two values: the first log's stands, and a note names both values, also
// where the first log's line set the fact (it was silent then). AWS's p4d
// log lists 4 EFA NICs, KISTI's CollNet log 6 InfiniBand ports. Their
// coll channels differ too (8 at 8 GPUs a host, 3 at 2), but for runs of
// other shapes, which is no disagreement and gives no note.
func TestEvidenceDisagrees(t *testing.T) {
	const real = "../../data/nccltests/testdata/real/"
	p4d := firstTable(t, real+"a100_2x8_allreduce_efa_p4d_ncclinfo.log")
	kisti := firstTable(t, real+"a100_4x2_allreduce_collnet_kisti_nccltests311.log")
	h, err := Describe("A100-SXM4-80GB", "")
	if err != nil {
		t.Fatal(err)
	}
	h, notes := h.WithEvidence([]Table{p4d, kisti})
	if h.NICs != 4 || h.Sources.NICs != SourceNCCLDebug {
		t.Errorf("nics_per_node %d (%s), want the first log's 4 (nccl-debug)", h.NICs, h.Sources.NICs)
	}
	want := "NCCL's debug lines give nics_per_node 6, where " + p4d.Name + "'s give 4; " + p4d.Name + "'s is taken"
	if !slices.ContainsFunc(notes, func(n string) bool { return strings.HasPrefix(n, kisti.Name+": "+want) }) {
		t.Errorf("notes %q; want %q", notes, want)
	}
	if slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "give coll_channels") }) {
		t.Errorf("notes %q name coll_channels, which the logs give for runs of other shapes", notes)
	}
}
