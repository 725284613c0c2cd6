package predict

import (
	"slices"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// TestAssumedWorst (red team 46): the rules that keep NCCL's own choices
// keep them as NCCL's tuning makes them on the machine described, and
// NCCL reads the CPU's vendor (src/graph/tuning.cc: an AMD host's network
// latency doubled, and its LL bandwidth cap), which commlab assumes where
// nothing says it. On the other vendor NCCL's own choices move, and the
// rules replace them: AssumedWorst says by how much, by NCCL's model.
// Where the vendor is given, it is no alternative; and rules written for
// the other vendor cost nothing there.
func TestAssumedWorst(t *testing.T) {
	comms := []Comm{{16, 8}, {64, 8}}
	ar := []commmodel.Collective{commmodel.AllReduce}
	cpuCost := func(m *Machine, rules []nccl.TunerRule) (AssumedCost, bool) {
		costs, err := m.AssumedWorst(comms, rules)
		if err != nil {
			t.Fatal(err)
		}
		k := slices.IndexFunc(costs, func(c AssumedCost) bool { return len(c.Facts) == 1 && c.Facts[0].Key == "cpu" })
		if k < 0 {
			return AssumedCost{}, false
		}
		return costs[k], true
	}
	h := h100(t)
	if h.given(h.Sources.CPU) || cpuOf(h.CPU).key != "intel" {
		t.Fatalf("H100's CPU %v (%v); want Intel's, assumed", h.CPU, h.Sources.CPU)
	}
	m := Uncalibrated(h)
	rules, err := m.TunerRules(ar, comms, Layout{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := cpuCost(m, rules)
	if !ok || c.Tried[0] != "amd" || c.Worst.Ratio <= 1+GuessMoves {
		t.Fatalf("cpu: %+v, %v; want AMD's tried, the rules more than %.0f%% slower than NCCL's own there", c, ok, 100*GuessMoves)
	}
	t.Logf("with cpu amd: %.2fx at %v of %g B on %v", c.Worst.Ratio, c.Worst.Func, c.Worst.Size, c.Worst.Comm)
	// Rules that are not NCCL's own on the machine described (every rule
	// made Ring/Simple, as rules of the model's choice may be) are not
	// counted: the worst call counted is one whose rule is NCCL's own
	// there (a review: the test passed without that filter).
	simple := slices.Clone(rules)
	for i := range simple {
		simple[i].Algo, simple[i].Proto = nccl.AlgoRing, nccl.Simple
	}
	if c, ok := cpuCost(m, simple); ok && c.Worst.Ratio > 1 {
		base, _, err := m.tunerModel(c.Worst.Comm)
		if err != nil {
			t.Fatal(err)
		}
		if !ownChoice(base, c.Worst.Func, c.Worst.LeftOut, c.Worst.Size, simple[0]) {
			t.Errorf("Ring/Simple rules: worst %.2fx at %v of %g B, where Ring/Simple is not NCCL's own on the machine described", c.Worst.Ratio, c.Worst.Func, c.Worst.Size)
		}
	}

	amd := h
	amd.CPU, amd.Sources.CPU = nccl.CPU{Arch: nccl.X86, Vendor: nccl.AMD}, SourceUser
	ma := Uncalibrated(amd)
	if _, ok := cpuCost(ma, rules); ok {
		t.Error("cpu given: still tried as an alternative")
	}
	// The AMD host's own rules, checked on the Intel-assumed machine's
	// alternative (AMD's), cost nothing where they are NCCL's own by
	// Intel's model and AMD's alike; the check counts only those.
	amdRules, err := ma.TunerRules(ar, comms, Layout{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := cpuCost(m, amdRules); !ok || c.Worst.Ratio > 1+1e-9 {
		t.Errorf("AMD's own rules on AMD: %+v, %v; want no cost", c, ok)
	}
}

// TestNoNCCLReleaseGuessAMD: an AMD GPU runs RCCL, whose releases are not
// NCCL's: no guess of NCCL's release is tried for it, though its logs
// (AAC's MI325X tables, or none) do not say RCCL ran them (a review: the
// MI325X described by -hw cc=9.4 drew "nccl_version = 2.30.7 is assumed;
// with 2.18.0 ..."). An NVIDIA GPU's untabled prediction tries it.
func TestNoNCCLReleaseGuessAMD(t *testing.T) {
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	for _, c := range []struct {
		gpu  string
		want bool
	}{{"AMD Instinct MI300X", false}, {"H100", true}} {
		h, err := Describe(c.gpu, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, _, tried := olderRelease(h, nil, q, nil); tried != c.want {
			t.Errorf("%s: NCCL's older release tried %v, want %v", c.gpu, tried, c.want)
		}
	}
}
