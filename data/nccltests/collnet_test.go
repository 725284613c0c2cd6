package nccltests

import (
	"strings"
	"testing"
)

// The KISTI log of nccl-tests#311 (NCCL 2.23.4, where CollNet fell back to
// point-to-point): its line 17, "3 coll channels, 3 collnet channels, ...",
// is read as printed, but NCCL 2.21 on print comm->nChannels as the collnet
// count (src/init.cc at v2.23.4-1), and line 16's "/SHARP" marks every
// InfiniBand port of nccl-rdma-sharp-plugins (isSharpDev, src/p2p_plugin.c):
// neither says CollNet was set up, and the log holds none of the lines that
// do, so CollNet is unknown.
func TestCollNetKISTI(t *testing.T) {
	l, err := readPath("testdata/real/a100_4x2_allreduce_collnet_kisti_nccltests311.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := l.Tests[0].Evidence
	ch := Channels{Coll: 3, CollNet: 3, NVLS: 0, P2P: 4, P2PPerPeer: 1}
	if e.Channels != (Fact[Channels]{ch, 17}) {
		t.Errorf("channels %v, want %+v at 17", e.Channels, ch)
	}
	if e.CollNet.Known() {
		t.Errorf("CollNet %v, want unknown", e.CollNet)
	}
	// 16: "[0]mlx5_2:1/IB/SHARP ... [5]mlx5_4:1/IB/SHARP": six IB ports.
	if len(e.NICs) != 6 || e.NICs[0].Name != "mlx5_2" || e.NICs[0].Link != "IB" || e.NICCount != (Fact[int]{6, 16}) {
		t.Errorf("NICs %+v (%v), want 6 IB ports from mlx5_2 at 16", e.NICs, e.NICCount)
	}
}

// NCCL's CollNet lines, as its sources print them: set up ("rank %d
// Connected CollNet", "Collnet Chains %s", "Connected Collnet Chains %s"),
// or not ("Cannot initialize CollNet, ..." is a WARN of transport.cc, the
// node threshold's "disabling CollNet" an INFO of init.cc), a failure
// outranking an earlier success.
func TestCollNetLines(t *testing.T) {
	const head = "#  Rank  0 Group  0 Pid  1 on a device  0 [0x1b] NVIDIA A100-SXM4-80GB\n"
	const rows = `#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
        1024           256     float     sum      -1    40.00    0.03    0.05      0    40.00    0.03    0.05      0
`
	for _, c := range []struct {
		name, lines string
		want        Fact[bool]
	}{
		{"connected", "a:1:2 [0] NCCL INFO rank 0 Connected CollNet\n", Fact[bool]{true, 2}},
		{"chains 2.20", "a:1:2 [0] NCCL INFO Collnet Chains  [0] 1->0->-1\n", Fact[bool]{true, 2}},
		{"chains 2.21", "a:1:2 [0] NCCL INFO Connected Collnet Chains  [0] 1->0->-1\n", Fact[bool]{true, 2}},
		{"threshold", "a:1:2 [0] NCCL INFO Communicator has 1 nodes which is less than CollNet node threshold 2, disabling CollNet\n", Fact[bool]{false, 2}},
		{"fallback after setup", "a:1:2 [0] NCCL INFO rank 0 Connected CollNet\n" +
			"a:1:2 [0] transport.cc:464 NCCL WARN Cannot initialize CollNet, using point-to-point network instead\n", Fact[bool]{false, 3}},
		{"channel count", "a:1:2 [0] NCCL INFO 3 coll channels, 3 collnet channels, 0 nvls channels, 4 p2p channels, 1 p2p channels per peer\n", Fact[bool]{}},
	} {
		l, err := read(strings.NewReader(head+c.lines+rows), c.name, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := l.Tests[0].Evidence.CollNet; got != c.want {
			t.Errorf("%s: CollNet %v, want %v", c.name, got, c.want)
		}
	}
}
