package heldout_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/commmodel/predict/heldout"
)

// publicDir holds the public logs of machines outside the paired set, each
// file citing its source in its first lines.
const publicDir = "../../../data/nccltests/testdata/real"

// A publicLog is one log of a public machine, read with what its user
// knows and its log may not print: the nodes and GPUs a node of the run,
// the GPU as its page names it, and an NCCL_PROTO the run set.
type publicLog struct {
	file string
	pins predict.Pins
}

// A publicMachine is one hardware configuration of the public logs with
// two tables or more.
type publicMachine struct {
	name string
	logs []publicLog
}

// publicMachines are the machines of data/nccltests/testdata/real with
// more than one table of one configuration. Logs of one site's machines of
// one build are one machine; logs of another transport (the L40S pods'
// sockets run beside their RoCE run) or another machine (Alps' and Olivia's
// GH200 nodes, AMD's AAC8 and AAC10 MI300X clusters excepted, whose one-
// and two-node runs are the one pair of tables of an MI300X build across
// nodes) are not.
var publicMachines = []publicMachine{
	{"a100-polaris-slingshot", []publicLog{
		{"a100_1x4_allreduce_polaris_ss11.log", predict.Pins{Nodes: 1, PerNode: 4, GPU: "A100-SXM4-40GB"}},
		{"a100_4x4_allreduce_simple_polaris_ss11.log", predict.Pins{Nodes: 4, PerNode: 4, GPU: "A100-SXM4-40GB", Proto: "Simple"}},
		{"a100_4x4_allgather_stalled_polaris_ss11.log", predict.Pins{Nodes: 4, PerNode: 4, GPU: "A100-SXM4-40GB", Proto: "Simple"}},
	}},
	{"a100-superbench-1x8", []publicLog{
		{"a100_1x8_g8_allgather_oldcolumns_superbench.log", predict.Pins{}},
		{"a100_1x8_g8_alltoall_oldcolumns_superbench.log", predict.Pins{}},
	}},
	{"b200-gke-a4-gpupedia", []publicLog{
		{"b200_1x8_g8_allreduce_gke_a4.log", predict.Pins{Nodes: 1, PerNode: 8}},
		{"b200_2x8_allreduce_gke_a4.log", predict.Pins{Nodes: 2, PerNode: 8}},
	}},
	{"b200-gke-a4-dranet", []publicLog{
		{"b200_2x1_allgather_gke_a4_dranet.log", predict.Pins{}},
		{"b200_2x8_allgather_gke_a4_dranet.log", predict.Pins{}},
	}},
	{"gh200-alps-slingshot", []publicLog{
		{"gh200_2x1_allreduce_slingshot_alps_sarus.log", predict.Pins{}},
		{"gh200_2x4_allreduce_slingshot_alps.log", predict.Pins{}},
	}},
	{"gh200-olivia-slingshot", []publicLog{
		{"gh200_2x4_allreduce_slingshot_olivia.log", predict.Pins{}},
		{"gh200_4x4_allreduce_wrong_rows_olivia.log", predict.Pins{}},
	}},
	{"h100-p5-efa", []publicLog{
		{"h100_2x8_allreduce_tagoutput_split_rows_p5.log", predict.Pins{}},
		{"h100_2x8_allreduce_p5_tuner_plugin.log", predict.Pins{}},
	}},
	{"h100-8x8-nccltests309", []publicLog{
		{"h100_8x8_allreduce_default_nccltests309.log", predict.Pins{}},
		{"h100_8x8_allreduce_minctas24_nccltests309.log", predict.Pins{}},
	}},
	{"mi300x-amd-aac", []publicLog{
		{"mi300x_1x8_2x8_allreduce_rccltests.log", predict.Pins{}},
	}},
	{"mi300x-rocm-blogs", []publicLog{
		{"mi300x_1x8_allreduce_rocmblogs.log", predict.Pins{}},
		{"mi300x_1x8_allreduce_graph1_rocmblogs.log", predict.Pins{}},
	}},
	{"mi355x-oci-1x8", []publicLog{
		{"mi355x_1x8_allreduce_alltoall_trimmed.log", predict.Pins{}},
	}},
	{"rtx4090-kalavai-pcie", []publicLog{
		{"rtx4090_1x2_g2_allreduce_docker_kalavai.log", predict.Pins{}},
		{"rtx4090_1x4_g4_allreduce_docker_kalavai.log", predict.Pins{}},
		{"rtx4090_1x2_g2_allreduce_k8s_kalavai.log", predict.Pins{}},
		{"rtx4090_1x4_g4_allreduce_k8s_kalavai.log", predict.Pins{}},
	}},
}

// tables reads the machine's tables, named "machine/file#test".
func (m publicMachine) tables(t *testing.T) []predict.Table {
	t.Helper()
	var out []predict.Table
	for _, l := range m.logs {
		tabs, _, err := predict.ReadFile(filepath.Join(publicDir, l.file), func(int) predict.Pins { return l.pins })
		if err != nil {
			t.Fatalf("%s: %v", l.file, err)
		}
		for _, tab := range tabs {
			tab.Name = m.name + "/" + l.file + tab.Name[len(tab.Name)-len("#0"):]
			out = append(out, tab)
		}
	}
	if len(out) < 2 {
		t.Fatalf("%s: %d tables, want 2 or more", m.name, len(out))
	}
	return out
}

// TestPublicMachines scores the public machines as a user who has only
// their logs (heldout.NewUserLeaveOneOut, heldout.NewUserFromEach): the
// machine is what commlab makes of the tables' GPU name and evidence, with
// no description from their pages. None may be refused, and the scores
// are held to the golden table docs/scores.md shows.
func TestPublicMachines(t *testing.T) {
	var b bytes.Buffer
	fmt.Fprintln(&b, "| machine | tables | held out: within 15% | better than one-link | coverage | width median / p90 | one table: predictions | within 15% | better than one-link | coverage | width median / p90 |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	var loo, each []heldout.Score
	row := func(name, tables string, l, e []heldout.Score) {
		lw, lb := targets(l)
		ew, eb := targets(e)
		l50, l90 := widths(l)
		e50, e90 := widths(e)
		fmt.Fprintf(&b, "| %s | %s | %d of %d | %d | %s | %.2fx / %.2fx | %d | %d | %d | %s | %.2fx / %.2fx |\n",
			name, tables, lw, len(l), lb, pct(heldout.Coverage(l)), l50, l90, len(e), ew, eb, pct(heldout.Coverage(e)), e50, e90)
	}
	for _, m := range publicMachines {
		tabs := m.tables(t)
		l, err := heldout.NewUserLeaveOneOut(tabs)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		e, err := heldout.NewUserFromEach(tabs)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if len(l) != len(tabs) || len(e) != len(tabs)*(len(tabs)-1) {
			t.Fatalf("%s: %d and %d predictions of %d tables", m.name, len(l), len(e), len(tabs))
		}
		row(m.name, fmt.Sprint(len(tabs)), l, e)
		loo, each = append(loo, l...), append(each, e...)
	}
	row("all", "", loo, each)
	golden(t, "public_machines.md", b.Bytes())
}
