package predict

import (
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// TestHostCopyBW measures HostCopyBW: the median, to two digits, of the
// bus bandwidth at the largest size of every one-host AllReduce table of
// data/nccltests/testdata/real whose GPU the catalog gives no P2P and whose
// ranks have GPUs of their own (the RTX 5090 log's two ranks share one
// GPU). Each table lies below half the cards' PCIe figure, where the
// catalog's PCIe rate would put it.
func TestHostCopyBW(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../data/nccltests/testdata/real/*.log")
	if err != nil {
		t.Fatal(err)
	}
	var bws []float64
	var names []string
	for _, f := range files {
		tabs, _, err := ReadFile(f, func(int) Pins { return Pins{} })
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, tab := range tabs {
			g, err := nccl.ParseGPU(tab.GPU)
			ids := busIDs(&tab)
			if err != nil || !g.NoP2P || tab.Collective != commmodel.AllReduce || tab.Nodes != 1 || tab.PerNode < 2 ||
				ids == "" || strings.Count(ids, ",")+1 != tab.Ranks() {
				continue
			}
			last := tab.Points[len(tab.Points)-1]
			bw := last.Size / last.Time * commmodel.AllReduce.BusFactor(tab.Ranks())
			if bw > nccl.PCIeBW(g.PCIeGen)/2 {
				t.Errorf("%s: %.3g GB/s at %g B, above half of PCIe Gen%d's %.3g GB/s: not a copy through host memory",
					tab.Name, bw/1e9, last.Size, g.PCIeGen, nccl.PCIeBW(g.PCIeGen)/1e9)
			}
			bws = append(bws, bw)
			names = append(names, filepath.Base(tab.Name))
		}
	}
	if len(bws) < 4 {
		t.Fatalf("%d tables of GPUs without P2P (%v); want the 4 kalavai RTX 4090 tables at least", len(bws), names)
	}
	s := slices.Sorted(slices.Values(bws))
	med := (s[(len(s)-1)/2] + s[len(s)/2]) / 2
	t.Logf("bus bandwidth at the largest size of %d tables %v: %.4g B/s, median %.4g B/s", len(bws), names, s, med)
	if got, _ := strconv.ParseFloat(strconv.FormatFloat(med, 'g', 2, 64), 64); got != HostCopyBW {
		t.Errorf("median %.4g B/s; HostCopyBW is %g", med, HostCopyBW)
	}
}

// TestHostCopyPrior: an RTX 4090 or 5090 host known by its name alone
// takes HostCopyBW as intra_bw's prior and says so in its link_bw fact;
// the user's -hw pcie=GEN describes the link and takes back its PCIe
// figure (24 GB/s for Gen4, nccl.PCIeBW), as do the cards the catalog
// gives P2P (RTX 6000 Ada, L40S, RTX PRO 6000, RTX 3090); a card of no
// known generation says so.
func TestHostCopyPrior(t *testing.T) {
	for _, c := range []struct {
		gpu, spec string
		want      float64
		fact      string
	}{
		{"NVIDIA GeForce RTX 4090", "", HostCopyBW, "PCIe Gen4 24 GB/s, no P2P"},
		{"NVIDIA GeForce RTX 5090", "", HostCopyBW, "PCIe Gen5 48 GB/s, no P2P"},
		{"NVIDIA GeForce RTX 4090", "pcie=4", 24e9, "PCIe Gen4 24 GB/s"},
		{"NVIDIA RTX 6000 Ada Generation", "", 24e9, "PCIe Gen4 24 GB/s"},
		{"NVIDIA L40S", "", 24e9, "PCIe Gen4 24 GB/s"},
		{"NVIDIA RTX PRO 6000 Blackwell Server Edition", "", 48e9, "PCIe Gen5 48 GB/s"},
		{"NVIDIA GeForce RTX 3090", "", 24e9, "PCIe Gen4 24 GB/s"},
		// The catalog gives no PCIe generation for GB10 (DGX Spark):
		// nccl.PCIeBW takes Gen3's, and the fact says the generation is
		// unknown.
		{"NVIDIA GB10", "", 12e9, "PCIe 12 GB/s, generation unknown (Gen3's rate)"},
	} {
		h, err := Describe(c.gpu, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := Uncalibrated(h).intraPrior(); math.Abs(got-c.want) > 1 {
			t.Errorf("%s -hw %q: intra_bw's prior %.4g B/s, want %.4g", c.gpu, c.spec, got, c.want)
		}
		i := slices.IndexFunc(h.Facts(), func(f Fact) bool { return f.Name == "link_bw" })
		if f := h.Facts()[i]; f.Value != c.fact {
			t.Errorf("%s -hw %q: link_bw %q (%s), want %q", c.gpu, c.spec, f.Value, f.Source, c.fact)
		}
	}
}

// TestHostCopyBareMetal: from the GPU's name alone, the interval of an
// AllReduce of GeForce cards holds the public bare-metal runs through
// host memory as well as the container runs HostCopyBW was fitted on,
// by the guess of host_bw that tries the cards' PCIe figure; the point
// stays HostCopyBW's. The bare-metal bus bandwidths are the issues' text:
// 4 RTX 4090s at 18 GB/s over SHM (NVIDIA/nccl#1603, "compared to SHM, got
// 18->22 BUSBW"), 8 and 4 RTX 5090s at 28 and 35 GB/s from 1 to 8 GiB
// (NVIDIA/nccl#1639, "8 GPU max performance : bwbus 28GB/s", "4GPU max
// performance : bwbus 35GB/s"); the time of a bus bandwidth B at size S
// is 2(n-1)/n·S/B (commmodel.AllReduce.BusFactor).
func TestHostCopyBareMetal(t *testing.T) {
	for _, c := range []struct {
		gpu   string
		ranks int
		size  float64
		busbw float64
	}{
		{"NVIDIA GeForce RTX 4090", 4, 1 << 30, 18e9},
		{"NVIDIA GeForce RTX 5090", 8, 8 << 30, 28e9},
		{"NVIDIA GeForce RTX 5090", 4, 8 << 30, 35e9},
		{"NVIDIA GeForce RTX 4090", 4, 1 << 30, HostCopyBW}, // the container runs'
	} {
		h, err := Describe(c.gpu, "")
		if err != nil {
			t.Fatal(err)
		}
		q := Query{Collective: commmodel.AllReduce, Ranks: c.ranks, PerNode: c.ranks}
		sizes := []float64{c.size}
		preds, _, err := Untabled(h, q, sizes)
		if err != nil {
			t.Fatal(err)
		}
		gs, err := Guesses(h, nil, q, sizes)
		if err != nil {
			t.Fatal(err)
		}
		k := slices.IndexFunc(gs, func(g Guess) bool { return g.Fact.Name == "host_bw" })
		if k < 0 {
			t.Fatalf("%s x %d: no guess of host_bw in %v", c.gpu, c.ranks, gs)
		}
		if !strings.HasPrefix(gs[k].Hint, "host-bw=") || !(gs[k].Ratio < 0.2) {
			t.Errorf("%s x %d: guess %q at %.3gx; want -hw host-bw=, below 0.2x (the PCIe figure over %g)", c.gpu, c.ranks, gs[k].Hint, gs[k].Ratio, HostCopyBW)
		}
		p := HoldGuesses(preds, gs)[0]
		measured := c.size / c.busbw * commmodel.AllReduce.BusFactor(c.ranks)
		if !p.Holds(measured) {
			t.Errorf("%s x %d at %g B: %.3g s (%.2g GB/s bus bandwidth) outside [%.3g, %.3g] s", c.gpu, c.ranks, c.size, measured, c.busbw/1e9, p.Low, p.High)
		}
		if want := c.size / HostCopyBW * commmodel.AllReduce.BusFactor(c.ranks); math.Abs(p.Time/want-1) > 0.05 {
			t.Errorf("%s x %d: point %.3g s, want HostCopyBW's %.3g s within 5%%", c.gpu, c.ranks, p.Time, want)
		}
	}
}

// TestHostCopyFinding: diagnose without calibration finds a container
// run of 4 RTX 4090s (kalavai's Docker table, 2.59 GB/s at 2 GiB) slower
// than bare metal through host memory, though it follows the model's
// point, whose HostCopyBW it helped fit; the user's host-bw, or a P2P
// card, or a GPU shared by two ranks draw no such finding.
func TestHostCopyFinding(t *testing.T) {
	for _, c := range []struct {
		file, gpu, spec string
		want            bool
	}{
		{"rtx4090_1x4_g4_allreduce_docker_kalavai.log", "", "", true},
		{"rtx4090_1x4_g4_allreduce_docker_kalavai.log", "", "host-bw=2.6GB/s", false},
		{"rtx4090_1x4_g4_allreduce_docker_kalavai.log", "NVIDIA GeForce RTX 3090", "", false},
		{"rtx5090_2rank_allreduce_tagoutput_late2025.log", "", "", false},
	} {
		tabs, _, err := ReadFile(filepath.Join("../../data/nccltests/testdata/real", c.file), func(int) Pins { return Pins{GPU: c.gpu} })
		if err != nil {
			t.Fatal(err)
		}
		h, err := Describe(tabs[0].GPU, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		fs, _, err := Uncalibrated(h).Diagnose(tabs[0])
		if err != nil {
			t.Fatal(err)
		}
		k := slices.IndexFunc(fs, func(f Finding) bool { return f.Kind == KindHostCopy })
		if got := k >= 0; got != c.want {
			t.Errorf("%s (%s, -hw %q): host-copy finding %v, want %v: %+v", c.file, tabs[0].GPU, c.spec, got, c.want, fs)
			continue
		}
		// 2.59 GB/s against PCIe Gen4's 24: about 9 times the time.
		if k >= 0 && !(fs[k].MeasuredOverModel > 6 && fs[k].MeasuredOverModel < 10) {
			t.Errorf("%s: %.3gx the PCIe figure's time, want 6 to 10", c.file, fs[k].MeasuredOverModel)
		}
		// The finding spans sizes the model runs on LL and on Simple
		// (predict of the same machine: Ring/LL at 16 KiB, Ring/Simple
		// from 1 MiB), and names each, not the first alone (red team B).
		if k >= 0 && fs[k].NCCL != "Ring/LL, Ring/Simple" {
			t.Errorf("%s: the finding's choices %q; want Ring/LL, Ring/Simple", c.file, fs[k].NCCL)
		}
	}
}

// TestHostBWBound: a host-copy rate above the cards' PCIe figure (an RTX
// 4090's Gen4, 24 GB/s) is refused, not clamped under the user's name.
func TestHostBWBound(t *testing.T) {
	if _, err := Describe("NVIDIA GeForce RTX 4090", "host-bw=100GB/s"); err == nil || !strings.Contains(err.Error(), "give a rate up to it") {
		t.Errorf("host-bw=100GB/s: %v; want an error naming the PCIe figure", err)
	}
	h, err := Describe("NVIDIA GeForce RTX 4090", "host-bw=18GB/s")
	if err != nil || h.hostBW() != 18e9 {
		t.Errorf("host-bw=18GB/s: %v, %g; want 18e9", err, h.hostBW())
	}
	// Where no copy goes through host memory (P2P cards; a PCIe link the
	// user gives, which describes the path itself) host-bw would change
	// nothing: refused, not dropped.
	for _, c := range [][2]string{{"NVIDIA L40S", "host-bw=10GB/s"}, {"NVIDIA GeForce RTX 4090", "host-bw=18GB/s,pcie=4"}} {
		if _, err := Describe(c[0], c[1]); err == nil || !strings.Contains(err.Error(), "leave host-bw out") {
			t.Errorf("%s, %s: %v; want host-bw refused", c[0], c[1], err)
		}
	}
	// A GPU the catalog does not hold, or none named yet (the tables'
	// name comes later, machineHosts), keeps it: the description of -hw
	// alone cannot say whether its cards copy through host memory.
	for _, gpu := range []string{"", "NVIDIA GeForce RTX 4070 Ti SUPER"} {
		if _, err := Describe(gpu, "host-bw=18GB/s,gpus=4"); err != nil {
			t.Errorf("%q: %v; want host-bw kept", gpu, err)
		}
	}
}

// TestHostBWOutOfRange: a HostBW built in code is held to the range of
// Describe's host-bw, as the Hardware's other rates are (red team D §1):
// NaN, infinite, negative or tiny, it was used (an infinite time with a
// NaN interval) or replaced by HostCopyBW or the PCIe figure without a
// word, with a nil error. 0 keeps its meaning, HostCopyBW.
func TestHostBWOutOfRange(t *testing.T) {
	rtx, err := DefaultHardware("NVIDIA GeForce RTX 4090")
	if err != nil {
		t.Fatal(err)
	}
	if !rtx.hostCopy() {
		t.Fatal("an RTX 4090 host copies through host memory")
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 4, PerNode: 4}
	sizes := []float64{1 << 10, 1 << 30}
	for _, bw := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -5, 1e-300, 1, 300e9, 100e9} {
		h := rtx
		h.HostBW = bw
		if ps, _, err := Untabled(h, q, sizes); !errors.Is(err, ErrHardware) || !strings.Contains(err.Error(), "Hardware.HostBW") {
			t.Errorf("HostBW %g: Untabled = %v, %v; want ErrHardware naming it", bw, ps, err)
		}
		if ps, err := Uncalibrated(h).Predict(q, sizes); !errors.Is(err, ErrHardware) {
			t.Errorf("HostBW %g: Predict = %v, %v; want ErrHardware", bw, ps, err)
		}
	}
	for _, bw := range []float64{0, 18e9, rtx.intraBW()} {
		h := rtx
		h.HostBW = bw
		if _, _, err := Untabled(h, q, sizes); err != nil {
			t.Errorf("HostBW %g: %v; want it taken", bw, err)
		}
	}
	// The range holds whatever the GPU; where no copy goes through host
	// memory the PCIe figure bounds nothing.
	h := h100(t)
	h.HostBW = math.NaN()
	if _, err := Uncalibrated(h).Predict(Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8}, sizes); !errors.Is(err, ErrHardware) {
		t.Errorf("H100, HostBW NaN: %v; want ErrHardware", err)
	}
}
