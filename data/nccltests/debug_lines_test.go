package nccltests

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
)

// debugPrefix is the prefix NCCL 2.30.7 gives an INFO line (src/debug.cc:330
// "%s:%d:%d " for host, pid and thread, :354 "[%d] NCCL INFO %s\n" for the
// CUDA device), as the real logs print it ("lccn09:2520136:2520234 [0] NCCL
// INFO ...").
const debugPrefix = "gpu-a7:2520136:2520234 [3] NCCL INFO "

// ncclRingLine builds the ring line NCCL 2.27 to 2.30 prints for ring r of
// nRings through ranks (src/graph/rings.cc:48 prefix "Channel %02d/%02d :",
// dumpLine :10-26: " %*d" each rank in the width of nranks-1, the line cut
// to 127 characters ending "..." where it would pass 128).
func ncclRingLine(r, nRings int, ranks []int) string {
	const lineLength = 128
	width := len(fmt.Sprint(len(ranks) - 1))
	s := fmt.Sprintf("Channel %02d/%02d :", r, nRings)
	for _, k := range ranks {
		if len(s) >= lineLength-1 {
			break
		}
		s += fmt.Sprintf(" %*d", width, k)
	}
	if len(s) >= lineLength {
		s = s[:lineLength-4] + "..."
	}
	return s
}

// ncclTreesLine builds init.cc's tree line (2.30.7 src/init.cc:1487-1497:
// char line[1024], each channel " [%d] %d/%d/%d->%d->%d" by snprintf of
// 1023-strlen(line), so the line stops at 1022 characters) for rank of
// nChannels channels whose trees all run down to down and up to up.
func ncclTreesLine(rank, nChannels, down, up int) string {
	s := ""
	for c := range nChannels {
		s += fmt.Sprintf(" [%d] %d/-1/-1->%d->%d", c, down, rank, up)
	}
	if len(s) > 1022 {
		s = s[:1022]
	}
	return "Trees" + s
}

// TestDebugLines reads each fact Evidence takes from NCCL's debug lines as
// NCCL 2.30.7 prints it (git tag v2.30.7-1 of github.com/NVIDIA/nccl; the
// file and line of each format in the comments; "(2.27-2.29: ...)" where an
// older release of those users run prints it otherwise), the prefix
// included, through the Reader: the line is the second of the log, before
// the test's row.
func TestDebugLines(t *testing.T) {
	ring64 := make([]int, 64)
	for i := range ring64 {
		ring64[i] = (i * 9) % 64
	}
	type fact = func(e Evidence) (any, int)
	str := func(f func(e Evidence) Fact[string]) fact {
		return func(e Evidence) (any, int) { v := f(e); return v.Value, v.Line }
	}
	num := func(f func(e Evidence) Fact[int]) fact {
		return func(e Evidence) (any, int) { v := f(e); return v.Value, v.Line }
	}
	flag := func(f func(e Evidence) Fact[bool]) fact {
		return func(e Evidence) (any, int) { v := f(e); return v.Value, v.Line }
	}
	bw := func(e Evidence) (any, int) { return e.NICBW.Value, e.NICBW.Line }
	for _, c := range []struct {
		name, line string
		fact       fact
		want       any // nil: the fact is unknown
	}{
		// src/init.cc:694-702: VERSION_STRING "NCCL version " MAJOR.MINOR.PATCH NCCL_SUFFIX "+cuda" CUDA_MAJOR.CUDA_MINOR,
		// INFO(NCCL_ALL, "%s") under NCCL_DEBUG=INFO; VERSION("%s") without a prefix under NCCL_DEBUG=VERSION or WARN
		// (debug.cc:329, no host for NCCL_LOG_VERSION).
		{"version", debugPrefix + "NCCL version 2.30.7+cuda13.0", str(func(e Evidence) Fact[string] { return e.NCCLVersion }), "2.30.7"},
		{"CUDA", debugPrefix + "NCCL version 2.30.7+cuda13.0", str(func(e Evidence) Fact[string] { return e.CUDA }), "13.0"},
		{"version, bare", "NCCL version 2.30.7+cuda12.9", str(func(e Evidence) Fact[string] { return e.NCCLVersion }), "2.30.7"},
		// :703 INFO(NCCL_ALL, "%s", ncclGetGitVersion()), misc/git_version.cc:11 "NCCL git version BRANCH HASH": no version.
		{"git version", debugPrefix + "NCCL git version HEAD 3cf8a2b", str(func(e Evidence) Fact[string] { return e.NCCLVersion }), nil},
		// src/init.cc:486 "Using network %s".
		{"network", debugPrefix + "Using network IB", str(func(e Evidence) Fact[string] { return e.Network }), "IB"},
		{"network, plugin", debugPrefix + "Using network AWS Libfabric", str(func(e Evidence) Fact[string] { return e.Network }), "AWS Libfabric"},
		// src/transport/net_ib/init.cc:513 "NET/IB : Using%s %s; OOB %s:%s", each device :496 " [%d]%s:%d",
		// :498 ":%d" (rail) or :500 ":" (a plane without a rail), :503 ":%d" (plane), :505 "/%s" (common.h:118 IB, RoCE).
		{"NICs", debugPrefix + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/RoCE [3]mlx5_3:1/RoCE [RO]; OOB eth0:10.1.0.7<0>",
			num(func(e Evidence) Fact[int] { return e.NICCount }), 4},
		{"NICs, rails and planes", debugPrefix + "NET/IB : Using [0]mlx5_0:1:0/IB [1]mlx5_1:1::1/IB [2]mlx5_2:1:1:0/IB ; OOB ib0:10.1.0.7<0>",
			num(func(e Evidence) Fact[int] { return e.NICCount }), 3},
		// A line cut before "; OOB" lists some NICs only: no count.
		{"NICs, cut", debugPrefix + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx",
			num(func(e Evidence) Fact[int] { return e.NICCount }), nil},
		// v2.21.5-1 src/transport/net_ib.cc:519-531: a merged device (NCCL_IB_MERGE_NICS=1, the default;
		// the list prints one so from 2.20 to 2.23) " [%d]={" then "[%d] %s:%d/%s" each port, ", " between, "}": each port counts.
		// A device merged with none is " [%d]%s:%d/%s" of its own index (:532, ibDev), 4 for mlx5_4.
		{"NICs, merged", debugPrefix + "NET/IB : Using [0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB} [1]={[2] mlx5_2:1/IB, [3] mlx5_3:1/IB} [4]mlx5_4:1/IB [RO]; OOB eth0:10.0.0.1<0>",
			num(func(e Evidence) Fact[int] { return e.NICCount }), 5},
		// src/transport/net_socket.cc:73 " [%d]%s:%s", :77 "NET/Socket : Using%s".
		{"NICs, socket", debugPrefix + "NET/Socket : Using [0]ens5:10.0.0.4<0> [1]ens6:fe80::1%ens6<0>",
			num(func(e Evidence) Fact[int] { return e.NICCount }), 2},
		// src/init.cc:1319 "Local Net device counts across ranks: min %d max %d" (rank 0, each rank's ncclNet->devices(),
		// :1246); new in 2.30. Where the ranks differ (:1324), the hosts' NICs are not one count.
		{"NICs, across ranks", debugPrefix + "Local Net device counts across ranks: min 8 max 8", num(func(e Evidence) Fact[int] { return e.NICCount }), 8},
		{"NICs, mixed", debugPrefix + "Local Net device counts across ranks: min 4 max 8", num(func(e Evidence) Fact[int] { return e.NICCount }), nil},
		// src/transport/net_ib/init.cc:444 "NET/IB: [%d] %s:%s:%d/%s provider=%s speed=%d context=%p pciPath=%s ar=%d oooRqSize=%d"
		// (2.27-2.29 without oooRqSize), speed in Mb/s (:411 ncclIbSpeed*ncclIbWidth).
		{"NIC speed", debugPrefix + "NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=400000 context=0x5612 pciPath=/sys/devices/pci0000:15/0000:15:01.0/0000:18:00.0 ar=1 oooRqSize=0",
			bw, 50e9},
		// A speed of more digits than an int holds is read, not dropped: predict then says it is beyond any NIC's (a red team).
		{"NIC speed, beyond an int", debugPrefix + "NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=99999999999999999999 context=0x5612 pciPath=/sys/0000:18:00.0 ar=1 oooRqSize=0",
			bw, 99999999999999999999e6 / 8},
		// src/graph/topo.cc:315 "+ %s[%2.1f] - ", :321 "%s/%lx-%lx (%d/%lx/%d/%f)" for a NET node (NCCL_DEBUG_SUBSYS=GRAPH), GB/s.
		{"NIC speed, topology", debugPrefix + "                + NET[50.0] - NET/0-0 (1/0/1/50.000000)", bw, 50e9},
		// src/graph/topo.cc:1653 "NET/%s : GPU Direct RDMA %s for HCA %d '%s'" (graph/paths.cc:546 is a TRACE in 2.30;
		// 2.29's :487 INFO "GPU Direct RDMA Enabled for %s").
		{"GPUDirect", debugPrefix + "NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'", flag(func(e Evidence) Fact[bool] { return e.GPUDirect }), true},
		{"GPUDirect, disabled", debugPrefix + "NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'", flag(func(e Evidence) Fact[bool] { return e.GPUDirect }), false},
		{"GPUDirect, 2.29 paths.cc", debugPrefix + "GPU Direct RDMA Enabled for GPU 3 / HCA 0 (distance 4 <= 5), read 1 mode Default", flag(func(e Evidence) Fact[bool] { return e.GPUDirect }), true},
		// src/transport/generic.cc:40 "Connected all rings, use ring PXN %d GDR %d".
		{"GPUDirect, rings", debugPrefix + "Connected all rings, use ring PXN 0 GDR 1", flag(func(e Evidence) Fact[bool] { return e.GPUDirect }), true},
		// src/transport/net.cc:324 "Channel %02d/%d : %d[%d] -> %d[%d] [send] via NET/%s/%d%s%s%s" ("/GDRDMA", "(PCI)", "/Shared"),
		// :328 "... via NET/%s/%d(%d)%s%s%s" (PXN's proxy rank), :377 "[receive]".
		{"GPUDirect, channel", debugPrefix + "Channel 01/1 : 11[3] -> 19[3] [send] via NET/IB/3(8)/GDRDMA(PCI)/Shared", flag(func(e Evidence) Fact[bool] { return e.GPUDirect }), true},
		{"NICs, channel", debugPrefix + "Channel 01/0 : 19[3] -> 11[3] [receive] via NET/IBext_v11/3/GDRDMA", num(func(e Evidence) Fact[int] { return e.NICCount }), 1},
		// src/transport/nvls.cc:279 "NVLS multicast support is %savailable on dev %d" (2.27-2.29 :200-202 add " (NVLS_NCHANNELS %d)").
		{"NVLS", debugPrefix + "NVLS multicast support is available on dev 3", flag(func(e Evidence) Fact[bool] { return e.NVLS }), true},
		{"NVLS, not", debugPrefix + "NVLS multicast support is not available on dev 3", flag(func(e Evidence) Fact[bool] { return e.NVLS }), false},
		{"NVLS, 2.29", debugPrefix + "NVLS multicast support is available on dev 3 (NVLS_NCHANNELS 24)", flag(func(e Evidence) Fact[bool] { return e.NVLS }), true},
		// src/init.cc:1646 "%d coll channels, %d collnet channels, %d nvls channels, %d p2p channels, %d p2p channels per peer".
		{"channels", debugPrefix + "32 coll channels, 32 collnet channels, 24 nvls channels, 32 p2p channels, 4 p2p channels per peer",
			func(e Evidence) (any, int) { return e.Channels.Value, e.Channels.Line }, Channels{32, 32, 24, 32, 4}},
		// src/graph/rings.cc:48 "Channel %02d/%02d :" and dumpLine (:10-26), rank 0 only.
		{"rings", debugPrefix + ncclRingLine(0, 2, []int{0, 3, 2, 1}), num(func(e Evidence) Fact[int] { return e.Rings }), 2},
		{"rings, 64 ranks", debugPrefix + ncclRingLine(5, 16, ring64), num(func(e Evidence) Fact[int] { return e.Rings }), 16},
		// src/init.cc:1497 "Trees%s", each channel :1490 " [%d] %d/%d/%d->%d->%d".
		{"trees", debugPrefix + ncclTreesLine(3, 32, 4, 2), num(func(e Evidence) Fact[int] { return e.Trees }), 32},
		// 64 channels (device.h:91 MAXCHANNELS) pass the 1022 characters: the line holds some only, and says no count.
		{"trees, cut", debugPrefix + ncclTreesLine(3, 64, 4, 2), num(func(e Evidence) Fact[int] { return e.Trees }), nil},
		// src/init.cc:1422 "comm %p rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL %d".
		{"ranks", debugPrefix + "comm 0x55d35c3a9ec0 rank 3 nRanks 32 nNodes 4 localRanks 8 localRank 3 MNNVL 0", num(func(e Evidence) Fact[int] { return e.Ranks }), 32},
		{"nodes", debugPrefix + "comm 0x55d35c3a9ec0 rank 3 nRanks 32 nNodes 4 localRanks 8 localRank 3 MNNVL 0", num(func(e Evidence) Fact[int] { return e.Nodes }), 4},
		{"local ranks", debugPrefix + "comm 0x55d35c3a9ec0 rank 3 nRanks 32 nNodes 4 localRanks 8 localRank 3 MNNVL 0", num(func(e Evidence) Fact[int] { return e.LocalRanks }), 8},
		// With MNNVL a node is NCCL's topology, the NVLink domain (init.cc: nNodes counts the ranks'
		// first ring ranks): a GB200 NVL72 rack's 18 trays of 4 are one node of 72 local ranks.
		{"MNNVL", debugPrefix + "comm 0x55d35c3a9ec0 rank 3 nRanks 72 nNodes 1 localRanks 72 localRank 3 MNNVL 1", flag(func(e Evidence) Fact[bool] { return e.MNNVL }), true},
		// src/transport/coll_net.cc:1640 "rank %d Connected CollNet", :1610 "Connected Collnet Chains %s".
		{"CollNet", debugPrefix + "rank 3 Connected CollNet", flag(func(e Evidence) Fact[bool] { return e.CollNet }), true},
		{"CollNet, chains", debugPrefix + "Connected Collnet Chains [0] 3->-1->-1 [1] 3->-1->-1", flag(func(e Evidence) Fact[bool] { return e.CollNet }), true},
		// src/init.cc:1472 "Communicator has %d nodes which is less than CollNet node threshold %d, disabling CollNet".
		{"CollNet, disabled", debugPrefix + "Communicator has 1 nodes which is less than CollNet node threshold 2, disabling CollNet", flag(func(e Evidence) Fact[bool] { return e.CollNet }), false},
		// src/transport.cc:464 WARN "Cannot initialize CollNet, using point-to-point network instead" (debug.cc:345
		// "[%d] %s:%d (%s) NCCL WARN %s").
		{"CollNet, warning", "gpu-a7:2520136:2520234 [3] transport.cc:464 (ncclTransportCollNetSetup) NCCL WARN Cannot initialize CollNet, using point-to-point network instead",
			flag(func(e Evidence) Fact[bool] { return e.CollNet }), false},
		// src/plugin/tuner/tuner_v6.cc:17 "TUNER/Plugin: Using %s (v6)" (v2 to v5 alike); tuner.cc:90
		// "Successfully loaded external tuner plugin %s" names the library's path, not the plugin.
		{"tuner", debugPrefix + "TUNER/Plugin: Using nccl_ofi_tuner (v6)", str(func(e Evidence) Fact[string] { return e.TunerPlugin }), "nccl_ofi_tuner"},
		{"tuner, loaded", debugPrefix + "Successfully loaded external tuner plugin /opt/amazon/ofi-nccl/lib/libnccl-net.so", str(func(e Evidence) Fact[string] { return e.TunerPlugin }), nil},
		// src/graph/tuning.cc:460 "NCCL_ALGO set by environment to %s", :455 NCCL_PROTO.
		{"algo", debugPrefix + "NCCL_ALGO set by environment to Ring,Tree", str(func(e Evidence) Fact[string] { return e.Algo }), "Ring,Tree"},
		{"proto", debugPrefix + "NCCL_PROTO set by environment to Simple", str(func(e Evidence) Fact[string] { return e.Proto }), "Simple"},
		// src/misc/param.cc:100 "%s set by environment to %lld.".
		{"env", debugPrefix + "NCCL_IB_QPS_PER_CONNECTION set by environment to 4.", func(e Evidence) (any, int) {
			if len(e.Env) == 0 {
				return nil, 0
			}
			return e.Env[0].Name + "=" + e.Env[0].Value, e.Env[0].Line
		}, "NCCL_IB_QPS_PER_CONNECTION=4"},
		// src/graph/search.cc:1319 "Pattern %d, crossNic %d, nChannels %d, bw %f/%f, type %s/%s, sameChannels %d".
		{"NIC path", debugPrefix + "Pattern 4, crossNic 0, nChannels 16, bw 40.000000/40.000000, type NVL/PXN, sameChannels 1",
			func(e Evidence) (any, int) { return e.NICPath.Value, e.NICPath.Line }, nccl.PathPXN},
		// RCCL prints the same line (src/graph/search.cc:1151 at ROCm/rccl 0cbce2a7) with its AMD build's
		// path names (topo.cc:27), NVL's as "XGMI".
		{"NIC path, RCCL", debugPrefix + "Pattern 4, crossNic 0, nChannels 16, bw 48.000000/48.000000, type XGMI/PHB, sameChannels 1",
			func(e Evidence) (any, int) { return e.NICPath.Value, e.NICPath.Line }, nccl.PathPHB},
		// A timestamped line (debug.cc:295-324, NCCL_DEBUG_TIMESTAMP_LEVELS=INFO, format "[%F %T] ") keeps its host.
		{"host, timestamped", "[2026-12-06 10:11:12] " + debugPrefix + "Channel 00/0 : 3[3] -> 11[3] [send] via NET/IB/1/GDRDMA",
			func(e Evidence) (any, int) {
				if len(e.HostNets) == 0 {
					return nil, 0
				}
				return e.HostNets[0].Host, e.HostNets[0].Line
			}, "gpu-a7"},
	} {
		in := "# nThread 1 nGpus 1 minBytes 1024 maxBytes 1024 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n" +
			c.line + "\n" +
			"        1024           256     float     sum      -1    10.00    0.10    0.19      0    10.00    0.10    0.19      0\n"
		l := readString(t, in, Options{})
		if len(l.Tests) != 1 {
			t.Fatalf("%s: %d tests, want 1", c.name, len(l.Tests))
		}
		got, n := c.fact(l.Tests[0].Evidence)
		switch {
		case c.want == nil && n != 0:
			t.Errorf("%s: %q reads %v at line %d; want nothing", c.name, c.line, got, n)
		case c.want != nil && (n != 2 || got != c.want):
			t.Errorf("%s: %q reads %v at line %d; want %v at line 2", c.name, c.line, got, n, c.want)
		}
	}
}

// The lines the builders make are NCCL's: the ring line of 64 ranks is cut
// to 127 characters ending "...", the tree line of 64 channels to 1022
// after "Trees".
func TestDebugLineBuilders(t *testing.T) {
	ring := make([]int, 64)
	if s := ncclRingLine(0, 2, ring); len(s) != 127 || !strings.HasSuffix(s, "...") {
		t.Errorf("ring line %q (%d); want 127 characters ending ...", s, len(s))
	}
	if s := ncclRingLine(0, 2, []int{0, 1}); s != "Channel 00/02 : 0 1" {
		t.Errorf("ring line %q", s)
	}
	if s := ncclTreesLine(0, 64, 1, -1); len(s) != len("Trees")+1022 {
		t.Errorf("tree line of %d characters; want 5+1022", len(s))
	}
}

// debugLog is a log of one test whose setup prints lines, each as NCCL
// prints it (with its prefix), before the test's row.
func debugLog(t *testing.T, lines ...string) Evidence {
	t.Helper()
	in := "# nThread 1 nGpus 1 minBytes 1024 maxBytes 1024 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n" +
		strings.Join(lines, "\n") + "\n" +
		"        1024           256     float     sum      -1    10.00    0.10    0.19      0    10.00    0.10    0.19      0\n"
	l := readString(t, in, Options{})
	if len(l.Tests) != 1 {
		t.Fatalf("%d tests, want 1", len(l.Tests))
	}
	return l.Tests[0].Evidence
}

// RCCL before ROCm 6.3 (src/init.cc of tags rocm-5.5.0 to rocm-6.2.0 of
// github.com/ROCm/rccl, :686 at rocm-6.2.0: VERSION_STRING "RCCL version "
// MAJOR.MINOR.PATCH NCCL_SUFFIX "+hip" HIP_MAJOR.HIP_MINOR, :696 INFO "%s
// %s" with the git hash, :693 printf of the bare line) prints no colon;
// ROCm/rccl c755b9cf (ROCm 6.3) made it "RCCL version : 2.22.3-HEAD:7d8d67c".
// The version was missed; "+hip6.2" is HIP's, no CUDA.
func TestRCCLInitVersionROCm55to62(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{debugPrefix + "RCCL version 2.20.5+hip6.2 HEAD:6b4f0e5", "2.20.5"},
		{"RCCL version 2.18.3+hip6.0 develop:a12b3c4", "2.18.3"}, // NCCL_DEBUG=VERSION's bare printf
		{debugPrefix + "RCCL version : 2.22.3-HEAD:7d8d67c", "2.22.3"},
	} {
		e := debugLog(t, c.line)
		if e.NCCLVersion != (Fact[string]{c.want, 2}) || !e.RCCL.Known() || e.CUDA.Known() {
			t.Errorf("%q: version %v, RCCL %v, CUDA %v; want %s at 2, RCCL, no CUDA", c.line, e.NCCLVersion, e.RCCL, e.CUDA, c.want)
		}
	}
}

// graph/paths.cc of NCCL 2.8 to 2.29 (v2.18.3-1 :393 "GPU Direct RDMA
// Disabled for GPU %lx / HCA %d (distance %d > %d)", :398 "... Enabled for
// GPU %lx / HCA %d (distance %d <= %d), read %d"; 2.26 on add " mode %s")
// checks every GPU of the node against every NIC (ncclTopoComputePaths,
// :604): a NIC on the other socket is "Disabled" for a GPU that uses its
// own NIC with GPUDirect RDMA. The first such line read as no GPUDirect.
func TestPathsGDRPairsNCCL2_8to2_29(t *testing.T) {
	far := debugPrefix + "GPU Direct RDMA Disabled for GPU 1b000 / HCA 0 (distance 5 > 3)"
	near := debugPrefix + "GPU Direct RDMA Enabled for GPU 3d000 / HCA 0 (distance 3 <= 3), read 0"
	if e := debugLog(t, far, near); e.GPUDirect != (Fact[bool]{true, 3}) {
		t.Errorf("a far pair, then a near one: GPUDirect %v; want true at 3", e.GPUDirect)
	}
	// The channel line says the connection reads GPU memory (transport/net.cc).
	via := debugPrefix + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA"
	if e := debugLog(t, far, via); e.GPUDirect != (Fact[bool]{true, 3}) {
		t.Errorf("a far pair, then a GDRDMA channel: GPUDirect %v; want true at 3", e.GPUDirect)
	}
	// Every pair too far (NCCL_NET_GDR_LEVEL=LOC): none.
	far2 := debugPrefix + "GPU Direct RDMA Disabled for GPU 3d000 / HCA 0 (distance 3 > 0)"
	if e := debugLog(t, far, far2); e.GPUDirect != (Fact[bool]{false, 2}) {
		t.Errorf("every pair far: GPUDirect %v; want false at 2", e.GPUDirect)
	}
	// graph/topo.cc (v2.18.3-1:643): the NIC cannot, for every GPU.
	if e := debugLog(t, debugPrefix+"NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'", near); e.GPUDirect != (Fact[bool]{false, 2}) {
		t.Errorf("topo.cc's disabled HCA: GPUDirect %v; want false at 2", e.GPUDirect)
	}
}

// src/debug.cc of NCCL 2.8 to 2.28 (v2.24.3-1:200-225: char buffer[1024],
// the prefix "%s:%d:%d [%d] NCCL INFO " then vsnprintf of the message into
// the rest) cuts every INFO line to 1023 characters, prefix included, before
// init.cc's own cut of the tree line at 1022 after "Trees": a tree line of
// 64 channels, cut there, read as 52 trees. 2.29 on (vfprintf) do not cut.
func TestDebugBufferTreesNCCL2_8to2_28(t *testing.T) {
	full := debugPrefix + ncclTreesLine(3, 64, 4, 2)
	cut := full[:1023]
	if e := debugLog(t, cut); e.Trees.Known() {
		t.Errorf("tree line cut to 1023 by debug.cc: trees %v; want none", e.Trees)
	}
	for _, pre := range []string{"[1,0]<stdout>:", "0: "} { // mpirun's tag, srun's label: outside NCCL's buffer
		if e := debugLog(t, pre+cut); e.Trees.Known() {
			t.Errorf("%q and a tree line cut to 1023: trees %v; want none", pre, e.Trees)
		}
	}
	// NCCL's timestamp (2.26 to 2.28, NCCL_DEBUG_TIMESTAMP_LEVELS) is inside it.
	if e := debugLog(t, ("[2026-12-06 10:11:12] " + full)[:1023]); e.Trees.Known() {
		t.Errorf("timestamped tree line cut to 1023: trees %v; want none", e.Trees)
	}
	// 32 channels fit: their count stands.
	if e := debugLog(t, debugPrefix+ncclTreesLine(3, 32, 4, 2)); e.Trees != (Fact[int]{32, 2}) {
		t.Errorf("32 channels: trees %v; want 32 at 2", e.Trees)
	}
}

// RCCL's tree line (ROCm/rccl src/init.cc, HEAD 0cbce2a7 :1652 "Trees%s comm
// %p nRanks %02d busId %lx", :1642 snprintf of 2047-strlen(line), from
// f7e39fce; 1023 before, with debug.cc's buffer of 1024) goes on after its
// channels: cut at 2046 after "Trees" it holds some of its 128 channels
// (device.h MAXCHANNELS) only.
func TestRCCLInitTrees(t *testing.T) {
	const suffix = " comm 0x55d35c3a9ec0 nRanks 08 busId 43000"
	if e := debugLog(t, debugPrefix+ncclTreesLine(0, 2, 1, -1)+suffix); e.Trees != (Fact[int]{2, 2}) {
		t.Errorf("RCCL's tree line of 2 channels: trees %v; want 2 at 2", e.Trees)
	}
	s := ""
	for c := range 128 {
		s += fmt.Sprintf(" [%d] %d/-1/-1->%d->%d", c, 4, 3, 2)
	}
	if e := debugLog(t, debugPrefix+"Trees"+s[:2046]+suffix); e.Trees.Known() {
		t.Errorf("RCCL's tree line cut at 2046: trees %v; want none", e.Trees)
	}
}

// transport/net_ib.cc (v2.18.3-1:264 "NET/IB : Using%s %s; OOB %s:%s") and
// net_socket.cc (:62) print each process's devices: where the hosts list
// different numbers of NICs, the first host's count is no host's count.
// As where 2.30's "Local Net device counts across ranks" gives a min and a
// max, none is, and the channel lines count; the Reader says which lines
// differ: a host of fewer may have a port down, and two processes of one
// host may have been given different NCCL_IB_HCA.
func TestNetIBUsingHostsDifferNCCL2_18(t *testing.T) {
	a := "gpu-a7:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.0.0.1<0>"
	b := "gpu-b7:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [RO]; OOB ib0:10.0.0.2<0>"
	if e := debugLog(t, a, b); e.NICCount.Known() || len(e.NICs) != 2 {
		t.Errorf("hosts of 2 and 4 NICs: count %v, NICs %d; want none, the first host's 2", e.NICCount, len(e.NICs))
	}
	b2 := strings.ReplaceAll(a, "gpu-a7", "gpu-b7")
	if e := debugLog(t, a, b2); e.NICCount != (Fact[int]{2, 2}) {
		t.Errorf("hosts of 2 NICs each: count %v; want 2 at 2", e.NICCount)
	}
	via := "gpu-b7:1:1 [0] NCCL INFO Channel 00/0 : 8[0] -> 0[0] [receive] via NET/IB/1/GDRDMA"
	if e := debugLog(t, a, b, via); e.NICCount != (Fact[int]{1, 4}) {
		t.Errorf("hosts of 2 and 4 NICs, a channel line: count %v; want 1 at 4", e.NICCount)
	}
	for _, c := range []struct {
		lines []string
		want  string // the problem's, "" for none
	}{
		{[]string{a, b}, "2 on line 2 (host gpu-a7) and 4 on line 3 (host gpu-b7)"},
		{[]string{b, a, b}, "4 on line 2 (host gpu-b7) and 2 on line 3 (host gpu-a7)"},
		{[]string{a, b2}, ""},
		{[]string{a[strings.Index(a, "NCCL INFO"):], b[strings.Index(b, "NCCL INFO"):]}, "2 on line 2 and 4 on line 3:"},
		// Two processes of one host: their NCCL_IB_HCA, not a port down.
		{[]string{a, strings.ReplaceAll(b, "gpu-b7", "gpu-a7")}, "(host gpu-a7) and 4 on line 3 (host gpu-a7): each lists the devices it may use"},
		// A channel line gives the count the lists do not.
		{[]string{a, b, via}, "the NIC count is the 1 the channel lines name (line 4)"},
	} {
		in := "# nThread 1 nGpus 1 minBytes 1024 maxBytes 1024 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n" +
			strings.Join(c.lines, "\n") + "\n" +
			"        1024           256     float     sum      -1    10.00    0.10    0.19      0    10.00    0.10    0.19      0\n"
		var found []string
		for _, p := range readString(t, in, Options{}).Problems {
			if strings.Contains(p.Error(), "list different NICs") {
				found = append(found, p.Error())
				if !errors.Is(p, ErrInconsistent) {
					t.Errorf("%v: want ErrInconsistent", p)
				}
			}
		}
		if c.want == "" && len(found) > 0 || c.want != "" && (len(found) != 1 || !strings.Contains(found[0], c.want)) {
			t.Errorf("%d lines: problems %q, want one with %q", len(c.lines), found, c.want)
		}
		if len(found) == 1 && !strings.Contains(c.want, "channel lines") && !strings.Contains(found[0], "the NIC count is left unknown") {
			t.Errorf("%d lines: %q; want the count left unknown", len(c.lines), found[0])
		}
	}
}

// init.cc's VERSION_STRING puts makefiles/version.mk's NCCL_SUFFIX between
// the version and "+cuda": empty in every release tag, "a7" on NCCL's dev
// branch (db761c88, 2.31.0). The CUDA version was missed.
func TestInitVersionSuffixNCCLDev2_31(t *testing.T) {
	e := debugLog(t, debugPrefix+"NCCL version 2.31.0a7+cuda13.0")
	if e.NCCLVersion != (Fact[string]{"2.31.0", 2}) || e.CUDA != (Fact[string]{"13.0", 2}) {
		t.Errorf("version %v, CUDA %v; want 2.31.0 and 13.0 at 2", e.NCCLVersion, e.CUDA)
	}
}

// TestSettingsBounded: a log of more distinct settings than NCCL reads
// keeps the first maxSettings of them, in order, so that each new line's
// search for its name is bounded (before, a crafted log of 80,000 settings
// took 10 s to read, the search over every setting seen).
func TestSettingsBounded(t *testing.T) {
	lines := make([]string, 2*maxSettings)
	for i := range lines {
		lines[i] = fmt.Sprintf("h:1:1 [0] NCCL INFO NCCL_X%d set by environment to %d.", i, i)
	}
	e := debugLog(t, lines...)
	if len(e.Env) != maxSettings || e.Env[0].Name != "NCCL_X0" || e.Env[maxSettings-1].Name != fmt.Sprintf("NCCL_X%d", maxSettings-1) {
		t.Errorf("%d settings of %d, first %+v; want the first %d", len(e.Env), len(lines), e.Env[0], maxSettings)
	}
}

// TestCommLineOverflow: an nRanks too large for an int is no count NCCL
// printed, and the line says nothing (it said the communicator had 0 ranks).
func TestCommLineOverflow(t *testing.T) {
	e := debugLog(t, "h:1:1 [0] NCCL INFO comm 0x55d3 rank 0 nRanks 99999999999999999999 nNodes 2 localRanks 8 localRank 0 MNNVL 0")
	if e.Ranks.Known() || e.Nodes.Known() || e.LocalRanks.Known() {
		t.Errorf("ranks %v, nodes %v, local ranks %v; want none known", e.Ranks, e.Nodes, e.LocalRanks)
	}
	e = debugLog(t, "h:1:1 [0] NCCL INFO comm 0x55d3 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0")
	if e.Ranks.Value != 16 || e.Nodes.Value != 2 || e.LocalRanks.Value != 8 {
		t.Errorf("ranks %v, nodes %v, local ranks %v; want 16, 2 and 8", e.Ranks, e.Nodes, e.LocalRanks)
	}
}

// TestRanksOverRankLines: a ranks override above a log's complete Rank
// lines is named with both counts (it was told as ranks elided, of the
// Rank lines' count alone).
func TestRanksOverRankLines(t *testing.T) {
	b, err := os.ReadFile("testdata/real/a100_2x8_allreduce_efa_p4d_ncclinfo.log")
	if err != nil {
		t.Fatal(err)
	}
	r := NewReader(strings.NewReader(string(b)))
	r.Options = Options{Ranks: 32}
	r.ReadAll()
	if !slices.ContainsFunc(r.Problems(), func(p error) bool {
		return errors.Is(p, ErrElided) && strings.Contains(p.Error(), "the Rank lines list ranks 0..15, and the ranks given are 32: those past 15 are taken as elided")
	}) {
		t.Errorf("problems %v; want the override and the Rank lines named", r.Problems())
	}
}

// src/transport/net_ib/init.cc (v2.30.7-1:444) prints each device's speed
// before the list: where the listed NICs' speeds differ (a host's 100 Gb/s
// RoCE port beside its four 400 Gb/s InfiniBand NICs), NICBW is the speed
// most of them have, from the first line of that speed, not the first
// line's; where as many have each, the slower.
func TestNICSpeedsMixed(t *testing.T) {
	speed := func(i int, link string, mbps int) string {
		return fmt.Sprintf("%sNET/IB: [%d] mlx5_%d:uverbs%d:1/%s provider=Mlx5 speed=%d context=0x1 pciPath=/sys/devices/pci0000:00/0000:00:01.0 ar=0 oooRqSize=0",
			debugPrefix, i, i, i, link, mbps)
	}
	lines := []string{speed(0, "RoCE", 100000)}
	using := debugPrefix + "NET/IB : Using [0]mlx5_0:1/RoCE"
	for i := 1; i <= 4; i++ {
		lines = append(lines, speed(i, "IB", 400000))
		using += fmt.Sprintf(" [%d]mlx5_%d:1/IB", i, i)
	}
	using += " [RO]; OOB eth0:10.0.0.1<0>"
	// debugLog puts the first line second in the log.
	if e := debugLog(t, append(lines, using)...); e.NICBW != (Fact[float64]{400e9 / 8, 3}) || e.NICCount.Value != 5 {
		t.Errorf("1 NIC of 100 Gb/s, 4 of 400: NIC bandwidth %v, count %v; want 50e9 B/s from line 3, 5 NICs", e.NICBW, e.NICCount)
	}
	even := debugLog(t, lines[0], lines[1], debugPrefix+"NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/IB [RO]; OOB eth0:10.0.0.1<0>")
	if even.NICBW != (Fact[float64]{100e9 / 8, 2}) {
		t.Errorf("1 NIC of 100 Gb/s, 1 of 400: NIC bandwidth %v; want the slower, 12.5e9 B/s from line 2", even.NICBW)
	}
}

// nccl-tests' header prints the library it loaded (nccl-library, from
// ncclGetVersion: src/util.cu at nccl-tests a0b82b2) and that library's
// init prints "NCCL version" (init.cc): one process loads one library, so
// two releases are two runs' lines pasted together, which the Reader
// says; NCCL's line stands.
func TestVersionLinesDiffer(t *testing.T) {
	for _, c := range []struct {
		header, line string
		problem      bool
	}{
		{"nccl-library=21805", "NCCL version 2.27.7+cuda12.9", true},
		{"nccl-library=22707", "NCCL version 2.27.7+cuda12.9", false},
	} {
		in := "# nccl-tests version 2.14.1 nccl-headers=21805 " + c.header + "\n" +
			"# nThread 1 nGpus 1 minBytes 1024 maxBytes 1024 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n" +
			"node00:1000:1000 [0] NCCL INFO " + c.line + "\n" +
			"        1024           256     float     sum      -1    10.00    0.10    0.19      0    10.00    0.10    0.19      0\n"
		l := readString(t, in, Options{})
		if len(l.Tests) != 1 || l.Tests[0].Evidence.Release() != (nccl.Version{Major: 2, Minor: 27, Patch: 7}) {
			t.Fatalf("%s: want one test of NCCL 2.27.7", c.header)
		}
		var found []string
		for _, p := range l.Problems {
			if strings.Contains(p.Error(), "version line gives") {
				found = append(found, p.Error())
				if want := "NCCL's version line gives 2.27.7 (line 3), the header's nccl-library 2.18.5 (line 1)"; !strings.Contains(p.Error(), want) || !errors.Is(p, ErrInconsistent) {
					t.Errorf("%v: want ErrInconsistent, %q", p, want)
				}
			}
		}
		if c.problem != (len(found) == 1) {
			t.Errorf("%s: problems %v; want the two lines' releases named: %v", c.header, l.Problems, c.problem)
		}
	}
}

// A NIC list cut before "; OOB" (src/transport/net_ib/init.cc:513 at
// v2.30.7-1 ends every list with it; v2.8.4-1's net_ib.cc:204 too) lists
// some NICs only and gives no count, as TestDebugLines checks; the Reader
// says which line it left unread (a paste that wrapped the line after its
// fifth NIC), so that a user can mend it.
func TestNetIBListCutSaid(t *testing.T) {
	cut := debugPrefix + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [4]mlx5_4:1/IB"
	whole := cut + " [RO]; OOB eth0:10.0.0.1<0>"
	for _, c := range []struct {
		line string
		want bool
	}{{cut, true}, {whole, false}} {
		in := "# nThread 1 nGpus 1 minBytes 1024 maxBytes 1024 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n" +
			c.line + "\n" +
			"        1024           256     float     sum      -1    10.00    0.10    0.19      0    10.00    0.10    0.19      0\n"
		var said bool
		for _, p := range readString(t, in, Options{}).Problems {
			var pe *ParseError
			said = said || errors.Is(p, ErrInconsistent) && errors.As(p, &pe) && pe.Line == 2 && strings.Contains(p.Error(), `ends "; OOB"`)
		}
		if said != c.want {
			t.Errorf("%q: the cut list said %v, want %v", c.line[len(debugPrefix):], said, c.want)
		}
	}
}
