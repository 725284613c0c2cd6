package predict

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

// kistiLog is nccl-tests#311's AllReduce on 4 nodes x 2 A100-SXM4-80GB of
// KISTI's shared 8-GPU hosts (6 ConnectX-6 HDR NICs of 200 Gb/s, a NIC to
// each pair of GPUs, as the log's source lines give them).
const kistiLog = "../../data/nccltests/testdata/real/a100_4x2_allreduce_collnet_kisti_nccltests311.log"

// kisti reads the log, and the machine a new user gets of it for runs of
// perHost GPUs a node: the GPU's name with what the log says
// (Hardware.FromTables), with its notes.
func kisti(t *testing.T, perHost int) ([]Table, Hardware, []string) {
	t.Helper()
	tabs, _, err := ReadFile(kistiLog, func(int) Pins { return Pins{} })
	if err != nil || len(tabs) != 1 {
		t.Fatalf("%d tables, %v; want 1", len(tabs), err)
	}
	h, err := Describe(tabs[0].GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	h, notes := h.FromTables(tabs, perHost)
	return tabs, h, notes
}

// The log lists the host's 6 NICs (line 16, "NET/IB : Using [0]mlx5_2 ...
// [5]mlx5_4"), but gpu34's channel lines (18 and 20) name NET device 1
// alone, for channel 00 of the 3 coll channels line 17 gives: the run's 2
// GPUs a host drive 1 NIC, at least, and the model's node has 1 NIC, not
// the 3 a GPU that Rank lines of devices 0 and 1 alone would give it.
func TestRunNICsKISTI(t *testing.T) {
	_, h, notes := kisti(t, 2)
	if h.NICs != 6 || h.Sources.NICs != SourceNCCLDebug {
		t.Errorf("NICs %d (%s), want the list's 6 (nccl-debug)", h.NICs, h.Sources.NICs)
	}
	if h.RunNICs != 1 || h.RunGPUs != 2 || !h.RunNICsLeast || h.Sources.RunNICs != SourceNCCLDebug {
		t.Errorf("run NICs %d at %d GPUs, at least %v (%s); want 1 at 2, at least, nccl-debug", h.RunNICs, h.RunGPUs, h.RunNICsLeast, h.Sources.RunNICs)
	}
	if n := h.hostNICs(1, 2); n != 1 {
		t.Errorf("a node of 2 GPUs drives %d NICs, want 1", n)
	}
	k := slices.IndexFunc(h.Facts(), func(f Fact) bool { return f.Name == "nics_in_use" })
	if k < 0 || h.Facts()[k] != (Fact{Name: "nics_in_use", Value: "at least 1 at 2 GPUs a host", Source: SourceNCCLDebug}) {
		t.Errorf("facts %+v; want nics_in_use at least 1 at 2 GPUs a host (nccl-debug)", h.Facts())
	}
	if !slices.ContainsFunc(notes, func(n string) bool {
		return strings.Contains(n, "gpu34 (line 18) name NET device 1:") && strings.Contains(n, "1 of NCCL's 3 channels")
	}) {
		t.Errorf("notes %q; want one naming gpu34's line 18 and the 1 channel of 3", notes)
	}
	// A run of another size drives the NICs a GPU that the log's did: 1
	// NIC for 2 GPUs, so 4 for 8 (within the host's 6) and 1 for 1.
	if _, h8, _ := kisti(t, 8); h8.hostNICs(1, 8) != 4 || h8.hostNICs(1, 1) != 1 {
		t.Errorf("8 GPUs a node: %d NICs, want 4; 1 GPU: %d, want 1", h8.hostNICs(1, 8), h8.hostNICs(1, 1))
	}
}

// The channel lines' NICs are a least (1 channel of 3), which a table
// that moved more than they carry raises: the log's table made 4 times as
// fast (87 GB/s of bus bandwidth at 4 GiB, from its 21.70) needs 4 HDR
// NICs of 25 GB/s with 5% to spare (87/26.25 = 3.3), said in a note, and
// 8 times as fast needs 7, more than the host's 6, which bound it. The
// log's own table, within 1 NIC's rate, leaves the count at 1.
func TestRunNICsRaisedByTable(t *testing.T) {
	tabs, h0, _ := kisti(t, 2)
	for _, c := range []struct{ speedup, want int }{{1, 1}, {4, 4}, {8, 6}} {
		fast := slices.Clone(tabs)
		fast[0].Points = slices.Clone(tabs[0].Points)
		for i := range fast[0].Points {
			fast[0].Points[i].Time /= float64(c.speedup)
		}
		h, err := Describe(tabs[0].GPU, "")
		if err != nil {
			t.Fatal(err)
		}
		h, notes := h.FromTables(fast, 2)
		if h.RunNICs != c.want || !h.RunNICsLeast || h.NICs != h0.NICs {
			t.Errorf("%dx as fast: run NICs %d (at least %v), host %d; want %d, at least, host %d", c.speedup, h.RunNICs, h.RunNICsLeast, h.NICs, c.want, h0.NICs)
		}
		raised := slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "its bus bandwidth reaches") })
		if raised != (c.want > 1) {
			t.Errorf("%dx as fast: notes %q; want a note of the raise: %v", c.speedup, notes, c.want > 1)
		}
	}
}

// Calibrated on the log, nic_bw is what one HDR NIC of 25 GB/s moves: near
// the 4 GiB row's bus bandwidth of 21.70 GB/s (it was 4.2 GB/s with 6 NICs
// a node), and the 4 GiB row, 346304 us, is predicted within 10%. From the
// GPU's name with the log's facts and no calibration, the 4 GiB row is
// within 15% on 1 NIC a node; on one NIC a GPU, as the name alone gives
// it, more than 40% fast (two NICs' worth for one).
func TestRunNICsKISTIPredictions(t *testing.T) {
	tabs, h, _ := kisti(t, 2)
	m, err := Calibrate(h, tabs, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Params[parNICBW]; !p.Identified || !(p.Value > 0.8*21.70e9 && p.Value <= 25e9) {
		t.Errorf("nic_bw %.3g B/s (identified %v), want within 20%% under the 21.70 GB/s bus bandwidth and at most HDR's 25e9", p.Value, p.Identified)
	}
	const size, measured = 4294967296, 346304e-6 // the log's last row, out of place
	q := tabs[0].Query()
	preds, err := m.Predict(q, []float64{size})
	if err != nil {
		t.Fatal(err)
	}
	if e := math.Abs(preds[0].Time/measured - 1); !(e < 0.10) {
		t.Errorf("calibrated, 4 GiB: %.4g s, %.1f%% off the log's %g s; want within 10%%", preds[0].Time, 100*e, measured)
	}
	preds, _, err = Untabled(h, q, []float64{size})
	if err != nil {
		t.Fatal(err)
	}
	if e := math.Abs(preds[0].Time/measured - 1); !(e < 0.15) {
		t.Errorf("from the name with the log's facts, 4 GiB: %.4g s, %.1f%% off; want within 15%%", preds[0].Time, 100*e)
	}
	bare, err := Describe(tabs[0].GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	if preds, _, err = Untabled(bare.ForHosts(2), q, []float64{size}); err != nil {
		t.Fatal(err)
	}
	if e := 1 - preds[0].Time/measured; !(e > 0.40) {
		t.Errorf("from the name alone, 4 GiB: %.4g s, %.1f%% under the log; want more than 40%% under", preds[0].Time, 100*e)
	}
}

// Where a catalog system gives the host's GPUs, a run of fewer drives their
// share of its NICs: a p4d.24xlarge's 4 EFA NICs for 8 A100s (the
// catalog's) are 1 for 2 GPUs a node and for 1, 2 for 4, 4 for 8.
func TestRunNICsShareOfKnownHost(t *testing.T) {
	h, err := Describe("", "system=p4d.24xlarge")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ perHost, want int }{{1, 1}, {2, 1}, {4, 2}, {8, 4}} {
		run := h.ForHosts(c.perHost)
		if n := run.hostNICs(1, c.perHost); n != c.want {
			t.Errorf("p4d.24xlarge, %d GPUs a node: %d NICs, want %d", c.perHost, n, c.want)
		}
	}
}

// RCCL prints its ring lines ("Channel 00/16 :  0 1 ...") but no "N coll
// channels" line; channel lines of 2 of those 16 channels (one rank's, as
// a log cut to rank 0 keeps them) named 1 NIC as the run's every NIC, and
// an MI355X 2 x 8 table that moved 369 GB/s was modelled on it, 7.4x slow
// (red team 46). The ring lines count the channels as well: KISTI's log
// with its coll channels line (17) put as ring lines of its 3 channels
// keeps its count a least; with neither, nothing says the lines are
// partial, and the count is the lines'.
func TestRunNICsLeastFromRings(t *testing.T) {
	b, err := os.ReadFile(kistiLog)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if !strings.Contains(lines[16], "3 coll channels") {
		t.Fatalf("line 17 %q; want the coll channels line", lines[16])
	}
	for _, c := range []struct {
		name  string
		with  []string
		least bool
	}{
		{"rings", []string{
			"gpu34:34088:34116 [0] NCCL INFO Channel 00/03 :    0   1   2   3   4   5   6   7",
			"gpu34:34088:34116 [0] NCCL INFO Channel 01/03 :    0   1   2   3   4   5   6   7",
			"gpu34:34088:34116 [0] NCCL INFO Channel 02/03 :    0   1   2   3   4   5   6   7",
		}, true},
		{"neither", nil, false},
	} {
		log := strings.Join(slices.Concat(lines[:16], c.with, lines[17:]), "\n")
		tabs, _, err := ReadBytes([]byte(log), c.name+".log", func(int) Pins { return Pins{} })
		if err != nil || len(tabs) != 1 {
			t.Fatalf("%s: %d tables, %v", c.name, len(tabs), err)
		}
		h, err := Describe(tabs[0].GPU, "")
		if err != nil {
			t.Fatal(err)
		}
		h, notes := h.FromTables(tabs, 2)
		if h.RunNICs != 1 || h.RunNICsLeast != c.least {
			t.Errorf("%s: run NICs %d, at least %v; want 1, at least %v", c.name, h.RunNICs, h.RunNICsLeast, c.least)
		}
		if said := slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "1 of NCCL's 3 channels") }); said != c.least {
			t.Errorf("%s: notes %q; want the 1 channel of 3 named: %v", c.name, notes, c.least)
		}
	}
}
