package heldout_test

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/commmodel/predict/heldout"
	"github.com/inframethod/commlab/units"
	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/stat"
)

var update = flag.Bool("update", false, "rewrite the golden score tables in testdata")

// The paired logs (data/logs/paired, sources in each file and in its
// README.md): eight machines, each measured several ways. Every table is
// held out in turn and predicted by the model calibrated on the other
// tables of its machine (heldout.LeaveOneOut); the scores are in
// testdata/paired_scores.md, and docs/scores.md reports them.

// The targets for every held-out table (docs/scores.md, "Targets").
const (
	targetLarge = 0.10 // median relative error at sizes >= 1 MiB
	targetAll   = 0.20 // median relative error over all sizes
	targetCross = 1.5  // crossover within this factor of the measured one
)

// meets reports whether a held-out table meets every target: its errors
// under the targets and under the one-link baseline's.
func meets(s heldout.Score) bool {
	ok := s.Model.All <= targetAll && s.Model.All < s.Baseline.All
	if s.Large > 0 {
		ok = ok && s.Model.Large <= targetLarge && s.Model.Large < s.Baseline.Large
	}
	return ok
}

// misses are the held-out tables where real data misses a target, with
// why. The measured errors are in testdata/paired_scores.md (asserted
// below to 0.2 percentage points); docs/scores.md reports them.
var misses = because(missesBy)

var missesBy = map[string][]string{
	whyABCIAllReduce: {
		"a100-sxm4-abci-ib4xhdr/allreduce_1x4.log#0",
		"a100-sxm4-abci-ib4xhdr/allreduce_1x8.log#0",
		"a100-sxm4-abci-ib4xhdr/allreduce_2x8.log#0",
		"a100-sxm4-abci-ib4xhdr/allreduce_4x8.log#0",
		"a100-sxm4-abci-ib4xhdr/allreduce_8x8.log#0",
		"a100-sxm4-abci-ib4xhdr/allreduce_16x8.log#0",
		"v100-sxm2-abci-ib2xedr/allreduce_1x4.log#0",
		"v100-sxm2-abci-ib2xedr/allreduce_2x4.log#0",
		"v100-sxm2-abci-ib2xedr/allreduce_4x4.log#0",
		"v100-sxm2-abci-ib2xedr/allreduce_8x4.log#0",
		"v100-sxm2-abci-ib2xedr/allreduce_16x4.log#0",
	},
	whyABCIBroadcast: {
		"a100-sxm4-abci-ib4xhdr/broadcast_1x4.log#0",
		"a100-sxm4-abci-ib4xhdr/broadcast_1x8.log#0",
		"a100-sxm4-abci-ib4xhdr/broadcast_2x8.log#0",
		"a100-sxm4-abci-ib4xhdr/broadcast_4x8.log#0",
		"a100-sxm4-abci-ib4xhdr/broadcast_8x8.log#0",
		"a100-sxm4-abci-ib4xhdr/broadcast_16x8.log#0",
		"v100-sxm2-abci-ib2xedr/broadcast_1x4.log#0",
		"v100-sxm2-abci-ib2xedr/broadcast_2x4.log#0",
		"v100-sxm2-abci-ib2xedr/broadcast_4x4.log#0",
		"v100-sxm2-abci-ib2xedr/broadcast_8x4.log#0",
		"v100-sxm2-abci-ib2xedr/broadcast_16x4.log#0",
		"v100-sxm2-abci-ib2xedr/broadcast_32x4.log#0",
	},
	why290Ring: {
		"h100-sxm-ib8xndr/allreduce_issue290.log#2",
	},
	whyDGX2: {
		"v100-sxm3-dgx2/five_tests_2019.log#0",
		"v100-sxm3-dgx2/five_tests_2019.log#1",
		"v100-sxm3-dgx2/five_tests_2019.log#2",
		"v100-sxm3-dgx2/five_tests_2019.log#4",
	},
	whyTogetherNVLS: {
		"h100-sxm-1x8-together/all_reduce_nvls.log#0",
	},
	whyCluster80Ranks: {
		"h100-sxm-10node-cluster01/nccl_N10_G8.log#1",
		"h100-sxm-10node-cluster01/nccl_N10_G8.log#2",
	},
	whyClusterOneNode: {
		"h100-sxm-10node-cluster01/nccl_N1_G4_cnode3-002.log#1",
	},
	whyClusterPair: {
		"h100-sxm-10node-cluster01/nccl_N2_G1_cnode3-002_cnode3-003.log#0",
	},
	whyClusterPairSendRecv: {
		"h100-sxm-10node-cluster01/nccl_N2_G4_cnode3-002_cnode3-003.log#1",
	},
	whyClusterSendRecv80: {
		"h100-sxm-10node-cluster01/nccl_N10_G8.log#4",
	},
	whyGB300NVLS8: {
		"gb300-nvl72/allreduce_alltoall_1to32hosts.log#1",
	},
	whyGB300TwoHostAllToAll: {
		"gb300-nvl72/allreduce_alltoall_1to32hosts.log#5",
	},
	whyGB300TwoRacks: {
		"gb300-nvl72/allreduce_alltoall_1to32hosts.log#3",
	},
	whyGB300InterRack: {
		"gb300-nvl72/allreduce_alltoall_1to32hosts.log#7",
	},
	whyCoreWeave20Racks: {
		"gb200-nvl72-coreweave/allreduce_20racks.log#0",
	},
	whyCoreWeaveWith20: {
		"gb200-nvl72-coreweave/allreduce_1rack.log#0",
		"gb200-nvl72-coreweave/allreduce_2racks.log#0",
	},
}

// crossMisses are the crossovers off by more than targetCross, with why.
var crossMisses = because(crossMissesBy)

var crossMissesBy = map[string][]string{
	whyOldTuner: {
		"a100-sxm4-abci-ib4xhdr/allreduce_1x4.log#0 | Ring/LL -> Ring/LL128",
		"a100-sxm4-abci-ib4xhdr/allreduce_1x4.log#0 | Ring/LL128 -> Ring/Simple",
		"a100-sxm4-abci-ib4xhdr/allreduce_1x8.log#0 | Ring/LL -> Ring/LL128",
		"a100-sxm4-abci-ib4xhdr/allreduce_1x8.log#0 | Ring/LL128 -> Ring/Simple",
		"a100-sxm4-abci-ib4xhdr/allreduce_2x8.log#0 | Tree/LL -> Tree/LL128",
		"a100-sxm4-abci-ib4xhdr/allreduce_2x8.log#0 | Tree/LL128 -> Ring/LL128",
		"a100-sxm4-abci-ib4xhdr/allreduce_4x8.log#0 | Tree/LL -> Tree/LL128",
		"a100-sxm4-abci-ib4xhdr/allreduce_4x8.log#0 | Tree/LL128 -> Ring/LL128",
		"a100-sxm4-abci-ib4xhdr/allreduce_8x8.log#0 | Tree/LL128 -> Ring/LL128",
		"a100-sxm4-abci-ib4xhdr/broadcast_2x8.log#0 | Ring/LL -> Ring/LL128",
		"a100-sxm4-abci-ib4xhdr/broadcast_4x8.log#0 | Ring/LL128 -> Ring/Simple",
		"a100-sxm4-abci-ib4xhdr/broadcast_8x8.log#0 | Ring/LL -> Ring/LL128",
		"a100-sxm4-abci-ib4xhdr/broadcast_16x8.log#0 | Ring/LL -> Ring/LL128",
		"a100-sxm4-abci-ib4xhdr/broadcast_16x8.log#0 | Ring/LL128 -> Ring/Simple",
		"v100-sxm2-abci-ib2xedr/allreduce_2x4.log#0 | Tree/LL -> Tree/LL128",
		"v100-sxm2-abci-ib2xedr/allreduce_2x4.log#0 | Ring/LL128 -> Tree/LL128",
		"v100-sxm2-abci-ib2xedr/allreduce_4x4.log#0 | Tree/LL -> Tree/LL128",
		"v100-sxm2-abci-ib2xedr/allreduce_4x4.log#0 | Tree/LL128 -> Ring/LL128",
		"v100-sxm2-abci-ib2xedr/allreduce_8x4.log#0 | Tree/LL -> Tree/LL128",
		"v100-sxm2-abci-ib2xedr/allreduce_8x4.log#0 | Tree/LL128 -> Ring/LL128",
		"v100-sxm2-abci-ib2xedr/allreduce_16x4.log#0 | Tree/LL -> Tree/LL128",
		"v100-sxm2-abci-ib2xedr/allreduce_16x4.log#0 | Tree/LL128 -> Ring/LL128",
		"v100-sxm2-abci-ib2xedr/allreduce_32x4.log#0 | Tree/LL -> Tree/LL128",
		"v100-sxm2-abci-ib2xedr/allreduce_32x4.log#0 | Tree/LL128 -> Ring/LL128",
		"v100-sxm2-abci-ib2xedr/broadcast_1x4.log#0 | Ring/LL -> Ring/Simple",
		"v100-sxm2-abci-ib2xedr/broadcast_2x4.log#0 | Ring/LL -> Ring/LL128",
		"v100-sxm2-abci-ib2xedr/broadcast_4x4.log#0 | Ring/LL -> Ring/LL128",
		"v100-sxm2-abci-ib2xedr/broadcast_4x4.log#0 | Ring/LL128 -> Ring/Simple",
		"v100-sxm2-abci-ib2xedr/broadcast_8x4.log#0 | Ring/LL -> Ring/LL128",
		"v100-sxm2-abci-ib2xedr/broadcast_8x4.log#0 | Ring/LL128 -> Ring/Simple",
		"v100-sxm2-abci-ib2xedr/broadcast_16x4.log#0 | Ring/LL -> Ring/LL128",
		"v100-sxm2-abci-ib2xedr/broadcast_16x4.log#0 | Ring/LL128 -> Ring/Simple",
		"v100-sxm2-abci-ib2xedr/broadcast_32x4.log#0 | Ring/LL -> Ring/LL128",
		"v100-sxm2-abci-ib2xedr/broadcast_32x4.log#0 | Ring/LL128 -> Ring/Simple",
	},
	whyUnknownTuner: {
		"v100-sxm3-dgx2/five_tests_2019.log#0 | Ring/LL128 -> Ring/Simple",
		"v100-sxm3-dgx2/five_tests_2019.log#2 | Ring/LL -> Ring/Simple",
		"v100-sxm3-dgx2/five_tests_2019.log#4 | Ring/LL128 -> Ring/Simple",
	},
	whyFloorBreak: {
		"h100-sxm-1x8-together/all_gather_nvls.log#0 | Ring/LL128 -> Ring/Simple",
		"h100-sxm-1x8-together/reduce_scatter_nvls.log#0 | Ring/LL128 -> Ring/Simple",
	},
	whyCoarseSizes: {
		"h100-sxm-10node-cluster01/nccl_N10_G1.log#0 | Ring/LL128 -> Ring/Simple",
		"h100-sxm-10node-cluster01/nccl_N10_G2.log#1 | Ring/LL128 -> Ring/Simple",
		"h100-sxm-10node-cluster01/nccl_N10_G2.log#2 | Ring/LL128 -> Ring/Simple",
		"h100-sxm-10node-cluster01/nccl_N10_G4.log#1 | Ring/LL128 -> Ring/Simple",
		"h100-sxm-10node-cluster01/nccl_N10_G4.log#2 | Ring/LL128 -> Ring/Simple",
		"h100-sxm-10node-cluster01/nccl_N10_G8.log#1 | Ring/LL128 -> Ring/Simple",
		"h100-sxm-10node-cluster01/nccl_N10_G8.log#2 | Ring/LL128 -> Ring/Simple",
	},
}

// because inverts a map of reasons to the tables (or crossovers) they
// explain.
func because(m map[string][]string) map[string]string {
	out := map[string]string{}
	for why, keys := range m {
		for _, k := range keys {
			out[k] = why
		}
	}
	return out
}

// Why targets are missed on the paired data, with the evidence (numbers
// from the logs as printed, and from testdata/paired_scores.md).
const (
	whyABCIAllReduce = "NCCL 2.8.4 (ABCI) is modelled with 2.18's tuner (with 2.8's, which commmodel/nccl has, the held-out " +
		"medians at >= 1 MiB are A100 35.1% and V100 22.8% against 32.3% and 22.3%); the tables stop at 32 MiB with 6 sizes " +
		"of 1 MiB or more, all while the bus bandwidth still climbs (A100 1x4: 18.7 GB/s at 1 MiB, 168.6 at 32 MiB), node " +
		"counts do not order the network (A100 8x8 15.2 GB/s at 32 MiB, 16x8 26.6), and the fit puts LL at 0.13 of Simple"
	whyABCIBroadcast = "ABCI's multi-node Broadcast moves a fraction of AllReduce's network (at 32 MiB per NIC: A100 2x8 " +
		"AllReduce 8.3 GB/s, Broadcast 6.7, 5.5, 2.5, 3.0 GB/s on 2, 4, 8, 16 nodes; V100 4x4 AllReduce 10.0, Broadcast " +
		"9.1, 1.0, 5.2, 3.5, 2.2 on 2 to 32 nodes); chain_efficiency (0.23 A100, 0.30 V100 on all tables) takes the mean " +
		"share but not its swings over 2x, so the 2-node tables, the fastest, are predicted 103% and 106% slow, and 8x8 807 us " +
		"at 2 MiB against 868 us at 4 MiB is not a bandwidth curve; NCCL 2.8.4's protocol switches are not the model's " +
		"(see the AllReduce reason)"
	why290Ring = "the NCCL_ALGO=RING table moves 89.9 GB/s at 8 GiB over eight 400 Gb/s NICs (a quarter of their rate; the issue " +
		"is about this slowness and the run set NCCL_IB_* variables the others did not, README), while the other two tables put " +
		"the network near 2x that: the model is 16-51% fast"
	whyDGX2 = "the DGX-2's collectives disagree by 1.9x at the same bytes per GPU (bus bandwidth at 8 GiB: AllGather 73.8, " +
		"ReduceScatter 64.2, AllReduce 123.6, Broadcast 122.2 GB/s; ReduceScatter alternates 48-64 GB/s from 1 GiB), where " +
		"the model has one NVLink bandwidth. The gap is AllGather's out-of-place path: in place the same run moves 112.3 GB/s " +
		"at 8 GiB (out of place 73.8), and the two part from 64 MiB (103.3 against 67.2), while ReduceScatter in place " +
		"matches out of place (63.7 against 64.2); the AllGather run also fails validation at its 4 largest sizes. " +
		"Calibrating every machine on the faster of the two columns (scoring out of place) helps the DGX-2 but costs " +
		"GB300 and leaves fewer tables on target. The NCCL version (2019) is unknown and modelled with 2.30.7's tuner"
	whyTogetherNVLS = "held out, the NVLS table is the only one with NVLS: nvls_efficiency and NVLS's latency stay at their " +
		"priors, and the model is 10-32% fast between 2 and 128 MiB (NVLS measures slower than Ring at 8 MiB, 84.72 against " +
		"81.28 us) and within 8% from 256 MiB"
	whyCluster80Ranks = "meets the error targets but not the baseline's: at 10 x 8 the time at 32 MiB (682 us AllGather) is 7x " +
		"its bandwidth term, 79 ring steps of about 7.5 us, more than NCCL's LL128 step latencies scaled by the calibration " +
		"(the 1-node and 10 x 1..4 tables fix them); the one-link baseline's single per-step alpha happens to fit this table"
	whyClusterOneNode = "meets the error targets; the one-link baseline is 0.7 and 3.2 points better: on one node it is the ring's " +
		"own model, and its alpha absorbs the slow rise of bus bandwidth from 32 MiB (238 GB/s AllGather) to 16 GiB (362)"
	whyClusterPair = "the pairwise run of two nodes (a different run, 4 GiB only) moves 38.9 GB/s per GPU, 13% below the " +
		"10-node run's 44.7 GB/s AllToAll at 16 GiB from which the NIC bandwidth is calibrated: the model is 17% fast"
	whyClusterPairSendRecv = "the pairwise SendRecv of two nodes of 4 GPUs (4 to 16 GiB) moves 40.2 GB/s, where the same two hosts' " +
		"SendRecv of 1 and 8 GPUs a host move 43.8 and 45.9 and the NIC bandwidth calibrates to about 48: the model is 14% fast"
	whyClusterSendRecv80 = "80 ranks leave each network peer of a SendRecv one channel (NCCL 2.29's rule, nccl.P2PNetChannels), " +
		"which carries 15.2 GB/s in this table, while the 10-node SendRecv of 10 to 40 ranks, two channels a peer, fit " +
		"channel_bw at about 12.5 GB/s: the model is 23% slow"
	whyGB300NVLS8 = "held out, the 2-host (8-GPU) NVLS table is predicted with the NVLS efficiency that the 16-host (64-GPU " +
		"NVLS) and 32-host tables fix, 0.76: at 16 GiB 8 GPUs take 35.7 ms and 64 GPUs 36.4 ms, while NVLS's bytes per GPU, " +
		"S(1+1/p), fall 10% from p = 8 to 64; blended with NCCL's model (weight 0.6, chosen on the other tables), the " +
		"prediction is 13% slow (20.27 against 17.93 ms at 8 GiB)"
	whyGB300TwoHostAllToAll = "meets the error targets but not the baseline's: the two-host AllToAll, within one NVLink " +
		"domain, is 5.4% and 6.2% slow at 8 and 16 GiB (11.66 against 11.06 ms, 23.31 against 21.94), blended with NCCL's " +
		"model (weight 0.5); the one-link baseline is 4.5% off"
	whyGB300TwoRacks = "across two racks the tuner model picks NVLSTree, and blended with NCCL's model (weight 0.9) the " +
		"prediction is 17-20% fast (19.22 against 24.05 ms at 8 GiB); pinned to Ring, the same calibration is 10-12% slow. " +
		"738 GB/s bus bandwidth at 16 GiB is what a ring gets from the 16 NICs NCCL uses between NVLink domains from 2.27.3, " +
		"at 46 GB/s each. The log does not say what NCCL ran"
	whyGB300InterRack = "the two-rack AllReduce, over the 16 NICs NCCL uses between the racks, fixes nic_bw at 30.5 GB/s; " +
		"this AllToAll, grouped sends over every GPU's NIC, moves 24 GB/s per GPU across the racks (47.7 GB/s bus bandwidth, " +
		"half of each GPU's data crossing): the model is 21% fast (141 against 180 ms at 8 GiB)"
	whyCoreWeave20Racks = "held out, the 20-rack (360-host, 1440-GPU) table is predicted from the one- and two-rack tables, " +
		"which fit t = 0.58 ms + S/438 GB/s and 1.04 ms + S/419 GB/s (least squares over their rows); its own rows fit 4.83 ms + " +
		"S/215 GB/s: half the two-rack slope and a fixed part 4.6 times theirs. The tuner model runs NVLSTree across the 20 " +
		"NVLink domains, whose latency grows with log2 of the domains and whose bandwidth is two racks', so the model is 4.5x " +
		"fast at 512 MiB (1.57 against 7.11 ms) and 1.85x at 16 GiB. A fixed part near 4.8 ms is what NCCL's model gives " +
		"Ring/LL128 on 1440 ranks (5.6 ms, 2 x 1439 steps), but NCCL 2.26 runs no LL128 across GB200 nodes, whose NICs it reaches " +
		"through the Grace CPU (PHB before 2.27); pinned to Ring, with the protocols the tuner then picks, the same calibration " +
		"is 33% off (commlab diagnose's finding), and the one-link baseline, whose ring steps grow with the ranks, 33.6%. Both slopes fit 8 NICs " +
		"between racks, of 52-54 GB/s: NVLSTree's S a direction on two racks and a ring's 2S on twenty. NCCL 2.27.3 raised " +
		"the NICs it uses between NVLink domains to 16 (release notes) and the model keeps that limit, but 2.26.2's is not " +
		"published. The README does not say what NCCL ran, and the fabric above the racks is not published"
	whyCoreWeaveWith20 = "held out from a calibration that keeps the 20-rack table, which the model cannot follow (the 20-rack " +
		"reason): the fit puts the NICs at a quarter of their 50 GB/s prior (12-13 GB/s) to slow NVLSTree at 20 racks, and " +
		"the one- and two-rack tables come out 15-19% slow at the median, where the one-link baseline is within 6.2%"

	whyOldTuner = "NCCL 2.8.4's switches are modelled with 2.18's tuner, one or more size steps (2x each) from the measured " +
		"regime breaks (2.8's tuner, in commmodel/nccl, puts 16 of ABCI's 48 switches within 1.5x, against 11 of 45, but " +
		"predicts the times worse: see the AllReduce reason)"
	whyUnknownTuner = "the 2019 NCCL version is unknown and modelled with 2.30.7's tuner: its LL128 to Simple switch is 2x to 8x " +
		"from the measured regime breaks"
	whyFloorBreak = "the table's regime breaks sit where the -g 8 launch floor (35 us) gives way to bandwidth (5.66 MiB) or at one " +
		"size step (2x) from the tuner's LL128 to Simple switch, which nccl-tests' doubling sizes cannot place closer"
	whyCoarseSizes = "the table starts at 32 MiB with doubling sizes: the LL128 to Simple switch of NCCL 2.29's tuner model lies " +
		"one or two size steps (2x each) from the nearest regime break, or the table has no break"
)

// pct prints a fraction as a percentage with one decimal, "—" for NaN.
func pct(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return strconv.FormatFloat(100*x, 'f', 1, 64) + "%"
}

// size prints a crossover size, "none" for 0.
func size(x float64) string {
	if x == 0 {
		return "none"
	}
	return units.FormatSize(x)
}

// shortTables is the most tables a machine may have for the tests that
// leave tables out to score it under -short. Leaving each table out
// calibrates on the others, and each calibration refits without each of
// its tables, so the cost grows as the square of the tables: the three
// machines of 12 and 27 tables take most of the package's time, and the
// five others still run every path of the scores.
const shortTables = 8

// scoredInShort reports whether the tests that leave tables out score m
// under -short; they score every machine without it.
func scoredInShort(m heldout.PairedMachine) bool {
	return !testing.Short() || len(m.Tables) <= shortTables
}

// widths returns the median and the 90th percentile of the interval's
// width, High/Low, over the scores' points (stat.Quantile's empirical
// quantile).
func widths(scores []heldout.Score) (median, p90 float64) {
	var w []float64
	for _, s := range scores {
		for _, p := range s.Predicted {
			w = append(w, p.High/p.Low)
		}
	}
	slices.Sort(w)
	return stat.Quantile(0.5, stat.Empirical, w, nil), stat.Quantile(0.9, stat.Empirical, w, nil)
}

// readPaired reads the paired logs once for the package's tests, which
// only read the tables.
var readPaired = sync.OnceValues(heldout.PairedMachines)

// pairedMachines returns the paired machines (heldout.PairedMachines), in
// lists of the caller's own: a test may filter or append to them.
func pairedMachines(t *testing.T) []heldout.PairedMachine {
	t.Helper()
	ms, err := readPaired()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 8 {
		t.Fatalf("%d machines, want the README's 8", len(ms))
	}
	ms = slices.Clone(ms)
	for i := range ms {
		ms[i].Tables = slices.Clone(ms[i].Tables)
	}
	return ms
}

// A memo computes the value of each key once for the package's tests.
type memo[T any] struct {
	mu sync.Mutex
	by map[string]func() (T, error)
}

// get returns the value of key, computing it with f on the first call.
func (m *memo[T]) get(key string, f func() (T, error)) (T, error) {
	m.mu.Lock()
	if m.by == nil {
		m.by = map[string]func() (T, error){}
	}
	v, ok := m.by[key]
	if !ok {
		v = sync.OnceValues(f)
		m.by[key] = v
	}
	m.mu.Unlock()
	return v()
}

// calibrations memoizes calibratedPaired.
var calibrations memo[*predict.Machine]

// calibratedPaired returns the paired machine named calibrated on all its
// tables (predict.Calibrate, default settings), calibrated once for the
// package's tests, which only read it.
func calibratedPaired(t *testing.T, name string) *predict.Machine {
	t.Helper()
	ms := pairedMachines(t)
	i := slices.IndexFunc(ms, func(m heldout.PairedMachine) bool { return m.Name == name })
	if i < 0 {
		t.Fatalf("no paired machine %s", name)
	}
	pm := ms[i]
	m, err := calibrations.get(name, func() (*predict.Machine, error) { return predict.Calibrate(pm.Hardware, pm.Tables, nil) })
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// TestPairedScores holds out every table of every paired machine, checks
// the targets where they are met and, where they are missed, that the miss
// is listed with its reason, and compares the scores with the golden table.
func TestPairedScores(t *testing.T) {
	parallelUnlessUpdate(t)
	var b, cov bytes.Buffer
	fmt.Fprintln(&b, "| machine | held-out table | points ≥1 MiB / all | ours ≥1 MiB | ours all | in 80% interval | one-link ≥1 MiB | one-link all | NCCL ≥1 MiB | NCCL all |")
	fmt.Fprintln(&b, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	fmt.Fprintln(&cov, "| machine | held-out tables | points | in 80% interval | coverage | width high/low, median | 90th percentile | NCCL's: points | in its interval | coverage |")
	fmt.Fprintln(&cov, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	var inside, points, ncclInside, ncclPoints int
	var all []heldout.Score
	pairs := pairBuckets{}
	ms := slices.DeleteFunc(pairedMachines(t), func(m heldout.PairedMachine) bool { return !scoredInShort(m) })
	for i, scores := range leaveOneOutEach(t, ms) {
		m := ms[i]
		all = append(all, scores...)
		across := map[string]bool{}
		for _, tab := range m.Tables {
			across[tab.Name] = tab.Nodes > 1
		}
		pairs.add(scores, across)
		var in, n, nin, nn int
		for _, s := range scores {
			in, n = in+s.Inside, n+s.Points
			if !math.IsNaN(s.NCCL.All) {
				nin, nn = nin+s.NCCLInside, nn+s.Points
			}
			name := strings.TrimPrefix(s.Table, m.Name+"/")
			fmt.Fprintf(&b, "| %s | %s | %d/%d | %s | %s | %d/%d | %s | %s | %s | %s |\n", m.Name, name, s.Large, s.Points,
				pct(s.Model.Large), pct(s.Model.All), s.Inside, s.Points, pct(s.Baseline.Large), pct(s.Baseline.All), pct(s.NCCL.Large), pct(s.NCCL.All))
			why, listed := misses[s.Table]
			switch ok := meets(s); {
			case ok && listed:
				t.Errorf("%s now meets the targets (%s at >= 1 MiB, %s over all, one-link %s, %s): remove it from misses",
					s.Table, pct(s.Model.Large), pct(s.Model.All), pct(s.Baseline.Large), pct(s.Baseline.All))
			case !ok && !listed:
				t.Errorf("%s misses a target: %s at >= 1 MiB (target %s), %s over all (target %s), one-link %s and %s; explain it in misses",
					s.Table, pct(s.Model.Large), pct(targetLarge), pct(s.Model.All), pct(targetAll), pct(s.Baseline.Large), pct(s.Baseline.All))
			case !ok && why == "":
				t.Errorf("%s: a miss without a reason", s.Table)
			}
		}
		c := float64(in) / float64(n)
		w50, w90 := widths(scores)
		fmt.Fprintf(&cov, "| %s | %d | %d | %d | %s | %.2fx | %.2fx | %d | %d | %s |\n", m.Name, len(scores), n, in, pct(c), w50, w90, nn, nin, pct(float64(nin)/float64(nn)))
		checkCoverage(t, m.Name, c)
		inside, points = inside+in, points+n
		ncclInside, ncclPoints = ncclInside+nin, ncclPoints+nn
	}
	if testing.Short() {
		goldenRows(t, "paired_scores.md", b.Bytes())
		goldenRows(t, "paired_coverage.md", cov.Bytes())
		return
	}
	c := float64(inside) / float64(points)
	w50, w90 := widths(all)
	fmt.Fprintf(&cov, "| all | | %d | %d | %s | %.2fx | %.2fx | %d | %d | %s |\n", points, inside, pct(c), w50, w90, ncclPoints, ncclInside, pct(float64(ncclInside)/float64(ncclPoints)))
	checkCoverage(t, "all", c)
	golden(t, "paired_scores.md", b.Bytes())
	golden(t, "paired_targets_loo.md", []byte(targetRow("each table held out, predicted from the machine's others", all)))
	golden(t, "paired_coverage.md", cov.Bytes())
	golden(t, "paired_bands.md", bandTable("machine", machineRows(pairedMachines(t)), all))
	golden(t, "paired_mid.md", midTable("machine", machineRows(pairedMachines(t)), all))
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
	}
	golden(t, "paired_rules.md", ruleTable(t, names, all))
	golden(t, "paired_pairs.md", pairs.table())
}

// leaveOneOutEach scores the tables of each machine by leaving each out in
// turn (heldout.LeaveOneOut), the machines in parallel: they share nothing.
func leaveOneOutEach(t *testing.T, ms []heldout.PairedMachine) [][]heldout.Score {
	t.Helper()
	scores := make([][]heldout.Score, len(ms))
	errs := make([]error, len(ms))
	var wg sync.WaitGroup
	for i, m := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			scores[i], errs[i] = heldout.LeaveOneOut(m.Hardware, m.Tables, nil)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", ms[i].Name, err)
		}
	}
	return scores
}

// sizeBands are the bounds of the size bands of bandTable: below 64 KiB,
// 64 KiB-1 MiB, 1-16 MiB (where NCCL runs fewer channels), 16-64 MiB,
// 64 MiB-1 GiB and above.
var sizeBands = []float64{64 << 10, 1 << 20, 16 << 20, 64 << 20, 1 << 30}

// bandTable is the median of model/measured - 1 over the held-out points of
// each machine and size band, with the points behind it: where the model is
// fast (negative) or slow.
func bandTable(title string, rows []groupRow, scores []heldout.Score) []byte {
	names := []string{"< 64 KiB", "64 KiB-1 MiB", "1-16 MiB", "16-64 MiB", "64 MiB-1 GiB", "≥ 1 GiB"}
	return groupTable(title, rows, scores, names, func(s heldout.Score, i int) int {
		k, _ := slices.BinarySearch(sizeBands, s.Predicted[i].Size+1)
		return k
	})
}

// midTable splits the held-out points of 64 KiB to 64 MiB by whether NCCL
// runs them on fewer channels than the most it runs their algorithm and
// protocol on in the table (Prediction.Channels), and by what bounds the
// model's time there (Prediction.Bound): the launch floor or the latency,
// or a link's bandwidth. If fewer channels made these sizes slower than
// the model, the fewer-channel points bound by a link would be the fast
// ones.
func midTable(title string, rows []groupRow, scores []heldout.Score) []byte {
	names := []string{"fewer channels, launch or latency", "fewer channels, a link", "all channels, launch or latency", "all channels, a link"}
	return groupTable(title, rows, scores, names, func(s heldout.Score, i int) int {
		p := s.Predicted[i]
		if p.Size < 64<<10 || p.Size >= 64<<20 || p.Channels == 0 {
			return -1
		}
		most := 0
		for _, q := range s.Predicted {
			if q.Algorithm == p.Algorithm && q.Protocol == p.Protocol {
				most = max(most, q.Channels)
			}
		}
		k := 0
		if p.Channels == most {
			k = 2
		}
		if p.Bound == predict.TermLinks || p.Bound == predict.TermNetwork || p.Bound == predict.TermChannels {
			k++
		}
		return k
	})
}

// A groupRow is a row of groupTable: its name and the scores it keeps.
type groupRow struct {
	name string
	keep func(s heldout.Score) bool
}

// machineRows are a row for each of the machines, and one for all.
func machineRows(ms []heldout.PairedMachine) []groupRow {
	var rows []groupRow
	for _, m := range ms {
		rows = append(rows, groupRow{m.Name, func(s heldout.Score) bool { return strings.HasPrefix(s.Table, m.Name+"/") }})
	}
	return append(rows, groupRow{"all", func(heldout.Score) bool { return true }})
}

// groupTable is the median of model/measured - 1 over the held-out points
// of each row (title heads their column) in each of the columns names,
// with the points behind it and the share of them inside their 80%
// interval; column gives a point's column, -1 for none.
func groupTable(title string, rows []groupRow, scores []heldout.Score, names []string, column func(s heldout.Score, i int) int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "| %s | %s |\n|---|%s\n", title, strings.Join(names, " | "), strings.Repeat("---:|", len(names)))
	for _, r := range rows {
		cols := make([][]float64, len(names))
		inside := make([]int, len(names))
		for _, s := range scores {
			if !r.keep(s) {
				continue
			}
			for i, p := range s.Predicted {
				if k := column(s, i); k >= 0 {
					cols[k] = append(cols[k], p.Time/s.Measured[i]-1)
					if p.Holds(s.Measured[i]) {
						inside[k]++
					}
				}
			}
		}
		fmt.Fprintf(&b, "| %s |", r.name)
		for k, e := range cols {
			if len(e) == 0 {
				fmt.Fprint(&b, " — |")
				continue
			}
			fmt.Fprintf(&b, " %+.1f%% (%d, %s in) |", 100*fit.Median(e), len(e), pct(float64(inside[k])/float64(len(e))))
		}
		fmt.Fprintln(&b)
	}
	return b.Bytes()
}

// ruleTable lists every rule commlab tune writes on the held-out tables of
// scores that ran NCCL's own choices (heldout.Rule, not withheld),
// calibrated as for the score, against the time the table measured for
// NCCL's own choice at the rule's size, and a last line of counts: the
// tables tune decided rules for, the choices it withheld, the rules whose
// choice the model predicts no faster than that time (refuted: by the
// model's own estimate, rules that would slow the job; t fails for each)
// and those whose measured time lies within or below the choice's 80%
// interval.
func ruleTable(t *testing.T, machines []string, scores []heldout.Score) []byte {
	t.Helper()
	var b bytes.Buffer
	fmt.Fprintln(&b, "| machine | held-out table | size | the rule's choice | predicted (80% interval) | NCCL's own, as the model reads its tuner | NCCL's own measured | measured / predicted |")
	fmt.Fprintln(&b, "|---|---|---:|---|---:|---|---:|---:|")
	tuned, rules, withheld, refuted, unsettled := 0, 0, 0, 0, 0
	for _, s := range scores {
		if !s.Tuned {
			continue
		}
		tuned++
		machine := ""
		for _, m := range machines {
			if strings.HasPrefix(s.Table, m+"/") {
				machine = m
			}
		}
		for _, r := range s.Rules {
			c := r.Choice
			if c.Withheld() {
				withheld++
				continue
			}
			rules++
			if r.Refuted() {
				refuted++
				t.Errorf("%s at %s: tune takes %s/%s, %s predicted, where NCCL's own %s/%s measured %s: the rule would slow the job",
					s.Table, size(c.Size), c.Ours.Algorithm, c.Ours.Protocol, units.FormatDuration(c.Ours.Time), c.NCCL.Algorithm, c.NCCL.Protocol, units.FormatDuration(r.Measured))
			}
			if r.Unsettled() {
				unsettled++
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s/%s | %s (%s-%s) | %s/%s | %s | %.2f |\n", machine, strings.TrimPrefix(s.Table, machine+"/"), size(c.Size),
				c.Ours.Algorithm, c.Ours.Protocol, units.FormatDuration(c.Ours.Time), units.FormatDuration(c.Ours.Low), units.FormatDuration(c.Ours.High),
				c.NCCL.Algorithm, c.NCCL.Protocol, units.FormatDuration(r.Measured), r.Measured/c.Ours.Time)
		}
	}
	fmt.Fprintf(&b, "\n%d held-out tables of NCCL's own choices; %d rules written and %d choices withheld; %d rules predict their choice no faster than NCCL's own measured, and for %d NCCL's own measured time lies within or below the rule's 80%% interval.\n",
		tuned, rules, withheld, refuted, unsettled)
	return b.Bytes()
}

// The target for the 80% interval: 70-90% of the held-out points
// inside, over all machines and on each.
const coverageLow, coverageHigh = 0.70, 0.90

// coverageMisses are the machines whose held-out coverage misses the
// target, with why.
var coverageMisses = map[string]string{}

func checkCoverage(t *testing.T, machine string, c float64) {
	t.Helper()
	why, listed := coverageMisses[machine]
	switch ok := coverageLow <= c && c <= coverageHigh; {
	case ok && listed:
		t.Errorf("%s: coverage %s now meets the target: remove it from coverageMisses", machine, pct(c))
	case !ok && !listed:
		t.Errorf("%s: %s of held-out points inside the 80%% interval, want %s-%s; explain it in coverageMisses",
			machine, pct(c), pct(coverageLow), pct(coverageHigh))
	case !ok && why == "":
		t.Errorf("%s: a coverage miss without a reason", machine)
	}
}

// targetRow is a row of the report's table of the targets for a
// user's cluster: how many of the predictions are within targetWithin at
// the median over all sizes, how many beat the one-link baseline there,
// and the share of points inside the 80% interval.
func targetRow(name string, scores []heldout.Score) string {
	within, better := targets(scores)
	share := func(k int) string {
		return fmt.Sprintf("%d of %d (%s)", k, len(scores), pct(float64(k)/float64(len(scores))))
	}
	w50, w90 := widths(scores)
	return fmt.Sprintf("| %s | %s | %s | %s | %.2fx | %.2fx |\n", name, share(within), share(better), pct(heldout.Coverage(scores)), w50, w90)
}

// targets counts the predictions within targetWithin at the median over
// all sizes, and those better than the one-link baseline there.
func targets(scores []heldout.Score) (within, better int) {
	for _, s := range scores {
		if s.Model.All <= targetWithin {
			within++
		}
		if s.Model.All < s.Baseline.All {
			better++
		}
	}
	return within, better
}

// fromEachAll names the pooled coverage of TestPairedFromEach among the
// coverage misses.
const fromEachAll = "from one table, all machines"

// targetWithin is the median error, over all sizes, under which a
// prediction counts as close: the 15% for a user's cluster.
const targetWithin = 0.15

// TestPairedFromEach calibrates on each table of each paired machine alone
// and predicts every other table of the machine (heldout.FromEach): for each
// machine, how many of those predictions are within targetWithin and better
// than the one-link baseline fitted on the same table, their median errors
// beside NCCL's uncalibrated model's (where it has one), and the share of
// points inside the 80% interval. The interval of one table pools its own
// errors at the fit with the prior (interval.go); the test holds the pooled coverage to the 70-90%,
// or its miss to a reason, and the rest to the golden table. Under -short
// it scores the machines scoredInShort keeps and checks their rows.
func TestPairedFromEach(t *testing.T) {
	parallelUnlessUpdate(t)
	var b bytes.Buffer
	fmt.Fprintln(&b, "| machine | tables | predictions | within 15% | better than one-link | median error ≥1 MiB | median error, all sizes | NCCL ≥1 MiB | NCCL all | points | in 80% interval | coverage | width high/low, median | 90th percentile |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	var all []heldout.Score
	row := func(name, tables string, scores []heldout.Score) {
		within, better := targets(scores)
		var in, n int
		var large, whole, ncclLarge, ncclWhole []float64
		for _, s := range scores {
			if s.Large > 0 {
				large = append(large, s.Model.Large)
			}
			whole = append(whole, s.Model.All)
			if !math.IsNaN(s.NCCL.All) {
				ncclWhole = append(ncclWhole, s.NCCL.All)
				if s.Large > 0 {
					ncclLarge = append(ncclLarge, s.NCCL.Large)
				}
			}
			in, n = in+s.Inside, n+s.Points
		}
		w50, w90 := widths(scores)
		fmt.Fprintf(&b, "| %s | %s | %d | %d (%s) | %d (%s) | %s | %s | %s | %s | %d | %d | %s | %.2fx | %.2fx |\n", name, tables, len(scores),
			within, pct(float64(within)/float64(len(scores))), better, pct(float64(better)/float64(len(scores))),
			pct(fit.Median(large)), pct(fit.Median(whole)), pct(fit.Median(ncclLarge)), pct(fit.Median(ncclWhole)), n, in, pct(float64(in)/float64(n)), w50, w90)
	}
	for _, m := range pairedMachines(t) {
		if !scoredInShort(m) {
			continue
		}
		scores, err := heldout.FromEach(m.Hardware, m.Tables, nil)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		if want := len(m.Tables) * (len(m.Tables) - 1); len(scores) != want {
			t.Fatalf("%s: %d predictions from each of %d tables, want %d", m.Name, len(scores), len(m.Tables), want)
		}
		row(m.Name, strconv.Itoa(len(m.Tables)), scores)
		all = append(all, scores...)
	}
	if testing.Short() {
		goldenRows(t, "paired_from_each.md", b.Bytes())
		return
	}
	row("all", "", all)
	checkCoverage(t, fromEachAll, heldout.Coverage(all))
	golden(t, "paired_from_each.md", b.Bytes())
	golden(t, "paired_targets_each.md", []byte(targetRow("each table alone, predicting the machine's others", all)))
}

// TestPairedCrossovers compares measured and predicted crossovers on the
// paired machines: between tables that pin different algorithms or
// protocols (each pair held out of its calibration), and the switches of
// NCCL's tuner against the regime breaks of default-tuner tables.
func TestPairedCrossovers(t *testing.T) {
	parallelUnlessUpdate(t)
	var b bytes.Buffer
	fmt.Fprintln(&b, "| machine | kind | table | crossing | measured | predicted | ratio |")
	fmt.Fprintln(&b, "|---|---|---|---|---:|---:|---:|")
	for _, m := range pairedMachines(t) {
		pins, err := heldout.PinCrossovers(m.Hardware, m.Tables, nil)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		switches, err := heldout.TunerSwitches(m.Hardware, m.Tables)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		for k, cs := range [][]heldout.Crossover{pins, switches} {
			kind := [...]string{"pins", "tuner switch"}[k]
			for _, c := range cs {
				a, bb := strings.TrimPrefix(c.A, m.Name+"/"), strings.TrimPrefix(c.B, m.Name+"/")
				ratio := "—"
				if r := c.Ratio(); !math.IsNaN(r) {
					ratio = strconv.FormatFloat(r, 'f', 2, 64)
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", m.Name, kind, a, bb, size(c.Measured), size(c.Predicted), ratio)
				key := c.A + " | " + c.B
				why, listed := crossMisses[key]
				switch ok := c.Within(targetCross); {
				case ok && listed:
					t.Errorf("%s: now within %.1fx (measured %s, predicted %s): remove it from crossMisses", key, targetCross, size(c.Measured), size(c.Predicted))
				case !ok && !listed:
					t.Errorf("%s: measured %s, predicted %s, not within %.1fx; explain it in crossMisses", key, size(c.Measured), size(c.Predicted), targetCross)
				case !ok && why == "":
					t.Errorf("%s: a miss without a reason", key)
				}
			}
		}
	}
	golden(t, "paired_crossovers.md", b.Bytes())
}

// golden compares got with testdata/name, number by number within 0.2 (the
// percentages' last digit, and 0.002 of a ratio, may move with floating
// point), or rewrites it with -update.
// parallelUnlessUpdate runs t in parallel, but not under -update: t
// writes testdata that TestScoresReport reads, and a parallel test resumes
// only after every other test has started, TestScoresReport among them,
// which would report the testdata of the run before. Under -update the
// writers run in file order, before it.
func parallelUnlessUpdate(t *testing.T) {
	if !*update {
		t.Parallel()
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update)", err, t.Name())
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	if len(gl) != len(wl) {
		t.Fatalf("%s: %d lines, golden has %d; got:\n%s", path, len(gl), len(wl), got)
	}
	for i := range gl {
		if !sameRow(gl[i], wl[i]) {
			t.Errorf("%s:%d:\n got %s\nwant %s", path, i+1, gl[i], wl[i])
		}
	}
}

// goldenRows checks each row of got's table against the row of
// testdata/name that has the same first two cells, as golden does: the
// rows of a test that computed only some of the golden table's (under
// -short).
func goldenRows(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	key := func(row string) string {
		c := strings.SplitN(row, "|", 4)
		if len(c) < 4 {
			return row
		}
		return c[1] + "|" + c[2]
	}
	rows := map[string]string{}
	for _, w := range strings.Split(string(want), "\n") {
		rows[key(w)] = w
	}
	checked := 0
	for _, g := range strings.Split(string(got), "\n") {
		if !strings.HasPrefix(g, "| ") || strings.HasPrefix(g, "|---") {
			continue
		}
		w, ok := rows[key(g)]
		switch {
		case !ok:
			t.Errorf("%s has no row %s", path, g)
		case !sameRow(g, w):
			t.Errorf("%s:\n got %s\nwant %s", path, g, w)
		}
		checked++
	}
	if checked < 2 {
		t.Errorf("%s: %d rows checked, want the header and a row or more", path, checked)
	}
}

// sameRow compares two table rows cell by cell, numbers within 0.2.
func sameRow(a, b string) bool {
	ac, bc := strings.Split(a, "|"), strings.Split(b, "|")
	if len(ac) != len(bc) {
		return false
	}
	for i := range ac {
		x, y := strings.TrimSpace(ac[i]), strings.TrimSpace(bc[i])
		if x == y {
			continue
		}
		fx, ex := strconv.ParseFloat(strings.TrimSuffix(x, "%"), 64)
		fy, ey := strconv.ParseFloat(strings.TrimSuffix(y, "%"), 64)
		scale := 0.2
		if !strings.HasSuffix(x, "%") {
			scale = 0.002 * max(1, math.Abs(fy))
		}
		if ex != nil || ey != nil || !scalar.EqualWithinAbs(fx, fy, scale) {
			return false
		}
	}
	return true
}

// pairedSweeps returns each paired machine's pinned sweeps: the tables of
// one collective and shape, two or more, at least one of them pinning
// NCCL_ALGO or NCCL_PROTO.
func pairedSweeps(m heldout.PairedMachine) [][]predict.Table {
	type shape struct {
		c              string
		nodes, perNode int
	}
	groups := map[shape][]predict.Table{}
	var order []shape
	for _, t := range m.Tables {
		k := shape{t.Collective.String(), t.Nodes, t.PerNode}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], t)
	}
	var out [][]predict.Table
	for _, k := range order {
		g := groups[k]
		pinned, auto := 0, 0
		for _, t := range g {
			if t.Algo != "" || t.Proto != "" {
				pinned++
			} else {
				auto++
			}
		}
		if len(g) >= 2 && pinned >= 1 && auto <= 1 {
			out = append(out, g)
		}
	}
	return out
}

// The target for a tuner's choices on pinned sweeps: the measured
// time of the choice within 10% of the measured best at 90% of the sizes.
const sweepWithin, sweepShare = 0.10, 0.90

// TestPairedSweeps scores the model's choices on every pinned sweep of the
// paired machines, calibrated on the machine's other tables
// (predict.ScoreSweep), beside NCCL's own pick.
func TestPairedSweeps(t *testing.T) {
	parallelUnlessUpdate(t)
	var b bytes.Buffer
	fmt.Fprintln(&b, "| machine | sweep | tables | sizes | model within 10% of the best | NCCL's pick within 10% |")
	fmt.Fprintln(&b, "|---|---|---|---:|---:|---:|")
	var within, ncclWithin, sizes int
	for _, m := range pairedMachines(t) {
		for _, sweep := range pairedSweeps(m) {
			var rest []predict.Table
			var names []string
			for _, tb := range m.Tables {
				if !slices.ContainsFunc(sweep, func(s predict.Table) bool { return s.Name == tb.Name }) {
					rest = append(rest, tb)
				}
			}
			for _, s := range sweep {
				names = append(names, strings.TrimPrefix(s.Name, m.Name+"/"))
			}
			mc, err := predict.Calibrate(m.Hardware, rest, nil)
			if err != nil {
				t.Fatalf("%s without %v: %v", m.Name, names, err)
			}
			ps, err := mc.ScoreSweep(sweep)
			if err != nil {
				t.Fatal(err)
			}
			w, nw := 0, 0
			for _, p := range ps {
				if p.ChosenTime <= (1+sweepWithin)*p.BestTime {
					w++
				}
				if p.NCCL != "" && p.NCCLTime <= (1+sweepWithin)*p.BestTime {
					nw++
				}
			}
			within, ncclWithin, sizes = within+w, ncclWithin+nw, sizes+len(ps)
			fmt.Fprintf(&b, "| %s | %v on %d x %d | %s | %d | %d | %d |\n", m.Name, sweep[0].Collective, sweep[0].Nodes, sweep[0].PerNode,
				strings.Join(names, ", "), len(ps), w, nw)
		}
	}
	fmt.Fprintf(&b, "| all | | | %d | %d (%s) | %d (%s) |\n", sizes, within, pct(float64(within)/float64(sizes)),
		ncclWithin, pct(float64(ncclWithin)/float64(sizes)))
	if share := float64(within) / float64(sizes); share < sweepShare {
		t.Errorf("the model's choice is within 10%% of the best at %s of the sweeps' sizes, want %s", pct(share), pct(sweepShare))
	}
	golden(t, "paired_sweeps.md", b.Bytes())
}

// TestPairedBeyondNodes predicts each paired table from the tables of its
// machine that ran on fewer nodes, where at least one of them crossed the
// network (so that the network's parameters are calibrated, not priors):
// how the measurement departs from the model beyond the tables' largest
// node count. Its spreads, SlowerAbove and FasterAbove, are held to the
// measurement (outsideNodes says how), and so is its form: the slow side,
// which sets the width, must favour a variance per doubling.
func TestPairedBeyondNodes(t *testing.T) {
	parallelUnlessUpdate(t)
	outsideNodes(t, true, "paired_beyond.md", predict.SlowerAbove, predict.FasterAbove)
}

// TestPairedBelowNodes predicts each paired table from the tables of its
// machine that ran on more nodes: how the measurement departs from the
// model below the tables' smallest node count (a run inside one node from
// tables across nodes, or on fewer nodes). Its spreads, SlowerBelow and
// FasterBelow, are held to the measurement, and its form as above.
func TestPairedBelowNodes(t *testing.T) {
	parallelUnlessUpdate(t)
	outsideNodes(t, false, "paired_below.md", predict.SlowerBelow, predict.FasterBelow)
}

// outsideNodes predicts each paired table from the other tables of its
// machine on fewer nodes than it (above, where one of them at least
// crossed the network) or on more (below), and writes testdata/file.
// For each prediction: the median e of ln(measured/model) over the
// table's sizes, the d doublings of nodes or ranks (the farther) outside
// the calibration's range, as the interval counts them (interval.go), and
// the median width High/Low of the interval. The root mean square of e/√d
// over the predictions measured slower, and over those measured faster,
// are the interval's spreads there, which the test holds to slowerWant and
// fasterWant within their two digits. The form, a variance d times one
// doubling's, is held to its measurement too: on each side its likelihood
// is compared with that of a standard deviation d times one doubling's
// (each form's spread fitted by maximum likelihood), and the slow side,
// which sets the width, must favour it.
func outsideNodes(t *testing.T, above bool, file string, slowerWant, fasterWant float64) {
	t.Helper()
	var b bytes.Buffer
	fmt.Fprintln(&b, "| held-out table | nodes | from tables of | doublings d | median ln(measured/model) | per √d | in 80% interval | width high/low, median |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|---:|---:|---:|")
	type miss struct{ e, d float64 }
	var slower, faster []miss
	var scores []heldout.Score
	for _, m := range pairedMachines(t) {
		if !scoredInShort(m) {
			continue
		}
		for i, held := range m.Tables {
			var from []predict.Table
			fewest, most := math.MaxInt, 0
			minRanks, maxRanks := math.MaxInt, 0
			for j, o := range m.Tables {
				if j != i && (o.Nodes < held.Nodes) == above && o.Nodes != held.Nodes {
					from = append(from, o)
					fewest, most = min(fewest, o.Nodes), max(most, o.Nodes)
					minRanks, maxRanks = min(minRanks, o.Ranks()), max(maxRanks, o.Ranks())
				}
			}
			if len(from) == 0 || above && most < 2 {
				continue
			}
			sc, err := heldout.HeldOut(m.Hardware, from, []predict.Table{held}, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := sc[0]
			r := make([]float64, len(s.Predicted))
			for k, p := range s.Predicted {
				r[k] = math.Log(s.Measured[k] / p.Time)
			}
			med := fit.Median(r)
			span := fmt.Sprintf("%d to %d", fewest, most)
			d := math.Max(math.Log2(float64(held.Nodes)/float64(most)), math.Log2(float64(held.Ranks())/float64(maxRanks)))
			if !above {
				d = math.Max(math.Log2(float64(fewest)/float64(held.Nodes)), math.Log2(float64(minRanks)/float64(held.Ranks())))
			}
			if fewest == most {
				span = strconv.Itoa(most)
			}
			if med > 0 {
				slower = append(slower, miss{med, d})
			} else {
				faster = append(faster, miss{med, d})
			}
			scores = append(scores, s)
			w, _ := widths(sc)
			fmt.Fprintf(&b, "| %s | %d | %s | %.2f | %+.3f | %+.3f | %d/%d | %.2fx |\n", held.Name, held.Nodes, span, d, med, med/math.Sqrt(d), s.Inside, s.Points, w)
		}
	}
	if testing.Short() {
		goldenRows(t, file, b.Bytes())
		return
	}
	// fitted returns, for the misses x with a standard deviation of
	// s·scale(d), the maximum-likelihood s (the root mean square of
	// e/scale(d)) and the normal log-likelihood at it.
	fitted := func(x []miss, scale func(d float64) float64) (s, logLik float64) {
		var ss float64
		for _, m := range x {
			ss += (m.e / scale(m.d)) * (m.e / scale(m.d))
		}
		s = math.Sqrt(ss / float64(len(x)))
		for _, m := range x {
			sd := s * scale(m.d)
			logLik += -0.5*math.Log(2*math.Pi*sd*sd) - m.e*m.e/(2*sd*sd)
		}
		return s, logLik
	}
	walk := func(x []miss) (float64, float64) { return fitted(x, math.Sqrt) }
	line := func(x []miss) (float64, float64) { return fitted(x, func(d float64) float64 { return d }) }
	sw, lw := walk(slower)
	fw, flw := walk(faster)
	sl, ll := line(slower)
	fl, fll := line(faster)
	w50, w90 := widths(scores)
	fmt.Fprintf(&b, "\n%d of %d predictions measured slower than the model, root mean square %.3f per √d; %d faster, %.3f per √d. %s of their points inside their 80%% interval, whose width has a median of %.2fx and a 90th percentile of %.2fx.\n",
		len(slower), len(slower)+len(faster), sw, len(faster), fw, pct(heldout.Coverage(scores)), w50, w90)
	fmt.Fprintf(&b, "\nThe form: with a variance d times one doubling's, the log-likelihood of the slower misses is %.2f and of the faster %.2f; "+
		"with a standard deviation d times one doubling's (%.3f and %.3f per doubling), %.2f and %.2f.\n", lw, flw, sl, fl, ll, fll)
	if lw < ll {
		t.Errorf("slower misses: a standard deviation d times one doubling's explains them better (log-likelihood %.2f against %.2f): the interval's form is not what they show", ll, lw)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"slower", sw, slowerWant}, {"faster", fw, fasterWant}} {
		if !scalar.EqualWithinAbs(c.got, c.want, 0.005) {
			t.Errorf("%s: root mean square %.3f per √d, but the interval's spread is %.2f: set it to the measurement", c.name, c.got, c.want)
		}
	}
	golden(t, file, b.Bytes())
}
