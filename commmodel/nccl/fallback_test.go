package nccl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFallbackOfDefinition: FallbackOf gives, for random rules over a few
// shared sizes (so that they nest), what its definition gives read
// directly: for each rule, going back from the one before it to the last
// that is no fallback, the first of the same function and communicator
// that MayBeLeftOut names and whose sizes hold its own.
func TestFallbackOfDefinition(t *testing.T) {
	sizes := []uint64{0, 100, 1000, 1 << 20, math.MaxUint64}
	for seed := range uint64(50) {
		rng := rand.New(rand.NewPCG(seed, 2))
		rules := make([]TunerRule, 60)
		for i := range rules {
			lo, hi := sizes[rng.IntN(len(sizes))], sizes[rng.IntN(len(sizes))]
			rules[i] = TunerRule{Func: Func(rng.IntN(2)), MinBytes: min(lo, hi), MaxBytes: max(lo, hi), Algo: Algo(rng.IntN(NumAlgos)),
				Proto: Protocol(rng.IntN(NumProtocols)), Nodes: rng.IntN(2), Ranks: 8, PipeOps: -1, RegBuff: -1}
		}
		want := make([]int, len(rules))
		base := 0
		for i, r := range rules {
			want[i] = -1
			for j := i - 1; j >= base; j-- {
				p := rules[j]
				if MayBeLeftOut(p) && keyOf(r) == keyOf(p) && r.MinBytes >= p.MinBytes && r.MaxBytes <= p.MaxBytes {
					want[i] = j
					break
				}
			}
			if want[i] < 0 {
				base = i
			}
		}
		if got := FallbackOf(rules); !slices.Equal(got, want) {
			t.Errorf("seed %d: FallbackOf = %v\nwant %v", seed, got, want)
		}
	}
}

// BenchmarkFallbackOf: an NVLS rule over every size and n Ring rules after
// it, each a fallback of it (the run back to the last rule that is no
// fallback grows with every rule).
func BenchmarkFallbackOf(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		rules := []TunerRule{{Func: FuncAllReduce, MaxBytes: math.MaxUint64, Algo: AlgoNVLS, Proto: Simple, Nodes: -1, Ranks: -1, PipeOps: -1, RegBuff: -1}}
		for range n {
			r := rules[0]
			r.Algo = AlgoRing
			rules = append(rules, r)
		}
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				FallbackOf(rules)
			}
		})
	}
}
