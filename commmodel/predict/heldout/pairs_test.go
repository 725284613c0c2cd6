package heldout_test

import (
	"bytes"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/predict/heldout"
)

// pairBuckets files the held-out points' log(predicted/measured) by what
// the machine's other tables ran near them: what commlab tune asks before
// it takes a choice of the model's (predict's unmeasured: a table of as
// many nodes ran the choice's algorithm with its protocol within two
// doublings of the size), and what it asked before (the algorithm and the
// protocol each somewhere near).
type pairBuckets map[string][]float64

// pairKinds are the buckets in the order pairTable lists them.
var pairKinds = []string{
	"their algorithm with their protocol",
	"their algorithm and their protocol, apart only",
	"their algorithm alone",
	"their protocol alone",
	"neither",
}

// add files the points of one machine's held-out scores l: each point is
// set against the choices the model reads at the points of the machine's
// other tables (their own held-out predictions), on as many nodes
// (across: the tables across nodes) for the algorithm, any for the
// protocol, within two doublings of its size. Grouped sends run outside
// NCCL's algorithms, and are left out.
func (b pairBuckets) add(l []heldout.Score, across map[string]bool) {
	type ran struct {
		table, algo, proto string
		across             bool
		size               float64
	}
	var runs []ran
	for _, s := range l {
		for _, p := range s.Predicted {
			runs = append(runs, ran{s.Table, p.Algorithm, p.Protocol, across[s.Table], p.Size})
		}
	}
	for _, s := range l {
		for i, p := range s.Predicted {
			if p.Algorithm == "P2P" {
				continue
			}
			var pair, algo, proto bool
			for _, r := range runs {
				if r.table == s.Table || r.size < p.Size/4 || r.size > 4*p.Size {
					continue
				}
				same := r.across == across[s.Table] && r.algo == p.Algorithm
				pair = pair || same && r.proto == p.Protocol
				algo = algo || same
				proto = proto || r.proto == p.Protocol
			}
			k := 4
			switch {
			case pair:
				k = 0
			case algo && proto:
				k = 1
			case algo:
				k = 2
			case proto:
				k = 3
			}
			b[pairKinds[k]] = append(b[pairKinds[k]], math.Log(p.Time/s.Measured[i]))
		}
	}
}

// table writes the buckets: points, the median and 90th percentile of
// |predicted/measured - 1| (as |log| turned back into a ratio), and the
// median of predicted/measured.
func (b pairBuckets) table() []byte {
	var w bytes.Buffer
	fmt.Fprintln(&w, "| another table ran near the point's size | points | median error | 90th percentile | median predicted / measured |")
	fmt.Fprintln(&w, "|---|---:|---:|---:|---:|")
	for _, k := range pairKinds {
		r := b[k]
		if len(r) == 0 {
			fmt.Fprintf(&w, "| %s | 0 | | | |\n", k)
			continue
		}
		abs := make([]float64, len(r))
		for i, x := range r {
			abs[i] = math.Abs(x)
		}
		slices.Sort(abs)
		fmt.Fprintf(&w, "| %s | %d | %s | %s | %.2f |\n", k, len(r), pct(math.Exp(fit.Median(abs))-1),
			pct(math.Exp(stat.Quantile(0.9, stat.Empirical, abs, nil))-1), math.Exp(fit.Median(r)))
	}
	return w.Bytes()
}
