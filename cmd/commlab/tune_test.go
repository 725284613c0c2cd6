package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
)

// TestTune writes rules for Together's node from its pinned sweep and reads
// them back: for each collective the rules cover every size from 0 to the
// largest without a gap or an overlap, each with NCCL's channel count and
// the node and rank counts, and the header says what made them and how to
// load them; standard error names the rules beyond the tables.
func TestTune(t *testing.T) {
	out := filepath.Join(t.TempDir(), "nccl_tuner.conf")
	code, _, stderr := runCLI("tune", "-calibrate", togetherDir+"all_reduce_ring.log:algo=ring,"+togetherDir+"all_reduce_nvls.log:algo=nvls,"+
		togetherDir+"all_gather_ring.log:algo=ring", "-nodes", "1,2", "-per-node", "8", "-collective", "allreduce,allgather", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The one-node tables say nothing of the network: the 2-node rules
	// warn, the 1-node ones do not.
	if !strings.Contains(stderr, "allreduce on 2 nodes: 2 nodes is 1.0 doublings beyond") ||
		!strings.Contains(stderr, "allgather on 2 nodes:") || strings.Contains(stderr, "on 1 nodes:") {
		t.Errorf("stderr %q: want a warning for each collective on 2 nodes, none on 1", stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rules, err := nccl.ReadTunerRules(f, out)
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		f     nccl.Func
		nodes int
	}
	next := map[key]uint64{}
	for _, r := range rules {
		k := key{r.Func, r.Nodes}
		if r.MinBytes != next[k] {
			t.Errorf("%v: starts at %d, want %d (a gap or an overlap)", r, r.MinBytes, next[k])
		}
		next[k] = r.MaxBytes + 1
		if r.Ranks != 8*r.Nodes || r.Channels < 1 || r.PipeOps != -1 || r.RegBuff != -1 {
			t.Errorf("%v: want ranks 8 x nodes, a channel count, any pipeOps and regBuff", r)
		}
	}
	for _, k := range []key{{nccl.FuncAllReduce, 1}, {nccl.FuncAllReduce, 2}, {nccl.FuncAllGather, 1}, {nccl.FuncAllGather, 2}} {
		if next[k] != 0 { // wrapped past the largest uint64
			t.Errorf("%v on %d nodes: rules end at %d, want %d", k.f, k.nodes, next[k]-1, uint64(math.MaxUint64))
		}
	}
	// At every size it decided at, the rule that applies is the model's
	// fastest choice.
	hw, tables := calibrationTables(t, togetherDir+"all_reduce_ring.log:algo=ring,"+togetherDir+"all_reduce_nvls.log:algo=nvls,"+
		togetherDir+"all_gather_ring.log:algo=ring", predict.Pins{})
	m, err := predict.Calibrate(hw, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range defaultTuneSizes() {
		cs, err := m.Choices(predict.Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}, s)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := nccl.FirstMatch(rules, nccl.FuncAllReduce, s, 2, 16, 1, 0)
		if !ok || r.Algo.String() != cs[0].Algorithm || nccl.ProtocolName(r.Proto) != cs[0].Protocol || r.Channels != cs[0].Channels {
			t.Errorf("AllReduce of %.0f B on 2 x 8: rule %v, the model's fastest %s/%s on %d channels", s, r, cs[0].Algorithm, cs[0].Protocol, cs[0].Channels)
		}
	}
	b, _ := os.ReadFile(out)
	for _, want := range []string{"NCCL_TUNER_CONFIG_FILE", "calibrated on: " + togetherDir + "all_reduce_ring.log", "on one channel",
		"the model follows NCCL 2.26.2's tuner"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the header lacks %q", want)
		}
	}
}

// TestTuneErrors checks that a bad command line names what works.
func TestTuneErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-nodes", "1", "-per-node", "8"}, "-calibrate"},
		{[]string{"-calibrate", togetherDir + "all_gather_ring.log", "-per-node", "8"}, "-nodes"},
		{[]string{"-calibrate", togetherDir + "all_gather_ring.log", "-nodes", "1"}, "-per-node"},
		{[]string{"-calibrate", togetherDir + "all_gather_ring.log", "-nodes", "1", "-per-node", "8", "-collective", "alltoall"}, "outside NCCL's tuner"},
	} {
		code, _, stderr := runCLI(append([]string{"tune"}, c.args...)...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, stderr, c.want)
		}
	}
}
