package nccl

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// tunerProbeTop is the largest size at which rule building looks for a
// change of choice, 2^44 B (16 TiB): far beyond it every time is its
// bandwidth term, every channel runs and NCCL's choice no longer changes.
const tunerProbeTop = 44

// A TunerPick is the algorithm and protocol a rules file gives calls of
// nBytes.
type TunerPick func(nBytes uint64) (Algo, Protocol, error)

// DefaultPick is NCCL's own choice for calls of f on this communicator
// (Choose): the pick of rules that keep NCCL's default.
func (m *Model) DefaultPick(f Func) TunerPick {
	return func(n uint64) (Algo, Protocol, error) {
		e, err := m.Choose(f, float64(n))
		return e.Algo, e.Proto, err
	}
}

// TunerRules returns the example plugin's rules for every call of f on this
// communicator, nodes hosts of m's ranks: at each size from 0 to the largest
// NCCL can ask, the algorithm and protocol pick gives, adjacent sizes alike
// merged into one rule. Each rule's channels are 0, which NCCL reads as no
// count of the plugin's, and so runs the channels its own tuning gives the
// rule's algorithm and protocol on the communicator (ncclGetAlgoInfo,
// src/enqueue.cc: "nMaxChannels == 0 ? info->nMaxChannels"): a count of
// the model's own would replace NCCL's where the model's guess of the
// machine is wrong (2 channels where a communicator of SHARP runs 3), and
// without a rule the plugin runs a call on one channel. pick is probed at
// quarter powers of two up to 16 TiB and at breaks (sizes where the caller
// knows its pick changes); a change between two probes is found to the
// byte by bisection. Beyond the last probe the last rule holds.
//
// After each rule whose algorithm NCCL may leave out of a call's cost table
// (MayBeIgnored) come rules for the same sizes with NCCL's choice among
// the others (FallbackPick), with its channels, which the plugin falls
// through to for such a call. alts are NCCL's models of the same
// communicator on machines the description may be instead of m (an
// assumed fact's other value: the NICs behind the CPU, no NVLS): after
// each rule whose algorithm and protocol an alternative leaves out of its
// cost table (LL128 across nodes behind the CPU) come that alternative's
// own rules for the same sizes, so that the file runs NCCL's own choice
// there, and not one channel. After a rule of an algorithm NCCL may leave
// out, the rules among the others come first and take every call it
// leaves out, on every alternative too (their own fallbacks follow where
// an alternative leaves them out in turn): an alternative's own rules
// there would take no call, and are not written. A nil pick or a nil
// alternative is an error.
func (m *Model) TunerRules(f Func, nodes int, pick TunerPick, breaks []uint64, alts ...*Model) ([]TunerRule, error) {
	return m.TunerRulesFalling(f, nodes, pick, m.FallbackPick(f), breaks, alts...)
}

// TunerRulesFalling is TunerRules with fallback, not m's FallbackPick, the
// pick of the rules after each rule of an algorithm NCCL may leave out:
// rules that serve several communicators alike (those of any nNodes, for a
// communicator placed across more NVLink domains) fall back on a choice
// among theirs. A nil pick or fallback, or a nil alternative, is an error.
func (m *Model) TunerRulesFalling(f Func, nodes int, pick, fallback TunerPick, breaks []uint64, alts ...*Model) ([]TunerRule, error) {
	switch {
	case pick == nil:
		return nil, errors.New("nccl: tuner rules of a nil TunerPick: want a pick, such as DefaultPick")
	case fallback == nil:
		return nil, errors.New("nccl: tuner rules with a nil fallback TunerPick: want one, such as FallbackPick")
	case slices.Contains(alts, nil):
		return nil, errors.New("nccl: tuner rules with a nil alternative *Model")
	}
	rules, err := m.tunerRuns(f, nodes, pick, breaks)
	if err != nil {
		return nil, err
	}
	// sources are the rules fallbacks are cut from, each built when a
	// rule first needs it: m's FallbackPick, then each alternative's own.
	sources := make([][]TunerRule, 1+len(alts))
	source := func(k int) ([]TunerRule, error) {
		if sources[k] != nil {
			return sources[k], nil
		}
		var err error
		if k == 0 {
			sources[k], err = m.tunerRuns(f, nodes, fallback, nil)
			if err != nil {
				err = fmt.Errorf("%w: no algorithm NCCL keeps in every call's cost table is left for the rules after NVLS, NVLSTree, PAT or CollNet", err)
			}
		} else {
			a := alts[k-1]
			sources[k], err = a.TunerRules(f, nodes, a.DefaultPick(f), nil)
		}
		return sources[k], err
	}
	var out []TunerRule
	// fallbacks appends the rules after r that source k gives for its
	// sizes, once each, and after each of m's own FallbackPick rules those
	// of the alternatives that leave it out in turn.
	var fallbacks func(r TunerRule, n int) error
	fallbacks = func(r TunerRule, n int) error {
		for k := range sources {
			if k == 0 && !MayBeIgnored(r.Algo) || k > 0 && (alts[k-1].Available(f, r.Algo, r.Proto) || MayBeIgnored(r.Algo)) {
				continue
			}
			fall, err := source(k)
			if err != nil {
				return err
			}
			for _, b := range fall {
				if b.MaxBytes < r.MinBytes || b.MinBytes > r.MaxBytes {
					continue
				}
				b.MinBytes, b.MaxBytes = max(b.MinBytes, r.MinBytes), min(b.MaxBytes, r.MaxBytes)
				if slices.Contains(out[n:], b) {
					continue
				}
				out = append(out, b)
				if k == 0 {
					if err := fallbacks(b, n); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	for _, r := range rules {
		out = append(out, r)
		if err := fallbacks(r, len(out)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// tunerRuns is TunerRules without the rules after those MayBeIgnored names.
func (m *Model) tunerRuns(f Func, nodes int, pick TunerPick, breaks []uint64) ([]TunerRule, error) {
	type key struct {
		a Algo
		p Protocol
	}
	var failed error
	keyOf := func(n uint64) key {
		a, p, err := pick(n)
		if err != nil && failed == nil {
			failed = err
		}
		return key{a, p}
	}
	probes := []uint64{0}
	for k := 0; k <= 4*tunerProbeTop; k++ {
		probes = append(probes, uint64(math.Round(math.Exp2(float64(k)/4))))
	}
	for _, b := range breaks {
		if b <= 1<<tunerProbeTop {
			probes = append(probes, b)
		}
	}
	slices.Sort(probes)
	probes = slices.Compact(probes)
	// starts are the first sizes of each run of one key.
	starts := []uint64{0}
	var split func(lo, hi uint64, klo, khi key)
	split = func(lo, hi uint64, klo, khi key) {
		if hi == lo+1 {
			starts = append(starts, hi)
			return
		}
		mid := lo + (hi-lo)/2
		kmid := keyOf(mid)
		if kmid != klo {
			split(lo, mid, klo, kmid)
		}
		if kmid != khi {
			split(mid, hi, kmid, khi)
		}
	}
	keys := make([]key, len(probes))
	for i, n := range probes {
		keys[i] = keyOf(n)
		if i > 0 && keys[i] != keys[i-1] {
			split(probes[i-1], n, keys[i-1], keys[i])
		}
	}
	if failed != nil {
		return nil, fmt.Errorf("nccl: %v on %d ranks: %w", f, m.nRanks, failed)
	}
	rules := make([]TunerRule, len(starts))
	for i, s := range starts {
		k := keyOf(s)
		hi := uint64(math.MaxUint64)
		if i+1 < len(starts) {
			hi = starts[i+1] - 1
		}
		rules[i] = TunerRule{Func: f, MinBytes: s, MaxBytes: hi, Algo: k.a, Proto: k.p, Channels: NCCLChannels,
			Nodes: nodes, Ranks: m.nRanks, PipeOps: -1, RegBuff: -1}
	}
	return rules, nil
}
