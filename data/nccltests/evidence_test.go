package nccltests

import (
	"bufio"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
)

// What the real logs with NCCL_DEBUG=INFO lines say of their machine, each
// fact at the line the log states it (the lines quoted in the comments).
func TestEvidenceRealLogs(t *testing.T) {
	type fact = Fact[int]
	for _, c := range []struct {
		file  string
		check func(t *testing.T, e Evidence)
	}{
		{"testdata/real/h800_1x8_broadcast_ncclinfo.log", func(t *testing.T, e Evidence) {
			// 10: "#  Rank  0 Group  0 Pid 422771 on nf5688m7-1 device  0 [0x0f] NVIDIA H800"
			want0 := Device{Rank: 0, Pid: 422771, Host: "nf5688m7-1", Device: 0, BusID: "0x0f", GPU: "NVIDIA H800", Line: 10}
			if len(e.Devices) != 8 || e.Devices[0] != want0 || e.GPUsPerHost != (fact{8, 10}) {
				t.Errorf("devices %d, first %+v, per host %v; want 8, %+v, 8 at line 10", len(e.Devices), e.Devices[0], e.GPUsPerHost, want0)
			}
			// 24: "NET/Socket : Using [0]enx785ee8a015a1:10.59.6.30<0> [1]veth6f0b7dd:fe80::..."; 25: "Using network Socket"
			nics := []NIC{{Index: 0, Name: "enx785ee8a015a1", Line: 24}, {Index: 1, Name: "veth6f0b7dd", Line: 24}}
			// veth6f0b7dd is a container's interface, no NIC of the host.
			if !reflect.DeepEqual(e.NICs, nics) || e.NICCount != (fact{1, 24}) || e.Network != (Fact[string]{"Socket", 25}) {
				t.Errorf("NICs %+v (%v), network %v; want %+v, 1 at 24, Socket at 25", e.NICs, e.NICCount, e.Network, nics)
			}
			// 42: "NVLS multicast support is available on dev 4"; 43: "Channel 00/16 : 0 3 1 2 4 7 5 6";
			// 45: "Trees [0] ... [15] ..."; 57: "16 coll channels, 16 nvls channels, 16 p2p channels, 16 p2p channels per peer"
			ch := Channels{Coll: 16, CollNet: -1, NVLS: 16, P2P: 16, P2PPerPeer: 16}
			if e.NVLS != (Fact[bool]{true, 42}) || e.Rings != (fact{16, 43}) || e.Trees != (fact{16, 45}) || e.Channels != (Fact[Channels]{ch, 57}) {
				t.Errorf("NVLS %v, rings %v, trees %v, channels %v; want true at 42, 16 at 43, 16 at 45, %+v at 57", e.NVLS, e.Rings, e.Trees, e.Channels, ch)
			}
			// 22: rank 0's bare "NCCL version 2.18.3+cuda12.2"; the post holds no comm,
			// GPUDirect or speed line (23: "NET/IB : No device found.").
			if e.NCCLVersion != (Fact[string]{"2.18.3", 22}) || e.CUDA != (Fact[string]{"12.2", 22}) ||
				e.Nodes.Known() || e.GPUDirect.Known() || e.NICBW.Known() {
				t.Errorf("version %v, CUDA %v, nodes %v, GPUDirect %v, NIC BW %v; want 2.18.3 and 12.2 at 22, none", e.NCCLVersion, e.CUDA, e.Nodes, e.GPUDirect, e.NICBW)
			}
			// NCCL's own version line: no RCCL.
			if e.RCCL.Known() {
				t.Errorf("RCCL %v, want none", e.RCCL)
			}
		}},
		{"testdata/real/v100_efa_2x1_allreduce_pre2022.log", func(t *testing.T, e Evidence) {
			// 20: "NET/OFI Forcing AWS OFI ndev 4" (devices aws-ofi-nccl emulates over the
			// p3dn's one EFA NIC: no NIC count); 21: "NET/OFI Selected Provider is efa";
			// 23: "Using network AWS Libfabric"; 31: "Channel 00/04 :    0   1"; 36: "Trees [0] ... [3] ..."
			if e.NICCount.Known() || e.Provider != (Fact[string]{"efa", 21}) || e.Network != (Fact[string]{"AWS Libfabric", 23}) ||
				e.Rings != (fact{4, 31}) || e.Trees != (fact{4, 36}) || len(e.NICs) != 0 {
				t.Errorf("NICs %v %+v, provider %v, network %v, rings %v, trees %v; want none, efa at 21, AWS Libfabric at 23, 4 at 31, 4 at 36",
					e.NICCount, e.NICs, e.Provider, e.Network, e.Rings, e.Trees)
			}
			// 16 and 17: one rank on each of two hosts.
			if len(e.Devices) != 2 || e.GPUsPerHost != (fact{1, 16}) || e.Devices[1].Host != "ip-192-168-16-52" {
				t.Errorf("devices %+v, per host %v; want 2 on two hosts, 1 at 16", e.Devices, e.GPUsPerHost)
			}
		}},
		{"testdata/real/h100_2x8_allreduce_tagoutput_split_rows_p5.log", func(t *testing.T, e Evidence) {
			// 31: "[1,0]<stdout>:test-nccl-worker-0:25:25 [0] NCCL INFO NCCL version 2.22.3+cuda12.2"
			if e.NCCLVersion != (Fact[string]{"2.22.3", 31}) || e.CUDA != (Fact[string]{"12.2", 31}) || e.GPUsPerHost != (fact{8, 13}) {
				t.Errorf("version %v, CUDA %v, per host %v; want 2.22.3 and 12.2 at 31, 8 at 13", e.NCCLVersion, e.CUDA, e.GPUsPerHost)
			}
		}},
		{"testdata/real/a100_2x8_allreduce_efa_p4d_ncclinfo.log", func(t *testing.T, e Evidence) {
			// 13: "[1,0]<stdout>:#   Rank  0 Pid     25 on nccl-tests-efa-16-worker-0 device  0 [0x10] A100-SXM4-40GB", 8 a host;
			// 31: "NET/OFI Selected Provider is efa"; 33: "Using network AWS Libfabric"; 34: "[1,0]<stdout>:NCCL version 2.9.9+cuda11.2"
			if e.GPUsPerHost != (fact{8, 13}) || e.Provider != (Fact[string]{"efa", 31}) || e.Network != (Fact[string]{"AWS Libfabric", 33}) ||
				e.NCCLVersion != (Fact[string]{"2.9.9", 34}) || e.CUDA != (Fact[string]{"11.2", 34}) {
				t.Errorf("per host %v, provider %v, network %v, version %v, CUDA %v; want 8 at 13, efa at 31, AWS Libfabric at 33, 2.9.9 and 11.2 at 34",
					e.GPUsPerHost, e.Provider, e.Network, e.NCCLVersion, e.CUDA)
			}
			// 110: rank 1's "Trees [0] ... [7] ..."; 132: "Channel 00/08 :    0   7   6 ...";
			// 469: "8 coll channels, 8 p2p channels, 1 p2p channels per peer" (NCCL 2.9: no collnet or nvls count)
			ch := Channels{Coll: 8, CollNet: -1, NVLS: -1, P2P: 8, P2PPerPeer: 1}
			if e.Trees != (fact{8, 110}) || e.Rings != (fact{8, 132}) || e.Channels != (Fact[Channels]{ch, 469}) {
				t.Errorf("trees %v, rings %v, channels %v; want 8 at 110, 8 at 132, %+v at 469", e.Trees, e.Rings, e.Channels, ch)
			}
			// aws-ofi-nccl of NCCL 2.9 prints no "ndev" or "found N nics" line, NCCL 2.9 no
			// comm line with nNodes and no NVLS line. 150: "Channel 00 : 1[101d0] -> 8[101c0] [send]
			// via NET/AWS Libfabric/1/GDRDMA", the first of the channel lines, which name devices
			// /0 to /3 (a p4d's four EFA NICs), each with GPU Direct RDMA.
			if e.NICCount != (fact{4, 150}) || len(e.NICs) != 0 || e.Nodes.Known() || e.NVLS.Known() || e.GPUDirect != (Fact[bool]{true, 150}) {
				t.Errorf("NICs %v %+v, nodes %v, NVLS %v, GPUDirect %v; want 4 at 150, none, none, true at 150", e.NICCount, e.NICs, e.Nodes, e.NVLS, e.GPUDirect)
			}
			// 30: "NET/OFI Running on P4d platform, Setting NCCL_TOPO_FILE environment variable to
			// .../p4d-24xl-topo.xml", the plugin's form for p4d.24xlarge before 2022.
			if e.Platform != (Fact[string]{"p4d.24xlarge", 30}) {
				t.Errorf("platform %v, want p4d.24xlarge at 30", e.Platform)
			}
		}},
		{"testdata/real/rtxpro6000_2x1_allreduce_efa_g7e_slurm.log", func(t *testing.T, e Evidence) {
			// 44: "NET/OFI Could not disable CUDA API usage for HMEM, disabling GDR";
			// 47: "NET/OFI Need to force simple protocol: GDR not supported" (the
			// plugin's own NCCL_PROTO=simple, which NCCL reads at 113 as the
			// environment's: "NCCL_PROTO set by environment to simple").
			if e.PluginNoGDR != (Fact[string]{"Could not disable CUDA API usage for HMEM, disabling GDR", 44}) ||
				e.PluginSimple != (Fact[string]{"GDR", 47}) || e.Proto.Value != "simple" {
				t.Errorf("plugin's GDR %v, its simple protocol %v, NCCL_PROTO %v; want line 44's message, GDR at 47, simple", e.PluginNoGDR, e.PluginSimple, e.Proto)
			}
		}},
		{"testdata/real/gh200_2x4_allreduce_slingshot_alps.log", func(t *testing.T, e Evidence) {
			// 13: "    #  Rank  0 Group  0 Pid 204199 on  nid005471 device  0 [0009:01:00] NVIDIA GH200 120GB",
			// ranks 0-3 on nid005471 and 4-7 on nid005487; no NCCL INFO line.
			want0 := Device{Rank: 0, Pid: 204199, Host: "nid005471", Device: 0, BusID: "0009:01:00", GPU: "NVIDIA GH200 120GB", Line: 13}
			if len(e.Devices) != 8 || e.Devices[0] != want0 || e.GPUsPerHost != (fact{4, 13}) || e.NCCLVersion.Known() || e.NICCount.Known() {
				t.Errorf("devices %d, first %+v, per host %v, version %v, NICs %v; want 8, %+v, 4 at 13, none, none",
					len(e.Devices), e.Devices[0], e.GPUsPerHost, e.NCCLVersion, e.NICCount, want0)
			}
		}},
		{"testdata/real/mi355x_2x8_allreduce_pollara_roce.log", func(t *testing.T, e Evidence) {
			// 11: "#  Rank  0 Group  0 Pid 2908511 on mi355-gpu-23 device  0 [0000:75:00]", no GPU name;
			// 8 ranks on each host; NCCL_DEBUG=Version prints no INFO line.
			want0 := Device{Rank: 0, Pid: 2908511, Host: "mi355-gpu-23", Device: 0, BusID: "0000:75:00", Line: 11}
			if len(e.Devices) != 16 || e.Devices[0] != want0 || e.GPUsPerHost != (fact{8, 11}) || e.Network.Known() || e.NICCount.Known() {
				t.Errorf("devices %d, first %+v, per host %v, network %v, NICs %v; want 16, %+v, 8 at 11, none, none",
					len(e.Devices), e.Devices[0], e.GPUsPerHost, e.Network, e.NICCount, want0)
			}
			// 27: rccl-tests' "RCCL version : 2.26.6-HEAD:6ade506", the NCCL release RCCL follows.
			if e.NCCLVersion != (Fact[string]{"2.26.6", 27}) || e.CUDA.Known() {
				t.Errorf("version %v, CUDA %v; want 2.26.6 at 27, none", e.NCCLVersion, e.CUDA)
			}
			// 9: "rccl-tests: Version develop:5272cd1", before the Rank lines.
			if e.RCCL != (Fact[bool]{true, 9}) {
				t.Errorf("RCCL %v, want true at 9", e.RCCL)
			}
		}},
		{"testdata/real/radeon_1x8_g8_allreduce_aion.log", func(t *testing.T, e Evidence) {
			// 5: "# rccl-tests version 2.17.9-develop:2596ca5f71 rccl-headers=22803
			// rccl-library=22707": RCCL 2.27.7, in NCCL's code; no RCCL version line.
			if e.Library != (Fact[string]{"22707", 5}) || e.RCCL != (Fact[bool]{true, 5}) || e.NCCLVersion.Known() {
				t.Errorf("library %v, RCCL %v, version %v; want 22707 and true at 5, none", e.Library, e.RCCL, e.NCCLVersion)
			}
		}},
		{"testdata/mpirun_noisy_allreduce.log", func(t *testing.T, e Evidence) {
			// 39: "NCCL version 2.21.5+cuda12.4"; 67: "Channel 00/24 : 0 1 2 ... 15"
			if e.NCCLVersion != (Fact[string]{"2.21.5", 39}) || e.Rings != (fact{24, 67}) {
				t.Errorf("version %v, rings %v; want 2.21.5 at 39, 24 at 67", e.NCCLVersion, e.Rings)
			}
		}},
	} {
		l, err := readPath(c.file, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(c.file, func(t *testing.T) { c.check(t, l.Tests[0].Evidence) })
	}
}

// debugFile reads the NCCL debug lines of a log that holds no table (the
// TUNING and GRAPH captures of package nccl) as the Reader reads them.
func debugFile(t *testing.T, path string) Evidence {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var d debugState
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if _, msg, ok := strings.Cut(sc.Text(), "NCCL INFO "); ok {
			d.line(n, "", msg)
		}
	}
	return d.evidence()
}

// The captures of commmodel/nccl/testdata: the comm line of NCCL 2.20 and
// the NET link of a GRAPH topology dump.
func TestEvidenceCaptures(t *testing.T) {
	// tuning_2.20_h100_2x8_nccl1519.log:5: "comm 0x55d35c3a9ec0 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0"
	e := debugFile(t, "../../commmodel/nccl/testdata/tuning_2.20_h100_2x8_nccl1519.log")
	if e.Ranks != (Fact[int]{16, 5}) || e.Nodes != (Fact[int]{2, 5}) || e.LocalRanks != (Fact[int]{8, 5}) || e.MNNVL != (Fact[bool]{false, 5}) {
		t.Errorf("ranks %v, nodes %v, local ranks %v, MNNVL %v; want 16, 2, 8, false at line 5", e.Ranks, e.Nodes, e.LocalRanks, e.MNNVL)
	}
	// :4: "Pattern 5, crossNic 0, nChannels 7, bw 3.000000/3.000000, type NVL/PHB, sameChannels 0"
	if e.NICPath != (Fact[nccl.PathType]{nccl.PathPHB, 4}) {
		t.Errorf("NIC path %v; want PHB at line 4 (the only graph line)", e.NICPath)
	}
	// graph_h20_2gpu_2nic_nccl1189.log:16: "+ NET[50.0] - NET/3 (aa24210003bd70c4/1/50.000000)": 50 GB/s;
	// :4: "Pattern 4, crossNic 1, nChannels 4, bw 24.000000/24.000000, type NVL/PIX, sameChannels 0".
	e = debugFile(t, "../../commmodel/nccl/testdata/graph_h20_2gpu_2nic_nccl1189.log")
	if e.NICBW != (Fact[float64]{50e9, 16}) || e.NICCount.Known() || e.NICPath != (Fact[nccl.PathType]{nccl.PathPIX, 4}) {
		t.Errorf("NIC BW %v, count %v, path %v; want 50e9 at line 16, no count (a partial dump), PIX at 4", e.NICBW, e.NICCount, e.NICPath)
	}
}

// The ring's search result (pattern 4) gives the NICs' path over a tree's
// printed before it; a later ring line, or a line that does not read as a
// search result, leaves it (graph/search.cc's format).
func TestEvidenceGraphLines(t *testing.T) {
	var d debugState
	for i, l := range []string{
		"Pattern 1, crossNic 0, nChannels 2, bw 40.000000/40.000000, type NVL/PXB, sameChannels 1",
		"Pattern 4, crossNic 0, nChannels 16, bw 20.000000/20.000000, type NVL/PHB, sameChannels 1",
		"Pattern 4, crossNic 0, nChannels 16, bw 20.000000/20.000000, type NVL/PIX, sameChannels 1",
		"Pattern 4, crossNic 0, nChannels 16, bw 20.000000/20.000000, type NVL/XYZ, sameChannels 1",
	} {
		d.line(i+1, "", l)
	}
	if e := d.evidence(); e.NICPath != (Fact[nccl.PathType]{nccl.PathPHB, 2}) {
		t.Errorf("NIC path %v; want the first ring's PHB at line 2", e.NICPath)
	}
	d = debugState{}
	d.line(1, "", "Pattern 4, crossNic 0, nChannels 16, bw 20.000000/20.000000, type NVL/BAD, sameChannels 1")
	if e := d.evidence(); e.NICPath.Known() {
		t.Errorf("unknown path type: %v; want none", e.NICPath)
	}
}

// Each form of line, as NCCL's format strings print it (the files of
// github.com/NVIDIA/nccl named), including the older forms.
func TestEvidenceLineForms(t *testing.T) {
	lines := []string{
		// 1, 2: net_ib.cc / net_ib/init.cc "NET/IB : Using%s %s; OOB %s:%s", each device " [%d]%s:%d" (rail ":%d") "/%s".
		"NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_3:1:2/RoCE [RO]; OOB ib0:10.0.0.1<0>",
		"NET/IB : Using [0]mlx5_9:1/IB ; OOB ib0:10.0.0.2<0>", // a second rank's list: the first is kept
		// 3, 4: net_ib/init.cc (2.24+, NCCL_DEBUG_SUBSYS=NET) "NET/IB: [%d] %s:%s:%d/%s provider=%s speed=%d ...", Mb/s.
		"NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=400000 context=0x55 pciPath=/sys/0000:1a:00.0 ar=1 oooRqSize=0",
		"NET/IB: [1] mlx5_3:uverbs3:1/RoCE provider=Mlx5 speed=200000 context=0x56 pciPath=/sys/0000:1b:00.0 ar=0 oooRqSize=0",
		// 5: graph/paths.cc before 2.24.
		"GPU Direct RDMA Enabled for GPU 18000 / HCA 0 (distance 4 <= 5), read 1",
		// 6: transport/nvls.cc.
		"NVLS multicast support is not available on dev 0",
		// 7: init.cc from 2.20.
		"32 coll channels, 32 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer",
		// 8: the comm line without MNNVL (no release prints it so; read all the same).
		"comm 0x7f00 rank 3 nRanks 64 nNodes 16 localRanks 4 localRank 3",
		// 9: init.cc VERSION_STRING without a CUDA suffix.
		"NCCL version 2.8.4",
	}
	var d debugState
	for i, l := range lines {
		d.line(i+1, "", l)
	}
	e := d.e
	e.GPUDirect = d.evidence().GPUDirect // per host: the Reader gathers it at the end
	nics := []NIC{{Index: 0, Name: "mlx5_0", Port: 1, Link: "IB", BW: 50e9, Line: 1}, {Index: 1, Name: "mlx5_3", Port: 1, Link: "RoCE", BW: 25e9, Line: 1}}
	if !reflect.DeepEqual(e.NICs, nics) || e.NICCount != (Fact[int]{2, 1}) || e.NICBW != (Fact[float64]{50e9, 3}) {
		t.Errorf("NICs %+v (%v), BW %v; want %+v, 2 at 1, 50e9 (400000 Mb/s) at 3", e.NICs, e.NICCount, e.NICBW, nics)
	}
	ch := Channels{Coll: 32, CollNet: 32, NVLS: 0, P2P: 32, P2PPerPeer: 32}
	if e.GPUDirect != (Fact[bool]{true, 5}) || e.NVLS != (Fact[bool]{false, 6}) || e.Channels != (Fact[Channels]{ch, 7}) {
		t.Errorf("GPUDirect %v, NVLS %v, channels %v; want true at 5, false at 6, %+v at 7", e.GPUDirect, e.NVLS, e.Channels, ch)
	}
	if e.Nodes != (Fact[int]{16, 8}) || e.LocalRanks != (Fact[int]{4, 8}) || e.MNNVL.Known() || e.NCCLVersion != (Fact[string]{"2.8.4", 9}) || e.CUDA.Known() {
		t.Errorf("nodes %v, local %v, MNNVL %v, version %v, CUDA %v; want 16 and 4 at 8, none, 2.8.4 at 9, none", e.Nodes, e.LocalRanks, e.MNNVL, e.NCCLVersion, e.CUDA)
	}

	// The speed lines come before the list in NCCL's output: the list
	// takes them. The topology's 2.24 form names HCAs; OFI counts its NICs.
	d = debugState{}
	for i, l := range []string{lines[2], lines[3], lines[0],
		"NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'", // graph/topo.cc from 2.24
		"NET/OFI Selected Provider is cxi (found 4 nics)",      // aws-ofi-nccl
	} {
		d.line(i+1, "", l)
	}
	if e := d.evidence(); e.NICs[0].BW != 50e9 || e.NICs[1].BW != 25e9 || e.GPUDirect != (Fact[bool]{false, 4}) || e.Provider != (Fact[string]{"cxi", 5}) || e.NICCount != (Fact[int]{2, 3}) {
		t.Errorf("NICs %+v, GPUDirect %v, provider %v, count %v; want 50e9 and 25e9, false at 4, cxi at 5, 2 at 3 (the list outranks OFI)",
			e.NICs, e.GPUDirect, e.Provider, e.NICCount)
	}
	d = debugState{}
	d.line(1, "", "NET/OFI Selected Provider is cxi (found 4 nics)")
	if d.e.NICCount.Known() || d.e.PluginNICs != (Fact[int]{4, 1}) {
		t.Errorf("OFI alone: count %v, the plugin's %v; want none, 4 at 1 (the provider's devices, not NCCL's)", d.e.NICCount, d.e.PluginNICs)
	}
	// The plugin's groups of a p5's 32 EFA devices are NCCL's devices
	// (KeitaW/p5-nccl-test-2024-07-19's logs: "found 32 nics", then "NIC
	// group 0 device #0 0000:52:00.0" to group 7's fourth).
	d = debugState{}
	d.line(1, "", "NET/OFI Selected Provider is efa (found 32 nics)")
	for g := range 8 {
		for k := range 4 {
			d.line(2+4*g+k, "", fmt.Sprintf("NET/OFI NIC group %d device #%d 0000:%02x:00.0", g, k, 0x50+4*g+k))
		}
	}
	if e := d.evidence(); e.NICCount != (Fact[int]{8, 2}) || e.PluginNICs != (Fact[int]{32, 1}) {
		t.Errorf("p5's groups: count %v, the plugin's %v; want 8 at 2, 32 at 1", e.NICCount, e.PluginNICs)
	}
	// init.cc's ring summary says whether the network connections use
	// GPUDirect RDMA (CCI-MOC/roce-testing's all_reduce_roce_1gpu.log,
	// line 58: "GDR 0").
	for _, c := range []struct {
		line string
		want bool
	}{{"Connected all rings, use ring PXN 0 GDR 0", false}, {"Connected all rings, use ring PXN 1 GDR 1", true}} {
		d = debugState{}
		d.line(7, "", c.line)
		if e := d.evidence(); e.GPUDirect != (Fact[bool]{c.want, 7}) {
			t.Errorf("%q: GPUDirect %v, want %v at 7", c.line, d.evidence().GPUDirect, c.want)
		}
	}

	// Without a list or a count, the devices the channel lines name
	// (transport/net.cc's "via NET/%s/%d%s", with the proxy rank under PXN)
	// count the NICs; a listed count outranks them, and OFI's count of its
	// provider's devices is apart.
	channels := []string{
		"Channel 00/0 : 7[7] -> 8[0] [send] via NET/IB/0/GDRDMA",
		"Channel 01/0 : 7[7] -> 8[0] [send] via NET/IBext_v8/3(12)/GDRDMA",
		"Channel 02/0 : 7[7] -> 8[0] [send] via NET/IB/3",
	}
	d = debugState{}
	for i, l := range channels {
		d.line(i+1, "", l)
	}
	if e := d.evidence(); e.NICCount != (Fact[int]{2, 1}) || e.GPUDirect != (Fact[bool]{true, 1}) {
		t.Errorf("channel lines: count %v, GPUDirect %v; want 2 (devices 0 and 3) at 1, true at 1", e.NICCount, e.GPUDirect)
	}
	d = debugState{}
	for i, l := range append(channels, "NET/OFI Selected Provider is cxi (found 4 nics)") {
		d.line(i+1, "", l)
	}
	if e := d.evidence(); e.NICCount != (Fact[int]{2, 1}) || e.PluginNICs != (Fact[int]{4, 4}) {
		t.Errorf("channel lines then OFI: count %v, the plugin's %v; want the channels' 2 at 1 (NCCL's devices), 4 at 4", e.NICCount, e.PluginNICs)
	}
}

// The forms of aws-ofi-nccl's platform line (github.com/aws/aws-ofi-nccl,
// the file and commit that print each), the first of several kept, and
// lines that name no platform.
func TestEvidencePlatform(t *testing.T) {
	for _, c := range []struct {
		lines []string
		want  Fact[string]
	}{
		// src/nccl_ofi_net.c of 35d97d28 (v1.1.1): the literal "P4d", printed only on a p4d.24xlarge.
		{[]string{"NET/OFI Running on P4d platform, Setting NCCL_TOPO_FILE environment variable to /opt/aws-ofi-nccl/xml/p4d-24xl-topo.xml"}, Fact[string]{"p4d.24xlarge", 1}},
		// src/nccl_ofi_net.c of 29883586 (v1.3.0): "Running on %s platform, Setting NCCL_TOPO_FILE environment variable to %s", the product name.
		{[]string{"NET/OFI Running on p4de.24xlarge platform, Setting NCCL_TOPO_FILE environment variable to /opt/amazon/efa/share/aws-ofi-nccl/xml/p4de-24xl-topo.xml"}, Fact[string]{"p4de.24xlarge", 1}},
		// src/platform-aws.c of 0b31e6f6 (v1.6.0): "Running on %s platform, NCCL_TOPO_FILE environment variable is already set to %s".
		{[]string{"NET/OFI Selected Provider is efa, fabric is efa (found 32 nics)", "NET/OFI Running on p5.48xlarge platform, NCCL_TOPO_FILE environment variable is already set to /tmp/topo.xml"}, Fact[string]{"p5.48xlarge", 2}},
		// src/platform-aws.cpp of 0f894680 (v1.16.0): "Running on %s platform, topology file %s"; each rank prints it, the first is kept.
		{[]string{"NET/OFI Running on p5en.48xlarge platform, topology file /opt/x.xml", "NET/OFI Running on p6-b200.48xlarge platform, topology file /opt/x.xml"}, Fact[string]{"p5en.48xlarge", 1}},
		// Not the platform line: no name, no "platform" word, another plugin line.
		{[]string{"NET/OFI Running on  platform, topology file /x", "NET/OFI Running on", "NET/OFI Running on p5.48xlarge", "NET/OFI Using aws-ofi-nccl 1.7.4-aws"}, Fact[string]{}},
	} {
		var d debugState
		for i, l := range c.lines {
			d.line(i+1, "", l)
		}
		if got := d.evidence().Platform; got != c.want {
			t.Errorf("%q: platform %v, want %v", c.lines, got, c.want)
		}
	}
}

// Debug lines belong to the test being set up: before a test's rows, or
// after the previous test's rows; those after the last test's rows, to it.
// Rank 0's bare "NCCL version" line (NCCL before 2.9) counts too.
func TestEvidenceAttribution(t *testing.T) {
	const row = "        1024           256     float     sum      -1    10.00    0.10    0.19      0    10.00    0.10    0.19      0\n"
	in := "NCCL version 2.7.5+cuda11.0\n" + // 1
		"# nThread 1 nGpus 2 minBytes 1024 maxBytes 1024 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n" +
		"h:1:1 [0] NCCL INFO Using network IB\n" + // 3
		row +
		"h:1:1 [0] NCCL INFO NVLS multicast support is available on dev 0\n" + // 5: the next test's
		"# nThread 1 nGpus 2 minBytes 1024 maxBytes 1024 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n" +
		row +
		"h:1:1 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1 [1] 1/-1/-1->0->-1\n" // 8: the last test's
	l := readString(t, in, Options{})
	if len(l.Tests) != 2 {
		t.Fatalf("%d tests, want 2", len(l.Tests))
	}
	a, b := l.Tests[0].Evidence, l.Tests[1].Evidence
	if a.NCCLVersion != (Fact[string]{"2.7.5", 1}) || a.CUDA != (Fact[string]{"11.0", 1}) || a.Network != (Fact[string]{"IB", 3}) || a.NVLS.Known() {
		t.Errorf("test 1: version %v CUDA %v network %v NVLS %v; want 2.7.5 and 11.0 at 1, IB at 3, no NVLS", a.NCCLVersion, a.CUDA, a.Network, a.NVLS)
	}
	if b.NVLS != (Fact[bool]{true, 5}) || b.Trees != (Fact[int]{2, 8}) || b.Network.Known() {
		t.Errorf("test 2: NVLS %v trees %v network %v; want true at 5, 2 at 8, none", b.NVLS, b.Trees, b.Network)
	}
}

// TestEvidenceTunerPlugin: the forms in which NCCL names the external tuner
// plugin it loaded (src/plugin/tuner.cc; KeitaW/p5-nccl-test-2024-07-19's
// log prints the first), and its internal tuner, which is none.
func TestEvidenceTunerPlugin(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"Using tuner plugin: 'nccl_ofi_tuner'", "nccl_ofi_tuner"},
		{"TUNER/Plugin: Using tuner plugin A3xTunerPlugin_v2", "A3xTunerPlugin_v2"},
		{"TUNER/Plugin: Using nccl_ofi_tuner (v3)", "nccl_ofi_tuner"},
		{"TUNER/Plugin: Using DN-TUNER (v4)", "DN-TUNER"},
		{"TUNER/Plugin: Using internal tuner plugin.", ""},
		{"TUNER/Plugin: Failed to find ncclTunerPlugin_v2 symbol, using internal tuner instead.", ""},
		{"Using network AWS Libfabric", ""},
	} {
		d := debugState{}
		d.line(9, "", c.line)
		if got := d.e.TunerPlugin; got.Value != c.want || got.Known() != (c.want != "") {
			t.Errorf("%q: tuner plugin %v, want %q", c.line, got, c.want)
		}
	}
}

// TestEvidenceEnv reads the parameters NCCL says the environment set, as
// the public logs print them: nccl-tests#319's NCCL_ALGO=RING (a string,
// no period) and NCCL_IB_QPS_PER_CONNECTION=64 (a number, printed "64."),
// and nccl-tests#331's NCCL_P2P_LEVEL and NCCL_BUFFSIZE, printed by two
// ranks' threads, each once.
func TestEvidenceEnv(t *testing.T) {
	cases := []struct {
		file string
		want []Setting
	}{
		{"h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log", []Setting{{"NCCL_ALGO", "RING", 31}, {"NCCL_IB_QPS_PER_CONNECTION", "64", 33}}},
		{"a100_1x2_sendrecv_leonardo_nccltests331.log", []Setting{{"NCCL_P2P_LEVEL", "NVL", 24}, {"NCCL_BUFFSIZE", "4194304", 39}}},
	}
	for _, c := range cases {
		l := readRealLog(t, c.file)
		if len(l.Tests) == 0 {
			t.Fatalf("%s: no test", c.file)
		}
		e := l.Tests[0].Evidence
		if !slices.Equal(e.Env, c.want) {
			t.Errorf("%s: Env %v, want %v", c.file, e.Env, c.want)
		}
		if e.Env[0].Name == "NCCL_ALGO" && e.Algo.Value != "RING" {
			t.Errorf("%s: Algo %v, want RING from the same line", c.file, e.Algo)
		}
	}
}

// TestPluginProtoForms: aws-ofi-nccl's three forms of asking for
// NCCL_PROTO=simple, and its two of keeping the job's own, on copies of
// AWS g7e's 8 x 1 log (v1.16's "Need to force simple protocol: GDR not
// supported" at line 162, "Adding NCCL_PROTO=simple to environment" at
// 166): v1.16's "Skipping adding NCCL_PROTO=LL to environment, already
// set", whose format prints the environment's whole entry (a review: the
// reader matched "NCCL_PROTO to environment" and never saw it), and not
// where the job's own was Simple, which the plugin would set (a third
// review); v1.15's
// "Setting NCCL_PROTO='simple' to prevent data corruption (reason: GDR not
// supported)"; and the older "Setting NCCL_PROTO to \"simple\"" and
// warning "NCCL_PROTO was set to \"LL/LL128\", but the Libfabric endpoint
// does not support 128 byte in-order aligned stores. This endpoint may
// corrupt data during communication" (v1.7 to v1.14).
func TestPluginProtoForms(t *testing.T) {
	b, err := os.ReadFile("testdata/real/rtxpro6000_8x1_allreduce_efa_g7e_slurm.log")
	if err != nil {
		t.Fatal(err)
	}
	const force, add = "NET/OFI Need to force simple protocol: GDR not supported", "NET/OFI Adding NCCL_PROTO=simple to environment"
	for _, c := range []struct {
		name, from, to string
		simple         Fact[string]
		kept           Fact[bool]
	}{
		{"v1.16, set", "", "", Fact[string]{"GDR", 162}, Fact[bool]{}},
		{"v1.16, kept", add, "NET/OFI Skipping adding NCCL_PROTO=LL to environment, already set", Fact[string]{"GDR", 162}, Fact[bool]{true, 166}},
		{"v1.15", force, "NET/OFI Setting NCCL_PROTO='simple' to prevent data corruption (reason: GDR not supported)", Fact[string]{"GDR", 162}, Fact[bool]{}},
		{"before v1.15", force, `NET/OFI Setting NCCL_PROTO to "simple"`, Fact[string]{"", 162}, Fact[bool]{}},
		{"v1.16, the job's Simple", add, "NET/OFI Skipping adding NCCL_PROTO=simple to environment, already set", Fact[string]{"GDR", 162}, Fact[bool]{}},
		{"before v1.15, kept", "NCCL INFO " + force, `NCCL WARN NET/OFI NCCL_PROTO was set to "LL/LL128", but the Libfabric endpoint does not support 128 byte in-order aligned stores. This endpoint may corrupt data during communication`,
			Fact[string]{"128 byte in-order aligned stores", 162}, Fact[bool]{true, 162}},
	} {
		text := string(b)
		if c.from != "" {
			if !strings.Contains(text, c.from) {
				t.Fatalf("%s: no %q", c.name, c.from)
			}
			text = strings.ReplaceAll(text, c.from, c.to)
		}
		l := readString(t, text, Options{})
		if len(l.Tests) != 1 {
			t.Fatalf("%s: %d tests", c.name, len(l.Tests))
		}
		e := l.Tests[0].Evidence
		if e.PluginSimple != c.simple || e.PluginProtoKept != c.kept {
			t.Errorf("%s: plugin's simple %+v, kept %+v; want %+v, %+v", c.name, e.PluginSimple, e.PluginProtoKept, c.simple, c.kept)
		}
	}
}
