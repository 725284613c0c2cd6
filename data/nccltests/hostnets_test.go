package nccltests

import (
	"reflect"
	"testing"
)

// hostNetsLog is a run of 2 hosts x 2 GPUs whose channel lines show host a
// driving NET devices 0 and 1 over channels 0 and 1 and host b device 2
// alone: made-up lines in the format of NCCL 2.23 (debug.cc's prefix,
// transport/net.cc's channel line), the rows of no run.
const hostNetsLog = `# nThread 1 nGpus 1 minBytes 1048576 maxBytes 2097152 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#
# Using devices
#  Rank  0 Group  0 Pid   4100 on     node-a device  0 [0000:18:00] NVIDIA A100-SXM4-80GB
#  Rank  1 Group  0 Pid   4101 on     node-a device  1 [0000:2a:00] NVIDIA A100-SXM4-80GB
#  Rank  2 Group  0 Pid   4200 on     node-b device  0 [0000:18:00] NVIDIA A100-SXM4-80GB
#  Rank  3 Group  0 Pid   4201 on     node-b device  1 [0000:2a:00] NVIDIA A100-SXM4-80GB
node-a:4100:4150 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB ; OOB ib0:10.0.0.1<0>
node-a:4100:4150 [0] NCCL INFO 2 coll channels, 0 collnet channels, 0 nvls channels, 2 p2p channels, 1 p2p channels per peer
node-a:4100:4160 [0] NCCL INFO Channel 00/0 : 3[1] -> 0[0] [receive] via NET/IB/0/GDRDMA
node-a:4101:4161 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/IB/0/GDRDMA
node-a:4100:4160 [0] NCCL INFO Channel 01/0 : 3[1] -> 0[0] [receive] via NET/IB/1/GDRDMA
node-b:4200:4250 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [receive] via NET/IB/2/GDRDMA
node-b:4201:4251 [1] NCCL INFO Channel 01/0 : 3[1] -> 0[0] [send] via NET/IB/2/GDRDMA
#
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
     1048576        262144     float     sum      -1    78.79   13.31   19.97       0    78.82   13.30   19.95       0
     2097152        524288     float     sum      -1   121.82   17.22   25.82       0   124.09   16.90   25.35       0
`

// Each host's channel lines are kept apart: the NIC count no list gave
// would be the most one host names, and RunNICs is the host that names the
// fewest. Here the list (line 8) gives 4 NICs; host a's lines (10, 11, 12)
// name devices 0 and 1 on channels 0 and 1, host b's (13, 14) device 2 on
// the same two channels, so the run drives 1 NIC a host at the least.
func TestHostNetsTwoHosts(t *testing.T) {
	e := readString(t, hostNetsLog, Options{}).Tests[0].Evidence
	want := []HostNet{
		{Host: "node-a", Devices: []int{0, 1}, Channels: 2, Line: 10},
		{Host: "node-b", Devices: []int{2}, Channels: 2, Line: 13},
	}
	if !reflect.DeepEqual(e.HostNets, want) {
		t.Errorf("host nets %+v, want %+v", e.HostNets, want)
	}
	if e.NICCount != (Fact[int]{4, 8}) {
		t.Errorf("NIC count %v, want the list's 4 at line 8", e.NICCount)
	}
	if got, ok := e.RunNICs(); !ok || !reflect.DeepEqual(got, want[1]) {
		t.Errorf("RunNICs %+v %v, want node-b's %+v", got, ok, want[1])
	}
}

// Without a device list, the NIC count is the most devices one host's lines
// name (host a's 2, line 10), not the 3 that the two hosts name together:
// a device's index counts within its own host.
func TestHostNetsCountPerHost(t *testing.T) {
	var d debugState
	for i, c := range []struct{ host, msg string }{
		{"node-a", "Channel 00/0 : 3[1] -> 0[0] [receive] via NET/IB/0/GDRDMA"},
		{"node-a", "Channel 01/0 : 3[1] -> 0[0] [receive] via NET/IB/1/GDRDMA"},
		{"node-b", "Channel 00/0 : 1[1] -> 2[0] [receive] via NET/IB/2/GDRDMA"},
	} {
		d.line(10+i, c.host, c.msg)
	}
	if e := d.evidence(); e.NICCount != (Fact[int]{2, 10}) {
		t.Errorf("NIC count %v, want 2 at line 10", e.NICCount)
	}
}

// The KISTI log of nccl-tests#311 holds one host's channel lines: gpu34's
// (18: "gpu34:34088:34142 [0] NCCL INFO Channel 00/0 : 7[1] -> 0[0]
// [receive] via NET/IBext_v8/1/GDRDMA", 20: rank 1's send on device 1), both
// of channel 00 of the 3 coll channels line 17 gives. The list on line 16
// gives the host's 6 NICs; the run drives 1 of them, at least (1 channel of
// 3 shown).
func TestHostNetsOneHostKISTI(t *testing.T) {
	l, err := readPath("testdata/real/a100_4x2_allreduce_collnet_kisti_nccltests311.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := l.Tests[0].Evidence
	want := HostNet{Host: "gpu34", Devices: []int{1}, Channels: 1, Line: 18}
	if got, ok := e.RunNICs(); !ok || !reflect.DeepEqual(got, want) || len(e.HostNets) != 1 {
		t.Errorf("RunNICs %+v %v of %d hosts, want %+v of 1", got, ok, len(e.HostNets), want)
	}
	if e.NICCount != (Fact[int]{6, 16}) || e.Channels.Value.Coll != 3 {
		t.Errorf("NIC count %v, coll channels %d; want 6 at 16, 3", e.NICCount, e.Channels.Value.Coll)
	}
}

// Lines without NCCL's prefix count as one host, "", and an Open MPI tag
// before the prefix leaves the host: the p4d log's lines
// ("[1,1]<stdout>:nccl-tests-efa-16-worker-0:26:68 [1] NCCL INFO Channel 00
// : 1[101d0] -> 8[101c0] [send] via NET/AWS Libfabric/1/GDRDMA", line 150)
// name devices 0 to 3 on each of its two hosts, over its 8 channels.
func TestHostNetsPrefixes(t *testing.T) {
	var d debugState
	host, _ := debugHost("")
	d.line(3, host, "Channel 02 : 0[0] -> 1[1] [send] via NET/Socket/0")
	if e := d.evidence(); len(e.HostNets) != 1 || e.HostNets[0].Host != "" || e.HostNets[0].Channels != 1 {
		t.Errorf("no prefix: %+v, want one host \"\" of 1 channel", e.HostNets)
	}
	l, err := readPath("testdata/real/a100_2x8_allreduce_efa_p4d_ncclinfo.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := l.Tests[0].Evidence
	if len(e.HostNets) != 2 || e.HostNets[0].Host != "nccl-tests-efa-16-worker-0" || e.HostNets[0].Line != 150 ||
		e.HostNets[1].Host != "nccl-tests-efa-16-worker-1" {
		t.Fatalf("host nets %+v, want worker-0 from line 150, worker-1", e.HostNets)
	}
	for _, h := range e.HostNets {
		if !reflect.DeepEqual(h.Devices, []int{0, 1, 2, 3}) || h.Channels != 8 {
			t.Errorf("%s: devices %v over %d channels, want 0 to 3 over 8", h.Host, h.Devices, h.Channels)
		}
	}
}
