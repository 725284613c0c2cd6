package predict

import (
	"fmt"
	"math"
	"slices"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// Choices returns the calibrated time of q at size bytes for every
// algorithm and protocol NCCL can run it with (q's own pins are replaced),
// fastest first. AllToAll, which NCCL runs outside its tuner, is an error.
func (m *Machine) Choices(q Query, size float64) ([]Prediction, error) {
	if q.Collective == commmodel.AllToAll {
		return nil, fmt.Errorf("predict: alltoall runs as grouped sends, outside NCCL's algorithms and protocols")
	}
	var out []Prediction
	for a := range nccl.Algo(nccl.NumAlgos) {
		for p := range nccl.Protocol(nccl.NumProtocols) {
			pq := q
			pq.Algo, pq.Proto = a.String(), nccl.ProtocolName(p)
			ps, err := m.Predict(pq, []float64{size})
			if err != nil {
				continue // not available to this shape, version or collective
			}
			out = append(out, ps[0])
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("predict: no algorithm and protocol can run %v on %d ranks", q.Collective, q.Ranks)
	}
	slices.SortStableFunc(out, func(x, y Prediction) int {
		switch {
		case x.Time < y.Time:
			return -1
		case x.Time > y.Time:
			return 1
		}
		return 0
	})
	return out, nil
}

// TunerRules writes the model's choices as rules of NCCL's example tuner
// plugin (nccl.TunerRule): for each collective, node count of perNode GPUs
// and size, the fastest algorithm and protocol (Choices) with NCCL's
// channel count for it, adjacent sizes with the same choice and channels
// merged into one rule. A rule's sizes run from the geometric mean of its
// first size and the size before it to that of its last size and the next,
// the first from 0 and the last to the largest size NCCL can ask. sizes
// must grow; layout is the runs' launch layout, as in Query.
func (m *Machine) TunerRules(collectives []commmodel.Collective, nodes []int, perNode int, layout Layout, sizes []float64) ([]nccl.TunerRule, error) {
	var rules []nccl.TunerRule
	for _, c := range collectives {
		f, err := nccl.FuncOf(c)
		if err != nil {
			return nil, err
		}
		for _, n := range nodes {
			q := Query{Collective: c, Ranks: n * perNode, PerNode: perNode, Layout: layout}
			var last *nccl.TunerRule
			for i, s := range sizes {
				cs, err := m.Choices(q, s)
				if err != nil {
					return nil, fmt.Errorf("predict: %v on %d x %d at %g B: %w", c, n, perNode, s, err)
				}
				best := cs[0]
				a, err := nccl.ParseAlgo(best.Algorithm)
				if err != nil {
					return nil, err
				}
				p, err := commmodel.ParseProtocol(best.Protocol)
				if err != nil {
					return nil, err
				}
				lo := uint64(0)
				if i > 0 {
					lo = uint64(math.Sqrt(sizes[i-1]*s)) + 1
				}
				hi := uint64(math.MaxUint64)
				if i+1 < len(sizes) {
					hi = uint64(math.Sqrt(s * sizes[i+1]))
				}
				if last != nil && last.Algo == a && last.Proto == p && last.Channels == best.Channels {
					last.MaxBytes = hi
					continue
				}
				rules = append(rules, nccl.TunerRule{Func: f, MinBytes: lo, MaxBytes: hi, Algo: a, Proto: p, Channels: best.Channels,
					Nodes: n, Ranks: n * perNode, PipeOps: -1, RegBuff: -1})
				last = &rules[len(rules)-1]
			}
		}
	}
	return rules, nil
}
