package predict

import (
	"math"
	"testing"
)

// FuzzDescribe: Describe reads a user's -hw text and a GPU name; whatever
// they hold, it returns an error or a Hardware whose facts all have a
// value and a source and whose rates are finite and not negative, and
// never panics. The seeds are the docs' and the tests' descriptions.
func FuzzDescribe(f *testing.F) {
	for _, seed := range []struct{ gpu, spec string }{
		{"H100", ""},
		{"NVIDIA A100-SXM4-40GB", "nics=16,nic-bw=100Gb/s"},
		{"", "system=dgx-h100"},
		{"AMD Instinct MI300X", "cc=9.4,fabric=infinity,links=7,link-bw=64GB/s"},
		{"NVIDIA GeForce RTX 4090", "cc=8.9,fabric=pcie,pcie=4"},
		{"NVIDIA A100-SXM4-80GB", "gpus=8,nics=6"},
		{"H100", "fabric=pcie,nvls=false,nic-path=PHB,cpu=amd,net-lat=16,group=32,oversub=2"},
		{"GB200", "domain=72,nics=4"},
		{"H100", "gpus=0"},
		{"H100", "nics=-1,,=,link-bw=1e400GB/s"},
	} {
		f.Add(seed.gpu, seed.spec)
	}
	f.Fuzz(func(t *testing.T, gpu, spec string) {
		h, err := Describe(gpu, spec)
		if err != nil {
			return
		}
		for _, x := range []float64{h.nicBW(), h.intraBW(), h.NetLatency} {
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				t.Fatalf("Describe(%q, %q): a rate or factor %g", gpu, spec, x)
			}
		}
		for _, fact := range h.Facts() {
			if fact.Value == "" || fact.Source == "" {
				t.Fatalf("Describe(%q, %q): fact %+v without a value or source", gpu, spec, fact)
			}
		}
	})
}
