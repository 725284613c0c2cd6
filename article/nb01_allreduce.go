package article

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/units"
)

// The exhibits of notebook 01 (AllReduce algorithms on one node).

// OneShotThresholdFigure plots commmodel.OneShotCrossover against the rank
// count: one-shot AllReduce beats two-shot below the curve.
func OneShotThresholdFigure(ps []int, l commmodel.Link) (figure.Figure, error) {
	s := figure.Series{Name: "one-shot | two-shot crossover S*", Style: figure.LinePoints}
	var marks []figure.Mark
	for _, p := range ps {
		x := commmodel.OneShotCrossover(p, l)
		if math.IsInf(x, 1) {
			continue // P <= 2: the two send the same bytes
		}
		s.X, s.Y = append(s.X, float64(p)), append(s.Y, x)
		if p == 8 {
			marks = append(marks, figure.Mark{X: 8, Y: x, Label: "P = 8: " + units.FormatSize(x) + " (article: ~130 KB)"})
		}
	}
	if len(s.X) == 0 {
		return figure.Figure{}, fmt.Errorf("no rank count above 2 in %v", ps)
	}
	return figure.Figure{
		Title:  fmt.Sprintf("One-shot beats two-shot below S*(P) (α = %s, BW = %s)", units.FormatDuration(l.Alpha), units.FormatBandwidth(l.BW)),
		X:      figure.Axis{Label: "GPUs P", Unit: figure.Plain},
		Y:      figure.Axis{Label: "crossover size S*", Unit: figure.Bytes, Log: true},
		Series: []figure.Series{s},
		Marks:  marks,
		Legend: figure.TopRight,
	}, nil
}

// AllReduceTimes plots the model time of algs at p ranks on l against size,
// log-log, with the sizes where the fastest changes marked: figure.TimeFigure
// on commmodel.Flat{P: p, Link: l}, titled with p and the link, and named an
// H20 node only on the article's link (presets.H20Intra).
func AllReduceTimes(algs []commmodel.Algorithm, p int, l commmodel.Link, sizes []float64) figure.Figure {
	node := fmt.Sprintf("one node of %d GPUs", p)
	if l == presets.H20Intra {
		node = fmt.Sprintf("one %d x H20 node", p)
	}
	title := fmt.Sprintf("AllReduce on %s (model: α = %s, BW = %s)", node, units.FormatDuration(l.Alpha), units.FormatBandwidth(l.BW))
	return figure.TimeFigure(title, algs, commmodel.Flat{P: p, Link: l}, sizes)
}

// RegimesFigure colours each (size, P) cell by the fastest of algs on l
// (figure.RegimeFigure), titled by what it compares: the fastest AllReduce
// for the article's four (commmodel.Algorithms), ring or halving-doubling for
// RingAndHD, and the link, named "H20 intra-node link" when it is the
// article's (presets.H20Intra).
func RegimesFigure(algs []commmodel.Algorithm, ps []int, sizes []float64, l commmodel.Link) figure.RegimeMap {
	var names []string
	for _, a := range algs {
		names = append(names, a.Name())
	}
	what := "Fastest of " + strings.Join(names, ", ")
	switch {
	case slices.Equal(algs, commmodel.Algorithms(commmodel.AllReduce)):
		what = "Fastest AllReduce"
	case slices.Equal(algs, RingAndHD):
		what = "Ring or halving-doubling?"
	}
	link := fmt.Sprintf("α = %s, BW = %s", units.FormatDuration(l.Alpha), units.FormatBandwidth(l.BW))
	if l == presets.H20Intra {
		link = "H20 intra-node link"
	}
	return figure.RegimeFigure(what+" (model, "+link+")", algs, ps, sizes, l)
}

// allReduceExhibits are notebook 01's tables and figures.
func allReduceExhibits(in inputs) ([]Exhibit, error) {
	l, p := in.node.Intra, in.node.PerNode
	algs := commmodel.Algorithms(commmodel.AllReduce)
	sizes, ps := figure.Sizes(256, 1<<30, 4), figure.Ranks(2, 16)
	table := figure.ModelTable(algs, p, l, []float64{64 << 10, 1 << 20, 64 << 20})
	cross := figure.CrossoverTable(commmodel.WinnerChanges(algs, commmodel.Flat{P: p, Link: l}))
	thr, err := OneShotThresholdFigure(ps, l)
	if err != nil {
		return nil, err
	}
	return []Exhibit{
		{Name: "01-allreduce-model", Title: "AllReduce on 8 x H20: steps, bytes, peers and time by algorithm", Table: &table},
		{Name: "01-allreduce-times", Title: "AllReduce time against size, crossovers marked", Figure: AllReduceTimes(algs, p, l, sizes)},
		{Name: "01-allreduce-crossovers", Title: "Where the fastest AllReduce changes at P = 8", Table: &cross},
		{Name: "01-oneshot-threshold", Title: "The one-shot threshold against P", Figure: thr},
		{Name: "01-allreduce-regimes", Title: "Fastest AllReduce by size and P", Figure: RegimesFigure(algs, ps, sizes, l)},
		{Name: "01-ring-vs-hd-regimes", Title: "Ring against halving-doubling by size and P", Figure: RegimesFigure(RingAndHD, ps, sizes, l)},
	}, nil
}

// RingAndHD are the two classic AllReduce algorithms, compared on their own.
var RingAndHD = []commmodel.Algorithm{commmodel.Ring{}, commmodel.HalvingDoubling{}}

// MeasuredAllReduceTable sets the article's statements about its measured
// H20 AllReduce that bear on notebook 01 (data.Statements: one-shot and
// two-shot tie below 64 KB, two-shot clearly faster from 256 KB, ring,
// halving-doubling and two-shot within 10% at large sizes) beside what the
// model says at p ranks on l: the two-shot / one-shot time ratio at the
// stated sizes, and the slowest over the fastest of the three at 256 MiB.
// The article printed no table of these runs, so its sentences are all
// there is to set the model against.
func MeasuredAllReduceTable(p int, l commmodel.Link) (figure.Table, error) {
	get := func(id string) (data.Statement, error) {
		s, ok := data.StatementByID(id)
		if !ok {
			return s, fmt.Errorf("article: no statement %s in data", id)
		}
		return s, nil
	}
	tie, err := get("allreduce-oneshot-twoshot-tie")
	if err != nil {
		return figure.Table{}, err
	}
	faster, err := get("allreduce-twoshot-faster")
	if err != nil {
		return figure.Table{}, err
	}
	conv, err := get("allreduce-large-converge")
	if err != nil {
		return figure.Table{}, err
	}
	ratio := func(s float64) float64 {
		return commmodel.Time(commmodel.TwoShot{}, p, s, l) / commmodel.Time(commmodel.OneShot{}, p, s, l)
	}
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	const large = 256 << 20
	lo, hi := math.Inf(1), 0.0
	for _, a := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.HalvingDoubling{}, commmodel.TwoShot{}} {
		t := commmodel.Time(a, p, large, l)
		lo, hi = min(lo, t), max(hi, t)
	}
	rt, rf := ratio(tie.High), ratio(faster.Low)
	t := figure.Table{
		Header: []string{"the article measured (8 x H20)", fmt.Sprintf("the model, P = %d, α = %s, BW = %s", p, units.FormatDuration(l.Alpha), units.FormatBandwidth(l.BW)), "agree"},
		Align:  []figure.Align{figure.Left, figure.Left, figure.Left},
		Rows: [][]string{
			{tie.Text, fmt.Sprintf("two-shot / one-shot = %.2f at %s: one-shot %.2fx as fast", rt, units.FormatSize(tie.High), rt),
				yes(math.Abs(rt-1) < 0.1)},
			{faster.Text, fmt.Sprintf("two-shot / one-shot = %.2f at %s (crossover %s)", rf, units.FormatSize(faster.Low), units.FormatSize(commmodel.OneShotCrossover(p, l))),
				yes(rf < 1)},
			{conv.Text, fmt.Sprintf("slowest / fastest = %.3f at %s", hi/lo, units.FormatSize(large)), yes(hi/lo-1 <= conv.High)},
		},
	}
	return t, nil
}
