package predict

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/data/nccltests"
)

// realLog reads a log of data/nccltests/testdata/real and describes its
// first table's GPU (Describe), before its evidence.
func realLog(t *testing.T, file string) ([]Table, Hardware) {
	t.Helper()
	tabs, _, err := ReadFile("../../data/nccltests/testdata/real/"+file, nil)
	if err != nil || len(tabs) == 0 {
		t.Fatalf("%d tables, %v", len(tabs), err)
	}
	h, err := Describe(tabs[0].GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	return tabs, h
}

// runtimeOf is the runtime channel count (comm->nChannels) of NCCL's model
// of table t's run on h: the count a call of a size past every per-size
// rule runs Ring/Simple on.
func runtimeOf(t *testing.T, h Hardware, tab *Table, rccl bool) int {
	t.Helper()
	rn, err := tableRun(&h, tab)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := newReference(&h, rn, rccl)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := ref.full.MaxChannels(nccl.AlgoRing, nccl.Simple, 1e15)
	return n
}

// NCCL's "N coll channels" line (comm->nChannels, NCCL src/init.cc) in
// every log of data/nccltests/testdata/real that prints it, against the
// runtime channels of NCCL's model of the table's own run (its shape, its
// release) on the machine the log describes (Describe, WithEvidence,
// ForHosts): planned by the model's own graph search (Channels cleared),
// and with the line's count as the fact coll_channels. Where the model
// plans otherwise, the table says why:
//
//   - RTX PRO 6000 on g7e over EFA, 2 x 1 and 8 x 1: the model plans a
//     ring graph of 2 channels (4 at run time) because it assumes a
//     Blackwell host's 400 Gb/s NIC; the g7e.8xlarge's EFA is 100 Gb/s,
//     at which NCCL's search finds 1 channel of 12 GB/s (2 at run time).
//   - A100 on Leonardo, 1 x 2: the log shows 2 of a Booster node's 4 GPUs,
//     joined pair by pair by 4 NVLinks; nothing gives the host's 4, so the
//     model counts all 12 of a GPU's links for the pair (24 channels).
//   - A100 on KISTI with CollNet, 4 x 2: NCCL adds half the channels
//     again where CollNet is enabled and the chain's bwIntra exceeds its
//     bwInter (ncclTopoPostset), as the model does (3) where the machine
//     enables CollNet (-hw collnet=true). The run set
//     NCCL_COLLNET_ENABLE=1 and fell back to the network's point-to-point
//     path (the title), keeping the 3 channels; without the fact
//     the model plans 2, and its note says CollNet would give 3 and that
//     collnet=true is for a run whose lines say it connected (red team 42:
//     the note had said to give it wherever the run set the variable).
//   - MI210 (RCCL): its 12 channels are NCCL_MIN_NCHANNELS and
//     NCCL_MAX_NCHANNELS=12, set in the environment (its line 320 on):
//     the count is the setting's, no fact, and a note says so; RCCL's
//     channel rules are its own besides, which the model does not follow.
//
// NCCL 2.9.9 (p4d) runs as 2.18, the oldest release the model follows.
func TestChannelsRealLogs(t *testing.T) {
	for _, c := range []struct {
		file            string
		nodes, perNode  int
		version         string // the table's NCCL
		log, plan, with int    // the log's coll channels; the model's own; with the fact
		collnet         bool   // -hw collnet=true
	}{
		{"rtxpro6000_2x1_allreduce_efa_g7e_slurm.log", 2, 1, "2.29.2", 2, 4, 2, false},
		{"rtxpro6000_8x1_allreduce_efa_g7e_slurm.log", 8, 1, "2.29.2", 2, 4, 2, false},
		{"a100_1x2_sendrecv_leonardo_nccltests331.log", 1, 2, "2.22.3", 8, 24, 8, false},
		{"a100_4x2_allreduce_collnet_kisti_nccltests311.log", 4, 2, "2.23.4", 3, 2, 2, false},
		{"a100_4x2_allreduce_collnet_kisti_nccltests311.log", 4, 2, "2.23.4", 3, 3, 3, true},
		{"a100_2x4_allreduce_ncclinfo_perlmutter_ss11.log", 2, 4, "2.21.5", 8, 8, 8, false},
		{"a100_2x8_allreduce_efa_p4d_ncclinfo.log", 2, 8, "2.9.9", 8, 8, 8, false},
		{"h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log", 2, 8, "2.26.2", 16, 16, 16, false},
		{"h800_1x8_broadcast_ncclinfo.log", 1, 8, "2.18.3", 16, 16, 16, false},
		{"mi210_1x8_allreduce_ncclinfo_core42.log", 1, 8, "2.21.5", 12, 4, 4, false},
	} {
		t.Run(fmt.Sprintf("%s/collnet=%v", c.file, c.collnet), func(t *testing.T) {
			tabs, h := realLog(t, c.file)
			if c.collnet {
				h.CollNet, h.Sources.CollNet = true, SourceUser
			}
			tab := &tabs[0]
			if tab.Nodes != c.nodes || tab.PerNode != c.perNode || tab.Version.String() != c.version {
				t.Errorf("%d x %d, NCCL %v; want %d x %d, %s", tab.Nodes, tab.PerNode, tab.Version, c.nodes, c.perNode, c.version)
			}
			if got := tab.Evidence.Channels.Value.Coll; got != c.log {
				t.Errorf("log's coll channels %d, want %d", got, c.log)
			}
			h, notes := h.WithEvidence(tabs)
			rccl := h.rcclChannels(tabs)
			withFact := h.ForHosts(tab.PerNode)
			own := h
			own.Channels = 0
			own = own.ForHosts(tab.PerNode)
			if got := runtimeOf(t, own, tab, rccl); got != c.plan {
				t.Errorf("the model plans %d channels, want %d", got, c.plan)
			}
			if got := runtimeOf(t, withFact, tab, rccl); got != c.with {
				t.Errorf("with the log's line the model runs %d channels, want %d", got, c.with)
			}
			var fact Fact
			for _, f := range withFact.Facts() {
				if f.Name == "coll_channels" {
					fact = f
				}
			}
			if slices.ContainsFunc(tab.Evidence.Env, func(v nccltests.Setting) bool { return slices.Contains(channelSettings, v.Name) }) {
				if fact.Source == SourceNCCLDebug || !slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "set in the environment") }) {
					t.Errorf("coll_channels %q (%s), notes %q: want no fact and a note that the environment set the count", fact.Value, fact.Source, notes)
				}
				return
			}
			if fact.Source != SourceNCCLDebug || !strings.HasPrefix(fact.Value, fmt.Sprintf("%d at %s a host", c.log, counted(c.perNode, "GPU"))) {
				t.Errorf("coll_channels %q (%s), want %d at %s a host (nccl-debug)", fact.Value, fact.Source, c.log, counted(c.perNode, "GPU"))
			}
			// A note names both counts where they differ, and no note
			// where they agree.
			both := fmt.Sprintf("give %d coll channels", c.log)
			found := false
			for _, n := range notes {
				if strings.Contains(n, both) && strings.Contains(n, fmt.Sprintf("plans %d", c.plan)) {
					found = true
				}
			}
			if found != (c.log != c.plan) {
				t.Errorf("notes %q: want a note naming %d and %d: %v", notes, c.log, c.plan, c.log != c.plan)
			}
			// The note says where CollNet would give the log's count.
			collNote := fmt.Sprintf("and %d with CollNet", c.log)
			saysCollNet := slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, collNote) })
			if want := strings.Contains(c.file, "collnet") && !c.collnet; saysCollNet != want {
				t.Errorf("notes %q: want %q: %v", notes, collNote, want)
			}
			if saysCollNet && !slices.ContainsFunc(notes, func(n string) bool {
				return strings.Contains(n, `these lines do not say CollNet connected ("Connected CollNet"), and a run that set NCCL_COLLNET_ENABLE=1 may have fallen back: -hw collnet=true where the run's full debug output says it connected`)
			}) {
				t.Errorf("notes %q: the CollNet note does not say collnet=true is for a run that connected CollNet", notes)
			}
		})
	}
}

// The RTX PRO 6000 machine calibrated on its 8 x 1 log over EFA predicts
// a run of another node count, 4 x 1, on the 2 channels NCCL's line gives
// (the ring graph's 1 carries over between node counts), with the fact
// coll_channels from nccl-debug; a run of another shape (2 GPUs a host)
// and a machine described without the log keep the model's own plan.
func TestChannelsFactPredicts(t *testing.T) {
	tabs, h := realLog(t, "rtxpro6000_8x1_allreduce_efa_g7e_slurm.log")
	bare := h.ForHosts(1)
	h, _ = h.WithEvidence(tabs)
	h = h.ForHosts(1)
	m, err := Calibrate(h, tabs, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	var fact Fact
	for _, f := range m.Facts() {
		if f.Name == "coll_channels" {
			fact = f
		}
	}
	if fact.Value != "2 at 1 GPU a host across nodes" || fact.Source != SourceNCCLDebug {
		t.Errorf("coll_channels %q (%s), want 2 at 1 GPU a host across nodes (nccl-debug)", fact.Value, fact.Source)
	}
	v := tabs[0].Version
	q := Query{Collective: commmodel.AllReduce, Ranks: 4, PerNode: 1, Version: v}
	preds, err := m.Predict(q, []float64{1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if preds[0].Channels != 2 {
		t.Errorf("4 x 1 at 1 GiB on %d channels, want the log's 2", preds[0].Channels)
	}
	q2 := Query{Collective: commmodel.AllReduce, Ranks: 4, PerNode: 2, Version: v}
	preds2, err := m.Predict(q2, []float64{1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	own, _, err := Untabled(bare, q2, []float64{1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if preds2[0].Channels != own[0].Channels {
		t.Errorf("2 x 2 at 1 GiB on %d channels, want the model's own %d (the line is of 1 GPU a host)", preds2[0].Channels, own[0].Channels)
	}
	plain, _, err := Untabled(bare, q, []float64{1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if plain[0].Channels != 4 {
		t.Errorf("without the log, 4 x 1 at 1 GiB on %d channels, want the model's own 4", plain[0].Channels)
	}
	for _, f := range bare.Facts() {
		if f.Name == "coll_channels" {
			t.Errorf("without the log: coll_channels %q", f.Value)
		}
	}
}

// A log without the line (GH200 on Alps: NCCL_DEBUG unset) gives no
// coll_channels and leaves the model's own plan.
func TestChannelsWithoutLine(t *testing.T) {
	tabs, h := realLog(t, "gh200_2x4_allreduce_slingshot_alps.log")
	bare := h.ForHosts(tabs[0].PerNode)
	h, notes := h.WithEvidence(tabs)
	h = h.ForHosts(tabs[0].PerNode)
	if h.Channels != 0 || h.Sources.Channels != "" {
		t.Errorf("Channels %d (%s), want none", h.Channels, h.Sources.Channels)
	}
	for _, f := range h.Facts() {
		if f.Name == "coll_channels" {
			t.Errorf("coll_channels %q", f.Value)
		}
	}
	for _, n := range notes {
		if strings.Contains(n, "coll channels") {
			t.Errorf("note %q", n)
		}
	}
	if got, want := runtimeOf(t, h, &tabs[0], false), runtimeOf(t, bare, &tabs[0], false); got != want {
		t.Errorf("%d channels, want the model's own %d", got, want)
	}
}
