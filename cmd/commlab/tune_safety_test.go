package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
)

// TestTuneTwinComms (red team 42): on a GB200 NVL72 rack NCCL counts the
// trays of one NVLink domain as one node, so a job's 9 x 4 (half a rack)
// and 18 x 2 (two GPUs of each tray) reach the plugin alike, nNodes 1 and
// nRanks 36. tune wrote rules for each, the second's all behind the
// first's, failed its own check with 99 "shadowed rule" lines and wrote
// nothing (exit 1). Their rules agree: the file holds one set, which
// serves both, and passes the check. A job without MNNVL counts their
// hosts, 9 and 18 nodes: each has rules of its own (TestTuneNVLinkDomains).
// Placed across a rack's edge, either is more nodes: one set of rules of
// any nNodes for 36 ranks serves both there, chosen on the placements of
// both (predict.Machine.TunerPlan).
func TestTuneTwinComms(t *testing.T) {
	t.Parallel()
	cal := gb200Dir + "allreduce_1rack.log:nodes=18:per-node=4"
	code, out, stderr := runCLI("tune", "-calibrate", cal, "-gpu", "NVIDIA GB200", "-comms", "9x4,18x2", "-o", "-")
	if code != 0 || strings.Contains(stderr, "shadowed rule") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, one, stderr := runCLI("tune", "-calibrate", cal, "-gpu", "NVIDIA GB200", "-comms", "9x4", "-o", "-")
	byNodes := func(rules []nccl.TunerRule) map[int][]nccl.TunerRule {
		out := map[int][]nccl.TunerRule{}
		for _, r := range rules {
			if r.Ranks != 36 {
				t.Fatalf("rule %v; want nRanks 36", r)
			}
			out[r.Nodes] = append(out[r.Nodes], r)
		}
		return out
	}
	both, alone := byNodes(readRules(t, out)), byNodes(readRules(t, one))
	if len(both[1]) == 0 || !slices.Equal(both[1], alone[1]) || len(both) != 4 || len(both[9]) == 0 || len(both[18]) == 0 || len(both[-1]) == 0 || len(alone[-1]) == 0 {
		t.Errorf("rules by nNodes for 9 x 4 and 18 x 2: %d of 1 node, %d of 9, %d of 18, %d of any, %d kinds; for 9 x 4 alone %d of 1 node, %d of any; want one set of 1 node and of any, and sets of 9 and 18 (%s)",
			len(both[1]), len(both[9]), len(both[18]), len(both[-1]), len(both), len(alone[1]), len(alone[-1]), stderr)
	}
	if !r0Matches(both[1], nccl.FuncAllGather, 1<<20, 1, 36) {
		t.Errorf("no rule takes an AllGather of 1 MiB on nNodes 1, nRanks 36")
	}
}

// r0Matches reports whether some rule takes a call of f at n bytes on a
// communicator of nodes and ranks.
func r0Matches(rules []nccl.TunerRule, f nccl.Func, n float64, nodes, ranks int) bool {
	for _, r := range rules {
		if r.Matches(f, n, nodes, ranks, -1, -1) {
			return true
		}
	}
	return false
}

// TestTuneUnknownGPU (red team 42): CoreWeave's GB200 rack log names its
// GPU "NVIDIA Graphics Device", which the catalog does not hold. tune took
// it as a PCIe card and wrote, for -comms 18x4, rules of nNodes 18
// ("allreduce,0,8191,tree,ll,1,18,72,-1,-1"), while NCCL counts the rack's
// trays as one node: on the rack no rule matched and every call ran on one
// channel (tune -check with -gpu "NVIDIA GB200" says so of every
// function). It refuses such a GPU, as it does a log that names none.
func TestTuneUnknownGPU(t *testing.T) {
	t.Parallel()
	cal := gb200Dir + "allreduce_1rack.log:nodes=18:per-node=4"
	code, out, stderr := runCLI("tune", "-calibrate", cal, "-comms", "18x4", "-o", "-")
	if code != 2 || out != "" || !strings.Contains(stderr, `"NVIDIA Graphics Device"`) || !strings.Contains(stderr, "-gpu NAME") {
		t.Errorf("exit %d, %d bytes out, stderr %q; want exit 2, nothing written, the GPU named", code, len(out), stderr)
	}
	// Named, the rules count the rack as one node.
	code, out, stderr = runCLI("tune", "-calibrate", cal, "-gpu", "NVIDIA GB200", "-comms", "18x4", "-o", "-")
	if code != 0 || !r0Matches(readRules(t, out), nccl.FuncAllReduce, 1<<20, 1, 72) {
		t.Errorf("exit %d (%s); want a rule for an AllReduce of 1 MiB on nNodes 1, nRanks 72", code, stderr)
	}
}
