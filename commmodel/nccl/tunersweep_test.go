package nccl

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomRules writes n rules of the example plugin's format, of every
// function, algorithm and protocol, a third of them over sizes from a few
// shared bounds so that they nest and overlap, the rest over short
// ranges anywhere below 4 GiB; some name numPipeOps and regBuff.
func randomRules(n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	pick := func(v ...uint64) uint64 { return v[rng.IntN(len(v))] }
	any := func(v ...int) int { return v[rng.IntN(len(v))] }
	var b strings.Builder
	for range n {
		lo, hi := pick(0, 0, 1024, 1<<16, 1<<20), pick(1<<16, 1<<24, 1<<30, math.MaxUint64)
		if rng.IntN(3) > 0 {
			lo = rng.Uint64N(1 << 32)
			hi = lo + rng.Uint64N(1<<28)
		}
		fmt.Fprintf(&b, "%s,%d,%d,%s,%s,%d,%d,%d", tunerFuncNames[rng.IntN(NumFuncs)], lo, hi,
			tunerAlgoNames[rng.IntN(NumAlgos)], tunerProtoNames[rng.IntN(NumProtocols)],
			any(0, -1, 4, 64, 2, 32), any(-1, 1, 2, 4), any(-1, 8, 16, 32))
		switch rng.IntN(10) {
		case 0, 1:
			fmt.Fprintf(&b, ",%d", rng.IntN(4)-1)
		case 2:
			fmt.Fprintf(&b, ",%d,%d", rng.IntN(3)-1, rng.IntN(3)-1)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestSweepRules: sweepRules gives, for random nested and overlapping
// rules, what the plugin's own order gives when each range of sizes asks
// every rule in file order (the definition: the first rule NCCL's table
// holds is taken, the first of those NCCL holds in every call is sure, and
// the rules after it are not asked); and it asks available once a rule,
// however many ranges a rule spans.
func TestSweepRules(t *testing.T) {
	for seed := range uint64(20) {
		lines, _, err := pluginLoad(strings.NewReader(randomRules(80, seed)))
		if err != nil {
			t.Fatal(err)
		}
		var cand []int
		for i, l := range lines {
			if l.rule.Func == FuncAllReduce && l.rule.MinBytes <= l.rule.MaxBytes {
				cand = append(cand, i)
			}
		}
		calls := 0
		available := func(i int) bool { calls++; return (i*7+int(seed))%3 > 0 }
		sw := sweepRules(lines, cand, available)
		if calls != len(cand) {
			t.Errorf("seed %d: available asked %d times for %d rules, want once a rule", seed, calls, len(cand))
		}
		reached := make([]bool, len(cand))
		shadowed := slices.Repeat([]int{-1}, len(cand))
		for k := range sw.bounds {
			lo, hi := sw.bounds[k], sw.hi(k)
			taken, sure := -1, -1
			for n, i := range cand {
				r := lines[i].rule
				if r.MinBytes > lo || hi > r.MaxBytes {
					if r.MinBytes <= hi && lo <= r.MaxBytes {
						t.Fatalf("seed %d: rule %v takes part of %d..%d", seed, r, lo, hi)
					}
					continue
				}
				if sure >= 0 {
					if shadowed[n] < 0 {
						shadowed[n] = k
					}
					continue
				}
				reached[n] = true
				if (i*7+int(seed))%3 == 0 {
					continue
				}
				if taken < 0 {
					taken = i
				}
				if !MayBeIgnored(r.Algo) {
					sure = i
				}
			}
			if sw.taken[k] != taken || sw.sure[k] != sure {
				t.Errorf("seed %d, %d..%d: taken %d, sure %d; want %d, %d", seed, lo, hi, sw.taken[k], sw.sure[k], taken, sure)
			}
		}
		if !slices.Equal(sw.reached, reached) || !slices.Equal(sw.shadowed, shadowed) {
			t.Errorf("seed %d: reached %v, shadowed %v\nwant %v, %v", seed, sw.reached, sw.shadowed, reached, shadowed)
		}
	}
}

// BenchmarkCheckTunerRules checks files of random rules (randomRules)
// against tunerJob's two communicators.
func BenchmarkCheckTunerRules(b *testing.B) {
	job := tunerJob(b)
	for _, n := range []int{1000, 10000, 100000} {
		text := []byte(randomRules(n, 1))
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := CheckTunerRules(bytes.NewReader(text), "rules", job); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
