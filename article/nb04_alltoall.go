package article

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/units"
)

// The exhibits of notebook 04 (AllToAll on one node and across nodes).

// ArticleHierarchicalLoses is the size from which the article finds
// hierarchical AllToAll slower than direct on 2 x 8 H20 GPUs, in bytes: "大消息
// （≥16 MB）反而不如直发" (article 003_c6e9d2e394e324d2, AllToAll ④; its MB
// are binary). data has no statement row for it, so it is cited here.
const ArticleHierarchicalLoses = 16 << 20

// AllToAllAlgorithms returns the article's four AllToAll algorithms for nodes
// of perNode GPUs: direct, pairwise, Bruck and the rail-aligned hierarchical.
func AllToAllAlgorithms(perNode int) []commmodel.Algorithm {
	return []commmodel.Algorithm{commmodel.Direct{}, commmodel.Pairwise{}, commmodel.Bruck{},
		commmodel.HierarchicalAllToAll{PerNode: perNode}}
}

// articleAllToAll returns the article's measured NCCL AllToAll points on the
// given number of 8 x H20 nodes (1: 8 GPUs, 2: 2 x 8) as a frame of the tidy
// schema (data.Points.Frame): data.ArticleFrame filtered to AllToAll on
// that many nodes.
func articleAllToAll(nodes int) dataframe.DataFrame {
	return data.Article().Select(data.Filter{Collective: "alltoall", NNodes: nodes}).Frame()
}

// AllToAllFigure plots each algorithm's model time on c against size
// (log-log), the measured samples if any (data.Samples of a frame), and the
// sizes where the fastest algorithm changes (commmodel.WinnerChanges). On
// one node c.Time is the intra link's time.
func AllToAllFigure(title string, algs []commmodel.Algorithm, c commmodel.Cluster, sizes []float64, measured []fit.Sample) figure.Figure {
	f := figure.Figure{
		Title:  title,
		X:      figure.Axis{Label: "message size S (whole buffer, S/P per peer)", Unit: figure.Bytes, Log: true},
		Y:      figure.Axis{Label: "time per call", Unit: figure.Seconds, Log: true},
		Legend: figure.TopLeft,
	}
	if len(measured) > 0 { // first: series 0's markers are filled circles
		f.Series = append(f.Series, measuredSeries("NCCL measured (article)", measured))
	}
	var same []string
	for _, s := range figure.TimeSeries(algs, c, sizes, nil) {
		if twin := sameCurve(f.Series, s); twin != "" {
			same = append(same, s.Name+" = "+twin)
			continue // a line exactly under another would hide it
		}
		f.Series = append(f.Series, s)
	}
	if len(same) > 0 {
		f.Title += " (" + strings.Join(same, ", ") + ")"
	}
	f.Marks = figure.WinnerMarks(algs, c)
	return f
}

// sameCurve returns the name of a line of ss with s's values at every x,
// or "".
func sameCurve(ss []figure.Series, s figure.Series) string {
	for _, t := range ss {
		if t.Style == figure.Points || len(t.Y) != len(s.Y) {
			continue
		}
		same := true
		for i := range t.Y {
			same = same && t.X[i] == s.X[i] && math.Abs(t.Y[i]-s.Y[i]) <= 1e-12*math.Abs(s.Y[i])
		}
		if same {
			return t.Name
		}
	}
	return ""
}

// measuredSeries draws measured samples as markers.
func measuredSeries(name string, ss []fit.Sample) figure.Series {
	s := figure.Series{Name: name, Style: figure.Points}
	for _, x := range ss {
		s.X, s.Y = append(s.X, x.Size), append(s.Y, x.Time)
	}
	return s
}

// NetworkTable lists, for each algorithm on c at each size, the time, the
// network messages and the network bytes of the busiest GPU.
func NetworkTable(algs []commmodel.Algorithm, c commmodel.Cluster, sizes []float64) figure.Table {
	t := figure.Table{Header: []string{"algorithm", "size", "time", "network messages per GPU", "network bytes per GPU", "network bytes / S"},
		Align: []figure.Align{figure.Left, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right}}
	for _, a := range algs {
		for _, s := range sizes {
			nb := c.NetworkBytes(a, s)
			t.Rows = append(t.Rows, []string{a.Name(), units.FormatSize(s), units.FormatDuration(c.Time(a, s)),
				strconv.Itoa(c.NetworkMessages(a, s)), units.FormatSize(nb), units.FormatNumber(nb / s)})
		}
	}
	return t
}

// A MeasuredRatio compares one measured point with the model.
type MeasuredRatio struct {
	Point data.Point
	// Model is the model's time for the point, in seconds.
	Model float64
	// Ratio is measured time / model time.
	Ratio float64
}

// DirectRatios compares measured AllToAll points (a frame of the tidy
// schema, such as articleAllToAll's) with direct AllToAll (NCCL's AllToAll
// posts every send and receive at once, as direct does) on c's links: each
// point against as many nodes and GPUs as it ran on (its nnodes, and its
// nranks over them when it gives them; c's PerNode when not), so one node's
// points are timed on c's intra link, and nodes of another size in c do not
// change what the points are set against. The frame's rows keep their order.
func DirectRatios(c commmodel.Cluster, measured dataframe.DataFrame) ([]MeasuredRatio, error) {
	ps, err := data.FramePoints(measured)
	if err != nil {
		return nil, err
	}
	var out []MeasuredRatio
	for _, p := range ps {
		cc := c
		cc.Nodes = max(p.NNodes, 1)
		if p.NRanks > 0 {
			if p.NRanks%cc.Nodes != 0 {
				return nil, fmt.Errorf("article: DirectRatios: %d ranks on %d nodes (%s, %d B) are not whole nodes", p.NRanks, cc.Nodes, p.Source, p.Size)
			}
			cc.PerNode = p.NRanks / cc.Nodes
		}
		m := cc.Time(commmodel.Direct{}, float64(p.Size))
		out = append(out, MeasuredRatio{Point: p, Model: m, Ratio: p.Time / m})
	}
	return out, nil
}

// RatioRange returns the smallest and largest Ratio of rs.
func RatioRange(rs []MeasuredRatio) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, r := range rs {
		lo, hi = min(lo, r.Ratio), max(hi, r.Ratio)
	}
	return lo, hi
}

// RatioTable shows measured against model for each point.
func RatioTable(rs []MeasuredRatio) figure.Table {
	t := figure.Table{Header: []string{"GPUs", "size", "measured", "model (direct)", "measured / model"},
		Align: []figure.Align{figure.Left, figure.Right, figure.Right, figure.Right, figure.Right}}
	for _, r := range rs {
		t.Rows = append(t.Rows, []string{gpus(r.Point), units.FormatSize(float64(r.Point.Size)),
			units.FormatDuration(r.Point.Time), units.FormatDuration(r.Model), figure.Ratio.Format(r.Ratio)})
	}
	return t
}

func gpus(p data.Point) string {
	if p.NNodes > 1 {
		return fmt.Sprintf("%d x %d", p.NNodes, p.NRanks/p.NNodes)
	}
	return strconv.Itoa(p.NRanks)
}

// RanksPerNode returns the GPUs per node the measured points of a frame of
// the tidy schema ran on (nranks over nnodes, one node when nnodes is 0),
// so that a fit or a comparison sets the model against the points at their
// own size, whatever node size the model's other inputs take; an error when
// the points disagree or give no rank count.
func RanksPerNode(measured dataframe.DataFrame) (int, error) {
	ps, err := data.FramePoints(measured)
	if err != nil {
		return 0, err
	}
	per := 0
	for _, p := range ps {
		n := max(p.NNodes, 1)
		if p.NRanks <= 0 || p.NRanks%n != 0 {
			return 0, fmt.Errorf("article: RanksPerNode: %s, %d B: %d ranks on %d nodes", p.Source, p.Size, p.NRanks, n)
		}
		if per != 0 && p.NRanks/n != per {
			return 0, fmt.Errorf("article: RanksPerNode: points on nodes of %d and of %d GPUs", per, p.NRanks/n)
		}
		per = p.NRanks / n
	}
	if per == 0 {
		return 0, fmt.Errorf("article: RanksPerNode: no points")
	}
	return per, nil
}

// ArticleRefit returns the link the article recomputes AllToAll with, alpha
// ~10 us and BW ~280 GB/s, from data's statements alltoall-fit-alpha and
// alltoall-fit-bw.
func ArticleRefit() (commmodel.Link, error) {
	a, ok1 := data.StatementByID("alltoall-fit-alpha")
	b, ok2 := data.StatementByID("alltoall-fit-bw")
	if !ok1 || !ok2 || a.Unit != "s" || b.Unit != "B/s" {
		return commmodel.Link{}, fmt.Errorf("article: data lacks the article's AllToAll refit statements")
	}
	return commmodel.Link{Alpha: a.Low, BW: b.Low}, nil
}

// FitFigure plots the measured samples with direct AllToAll at fd's P on the
// default link, on the fitted link and on the article's refit link.
func FitFigure(def commmodel.Link, fd *fit.Result, refit commmodel.Link, sizes []float64, measured []fit.Sample) figure.Figure {
	f := figure.Figure{
		Title:  fmt.Sprintf("Direct AllToAll, P = %d: the model against the article's H20 points", fd.P),
		X:      figure.Axis{Label: "message size S (whole buffer)", Unit: figure.Bytes, Log: true},
		Y:      figure.Axis{Label: "time per call", Unit: figure.Seconds, Log: true},
		Legend: figure.TopLeft,
	}
	curve := func(name string, l commmodel.Link) figure.Series {
		s := figure.Series{Name: name, X: sizes, Y: make([]float64, len(sizes))}
		for i, size := range sizes {
			s.Y[i] = commmodel.Time(fd.Algorithm, fd.P, size, l)
		}
		return s
	}
	f.Series = []figure.Series{
		measuredSeries("NCCL measured (article)", measured),
		curve("default link "+linkString(def), def),
		curve("fitted "+linkString(fd.Link()), fd.Link()),
		curve("article's refit "+linkString(refit), refit),
	}
	return f
}

func linkString(l commmodel.Link) string {
	s := "α " + units.FormatDuration(l.Alpha) + ", BW " + units.FormatBandwidth(l.BW)
	if l.Overhead > 0 {
		s += ", o " + units.FormatDuration(l.Overhead)
	}
	return s
}

// FitFrame joins the measured points (a frame with size_bytes and time_us)
// with direct AllToAll at fd's P on the default, the fitted and the refit
// links (data.WithModel): columns default_us, fitted_us and refit_us, and
// their relative errors default_rel_err, ... = (model - measured)/measured.
func FitFrame(def commmodel.Link, fd *fit.Result, refit commmodel.Link, measured dataframe.DataFrame) (dataframe.DataFrame, error) {
	curve := func(name string, l commmodel.Link) data.Curve {
		return data.Curve{Name: name, Time: func(s float64) float64 { return commmodel.Time(fd.Algorithm, fd.P, s, l) }}
	}
	return data.WithModel(measured, curve("default", def), curve("fitted", fd.Link()), curve("refit", refit))
}

// FitTable shows a FitFrame: each point's measured time, and each link's
// model time and relative error.
func FitTable(joined dataframe.DataFrame) (figure.Table, error) {
	t := figure.Table{Header: []string{"size", "measured", "default", "err", "fitted", "err", "article's refit", "err"},
		Align: []figure.Align{figure.Right, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right}}
	cols := map[string][]float64{}
	for _, c := range []string{"size_bytes", "time_us", "default_us", "default_rel_err", "fitted_us", "fitted_rel_err", "refit_us", "refit_rel_err"} {
		if !slices.Contains(joined.Names(), c) {
			return figure.Table{}, fmt.Errorf("article: FitTable: no column %s: not a FitFrame", c)
		}
		cols[c] = joined.Col(c).Float()
	}
	for i, size := range cols["size_bytes"] {
		row := []string{units.FormatSize(size), units.FormatDuration(cols["time_us"][i] / 1e6)}
		for _, name := range []string{"default", "fitted", "refit"} {
			row = append(row, units.FormatDuration(cols[name+"_us"][i]/1e6), percent(cols[name+"_rel_err"][i]))
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

func percent(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }

// networkPart is an algorithm on a cluster seen through its network traffic
// only: its Cost is the sum of the Inter parts of its stages, so that
// fit.Through fits the network link to measurements dominated by it.
type networkPart struct {
	a commmodel.Algorithm
	c commmodel.Cluster
}

func (n networkPart) Name() string                     { return n.a.Name() + " (network part)" }
func (n networkPart) Collective() commmodel.Collective { return n.a.Collective() }
func (n networkPart) Cost(_ int, size float64) commmodel.Cost {
	var c commmodel.Cost
	for _, s := range n.c.Stages(n.a, size) {
		c = c.Then(s.Inter)
	}
	return c
}

// OverheadFit is the network link fitted to the article's 2 x 8 points.
type OverheadFit struct {
	// Fit is direct AllToAll's network part fitted to the 2 x 8 points: its
	// Link().Alpha is the whole constant time α + m·o of the one network step.
	Fit *fit.Result
	// Messages is m, the network messages per GPU of direct AllToAll.
	Messages int
	// Cluster is the fitted cluster: Intra is the given intra link; Inter
	// keeps the given α, takes the fitted BW, and puts the rest of the
	// constant into a per-message Overhead o = (α + m·o - α)/m.
	Cluster commmodel.Cluster
}

// FitOverhead fits direct AllToAll's network part on c to measured AllToAll
// times on c (data.Samples of articleAllToAll(2) for the article's 2 x 8
// points), with the settings s (nil: fit's defaults), and splits its
// constant time into c.Inter.Alpha and a per-message overhead. The split is
// an assumption: with one algorithm measured, α and o are not separately
// identifiable (both are constant in S).
func FitOverhead(c commmodel.Cluster, measured []fit.Sample, s *fit.Settings) (*OverheadFit, error) {
	if len(measured) == 0 {
		return nil, fmt.Errorf("article: FitOverhead: no samples")
	}
	f, err := fit.Through(networkPart{commmodel.Direct{}, c}, c.Ranks(), measured, s)
	if err != nil {
		return nil, err
	}
	m := c.NetworkMessages(commmodel.Direct{}, 1)
	fc := c
	l := f.Link()
	fc.Inter = commmodel.Link{Alpha: c.Inter.Alpha, BW: l.BW, Overhead: max(0, l.Alpha-c.Inter.Alpha) / float64(m)}
	return &OverheadFit{Fit: f, Messages: m, Cluster: fc}, nil
}

// HierarchicalCrossover returns the size below which hierarchical AllToAll
// beats direct on c, in bytes, and false if they do not cross. In the pure
// alpha-beta model, without Overhead, hierarchical never wins: it has one
// more step and more bytes. With a per-message network overhead o, direct's
// p(N-1) network messages against hierarchical's N-1 give, while the
// network part dominates direct's stage,
//
//	T_direct - T_hier = (p-1)(N-1)·o - α_intra - (p-1)/p·S/BW_intra
//	S* = ((p-1)(N-1)·o - α_intra) · BW_intra · p/(p-1)
//
// which commmodel.Crossovers finds from the stages themselves.
func HierarchicalCrossover(c commmodel.Cluster) (float64, bool) {
	h := commmodel.HierarchicalAllToAll{PerNode: c.PerNode}
	for _, x := range commmodel.Crossovers([]commmodel.Algorithm{commmodel.Direct{}, h}, c) {
		if x.A.Name() == h.Name() {
			return x.Size, true
		}
	}
	return 0, false
}

// OverheadFor returns the per-message network overhead, in seconds, at which
// hierarchical and direct AllToAll on c cross at size bytes, found by
// bisection on [0, 1 ms] (the crossover grows with the overhead); false if
// no overhead in that range puts it there.
func OverheadFor(c commmodel.Cluster, size float64) (float64, bool) {
	at := func(o float64) float64 {
		c.Inter.Overhead = o
		x, ok := HierarchicalCrossover(c)
		if !ok {
			return 0
		}
		return x
	}
	lo, hi := 0.0, 1e-3
	if at(hi) < size {
		return 0, false
	}
	for range 60 {
		mid := (lo + hi) / 2
		if at(mid) < size {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, true
}

// OverheadTable lists the hierarchical/direct crossover on c for each
// per-message network overhead.
func OverheadTable(c commmodel.Cluster, overheads []float64) figure.Table {
	t := figure.Table{Header: []string{"overhead per network message", "hierarchical faster below"}, Align: []figure.Align{figure.Right, figure.Right}}
	for _, o := range overheads {
		c.Inter.Overhead = o
		cell := "never"
		if x, ok := HierarchicalCrossover(c); ok {
			cell = units.FormatSize(x)
		}
		t.Rows = append(t.Rows, []string{units.FormatDuration(o), cell})
	}
	return t
}

// HierarchicalFigure plots direct and hierarchical AllToAll on c with the
// measured samples on c, their crossover and the article's 16 MB.
func HierarchicalFigure(c commmodel.Cluster, sizes []float64, measured []fit.Sample) figure.Figure {
	algs := []commmodel.Algorithm{commmodel.Direct{}, commmodel.HierarchicalAllToAll{PerNode: c.PerNode}}
	f := AllToAllFigure(fmt.Sprintf("%d x %d GPUs, network %s", c.Nodes, c.PerNode, linkString(c.Inter)),
		algs, c, sizes, measured)
	f.Marks = append(f.Marks, figure.Mark{X: ArticleHierarchicalLoses, Label: "article: 16 MB"})
	return f
}

// allToAllExhibits are notebook 04's tables and figures.
func allToAllExhibits(in inputs) ([]Exhibit, error) {
	one, two := in.cluster(1), in.cluster(2)
	sizes := figure.Sizes(1<<10, 1<<30, 4)
	algs := AllToAllAlgorithms(in.node.PerNode)
	// The article's AllToAll points: on one node (8 GPUs) and on two.
	df1, df2 := articleAllToAll(1), articleAllToAll(2)
	m1, err := data.Samples(df1)
	if err != nil {
		return nil, err
	}
	m2, err := data.Samples(df2)
	if err != nil {
		return nil, err
	}
	// The fits set the model against the points at the nodes they ran on.
	per, err := RanksPerNode(articleAllToAll(0))
	if err != nil {
		return nil, err
	}
	fd, err := fit.Through(commmodel.Direct{}, per, m1, &in.fit)
	if err != nil {
		return nil, err
	}
	refit, err := ArticleRefit()
	if err != nil {
		return nil, err
	}
	base := two
	base.PerNode, base.Intra = per, fd.Link()
	of, err := FitOverhead(base, m2, &in.fit)
	if err != nil {
		return nil, err
	}
	ratios, err := DirectRatios(two, data.Article().Select(data.Filter{Collective: "alltoall"}).Frame())
	if err != nil {
		return nil, err
	}
	joined, err := FitFrame(one.Intra, fd, refit, df1)
	if err != nil {
		return nil, err
	}
	fitT, err := FitTable(joined)
	if err != nil {
		return nil, err
	}
	return []Exhibit{
		{Name: "04-alltoall-node", Title: "AllToAll on one 8 x H20 node (model, default link)",
			Figure: AllToAllFigure("AllToAll on 8 x H20, model on the default link", algs, one, sizes, m1)},
		{Name: "04-alltoall-2x8", Title: "AllToAll on 2 x 8 H20 GPUs (model, default links)",
			Figure: AllToAllFigure("AllToAll on 2 x 8 H20, model on the default links", algs, two, sizes, m2)},
		{Name: "04-alltoall-network", Title: "Network messages and bytes per GPU on 2 x 8",
			Table: ptr(NetworkTable(algs, two, []float64{1 << 20, 16 << 20, 128 << 20}))},
		{Name: "04-alltoall-ratios", Title: "Measured against the model with the default links",
			Table: ptr(RatioTable(ratios))},
		{Name: "04-alltoall-fit", Title: "Direct AllToAll fitted to the 8-GPU points",
			Figure: FitFigure(one.Intra, fd, refit, sizes, m1)},
		{Name: "04-alltoall-fit-table", Title: "Default, fitted and the article's refit link at each point",
			Table: &fitT},
		{Name: "04-alltoall-hierarchical", Title: "Hierarchical against direct with a fitted per-message overhead",
			Figure: HierarchicalFigure(of.Cluster, sizes, m2)},
		{Name: "04-alltoall-overhead", Title: "Where hierarchical stops paying, by per-message overhead",
			Table: ptr(OverheadTable(of.Cluster, []float64{0, 2e-6, 5e-6, 10e-6, of.Cluster.Inter.Overhead, 20e-6}))},
	}, nil
}

func ptr[T any](v T) *T { return &v }
