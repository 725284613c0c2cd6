package article

import (
	"fmt"
	"math"
	"strconv"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/schedule"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/topo"
	"github.com/inframethod/commlab/units"
)

// The exhibits of notebook 03 (AllReduce across nodes: hierarchical against flat).

// CrossNodeAlgorithms returns the AllReduce algorithms notebook 03 compares on
// nodes of perNode GPUs: the flat ring, halving-doubling and two-shot over
// all N·p ranks, and the article's hierarchical AllReduce with a ring and with
// halving-doubling between the nodes. One-shot is left out: across nodes it
// sends (N-1)·p·S per GPU over the network and is never close.
func CrossNodeAlgorithms(perNode int) []commmodel.Algorithm {
	return []commmodel.Algorithm{
		commmodel.Ring{},
		commmodel.HalvingDoubling{},
		commmodel.TwoShot{},
		commmodel.HierarchicalAllReduce{PerNode: perNode},
		commmodel.HierarchicalAllReduce{PerNode: perNode, Inter: commmodel.HalvingDoubling{}},
	}
}

// CrossNodeLabel names an algorithm on a cluster for legends and tables:
// "flat ring" for a single-level algorithm, "hierarchical + ring" for
// HierarchicalAllReduce with a ring between the nodes (its Name does not say
// what runs between them).
func CrossNodeLabel(a commmodel.Algorithm) string {
	if h, ok := a.(commmodel.HierarchicalAllReduce); ok {
		inter := commmodel.Algorithm(commmodel.Ring{})
		if h.Inter != nil {
			inter = h.Inter
		}
		return "hierarchical + " + inter.Name()
	}
	return "flat " + a.Name()
}

// clusterName is "2 x 8 H20"-style text for a cluster of N nodes of p GPUs.
func clusterName(c commmodel.Cluster) string {
	return fmt.Sprintf("%d x %d GPUs", c.Nodes, c.PerNode)
}

// CrossNodeTimes plots each algorithm's time on c against the size, log-log,
// with the sizes where the fastest changes marked (commmodel.WinnerChanges).
func CrossNodeTimes(c commmodel.Cluster, algs []commmodel.Algorithm, sizes []float64) figure.Figure {
	f := figure.Figure{
		Title: fmt.Sprintf("AllReduce across %s (model: NVLink %s / %s, network %s / %s)", clusterName(c),
			units.FormatDuration(c.Intra.Alpha), units.FormatBandwidth(c.Intra.BW), units.FormatDuration(c.Inter.Alpha), units.FormatBandwidth(c.Inter.BW)),
		X:      figure.Axis{Label: "message size S (per GPU)", Unit: figure.Bytes, Log: true},
		Y:      figure.Axis{Label: "time per call", Unit: figure.Seconds, Log: true},
		Legend: figure.BottomLeft,
	}
	f.Series = figure.TimeSeries(algs, c, sizes, CrossNodeLabel)
	f.Marks = figure.WinnerMarks(algs, c)
	// Room under the curves for the legend, away from the marks' labels at the top.
	lo, hi := math.Inf(1), 0.0
	for _, s := range f.Series {
		for _, y := range s.Y {
			lo, hi = min(lo, y), max(hi, y)
		}
	}
	f.Y.Min, f.Y.Max = lo/100, hi
	return f
}

// NetworkBytesTable lists, for each node count, the bytes per GPU that cross
// the network (Cluster.NetworkBytes, per byte of S) for a flat ring and for
// the hierarchical AllReduce on nodes of c.PerNode GPUs, their ratio, and the
// closed form of the ratio,
//
//	hierarchical / flat = (2(N-1)/N · S/p) / (2(Np-1)/(Np) · S) = (N-1)/(Np-1)
//
// which is 1/15 at 2 x 8 and tends to 1/p (the article's "~1/P_intra").
func NetworkBytesTable(c commmodel.Cluster, nodes []int) figure.Table {
	t := figure.Table{
		Header: []string{"nodes N", "GPUs N·p", "flat ring (× S)", "hierarchical (× S)", "ratio", "(N-1)/(Np-1)", "1/p"},
		Align:  []figure.Align{figure.Right, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right},
	}
	flat, hier := commmodel.Ring{}, commmodel.HierarchicalAllReduce{PerNode: c.PerNode}
	for _, n := range nodes {
		c.Nodes = n
		f, h := c.NetworkBytes(flat, 1), c.NetworkBytes(hier, 1)
		p := float64(c.PerNode)
		t.Rows = append(t.Rows, []string{
			strconv.Itoa(n), strconv.Itoa(c.Ranks()), fmt.Sprintf("%.4f", f), fmt.Sprintf("%.4f", h),
			ratioText(h, f), ratioText(float64(n-1), float64(n)*p-1), ratioText(1, p),
		})
	}
	return t
}

// ratioText writes a/b as "1/15.0 (0.0667)", or "0" when a is 0.
func ratioText(a, b float64) string {
	if a == 0 {
		return "0"
	}
	return fmt.Sprintf("1/%.1f (%.4f)", b/a, a/b)
}

// LinkComparison is the article's cross-node ratios beside the ones the
// topology and the NIC arithmetic give.
type LinkComparison struct {
	// ArticleIntra and ArticleInter are the given links inside and between
	// nodes (the article's: presets.H20Intra and H20Inter).
	ArticleIntra, ArticleInter commmodel.Link
	// Levels are the links derived from the topology: NVLink count × per-link
	// BW inside a node, the NIC line rate shared by the GPUs of a NIC across.
	Levels topo.Levels
	// NICBW is the line rate of one NIC, in bytes per second.
	NICBW float64
}

// CompareLinks derives the links of t with the per-link figures fig (the
// article's: topo.H20Figures) and sets them beside the links intra and inter
// (the article's: presets.H20Intra and H20Inter).
func CompareLinks(t *topo.Topology, fig topo.Figures, intra, inter commmodel.Link) (LinkComparison, error) {
	lv, err := t.Levels(fig)
	if err != nil {
		return LinkComparison{}, err
	}
	if lv.GPUsPerNIC == 0 {
		return LinkComparison{}, fmt.Errorf("topology has no NIC: no network link to compare")
	}
	return LinkComparison{ArticleIntra: intra, ArticleInter: inter, Levels: lv, NICBW: fig.NICBW}, nil
}

// Table lists BW, alpha and their ratios under both derivations.
func (lc LinkComparison) Table() figure.Table {
	lv := lc.Levels
	f := lv.Fabric
	return figure.Table{
		Header: []string{"quantity", "article (commmodel presets)", "topology + NIC arithmetic", "derivation (right column)"},
		Align:  []figure.Align{figure.Left, figure.Right, figure.Right, figure.Left},
		Rows: [][]string{
			{"intra-node BW per GPU", units.FormatBandwidth(lc.ArticleIntra.BW), units.FormatBandwidth(lv.Intra.BW),
				fmt.Sprintf("%d NVLinks × %s (%s)", f.Links, units.FormatBandwidth(f.LinkBW), f)},
			{"inter-node BW per GPU", units.FormatBandwidth(lc.ArticleInter.BW), units.FormatBandwidth(lv.Inter.BW),
				fmt.Sprintf("NIC %s (2 × 200 Gb/s bond) shared by %d GPUs", units.FormatBandwidth(lc.NICBW), lv.GPUsPerNIC)},
			{"BW ratio intra / inter", fmt.Sprintf("÷%.1f", lc.ArticleIntra.BW/lc.ArticleInter.BW), fmt.Sprintf("÷%.1f", lv.Ratio()), ""},
			{"intra-node α", units.FormatDuration(lc.ArticleIntra.Alpha), units.FormatDuration(lv.Intra.Alpha), "topo.Figures.IntraAlpha"},
			{"inter-node α", units.FormatDuration(lc.ArticleInter.Alpha), units.FormatDuration(lv.Inter.Alpha), "topo.Figures.InterAlpha"},
			{"α ratio inter / intra", fmt.Sprintf("×%.1f", lc.ArticleInter.Alpha/lc.ArticleIntra.Alpha),
				fmt.Sprintf("×%.1f", lv.Inter.Alpha/lv.Intra.Alpha), "the topology carries no latency: same α as the article"},
		},
	}
}

// Clusters returns the cluster of nodes copies of the server under both
// derivations: with the given links (presets.H20Cluster for the article's) and
// with the topology's.
func (lc LinkComparison) clusters(nodes int) (article, derived commmodel.Cluster) {
	article = commmodel.Cluster{Nodes: nodes, PerNode: lc.Levels.Fabric.P, Intra: lc.ArticleIntra, Inter: lc.ArticleInter}
	derived = commmodel.Cluster{Nodes: nodes, PerNode: lc.Levels.Fabric.P, Intra: lc.Levels.Intra, Inter: lc.Levels.Inter}
	return article, derived
}

// TimesTable lists each algorithm's time at each size on the clusters built
// from both derivations (Clusters).
func (lc LinkComparison) TimesTable(nodes int, algs []commmodel.Algorithm, sizes []float64) figure.Table {
	art, der := lc.clusters(nodes)
	t := figure.Table{Header: []string{"algorithm on " + clusterName(art)}, Align: []figure.Align{figure.Left}}
	for _, s := range sizes {
		t.Header = append(t.Header, units.FormatSize(s)+": article", units.FormatSize(s)+": NIC arithmetic")
		t.Align = append(t.Align, figure.Right, figure.Right)
	}
	for _, a := range algs {
		row := []string{CrossNodeLabel(a)}
		for _, s := range sizes {
			row = append(row, units.FormatDuration(art.Time(a, s)), units.FormatDuration(der.Time(a, s)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// NodeSweep is flat against hierarchical AllReduce over a range of node counts.
type NodeSweep struct {
	// Cluster gives the node size and links; its Nodes is replaced by each N.
	Cluster commmodel.Cluster
	// Flat and Hier are the two algorithms compared.
	Flat, Hier commmodel.Algorithm
	// Nodes are the node counts N, increasing.
	Nodes []int
	// Sizes are the message sizes, in bytes.
	Sizes []float64
}

// times returns the flat and hierarchical times at nodes n and size s, in seconds.
func (w NodeSweep) times(n int, s float64) (flat, hier float64) {
	c := w.Cluster
	c.Nodes = n
	return c.Time(w.Flat, s), c.Time(w.Hier, s)
}

// SpeedupFigure plots flat time / hierarchical time against N, one curve per size.
func (w NodeSweep) SpeedupFigure() figure.Figure {
	f := figure.Figure{
		Title: fmt.Sprintf("Speed-up of %s over %s, nodes of %d GPUs (model)", CrossNodeLabel(w.Hier), CrossNodeLabel(w.Flat), w.Cluster.PerNode),
		X:     figure.Axis{Label: "nodes N", Unit: figure.Plain, Log: true},
		Y:     figure.Axis{Label: "flat time / hierarchical time", Unit: figure.Ratio},
	}
	for _, s := range w.Sizes {
		sr := figure.Series{Name: "S = " + units.FormatSize(s), Style: figure.LinePoints}
		for _, n := range w.Nodes {
			fl, h := w.times(n, s)
			sr.X, sr.Y = append(sr.X, float64(n)), append(sr.Y, fl/h)
		}
		f.Series = append(f.Series, sr)
	}
	return f
}

// Table lists the flat and hierarchical times and the speed-up at each N and size.
func (w NodeSweep) Table() figure.Table {
	t := figure.Table{Header: []string{"nodes N", "GPUs"}, Align: []figure.Align{figure.Right, figure.Right}}
	for _, s := range w.Sizes {
		t.Header = append(t.Header, units.FormatSize(s)+" flat", units.FormatSize(s)+" hier.", "speed-up")
		t.Align = append(t.Align, figure.Right, figure.Right, figure.Right)
	}
	for _, n := range w.Nodes {
		row := []string{strconv.Itoa(n), strconv.Itoa(n * w.Cluster.PerNode)}
		for _, s := range w.Sizes {
			fl, h := w.times(n, s)
			row = append(row, units.FormatDuration(fl), units.FormatDuration(h), fmt.Sprintf("%.1fx", fl/h))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// StagesTable lists the stages of each algorithm on c at S = size bytes
// (Cluster.Stages): what each step costs on which link. Bytes are the
// busiest GPU's on each level; a stage with traffic on both levels (a flat
// algorithm, whose every step has GPUs with a peer on another node) lasts as
// long as the slower part.
func StagesTable(c commmodel.Cluster, algs []commmodel.Algorithm, size float64) figure.Table {
	t := figure.Table{
		Header: []string{"algorithm", "stage", "link", "steps", "bytes on NVLink", "bytes on network", "time on NVLink", "time on network", "stage time"},
		Align:  []figure.Align{figure.Left, figure.Left, figure.Left, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right},
	}
	for _, a := range algs {
		stages := c.Stages(a, size)
		var intraB, interB, total float64
		for i, st := range stages {
			link := "both at once"
			switch {
			case st.Intra == (commmodel.Cost{}):
				link = "network"
			case st.Inter == (commmodel.Cost{}):
				link = "NVLink"
			}
			d := st.Time(c.Intra, c.Inter)
			intraB, interB, total = intraB+st.Intra.Bytes, interB+st.Inter.Bytes, total+d
			t.Rows = append(t.Rows, []string{CrossNodeLabel(a), stageName(a, i, len(stages)), link,
				strconv.Itoa(max(st.Intra.Steps, st.Inter.Steps)),
				sizeOrDash(st.Intra), sizeOrDash(st.Inter),
				timeOrDash(st.Intra, c.Intra), timeOrDash(st.Inter, c.Inter), units.FormatDuration(d)})
		}
		t.Rows = append(t.Rows, []string{CrossNodeLabel(a), "total", "", "", units.FormatSize(intraB), units.FormatSize(interB), "", "", units.FormatDuration(total)})
	}
	return t
}

// ExecutedSize is the size notebook 03 executes the schedules at: 16 MiB,
// 4 Mi elements on each of 128 GPUs.
const ExecutedSize = 16 << 20

// ExecutedTable runs each algorithm's schedule (commmodel/schedule) on the
// c.Ranks() GPUs of c for S = size bytes in 4-byte elements: every transfer
// is executed on in-memory buffers and every element of every output is
// checked against a direct sum (Simulate), and the steps are timed on the
// two links, each as slow as its slowest GPU (Replay with TwoLevel). Beside
// each figure is the model's: the steps and the busiest GPU's bytes of
// Cost, and Cluster.Time. The replay and Cluster.Time are two routes to
// one time, the formulas and the executed steps.
func ExecutedTable(c commmodel.Cluster, algs []commmodel.Algorithm, size int64) (figure.Table, error) {
	t := figure.Table{
		Header: []string{"algorithm", "every element right", "steps (executed / model)", "bytes the busiest GPU sends (executed / model)", "time replayed", "Cluster.Time", "relative difference"},
		Align:  []figure.Align{figure.Left, figure.Left, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right},
	}
	p := c.Ranks()
	for _, a := range algs {
		s, err := schedule.New(a, p, size)
		if err != nil {
			return figure.Table{}, err
		}
		res, err := schedule.Simulate(s, 1)
		if err != nil {
			return figure.Table{}, err
		}
		model := a.Cost(p, float64(size))
		replay, formula := schedule.Replay(s, schedule.TwoLevel(c.PerNode, c.Intra, c.Inter)), c.Time(a, float64(size))
		right := "yes"
		if !res.Correct {
			right = "no: " + res.Mismatch
		}
		t.Rows = append(t.Rows, []string{CrossNodeLabel(a), right,
			fmt.Sprintf("%d / %d", res.Steps, model.Steps),
			units.FormatSize(float64(res.MaxSent())) + " / " + units.FormatSize(model.Bytes),
			units.FormatDuration(replay), units.FormatDuration(formula),
			fmt.Sprintf("%.1e", math.Abs(replay-formula)/formula)})
	}
	return t, nil
}

// sizeOrDash and timeOrDash write a level's bytes and time, "–" where the
// stage does not use that level.
func sizeOrDash(c commmodel.Cost) string {
	if c == (commmodel.Cost{}) {
		return "–"
	}
	return units.FormatSize(c.Bytes)
}

func timeOrDash(c commmodel.Cost, l commmodel.Link) string {
	if c == (commmodel.Cost{}) {
		return "–"
	}
	return units.FormatDuration(c.Time(l))
}

// stageName says what stage i of n of a does, where the algorithm's shape
// tells: the three steps of the hierarchical AllReduce and of
// halving-doubling on powers of two.
func stageName(a commmodel.Algorithm, i, n int) string {
	switch a.(type) {
	case commmodel.HierarchicalAllReduce, commmodel.HalvingDoubling:
		if n == 3 {
			return [...]string{"reduce-scatter in node", "AllReduce of S/p between nodes", "all-gather in node"}[i]
		}
	case commmodel.TwoShot:
		if n == 2 {
			return [...]string{"reduce-scatter (pull)", "all-gather (push)"}[i]
		}
	}
	if n == 1 {
		return "every step (flat)"
	}
	return "stage " + strconv.Itoa(i+1)
}

// crossNodeExhibits are notebook 03's tables and figures.
func crossNodeExhibits(in inputs) ([]Exhibit, error) {
	algs := CrossNodeAlgorithms(in.node.PerNode)
	sizes := figure.Sizes(1<<10, 1<<30, 4)
	lc, err := CompareLinks(topo.H20Article(), in.figures, in.node.Intra, in.node.Inter)
	if err != nil {
		return nil, err
	}
	bytesT := NetworkBytesTable(in.cluster(2), []int{2, 4, 8, 16, 32, 64})
	linksT := lc.Table()
	timesT := lc.TimesTable(2, algs, []float64{1 << 20, 64 << 20})
	sweep := NodeSweep{Cluster: in.cluster(1), Flat: algs[0], Hier: algs[3],
		Nodes: []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}, Sizes: []float64{64 << 10, 16 << 20, 256 << 20}}
	sweepT := sweep.Table()
	stagesT := StagesTable(in.cluster(2), []commmodel.Algorithm{algs[0], algs[3]}, 64<<20)
	executedT, err := ExecutedTable(in.executed, algs, in.executedSize)
	if err != nil {
		return nil, err
	}
	return []Exhibit{
		{Name: "03-crossnode-times-2x8", Title: "AllReduce across 2 x 8 H20: flat against hierarchical, time against size", Figure: CrossNodeTimes(in.cluster(2), algs, sizes)},
		{Name: "03-crossnode-times-8x8", Title: "AllReduce across 8 x 8 H20: flat against hierarchical, time against size", Figure: CrossNodeTimes(in.cluster(8), algs, sizes)},
		{Name: "03-network-bytes", Title: "Network bytes per GPU: flat ring against hierarchical, (N-1)/(Np-1)", Table: &bytesT},
		{Name: "03-link-ratios", Title: "The article's ÷17.5 and ×7.5 beside the NVLink and NIC arithmetic", Table: &linksT},
		{Name: "03-link-times", Title: "Times on 2 x 8 H20 under the article's links and under the NIC arithmetic", Table: &timesT},
		{Name: "03-node-sweep", Title: "Hierarchical over flat ring AllReduce, N = 1..64 nodes of 8 H20", Figure: sweep.SpeedupFigure()},
		{Name: "03-node-sweep-times", Title: "Flat and hierarchical AllReduce times against the node count", Table: &sweepT},
		{Name: "03-stages", Title: "Stages of flat and hierarchical AllReduce on 2 x 8 H20 at 64 MiB", Table: &stagesT},
		{Name: "03-executed", Title: fmt.Sprintf("The schedules executed on %d x %d GPUs at %s, every element checked, replayed against Cluster.Time",
			in.executed.Nodes, in.executed.PerNode, units.FormatSize(float64(in.executedSize))), Table: &executedT},
	}, nil
}
