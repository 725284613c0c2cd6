package predict

import (
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
// gives P2P (RTX 6000 Ada, L40S, RTX PRO 6000, RTX 3090).
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
