package heldout_test

// The tests of this file read the tables that the package's other tests
// write to testdata. Go runs a package's tests file by file in the order
// of their names, so that one run with -update writes those tables first
// and then these from them.

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestHeldOutCoverage compares, machine by machine, the held-out coverage
// one calibration computes from its own refits (Machine.HeldOutCoverage:
// each table's points against an interval from the other tables' held-out
// errors) with that of heldout.LeaveOneOut, which calibrates anew without
// each table. LeaveOneOut's figures are those of
// testdata/paired_coverage.md, which TestPairedScores pins. Both figures
// are written to testdata/paired_heldout_coverage.md.
//
// The two intervals differ in the fits behind their spread: a calibration
// on n tables pools the errors of refits on n−1 tables, the fits that
// predict each held-out table here too, where LeaveOneOut's calibration on
// n−1 tables pools those of refits on n−2. On machines of 7 tables or more
// the two agree within 5 points, where one table (24 points of 288) moves
// either by 8: the same prediction of a table with another spread can
// hold most of its points in one and half in the other. On machines of 3
// or 4 tables, where one table fewer in every refit widens LeaveOneOut's
// spread most, the calibration's own figure is lower.
func TestHeldOutCoverage(t *testing.T) {
	parallelUnlessUpdate(t)
	loo := looCoverage(t)
	var b bytes.Buffer
	fmt.Fprintln(&b, "| machine | tables | points | each table held out (LeaveOneOut) | one calibration's refits (HeldOutCoverage) |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|")
	var points, looInside, inside float64
	for _, m := range pairedMachines(t) {
		c, ok := loo[m.Name]
		if !ok {
			t.Fatalf("%s: not in testdata/paired_coverage.md", m.Name)
		}
		cal := calibratedPaired(t, m.Name)
		own := cal.HeldOutCoverage
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %s |\n", m.Name, len(m.Tables), int(c.points), pct(c.share()), pct(own))
		points, looInside, inside = points+c.points, looInside+c.inside, inside+own*c.points
		switch d := own - c.share(); {
		case math.IsNaN(own):
			t.Errorf("%s: no held-out coverage from %d tables", m.Name, len(m.Tables))
		case len(m.Tables) >= 7 && !scalar.EqualWithinAbs(own, c.share(), 0.05):
			t.Errorf("%s: held-out coverage %s, LeaveOneOut's %s: want within 5 points with %d tables", m.Name, pct(own), pct(c.share()), len(m.Tables))
		case len(m.Tables) < 7 && d > 0:
			t.Errorf("%s: held-out coverage %s above LeaveOneOut's %s with %d tables: want it lower", m.Name, pct(own), pct(c.share()), len(m.Tables))
		}
	}
	all, allLOO := inside/points, looInside/points
	fmt.Fprintf(&b, "| all | | %d | %s | %s |\n", int(points), pct(allLOO), pct(all))
	if !scalar.EqualWithinAbs(all, allLOO, 0.02) {
		t.Errorf("all machines: held-out coverage %s, LeaveOneOut's %s: want within 2 points", pct(all), pct(allLOO))
	}
	golden(t, "paired_heldout_coverage.md", b.Bytes())
}

// looCounts are one machine's points and those inside LeaveOneOut's
// interval.
type looCounts struct{ points, inside float64 }

func (c looCounts) share() float64 { return c.inside / c.points }

// looCoverage reads each machine's points and points inside the interval
// from testdata/paired_coverage.md (columns machine, held-out tables,
// points, in 80% interval).
func looCoverage(t *testing.T) map[string]looCounts {
	t.Helper()
	b, err := os.ReadFile("testdata/paired_coverage.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]looCounts{}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[2:] {
		cells := strings.Split(line, "|")
		if len(cells) < 5 {
			t.Fatalf("testdata/paired_coverage.md:%d: %d cells", i+3, len(cells))
		}
		points, err1 := strconv.ParseFloat(strings.TrimSpace(cells[3]), 64)
		inside, err2 := strconv.ParseFloat(strings.TrimSpace(cells[4]), 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("testdata/paired_coverage.md:%d: points %q, inside %q", i+3, cells[3], cells[4])
		}
		out[strings.TrimSpace(cells[1])] = looCounts{points, inside}
	}
	return out
}

// TestScoresReport checks that docs/scores.md is the report these tests
// write: the score, coverage, sweep and crossover tables of testdata (which the
// tests above hold to the computation) and every miss with its reason.
// Run go test ./commmodel/predict/heldout -update to rewrite it.
func TestScoresReport(t *testing.T) {
	var b bytes.Buffer
	part := func(name string) string {
		s, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(s)
	}
	reasons := func(by map[string][]string) {
		whys := make([]string, 0, len(by))
		for why := range by {
			whys = append(whys, why)
		}
		slices.SortFunc(whys, func(a, b string) int { return strings.Compare(by[a][0], by[b][0]) })
		for _, why := range whys {
			fmt.Fprintf(&b, "- %s: %s.\n", strings.Join(by[why], ", "), why)
		}
	}
	fmt.Fprint(&b, `# Prediction scores on tables the model never saw

This report is written by `+"`go test ./commmodel/predict/heldout -update`"+`;
do not edit it by hand.

Every table of the paired public logs (`+"`data/logs/paired`"+`: 8 machines, each measured several
ways) is held out in turn and predicted by the model calibrated on the other tables of its
machine (`+"`heldout.LeaveOneOut`"+`). Beside the model stand the one-link baseline (the
article's `+"`T = steps·α + bytes/BW`"+`, one link fitted on the same tables through each table's
ring algorithm) and NCCL's own uncalibrated model, which has no model of AllToAll. An error is
the median of |predicted/measured - 1| over the held-out table's sizes of at least 1 MiB, or
over all its sizes.

## The targets for a user's cluster

Predictions of the paired machines' tables, two ways: every table held out and predicted from
the other tables of its machine, and every table alone predicting each of the others. None is
refused (a refusal fails the tests that write this report). The targets are at least 60% of the
predictions within 15% median error, every one better than the one-link baseline, and 70-90% of
the points inside the 80% interval, whose width High/Low has a median of at most 2x and a 90th
percentile of at most 4x.

| predictions | within 15% | better than one-link | inside the 80% interval | width high/low, median | 90th percentile |
|---|---:|---:|---:|---:|---:|
`+part("paired_targets_loo.md")+part("paired_targets_each.md")+`
## Coverage of the 80% interval

The share of held-out points whose measured time lies within the prediction's 80% interval
[Low, High]. The target is 70-90% on every machine and overall. An interval holds by being right
or by being wide, so its width High/Low stands beside it, the median and the 90th percentile
over the same points (the targets: at most 2x and 4x). Beside them, the same coverage for NCCL's
uncalibrated model, whose interval no table narrows (`+"`predict.Reference`"+`): it is what a
prediction from a GPU name alone offers.

`)
	b.WriteString(part("paired_coverage.md"))
	whys := make([]string, 0, len(coverageMisses))
	for m := range coverageMisses {
		if m != fromEachAll {
			whys = append(whys, m)
		}
	}
	slices.Sort(whys)
	if len(whys) == 0 {
		fmt.Fprintf(&b, "\nEvery machine meets it.\n")
	} else {
		fmt.Fprintf(&b, "\nWhere a machine misses it:\n\n")
	}
	for _, m := range whys {
		fmt.Fprintf(&b, "- %s: %s.\n", m, coverageMisses[m])
	}
	fmt.Fprintf(&b, `
## Errors

The targets: at most %s at sizes of at least 1 MiB, at most %s over all sizes, and better
than the one-link baseline on both.

`, pct(targetLarge), pct(targetAll))
	b.WriteString(part("paired_scores.md"))
	fmt.Fprintf(&b, "\nWhere a table misses a target, and why:\n\n")
	reasons(missesBy)
	fmt.Fprint(&b, `
## Errors by size

The median of model/measured − 1 over the held-out points of each size band (negative: the model
is fast), with the number of points and the share of them inside their 80% interval. The spread
behind the interval is pooled apart for each protocol, which NCCL switches with size; within a
protocol it is the same at every size, so the coverage still varies from band to band.

`)
	b.WriteString(part("paired_bands.md"))
	b.WriteString(`
From 64 KiB to 64 MiB, the same points split by whether NCCL runs them on fewer channels than the
most it runs their algorithm and protocol on in the table (the channels column of ` + "`commlab predict`" + `,
which follows NCCL 2.18 to 2.30), and by the term that bounds the model's time there (its bound
column: the launch floor, the latency, or a link's bandwidth, the channels' across nodes among them):

`)
	b.WriteString(part("paired_mid.md"))
	b.WriteString(`
Within a node the model's time does not scale with the channels; across nodes LL and LL128 move
their network bytes on the channels NCCL gives the size, each carrying channel_bw at most, as
grouped sends do. Where these sizes come out fast, it is mostly at
all channels with the launch floor or the latency bounding the time: NCCL's per-step latencies
times the steps of many ranks (cluster01's 10 x 8 tables), and the launch floor's overlap with the
work (Together's ` + "`-g 8`" + ` tables), fall short there. Every bandwidth scaled by NCCL's channels at
each size would slow only the points that run on fewer channels with a link bounding the time:
they are few, all from NCCL 2.8.4 (ABCI), whose channel rules predate the ones modelled, and they
go both ways; scaling every bandwidth term by the channel share at each size made more held-out
tables worse than better.
`)
	fmt.Fprintf(&b, `
## From one table

Each table of a machine calibrates alone and predicts every other table of the machine
(`+"`heldout.FromEach`"+`): what a user with a single log learns of the machine's other runs. The
one-link baseline is fitted on the same table; NCCL's uncalibrated model needs none (it has no
model of AllToAll). A prediction counts as within %.0f%% by its median error over all sizes.

`, 100*targetWithin)
	b.WriteString(part("paired_from_each.md"))
	fmt.Fprint(&b, `
With no table to hold out, the table's own errors at the fit stand in for a held-out table's,
pooled with the prior's spread of 0.4 in logs (an interval of -40% to +67% at 80%) as if each
were one table: the interval is as narrow as ±8% where the model fits the table within a
percent, and it widens with the table's own misfit and where the prediction leaves the table's
nodes, ranks or launch layout. It does not widen again for a parameter the table leaves
unidentified, nor for a collective the table did not run: the prior's spread is the error of
held-out tables predicted from other runs, which already holds those. Over all machines the
interval then holds about the share it is meant to, but not machine by machine: the fit's errors
understate what the table's machine does on other runs, and the prior's equal weight makes up for
it only in part. It is wider than the errors need where the model's errors on other runs are a
few percent (cluster01, Together), and too narrow where one table says nothing of what the others
cross (the H100s of nccl-tests#290, whose one-node table never crossed the network the two-node
tables cross, and whose two-node tables ran different algorithms), where a machine's collectives
disagree with each other (the DGX-2, by up to 1.9x at the same bytes per GPU), or where the model
misses the machine's other runs by 30% and more (ABCI's, GB200's; the misses above). A table
of too few rows to measure its own spread, fewer than three beyond the parameters it fixes (GB300's
tables of two rows), leaves the prior's spread alone, and its interval is as wide as that: it
holds every GB300 point, by width. A second table lets the calibration measure its own spread (the
coverage above).
`)
	if why := coverageMisses[fromEachAll]; why != "" {
		fmt.Fprintf(&b, "\nOver all machines the coverage misses the target of 70-90%%: %s.\n", why)
	}
	fmt.Fprint(&b, `
## Public logs of other machines, as a new user has them

The public logs of `+"`data/nccltests/testdata/real`"+` that hold two tables or more of one machine
(each file's first lines cite its source), scored as commlab treats a user who gives the logs and
the run's shape and nothing else (`+"`heldout.NewUserLeaveOneOut`, `heldout.NewUserFromEach`"+`): the
machine is what `+"`predict.Describe`"+` makes of the GPU's name and what the calibration tables print
(`+"`Hardware.FromTables`"+`), not what the machine's page says, and each interval holds what the
guesses commlab prints predict (`+"`predict.HoldGuesses`"+`). Where a log prints no GPU name or no
shape, the run's are given as its page gives them, and so is an NCCL_PROTO the run set. The
paired machines above are described by their pages instead. These logs were read while the
model was built, and some of its priors were measured on them (`+"`NICSlower`, `InfinityShare`, `RCCLNodesGain`"+`),
so they are not held out from its choices as the targets' clusters are: the table says how the
model fares on machines it does not describe, not what a new cluster will see.

`)
	b.WriteString(part("public_machines.md"))
	fmt.Fprint(&b, `
Most misses are the machines' own: DraNet's GKE B200 AllGather of 2 x 8 takes 10 times NCCL's time from
1 KiB to 2 MiB (280 us at 1 KiB, where 2 x 1 takes 14 us); AMD's 2 x 8 MI300X AllReduce takes
220-260 us up to 32 KiB, more than ten times its one-node run; Polaris' 4 x 4 AllReduce moves
28.44 GB/s of bus bandwidth at 4 GiB, where the model, whose NICs no other table identifies, is 3.4
times faster; Alps' 2 x 1 GH200 table, 1 MiB and up,
holds Slingshot's mid-size cost, which the model takes as latency. The MI300X of ROCm's blog takes
13 us a call without CUDA graphs and 6-9 us with them; its run with graphs prints "graph: 0" in its
header, and is given its command line's -G 1. One setting the model does not read:
NCCL_MIN_CTAS=24 on nccl-tests#309's 8 x 8 H100 runs NVLSTree 20% faster at 8 GiB than the default.
Voltage Park's one-node AllGather and Broadcast, one process driving 8 H100s (-g 8), move a
quarter of the bus bandwidth of the same host's AllReduce (116.11 and 131.99 against 477.12 GB/s
at 4 GiB), their times out of order from one size to the next; they are kept, as a user has
them, and they pull the calibration down: they take 1.42 to 164 times the time predicted from the
other tables, and the one-node AllReduce, whose 477.12 GB/s at 4 GiB is sound, is predicted up to
twice too slow. NCCL_GRAPH_FILE, Azure's preset on its NC A100 v4 VMs, makes the 2-GPU VM's
AllReduce 4 times slower (57.54 against 225.00 GB/s at 8 GiB, as the post that ran it says), a
setting the model does not read. msccl#48's AllToAlls on nodes of 8 A100s move 2 GB/s of bus
bandwidth from 2 MiB up on 2 nodes as on 8, whose NICs the issue does not name: the 2-node table
takes 3 to 15 times the time the 8-node one predicts. The p3dn gists' 8-node AllReduce, 8 B to
32 KiB, takes 1.3 to 1.5 times what their 2- and 4-node runs predict. OCI's GB200 AllReduce across
two NVL72 racks (32 x 4) takes 183.82 us at 8 B, where the run in one rack (2 x 4) takes 21.57:
its times follow a ring over 128 ranks, while the model, whose NVLS is assumed from the GPU's
name, runs NVLSTree; `+"`-hw nvls=false`"+`, which its guess line names, settles it. Together's B200
SendRecv (each rank to rank+1) moves 43.14 and 44.33 GB/s at 256 MiB on 2 and 4 nodes of 8, 26.13
on 8 and 14.65 to 14.79 on 16 to 64, a fall its study lays on the fabric; NCCL 2.29 gives each
network peer of grouped sends a channel per 14 GB/s of the GPU's NIC, halved as the ranks grow,
which the model follows: its six tables are within 15% held out, and calibrated on the 2- and
4-node tables alone it predicts 19.3 ms for 64 nodes at 256 MiB, where the run takes 18.15. Nine of each
table's 19 rows, 1 to 256 KiB, take 23 to 56 us on 2 nodes as on 64, so a table's median error, over
all its sizes, says as much of that latency as of the network. The AllToAlls of
the RTX PRO 5000 and RTX 6000D hosts (PCIe cards, ConnectX-8 NICs) stall from 8 or 16 MiB on:
the PRO 5000's take 5.7 and 10.4 ms at 8 and 16 MiB and 91 to 104 ms from 64 to 512 MiB, where 4
MiB takes 0.16 ms, the 6000D's 9.8 to 99.6 ms from 16 to 512 MiB. Those rows are left out as
stalls; the PRO 5000's 32 MiB row (0.81 ms) and the rows of 1 to 8 GiB, which take 99 to 247 ms,
are kept. The rows up to 4 or 8 MiB do
not tell the cards' PCIe from the network, so the AllReduce the calibration on them predicts is
bound by a PCIe rate about a third of the AllReduce's own.
AWS g7e.8xlarge nodes of one RTX PRO 6000 Blackwell and one 100 Gbps EFA NIC, GPUDirect RDMA off
(gnosia93/slurm-on-aws), move 12.37 GB/s of bus bandwidth at 1 GiB on 2 nodes as on 8, the
NIC's rate, and both tables are within 15% held out; from 256 KiB to 4 MiB they move 1.92 to
5.61 GB/s on 2 nodes and 1.01 to 4.91 on 8, then 11.30 on 2 nodes at 8 MiB, a host-staged path
the model does not have: calibrated on one table it gives the other's 1 MiB in half its time
(513 against 1158.2 us on 8 nodes, 147 against 272.8 on 2).
MGHPCC's AICR cluster (mghpcc/aicr-benchmarks) ran five collectives on one B200 node and on two over
8 NDR400 rails, one process a node (-g 8), then AllReduce on other node pairs, with SHARP's CollNet
off and forced, and a one-node sweep of 2 to 8 GPUs: 12 of the 21 tables are within 15% held out.
The 2-node pair moves 26.56 GB/s of SendRecv and 217.80 of ReduceScatter bus bandwidth at 16 GiB,
the rate its authors measure for one rail when GPUDirect RDMA goes both ways at once (27 GB/s,
against 47 one way), a platform fault no log prints: from the GPU's name alone its tables are 46%
to 79% off, and held out the 2-node AllReduce (169.91 GB/s at 16 GiB) takes 1.45 times what the
other tables predict (190 against 131 ms). The one-node AllReduce moves 841.05 GB/s there, more
than the one-node AllGather's 671.55, as NVLink SHARP allows; predicted from the other tables it is
1.8 times too slow (65.7 against 35.8 ms), as is the sweep's 8-GPU AllReduce (839.86 GB/s), while
its 2 to 7 GPUs are within 14%. Another pair's AllReduce of 2 GPUs a node moves 82.09 GB/s at 16
GiB (41 a rail, near the one-way 47) and is predicted 2.6 times too slow (824 against 314 ms) by a
calibration whose 8-GPU pairs move 162.67 and 169.91: the halved rails are a fact of the 8-GPU
jobs, not of the nodes, and the model has no way to tell. The forced CollNet runs
(NCCL_ALGO=CollNetChain,CollNetDirect, pinned as their job set it) had CollNet set up, as NCCL
refuses a call that setting leaves no algorithm for, and are modelled with it: held out they are
within 8% at 16 GiB (83.7 against 90.2 ms on 2 x 8, 344.5 against 343.3 on 2 x 2).
With them, two node pairs of each size let the held-out fit weigh the NICs' count (FitNICs), on
the tables across nodes: one NIC a GPU, 20.9% against 44.9% with one a host.
nccl-tests#309's 2 x 8 Ring run set NCCL_MIN_CTAS=24 and NCCL_IB_QPS_PER_CONNECTION=2, which
its log does not print. Each pair of the next logs changes the setup between its two tables, not
only the shape: nccl-tests#380's H200 nodes of 4 NICs move 320.36 GB/s of bus bandwidth at 9 GiB
on bare metal and 184.30 in VMs; nccl-tests#319's H100 nodes 89.24 GB/s at 16 GiB as NCCL chose
and 44.27 with NCCL_ALGO=Ring (and another NCCL_NET_GDR_LEVEL); and Azure's AKS example 187.22
GB/s over InfiniBand and 3.15 over IP-over-InfiniBand sockets, which it scores apart.
SkyPilot's GKE A3 Ultra guide ran one AllGather twice on the same 2 x 8 H200 nodes (GPUDirect-RDMA),
through SkyPilot and from Google's test pods: 325.72 and 325.52 GB/s of bus bandwidth at 8 GiB, 28.39
and 28.70 us at 1 KiB. Each predicts the other within 15%, every point inside the interval; from the
GPU's name alone they are 17.9% and 16.6% off, still every point inside.
Oracle Japan's OCI tutorial ran one 10 GiB AllReduce row on one BM.GPU4.8 node (8 A100-SXM4-40GB,
232.20 GB/s of bus bandwidth) and on two over the RoCE cluster network (57.00 GB/s, 353220 us):
held out, the one-node row is 3.2% off, the two-node row 3.5 times slower than the 101 ms predicted
(outside the interval), as from the name (70.3%). The page gives 16 ports of 100 Gb/s a node and sets
no NCCL_IB_HCA or NCCL_IB_GID_INDEX; the same tutorials' Oracle Linux page, which sets both on the same
shape, prints 222.88 GB/s at 10 GiB across two nodes, near the model's 105 ms (192 GB/s).
Another version of its GPU cluster page ran full sweeps (64 B..8 GiB) on two other BM.GPU4.8 nodes in
the horovod container, with NCCL_IB_HCA naming the 16 ports but no GID index: one node as one process
(-g 8, 235.14 GB/s at 8 GiB) and both (71.56 GB/s, with stalls at 16 and 64 MiB). Held out, neither
is within 15%, both better than the one-link baseline: the two-node table takes 225.1 ms at 8 GiB,
2.76 times the 81.5 ms the one-node table predicts, and the one-node table, predicted from the
two-node one, is 2% fast at 8 GiB but 23% and 54% fast at 1 KiB and 1 MiB (32.03 and 76.71 us
against 24.8 and 35.2), one process driving 8 GPUs.
AMD's AAC11 MI325X tables are all within 15% held out and better than the one-link baseline, but
one model choice was made on them: RCCL's Ring moves 319.08 GB/s of bus bandwidth at 16 GiB on one
node and 350.24 to 350.84 across 2 to 8, as AMD's MI300X clusters move 315.69 on one node and
356.14 on two at 8 GiB, and the model takes a collective across nodes under RCCL to move
`+"`RCCLNodesGain`"+` (1.11, those two ratios' geometric mean) times what one node moves over the links.
OCI's 2 x 8 MI300X table, which no choice saw, is predicted from the GPU's name within 0.2% with
it and 9.8% slow without it. AMD's MI350X bring-up host ran its AllReduce as one process driving
the 8 GPUs (-g 8) and as 8 MPI processes: each predicted from the other, the -g 8 table is 11.4%
off, the MPI one 17.2%, whose rows from 512 MiB up move 138 to 257 GB/s (1 GiB in 13592 us) where
the -g 8 run moves 361 to 367 but at its own slow 2 GiB (235.65), and whose 64 MiB row takes 1488.9
us, twice 128 MiB's. ROCm/ROCm#5571's two hosts of one Radeon AI PRO R9700 each move 10.77 and
10.82 GB/s at 128 MiB, with and without NCCL_NET_GDR_LEVEL=LOC (no GPU Direct RDMA on that GPU
yet, its maintainer says); each predicts the other 12.9% and 15.4% off, 22 to 33% fast from 16 MiB
up, and the one-link baseline does better (11.6% and 12.6%): with the NICs assumed at 400 Gb/s
(neither the catalog knows the GPU nor the issue the NIC) the fit takes nic_bw to 14.6 GB/s, faster
than the Simple rows move, and LL128's efficiency down to 0.725 to meet the 1 to 8 MiB rows; given
`+"`-hw nic-bw=100Gb/s`"+` it fits 10.9 GB/s and predicts 128 MiB in 12.4 ms, as measured.
AMD's Core42 MI210 hosts (8 a host, 4 RoCE ports) move 36.65 GB/s of bus bandwidth at 4 GiB on one
host and 15.17 across two, both under Ring/Simple and 12 channels (36.61 as RCCL chose): the 2 x 8
table, held out, is 50.7% off, 2.7 times faster than measured at 4 GiB (197 ms against 531), as
neither the logs nor the scripts name the NICs' rate and, at 400 Gb/s assumed or 100 Gb/s given,
the model's ring across the hosts stays bound by the host's links, which the one-host tables
calibrate. Its one-host tables predict each other within 1.5% and 3.3% from 1 MiB up (38.5% and
82.5% over all sizes: from 64 B to 8 KiB the Ring/Simple run takes 58 to 60 us, the other 25 to
31), and both fall from 58.49 and 59.64 GB/s at 8 MiB to 26.51 and 26.50 at 16 MiB before settling
at 36.7, a drop the model does not make.
OCI's MI355X shape with Pollara 400 NICs (its guide keeps the 8 and 16 GiB rows of each run) goes
the other way: its AllReduce moves 407.79 GB/s of bus bandwidth at 8 GiB on one node and 368.78 and
370.24 on 2 and 4 (0.90 times, near its 8 NICs' 400 GB/s a node), so each one-node table, predicted
from the five others, is 12.0% (AllReduce) and 11.6% (AllToAll) slow, no better than the one-link
baseline (11.9% and 7.8%); its AllToAlls across 2 and 4 nodes (86.60 and 50.20 GB/s) are 1.7% and
16.2% off, the 4-node one predicted fast, where the one-link baseline is 77% and 86% off.
AWS's p5.48xlarge over EFA has four AllReduces of 2 x 8: KeitaW's two EKS runs and two that
awsome-distributed-training's README prints, a Slurm run (487.09 GB/s of bus bandwidth at 16 GiB)
and an EKS run of NCCL 2.18.5 and aws-ofi-nccl v1.7.3. Held out, three are within 15%; the EKS
run of that README is 60.0% off, no better than the one-link baseline: its 8 B row takes 175.5 us
where the Slurm run's takes 69.12 and KeitaW's 65.43 and 85.14, and its rows of 4 B to 128 KiB
172 to 225 us, while at 2 GiB it moves 437.79 GB/s, near the Slurm run's 443.72. The log names
neither release (its page's later revision does); the model reads no plugin version, and takes one
latency for the machine.
xxrjun/nccl-tests-cluster's example-cluster00, 17 H100 nodes whose NICs the repository does not
name, ran AllToAll and SendRecv between one pair of nodes at 1, 4 and 8 ranks a node: at 16 GiB
one rank a node moves 13.51 GB/s of AllToAll bus bandwidth and 8 ranks a node 23.62 (682 ms).
Held out, all six tables are within 15% (1.2% to 12.8%); but each 2 x 1 table alone predicts the
4- and 8-rank AllToAlls 3.6 to 4.0 times too fast (172 ms against 682 at 16 GiB on 2 x 8): one rank a node
does not show how the node's 8 ranks share its NICs.
nccl-tests#78's 8 nodes of 8 V100 on 100 Gb/s InfiniBand posted two rows each of an AllReduce
(4.33 GB/s of bus bandwidth at 256 MiB) and an AllToAll (0.51 GB/s): each predicted from the
other is 20.8% (AllReduce, slow) and 24.8% (AllToAll, fast) off, inside its interval, where the
one-link baseline is 752% and 88% off.
DraNet's two H200 guides on GKE, pods of one GPU and one RDMA NIC on 2 nodes, move 31.89 GB/s of
AllReduce and 32.20 of AllGather bus bandwidth at 8 GiB, 64% of the 400 Gb/s a NIC the GPU's name
assumes, and take 35.59 and 21.75 us at 1 KiB: from the name alone they are 47.2% and 46.5% off, held out
both are within 15%. The AllReduce holds near 21 GB/s from 4 to 32 MiB and steps to 29.82 at
64 MiB (2250.8 us, 1.4 times 32 MiB's 1609.7), a step the AllGather does not show and the model,
Ring/Simple on 4 channels at both sizes, does not make: calibrated on the AllGather it predicts
16 MiB 17% fast (676 us against 811.3).
Google Cloud's AI Hypercomputer NCCL pages (docs.cloud.google.com) print AllGathers of three of its
machines, the rows alone but for one table's Rank lines. On A4X (GB200, 4 a node) a 2 x 4 run and an
8 x 4 run the page places within one NVLink domain sub-block are both off by more than 15% held
out, both better than the one-link baseline, 68.8% of the points inside: the 8 x 4 table takes
56.72 us at 1 KiB and 72.80 at 1 MiB, where the 2 x 4 takes 21.20 and 25.43, a latency across 8
nodes of one domain that the model, calibrated on the 2 x 4 table, does not reach (9 of the 24
points inside, in the table beyond two nodes below); at 8 GiB the two move 482.19 and 453.99 GB/s
of bus bandwidth. On A4X Max (GB300) two runs of 2 x 4 move 357.69 and 360.42 GB/s at 8 GiB, but
the page's two-node test, whose output it says shows cross-domain RDMA throughput, takes 28.51 us
at 4 KiB and 63.82 at 1 MiB, and its JobSet run, whose placement the page does not give, 46.02 and
85.63: the two-node test is within 15% held out, the JobSet run not, neither better than the
one-link baseline, and no log prints what differs (the two-node test's 512 KiB row also stalled,
152.25 us against 54.79 in place). On A4 (B200) a GKE run and a Compute Engine run of 2 x 8 (the
latter NCCL 2.25.1; the GKE log prints no release) give one table within 15% held out, the GKE
run's, and 53.2% of the points inside an interval of median width 1.36x: the VM run takes 117.2 us
at 1 MiB against the GKE run's 87.85, and 152.0 at 32 MiB against 203.2, a difference of the runs,
perhaps of their NCCL releases, that no shape explains.

The same held-out points by size, tables of one node apart from those across nodes, as in the
paired machines' errors by size above (the median of model/measured − 1, negative where the model
is fast, with the points and the share of them inside their 80% interval):

`)
	b.WriteString(part("public_bands.md"))
	fmt.Fprint(&b, `
Across nodes the model is fast from 64 KiB to 64 MiB, most from 64 KiB to 1 MiB: there NCCL runs
LL and LL128 on fewer channels at the smaller of those sizes. The model lets each of them carry
channel_bw over the network, from NCCL's 14 GB/s a channel, fitted where the tables run such
sizes or grouped sends across nodes. A prediction across nodes at these sizes is more likely low
than high; within a node, and at the largest sizes across nodes, the errors are small and go
both ways.

Before any log of a machine is read, the prediction rests on the GPU's name and the run's shape
alone (`+"`predict.Untabled`"+`: NCCL's own model where its tables know the GPU's links, the model at its
priors otherwise, its interval holding the guesses' predictions). Every table of these logs, and
of the public logs of one table, predicted so (`+"`heldout.FromName`"+`; a log that prints no GPU name
is given its page's):

`)
	b.WriteString(part("public_from_name.md"))
	fmt.Fprint(&b, `
The misses from the name alone are mostly what a log would settle: the network's latency (EFA on
p4d and p3dn, GCP's A3 Mega: 5 to 16 times NCCL's), the NICs a node, an NVLink bridge between two
PCIe cards (nccl#1161's H100s), a host of more GPUs than the run's (Leonardo's 2 of 4), and a
transport the name cannot tell (the T4 and L40S runs over sockets), and a preset the model does not
read (the NC48 A100 v4 VM's AllReduce without NCCL_GRAPH_FILE; its run with the file, 4 times
slower, is the one the name predicts within 11%). GeForce RTX 40 and 50 cards,
which have no P2P, are taken at `+"`HostCopyBW`"+`, measured on the kalavai RTX 4090 logs themselves: their
rows here are not held out. Their widths (9.5x to 10.6x) are the guess of `+"`host_bw`"+`, whose interval
reaches down to the PCIe figure that bare-metal hosts approach. The NIG supercomputer's AllToAll of 2 of each node's 4 V100s on 2 nodes
(7.56 GB/s algbw at 128 MiB) is 56.5% off from the name, 3.25 times slower than the model from 512
KiB up: the model takes a 100 Gb/s NIC a GPU where the node has one EDR port for its 4 GPUs (the
guide's hardware page); given `+"`-hw nics=1`"+`, all 24 points lie inside the model's 80% interval
(`+"`commlab diagnose`"+`: no finding).
nccl#527's 4 p4dn.24xlarge (32 A100s over EFA, NCCL 2.9.9 with NCCL_COLLNET_ENABLE=1; rows of 64 B
to 128 KiB alone) are 81.0% off from the name, no point inside: the rows take 163.7 to 406.8 us,
5.27 times the model's Tree/LL at NCCL's network latency; given the catalog's p4d.24xlarge (4 NICs
of 100 Gb/s, 16 times NCCL's latency) the model is as far the other way to 16 KiB (0.52).
oci-hpc-oke's README adds a second OKE run of 2 x 8 A100-SXM4-40GB (BM.GPU4.8, RoCE; NCCL 2.25.1,
rows of 1 to 4 GiB alone): 0.6% off from the name, 3 of 3 points inside. Its 190.02 GB/s of bus
bandwidth at 4 GiB is 19% below the 235.63 of the repository's other guide on the same shape, which
is 24.2% off from the name: two runs the name cannot tell apart.
Its Slurm-operator guide adds a third, on two BM.GPU.B4.8 hosts (NCCL 2.29.3, rows of 1 to 8 GiB,
Rank lines of 4 of the 16 ranks): 1.6% off from the name, 4 of 4 points inside, 189.60 GB/s at 8 GiB.
dstack's cluster guides add two AllReduces of 2 x 8 B200, on a Lambda 1-Click Cluster (InfiniBand)
and on two GCP A4 VMs (RoCE): 32.5% and 27.4% off from the name, 28 of 29 and 7 of 11 points inside.
Both pass the 400 GB/s a ring gets from eight 400 Gb/s NICs (696.06 GB/s of bus bandwidth at 2 GiB
on Lambda, 683.52 at 8 GiB on A4), as the NVLSTree the model picks can; the model is 1.16 and 1.35
times too slow there, and 4.4 times too fast at 512 KiB on Lambda, where it takes NCCL's network
latency.
Their AllGathers of 2 x 8 H100 on two GCP A3 Mega VMs (GPUDirect-TCPXO) and two A3 High VMs
(GPUDirect-TCPX), and AllReduce of 2 x 8 H100 on Nebius (InfiniBand), are 48.1%, 86.0% and 19.4% off
from the name, 11 of 11, 0 of 11 and 31 of 31 points inside. At 8 GiB the A3 High run's 50.17 GB/s of
bus bandwidth is 7.15 times slower than the 400 Gb/s NIC a GPU the model takes (A3 Mega's 188.54 GB/s
1.90 times), as with the GKE A3 High table; Nebius's 467.54 GB/s is within 1.5% of the model's.
CoreWeave's first README adds an AllReduce of 16 x 8 A100-SXM4-80GB on its LAS1 InfiniBand cluster
(4 B..2 GiB): 40.5% off from the name, 27 of 30 points inside. Its 44.74 GB/s of bus bandwidth at 2
GiB (95238 us) is 3.98 times slower than the model's 23.9 ms with a 200 Gb/s NIC a GPU; the page names
no NIC count, and given `+"`-hw nics=2`"+` the model's 90.4 ms is 5% off and all 30 points lie inside.
dstack's first Crusoe page adds an AllReduce of 2 x 8 A100 80GB SXM VMs over InfiniBand (8 B..2 GiB; the
task names 8 HCAs, not their rate): 12.9% off from the name, 28 of 29 points inside. From 16 MiB up the
model with a 200 Gb/s NIC a GPU is within 2.2% (21.2 against 20.75 ms at 2 GiB, 194.06 GB/s of bus
bandwidth); below 1 MiB it takes NCCL's latency and is up to 44% fast (26.4 against 47.08 us at 16 KiB).
Crusoe's own cluster check adds an AllReduce of 2 VMs of 4 GB200 (one process of 4 a VM, 1..32 GiB):
16.1% off from the name, 6 of 6 points inside. Its 843.17 GB/s of bus bandwidth at 32 GiB (71.3 ms)
passes the model's NVLS within the 72-GPU NVLink domain it takes (83.5 ms): 15-17% slow from 2 GiB up,
within 1% at 1 GiB.
Oracle Japan's OCI tutorial adds an AllReduce of 2 x 8 H100 (BM.GPU.H100.8) over RoCE with all 16
RDMA ports given to NCCL (1..16 GiB): 0.7% off from the name, 5 of 5 points inside; its 464.57 GB/s of
bus bandwidth at 16 GiB (69338 us) is within 1% of the model's NVLSTree (69.9 ms).
nccl-tests#294 adds an AllReduce of 2 Crusoe H100 VMs of 8 over InfiniBand run with NCCL_ALGO=NVLSTree
(5 rows of 128 MiB..2 GiB alone): 8.9% off from the name, 5 of 5 points inside. Its 444.25 GB/s of bus
bandwidth at 2 GiB (9063.6 us) is 3% slower than the model's NVLSTree (8.79 ms); at 128 MiB (738.7 us)
the model's 612 us is 17% fast.
NERSC Perlmutter's Shifter run adds an AllReduce of 2 x 4 A100-SXM4-40GB over Slingshot 11 with
NCCL INFO lines (8 B..4 GiB): 23.3% off from the name, 30 of 30 points inside. Its 74.30 GB/s of bus
bandwidth at 4 GiB (101166 us) is 1.29 times slower than the model's Ring (78.4 ms, with or without
`+"`-hw system=hpe-ex235n-a100`"+`, 4 NICs of 200 Gb/s a node), and from 16 KiB to 1 MiB the rows
(39.69 to 131.7 us) are 1.6 to 2.6 times the model's, which takes NCCL's network latency.
Google Cloud's page for A4 and A3 Ultra adds an AllGather of 2 A3 Ultra nodes of 8 H200 (1 KiB..8
GiB, the rows alone): 33.0% off from the name, 24 of 24 points inside, near the 32.4% of
cluster-toolkit's A3 Ultra AllGather; it moves 330.16 GB/s of bus bandwidth at 8 GiB. Google's
AllGathers of its A4X, A4X Max and A4 machines above are 39.4% to 74.7% off from the name.

## Scale-out to 64 nodes

Bus bandwidth at 32 GiB on Together AI's B200 cluster "slinky" (`+"`commmodel/predict/heldout/testdata/"+scaleOutFile+"`"+`
names the report and copies its tables): AllReduce pinned to Ring, Tree and NVLS (NVLSTree beyond
one node), and Ring AllGather, on 1 to 64 nodes of 8 GPUs with 12 NDR 400 Gb/s HCAs each, NCCL
2.28.9. The model is calibrated on the one- and two-node values (eight tables of one point) and
predicts 4 to 64 nodes (`+"`TestPairedScaleOut`"+`); beside it, NCCL's uncalibrated model. An error
is the predicted bus bandwidth over the measured, less one. The report gives 32 GiB only, so this
checks the bandwidth terms at scale, not the latencies.

`)
	b.WriteString(part("paired_scaleout.md"))
	fmt.Fprint(&b, `
Ring and Tree keep their two-node bandwidth out to 512 GPUs, as measured; NCCL's tuning model puts
Tree near Ring, about 1.9 times what it runs, and one two-node table corrects it. NVLSTree halves
from two nodes to four (the tree's inner nodes send and receive twice), and the model halves it
from its own two-node value, which is below the measured 719.70 GB/s: it stays 12% low. The
interval widens with each doubling of nodes beyond the tables and holds every point: on this
fabric, which loses nothing from 2 to 64 nodes, it is wider than the errors need.

## Beyond the tables' nodes

Each paired table predicted from the tables of its machine that ran on fewer nodes, where at
least one of them crossed the network (`+"`TestPairedBeyondNodes`"+`): the median of ln(measured/model)
over the table's sizes, and the same over the square root of the d doublings of nodes beyond the
calibration's largest.

`)
	b.WriteString(part("paired_beyond.md"))
	fmt.Fprint(&b, `
Beyond the tables' nodes the measurement is slower than the model far more often than faster: a
network level the tables did not reach (a switch tier, the fabric's bisection, congestion) and
steps they did not time only add time. The interval therefore widens unevenly there: its slow
side's variance grows by the square of the slower predictions' root mean square per doubling of
nodes (or ranks) beyond the tables, its fast side's by the faster ones' (the two figures above;
the test holds the model's spreads to them), so these predictions are not held out from that
choice. A variance per doubling, as if each doubling added an independent error, explains the
misses better than a standard deviation per doubling (the likelihoods above): the predictions
across 2 to 3.5 doublings (cluster01's 10 nodes from 2, GB300's 16 hosts from 2, GB200's 20 racks
from 2) miss by less than that many one-doubling misses. At 7 doublings (2 to 256 nodes) the slow
side's standard deviation is then √7 times one doubling's rather than 7 times.

## Below the tables' nodes

Each paired table predicted from the tables of its machine that ran on more nodes
(`+"`TestPairedBelowNodes`"+`), as above, with d the doublings of nodes or ranks (the farther) below
the calibration's smallest.

`)
	b.WriteString(part("paired_below.md"))
	fmt.Fprint(&b, `
Below the tables' nodes the two sides are nearer. The slow misses are mostly runs of one node
predicted from tables across nodes, ABCI's above all, whose one-node Broadcast and AllReduce
move less over NVLink than the tables across nodes imply; the fast ones are spread over every
machine. The interval takes each side's root mean square per doubling (`+"`predict.SlowerBelow`"+`
and `+"`FasterBelow`"+`, which the test holds to the figures above), so these predictions are not
held out from that choice. As above, the slow side's misses favour a variance per doubling; the
fast side's, a standard deviation per doubling, but they are smaller and bound the interval less.

## Public machines beyond their tables' nodes

The public machines of the section above that hold tables of one or two nodes and tables of
more, as a user who ran one and two nodes and asks for more has them (`+"`TestPublicBeyondNodes`"+`):
each machine calibrated on its tables of at most two nodes, as a new user gives them
(`+"`heldout.AsNewUser`"+`), predicts each of its tables of more nodes. An error is the median over
all the table's sizes; the interval column counts the table's points inside their 80% interval
(the last row, the share of all points); the last column is the median of the interval's width,
High/Low, over the table's points (the last row: over all points, and their 90th percentile).

`)
	b.WriteString(part("public_beyond.md"))
	fmt.Fprint(&b, `
Beyond two nodes the interval widens with each doubling of nodes, and more where no table crossed
nodes (Polaris' and Voltage Park's, calibrated on one node, take the network's latency and the
NICs' bandwidth at the spreads public networks show): there it holds the measurement only by
being many times wider than the error, too wide to plan with. The misses are the machines' own:
msccl#48's AllToAll of 8 nodes moves what its
2 nodes move; OCI's GB200 racks ran a ring where the model, whose NVLS is assumed, runs NVLSTree;
Olivia's 4 x 4 ran without the Slingshot settings of its 2 x 4; nccl-tests#309's NVLSTree across
4 and 8 nodes runs faster than its 2 nodes imply, and its NCCL_MIN_CTAS=24 run faster still;
Voltage Park's one-node AllGather and Broadcast run far below its AllReduce; and the p3dn gists'
AllReduce of 8 nodes, 8 B to 32 KiB, grows linearly with the ranks, a ring's latency, where the
model's NCCL release runs a tree.
Google's A4X AllGather of 8 x 4 GB200 takes 56.72 us at 1 KiB where its 2 x 4 takes 21.20, more
latency across 8 nodes of one NVLink domain than the model scales to from 2.
`)
	fmt.Fprintf(&b, `
## Tuner choices on pinned sweeps

A pinned sweep is a set of tables of one collective and shape, each measured with its own
NCCL_ALGO or NCCL_PROTO (and at most one left to NCCL's tuner). At each size the model,
calibrated on the machine's other tables, picks by the first test of a tuner rule written by
`+"`commlab tune`"+`: the table it predicts fastest where it expects that to beat NCCL's own pick by
more than the prediction's interval, and NCCL's pick elsewhere (tune's rules also ask the tables'
evidence near the size, docs/tune.md, which these held-out tables cannot give). The target is the measured time of the pick
within %.0f%% of the measured best at %.0f%% of the sizes or more; beside it, NCCL's own pick
(the table left to its tuner).

`, 100*sweepWithin, 100*sweepShare)
	b.WriteString(part("paired_sweeps.md"))
	fmt.Fprint(&b, `
## Tuner rules against held-out tables

Every table of the paired and public machines that ran NCCL's own choices is held out: no
NCCL_ALGO or NCCL_PROTO but the exclusions every calibration table ran with (nor a pin its NCCL
TUNING lines imply), no tuner plugin, more than one rank, a collective NCCL's tuner serves
(not AllToAll or SendRecv), under NCCL, not RCCL. `+"`commlab tune`"+`, calibrated on the machine's
other tables as above, decides its rules for the table's communicator and collective at the
table's sizes, with the table's launch layout (tune's `+"`-g`"+`, `+"`-threads`"+` and `+"`-graph`"+`;
`+"`predict.Machine.TunerPlan`"+`). Each rule that takes the model's choice over NCCL's own (not
withheld) is set against the time the table measured for NCCL's own choice at that size, the
faster of its out-of-place and in-place times. By the model's own estimate the rule would slow
the job where it predicts its choice no faster than that time (the test fails then); its gain is
not shown where the measured time lies within or below the choice's 80% interval. NCCL's own
choice is the model's reading of NCCL's tuner for the table's release, not what the log shows it
ran, and the times of the rules' own choices were not measured on these tables: this checks the
rules against NCCL as it ran, not their gains.

The paired machines:

`)
	b.WriteString(part("paired_rules.md"))
	fmt.Fprint(&b, `
The public machines, as a new user has them:

`)
	b.WriteString(part("public_rules.md"))
	fmt.Fprint(&b, `
A rule takes the model's choice only where a calibration table of as many nodes ran its
algorithm with its protocol within two doublings of the size (`+"`predict`"+`'s evidence near a
choice). The held-out points above, by what the machine's other tables ran near each (the
choices the model reads at their points), show why: a point whose algorithm and protocol
another table ran together is predicted far better than one whose algorithm and protocol
other tables ran only apart, or not at all. AllToAll and SendRecv run outside NCCL's algorithms
and are left out. The paired machines:

`)
	b.WriteString(part("paired_pairs.md"))
	fmt.Fprint(&b, `
The public machines:

`)
	b.WriteString(part("public_pairs.md"))
	fmt.Fprintf(&b, `
## Crossovers

For two tables of one shape that pin different algorithms or protocols, where the measured
curves cross against where the model, calibrated without both, puts the crossing; and each size
where NCCL's tuner changes its choice against the nearest break between the regimes of a
default-tuner table. The target is within %.1fx.

`, targetCross)
	b.WriteString(part("paired_crossovers.md"))
	fmt.Fprintf(&b, "\nWhere a crossover misses it, and why:\n\n")
	reasons(crossMissesBy)

	path := filepath.Join("..", "..", "..", "docs", "scores.md")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, b.Bytes()) {
		t.Errorf("docs/scores.md is not the report of testdata: run go test ./commmodel/predict/heldout -update")
	}
}
