package predict

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// The collnet fact: assumed false, set by Describe's collnet key.
func TestCollNetFact(t *testing.T) {
	for _, c := range []struct {
		spec string
		want Fact
	}{
		{"", Fact{Name: "collnet", Value: "false", Source: SourceAssumed, Key: "collnet"}},
		{"collnet=true", Fact{Name: "collnet", Value: "true", Source: SourceUser, Key: "collnet"}},
	} {
		h, err := Describe("A100-SXM4-40GB", c.spec)
		if err != nil {
			t.Fatal(err)
		}
		facts := h.Facts()
		k := slices.IndexFunc(facts, func(f Fact) bool { return f.Name == "collnet" })
		if k < 0 || facts[k] != c.want || h.CollNet != (c.want.Value == "true") {
			t.Errorf("Describe(%q): collnet %+v (CollNet %v), want %+v", c.spec, facts, h.CollNet, c.want)
		}
	}
	if _, err := Describe("A100-SXM4-40GB", "collnet=sharp"); err == nil || !strings.Contains(err.Error(), "want true or false") {
		t.Errorf("collnet=sharp: %v, want an error asking for true or false", err)
	}
}

// A pin that leaves only CollNet runs where the machine has it, and is
// refused with ErrPin, naming -hw collnet=true, where it does not; on one
// node NCCL disables CollNet whatever the machine (its node threshold of 2,
// src/init.cc), so the pin's error is NCCL's, not ErrPin.
func TestCollNetPin(t *testing.T) {
	plain, err := Describe("A100-SXM4-40GB", "")
	if err != nil {
		t.Fatal(err)
	}
	sharp, err := Describe("A100-SXM4-40GB", "collnet=true")
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8, Algo: "CollNetDirect,CollNetChain"}
	sizes := []float64{8, 1 << 20}
	if _, err := Reference(plain, q, sizes); !errors.Is(err, ErrPin) || !strings.Contains(err.Error(), "-hw collnet=true") {
		t.Errorf("without collnet: %v, want ErrPin naming -hw collnet=true", err)
	}
	preds, err := Reference(sharp, q, sizes)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range preds {
		if !strings.HasPrefix(p.Algorithm, "CollNet") || !(p.Time > 0) {
			t.Errorf("with collnet at %g B: %s in %g s, want a CollNet time", p.Size, p.Algorithm, p.Time)
		}
	}
	one := q
	one.Ranks = 8
	if _, err := Reference(sharp, one, sizes); err == nil || errors.Is(err, ErrPin) {
		t.Errorf("one node with collnet: %v, want NCCL's error", err)
	}
}

// ABCI's SHARP AllReduce (data/nccltests/testdata/real, NCCL 2.8 with
// NCCL_COLLNET_ENABLE=1 per its source lines; its log prints no version,
// so NCCL 2.30.7's tuner is assumed) calibrated as a new user, with and
// without -hw collnet=true. NCCL's tuner from 2.18 runs CollNet with Simple
// only, whose latency is above Tree/LL's, so the small sizes stay Tree/LL
// (measured 22.5 to 25.5 us up to 512 B) and CollNet takes the large ones:
// CollNetDirect or CollNetChain from 1 MiB on.
func TestCollNetABCI(t *testing.T) {
	tabs, _, err := ReadFile("../../data/nccltests/testdata/real/a100_2x8_allreduce_collnet_sharp_abci.log", nil)
	if err != nil || len(tabs) == 0 {
		t.Fatalf("%d tables, %v", len(tabs), err)
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	sizes := []float64{8, 512, 1 << 20, 64 << 20}
	var got [2][]Prediction
	for i, spec := range []string{"", "collnet=true"} {
		h, err := Describe(tabs[0].GPU, spec)
		if err != nil {
			t.Fatal(err)
		}
		h, _ = h.WithEvidence(tabs)
		m, err := Calibrate(h, tabs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got[i], err = m.Predict(q, sizes); err != nil {
			t.Fatal(err)
		}
		for _, p := range got[i] {
			t.Logf("%q: %g B %.1f us %s/%s", spec, p.Size, p.Time*1e6, p.Algorithm, p.Protocol)
		}
	}
	for k, p := range got[1] {
		collNet := strings.HasPrefix(p.Algorithm, "CollNet")
		if collNet != (p.Size >= 1<<20) || strings.HasPrefix(got[0][k].Algorithm, "CollNet") {
			t.Errorf("%g B: %s with collnet, %s without; want CollNet from 1 MiB on with it only", p.Size, p.Algorithm, got[0][k].Algorithm)
		}
	}
	// Small sizes: the same algorithm, within 5% with and without.
	if r := got[1][0].Time / got[0][0].Time; math.Abs(r-1) > 0.05 {
		t.Errorf("8 B: %g s with collnet, %g s without", got[1][0].Time, got[0][0].Time)
	}
}
