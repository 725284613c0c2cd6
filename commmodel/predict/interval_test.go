package predict

import (
	"math"
	"slices"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// TestDepartureWidens calibrates on the synthetic tables (1 to 4 nodes;
// AllReduce, AllGather, ReduceScatter and Broadcast; one GPU per process,
// and one process of 8 GPUs) and checks what a query beyond them adds to
// its interval: the same query on a copy of the machine whose tables are
// taken to have covered it has an interval narrower by exactly the
// departure's variance, (ln(High/Low)/2z80)² being the variance
// (interval.go): 2² nodeSpread² for 16 nodes of 8 against the tables' 4
// (and 128 ranks against 32), nodeSpread² for 4 nodes of 16 (64 ranks),
// layoutSpread² for 2 threads of 4 GPUs, and for AllToAll priorSpread²
// from the AllReduce tables alone, or from all of them the error their
// three single-collective tables measured when held out; and from a single
// table nothing: its spread pools the prior's, which already stands for
// another collective's error.
func TestDepartureWidens(t *testing.T) {
	tr := truth(t)
	tables := syntheticTables(t, tr)
	m, err := Calibrate(tr.Hardware, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	allReduce, err := Calibrate(tr.Hardware, slices.DeleteFunc(slices.Clone(tables), func(t Table) bool { return t.Collective != commmodel.AllReduce }), nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.spread.crossVariance == 0 || allReduce.spread.crossVariance != 0 {
		t.Fatalf("cross-collective variance %g of all tables, %g of AllReduce's: want it measured on all tables only",
			m.spread.crossVariance, allReduce.spread.crossVariance)
	}
	single, err := Calibrate(tr.Hardware, tables[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	allToAll := func(s *spread) { s.collectives = append(s.collectives, commmodel.AllToAll) }
	for _, c := range []struct {
		name  string
		m     *Machine
		q     Query
		cover func(s *spread)
		want  float64
	}{
		{"nodes", m, Query{Collective: commmodel.AllReduce, Ranks: 128, PerNode: 8},
			func(s *spread) { s.maxNodes, s.maxRanks = 16, 128 }, 4 * nodeSpread * nodeSpread},
		{"ranks", m, Query{Collective: commmodel.AllReduce, Ranks: 64, PerNode: 16},
			func(s *spread) { s.maxRanks = 64 }, nodeSpread * nodeSpread},
		{"layout", m, Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8, Layout: Layout{ThreadsPerProcess: 2, GPUsPerThread: 4}},
			func(s *spread) { s.layouts = append(s.layouts, Layout{ThreadsPerProcess: 2, GPUsPerThread: 4}.norm()) }, layoutSpread * layoutSpread},
		{"collective", allReduce, Query{Collective: commmodel.AllToAll, Ranks: 16, PerNode: 8}, allToAll, priorSpread * priorSpread},
		{"collective measured", m, Query{Collective: commmodel.AllToAll, Ranks: 16, PerNode: 8}, allToAll,
			max(m.spread.crossVariance-m.spread.variance, 0)},
		{"collective from one table", single, Query{Collective: commmodel.AllToAll, Ranks: tables[0].Ranks(), PerNode: tables[0].PerNode},
			allToAll, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			covered := *c.m
			covered.spread.collectives = slices.Clone(c.m.spread.collectives)
			covered.spread.layouts = slices.Clone(c.m.spread.layouts)
			c.cover(&covered.spread)
			variance := func(m *Machine) float64 {
				p, err := m.Predict(c.q, []float64{1 << 20})
				if err != nil {
					t.Fatal(err)
				}
				sd := math.Log(p[0].High/p[0].Low) / (2 * z80)
				return sd * sd
			}
			got := variance(c.m) - variance(&covered)
			if math.Abs(got-c.want) > 1e-9 {
				t.Errorf("the departure adds %.6f to the variance, want %.6f", got, c.want)
			}
			if b, err := covered.Beyond(c.q); err != nil || len(b) != 0 {
				t.Errorf("covered: Beyond = %q, %v; want nothing", b, err)
			}
		})
	}
}
