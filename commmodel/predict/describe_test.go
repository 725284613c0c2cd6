package predict

import (
	"math"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// TestDescribe describes known and unknown GPUs: an empty description is
// DefaultHardware, keys override it, and an H100 described key by key
// under another name (18 NVLinks of 25 GB/s, the H100 SXM row of
// nccl.ParseGPU's table) predicts what the H100 does.
func TestDescribe(t *testing.T) {
	const h100 = "NVIDIA H100 80GB HBM3"
	def, err := DefaultHardware(h100)
	if err != nil {
		t.Fatal(err)
	}
	same, err := Describe(h100, "")
	if err != nil || same != def {
		t.Errorf("empty description: %+v, %v; want %+v", same, err, def)
	}
	h, err := Describe(h100, "nics=4, nic-bw=200Gb/s")
	if err != nil || h.NICs != 4 || h.NICBW != 25e9 {
		t.Errorf("nics=4,nic-bw=200Gb/s: %+v, %v", h, err)
	}
	mine, err := Describe("my GPU", "gpu-bw=450GB/s,links=18,cc=9.0,nvls=true,pcie=5")
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	sizes := []float64{1 << 10, 1 << 20, 1 << 30}
	want, err := Reference(def, q, sizes)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Reference(mine, q, sizes)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Abs(got[i].Time/want[i].Time-1) > 1e-12 || got[i].Algorithm != want[i].Algorithm {
			t.Errorf("%g B: described %g s (%s), H100 %g s (%s)", sizes[i], got[i].Time, got[i].Algorithm, want[i].Time, want[i].Algorithm)
		}
	}
}

// TestDescribeAMD describes an AMD Instinct MI300X host (seven Infinity
// Fabric links of 64 GB/s a direction, AMD's data sheet) and predicts an
// AllReduce on it, uncalibrated.
func TestDescribeAMD(t *testing.T) {
	const mi300x = "AMD Instinct MI300X"
	if _, err := Describe(mi300x, ""); err == nil || !strings.Contains(err.Error(), "cc=9.4,links=7,link-bw=64GB/s") {
		t.Errorf("undescribed MI300X: %v, want a hint that works", err)
	}
	h, err := Describe(mi300x, "cc=9.4,links=7,link-bw=64GB/s")
	if err != nil {
		t.Fatal(err)
	}
	if !h.NVSwitch || h.intraBW() != 448e9 || h.NVLS {
		t.Errorf("%+v: want a one-hop mesh of 448 GB/s a GPU, without NVLS", h)
	}
	ps, err := Reference(h, Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8}, []float64{1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	// A ring AllReduce of 1 GiB moves 2·7/8 GiB a GPU: at 448 GB/s that is
	// 4.2 ms, which NCCL's model can only exceed.
	if p := ps[0]; !(p.Time > 2*7.0/8*(1<<30)/448e9 && p.Time < 0.1) {
		t.Errorf("1 GiB AllReduce on MI300X: %g s", p.Time)
	}
}

// TestDescribeErrors checks that a bad description names what works.
func TestDescribeErrors(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"bogus=1", "want one of cc, links"},
		{"links", "want KEY=VALUE"},
		{"cc=abc", "compute capability"},
		{"nic-bw=fast", "nic-bw"},
		{"nics=-1", "count"},
	} {
		if _, err := Describe("NVIDIA H100 80GB HBM3", c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error with %q", c.spec, err, c.want)
		}
	}
}
