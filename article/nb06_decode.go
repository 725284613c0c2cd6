package article

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/units"
)

// The exhibits of notebook 06 (the decode-step budget of tensor parallelism).

// DecodeShape is the model shape behind the AllReduces of one decode step of
// a tensor-parallel model: after the attention output and the MLP output
// projections of each layer every TP rank holds a partial sum of the hidden
// state of the step's tokens, and one AllReduce adds them up.
//
//	message = Hidden · Tokens · ElemBytes      calls per step = Layers · PerLayer
//
// The message does not depend on the TP size.
type DecodeShape struct {
	// Model names the shape, for captions.
	Model string
	// Hidden is the hidden size, in elements.
	Hidden int
	// Tokens is the number of tokens one decode step processes (the batch).
	Tokens int
	// ElemBytes is the size of one activation element, in bytes (bf16: 2).
	ElemBytes int
	// Layers is the number of transformer layers.
	Layers int
	// PerLayer is the number of AllReduces per layer: 2 (after attention and
	// after the MLP) in Megatron-style TP, 1 where the two are fused.
	PerLayer int
}

// DeepSeekV3Decode is the shape that gives the article's "~56 KB per layer":
// DeepSeek-V3's hidden size 7168 and 61 layers (its config.json on Hugging
// Face, deepseek-ai/DeepSeek-V3), bf16 activations, 4 tokens per decode step:
// 7168 · 4 · 2 B = 57,344 B = 56 KiB, and 2 AllReduces per layer make 122 per
// step, the article's "hundreds per decode step". The batch of 4 is our
// assumption; the article gives only the size.
var DeepSeekV3Decode = DecodeShape{Model: "DeepSeek-V3", Hidden: 7168, Tokens: 4, ElemBytes: 2, Layers: 61, PerLayer: 2}

// Message returns the bytes of one AllReduce, S = Hidden·Tokens·ElemBytes.
func (d DecodeShape) Message() float64 {
	return float64(d.Hidden) * float64(d.Tokens) * float64(d.ElemBytes)
}

// Calls returns the AllReduces per decode step, Layers·PerLayer.
func (d DecodeShape) Calls() int { return d.Layers * d.PerLayer }

// Table lists the shape's figures and what follows from them.
func (d DecodeShape) Table() figure.Table {
	s := d.Message()
	return figure.Table{
		Header: []string{"quantity", "value", "source"},
		Align:  []figure.Align{figure.Left, figure.Right, figure.Left},
		Rows: [][]string{
			{"hidden size", strconv.Itoa(d.Hidden), d.Model + " config.json (hidden_size)"},
			{"layers", strconv.Itoa(d.Layers), d.Model + " config.json (num_hidden_layers)"},
			{"tokens per decode step", strconv.Itoa(d.Tokens), "assumed (decode batch)"},
			{"bytes per element", strconv.Itoa(d.ElemBytes), "bf16 activations"},
			{"AllReduce message S", fmt.Sprintf("%s (%.0f B)", units.FormatSize(s), s), "hidden × tokens × bytes; the article: ~56 KB"},
			{"AllReduces per layer", strconv.Itoa(d.PerLayer), "attention out + MLP out (Megatron TP)"},
			{"AllReduces per decode step", strconv.Itoa(d.Calls()), "layers × per layer; the article: hundreds"},
		},
	}
}

// DecodeCluster returns the cluster a TP group of tp GPUs runs on, on nodes
// like node (its PerNode GPUs, Intra and Inter links; the article's:
// presets.H20Cluster(1)): one node of tp GPUs up to node.PerNode, else
// tp/node.PerNode nodes. It is an error for tp above node.PerNode not to be
// a multiple of it or for tp to be below 1.
func DecodeCluster(tp int, node commmodel.Cluster) (commmodel.Cluster, error) {
	p := node.PerNode
	switch {
	case tp < 1 || p < 1:
		return commmodel.Cluster{}, fmt.Errorf("TP size %d on nodes of %d GPUs: want at least 1 of each", tp, p)
	case tp <= p:
		return commmodel.Cluster{Nodes: 1, PerNode: tp, Intra: node.Intra, Inter: node.Inter}, nil
	case tp%p != 0:
		return commmodel.Cluster{}, fmt.Errorf("TP size %d: across nodes want a multiple of %d GPUs", tp, p)
	}
	return commmodel.Cluster{Nodes: tp / p, PerNode: p, Intra: node.Intra, Inter: node.Inter}, nil
}

// DecodeAlgorithms returns the AllReduce candidates for a TP group on c: the
// single-level algorithms (commmodel.Algorithms), and across nodes also the
// hierarchical AllReduce with a ring between the nodes.
func DecodeAlgorithms(c commmodel.Cluster) []commmodel.Algorithm {
	algs := append([]commmodel.Algorithm(nil), commmodel.Algorithms(commmodel.AllReduce)...)
	if c.Nodes > 1 {
		algs = append(algs, commmodel.HierarchicalAllReduce{PerNode: c.PerNode})
	}
	return algs
}

// DecodeBudget is the communication time of decode steps by TP size.
type DecodeBudget struct {
	// Shape gives the message and the calls per step.
	Shape DecodeShape
	// TP are the TP group sizes (DecodeCluster).
	TP []int
	// Node is the node the TP groups run on: its GPUs and links (the
	// article's: presets.H20Cluster(1)).
	Node commmodel.Cluster
	// Floor is a measured per-call floor to set beside the model, in seconds
	// (the article's ~10 us, on one node); 0 leaves it out. It stands for TP
	// groups within one Node alone: across nodes a call's floor is the
	// network's.
	Floor float64
}

// StepTime returns the communication time of one decode step with algorithm a
// on TP size tp, in seconds: Calls · T_a(S).
func (b DecodeBudget) stepTime(a commmodel.Algorithm, tp int) (float64, error) {
	c, err := DecodeCluster(tp, b.Node)
	if err != nil {
		return 0, err
	}
	return float64(b.Shape.Calls()) * c.Time(a, b.Shape.Message()), nil
}

// candidates returns the clusters of the TP sizes and the names of every
// candidate algorithm on any of them (DecodeAlgorithms, from commmodel's
// registry), in order of first appearance.
func (b DecodeBudget) candidates() ([]commmodel.Cluster, []string, error) {
	var cs []commmodel.Cluster
	var names []string
	for _, tp := range b.TP {
		c, err := DecodeCluster(tp, b.Node)
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, c)
		for _, a := range DecodeAlgorithms(c) {
			if !slices.Contains(names, a.Name()) {
				names = append(names, a.Name())
			}
		}
	}
	return cs, names, nil
}

// Table lists, for each TP size, each candidate's time per call, the fastest
// and its milliseconds per decode step, and the floor's.
func (b DecodeBudget) Table() (figure.Table, error) {
	s, calls := b.Shape.Message(), float64(b.Shape.Calls())
	clusters, names, err := b.candidates()
	if err != nil {
		return figure.Table{}, err
	}
	t := figure.Table{Header: []string{"TP", "GPUs"}, Align: []figure.Align{figure.Right, figure.Left}}
	for _, n := range names {
		t.Header = append(t.Header, n+" per call")
		t.Align = append(t.Align, figure.Right)
	}
	t.Header = append(t.Header, "fastest", fmt.Sprintf("per step (%d calls)", b.Shape.Calls()), fmt.Sprintf("per step at 1 call/layer (%d)", b.Shape.Layers))
	t.Align = append(t.Align, figure.Left, figure.Right, figure.Right)
	if b.Floor > 0 {
		t.Header = append(t.Header, "one node's floor "+units.FormatDuration(b.Floor)+" × calls")
		t.Align = append(t.Align, figure.Right)
	}
	for i, tp := range b.TP {
		c := clusters[i]
		algs := DecodeAlgorithms(c)
		row := []string{strconv.Itoa(tp), clusterName(c)}
		for _, n := range names {
			cell := "–"
			for _, a := range algs {
				if a.Name() == n {
					cell = units.FormatDuration(c.Time(a, s))
				}
			}
			row = append(row, cell)
		}
		best, bt := commmodel.Fastest(algs, c, s)
		row = append(row, best.Name(), units.FormatDuration(calls*bt), units.FormatDuration(float64(b.Shape.Layers)*bt))
		switch {
		case b.Floor > 0 && tp <= b.Node.PerNode:
			row = append(row, units.FormatDuration(calls*b.Floor))
		case b.Floor > 0:
			row = append(row, "–") // across nodes: not the one node's floor
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// Figure plots the communication time per decode step against the TP size,
// one curve per algorithm (an algorithm appears at the sizes where it is a
// candidate), the floor × calls, and measured points (marks) at their TP size.
func (b DecodeBudget) Figure(measured []figure.Mark) (figure.Figure, error) {
	f := figure.Figure{
		Title:  fmt.Sprintf("AllReduce time per decode step: %d calls of %s (model: %s)", b.Shape.Calls(), units.FormatSize(b.Shape.Message()), nodeLinks(b.Node)),
		X:      figure.Axis{Label: "TP size (GPUs; 16 = 2 nodes x 8)", Unit: figure.Plain, Log: true, Min: 1.8, Max: 32}, // room for labels right of TP 16
		Y:      figure.Axis{Label: "time per step", Unit: figure.Seconds, Log: true},
		Legend: figure.TopLeft,
	}
	byName := map[string]int{}
	for _, tp := range b.TP {
		c, err := DecodeCluster(tp, b.Node)
		if err != nil {
			return figure.Figure{}, err
		}
		for _, a := range DecodeAlgorithms(c) {
			i, ok := byName[a.Name()]
			if !ok {
				i = len(f.Series)
				byName[a.Name()] = i
				f.Series = append(f.Series, figure.Series{Name: a.Name(), Style: figure.LinePoints})
			}
			st, _ := b.stepTime(a, tp)
			f.Series[i].X, f.Series[i].Y = append(f.Series[i].X, float64(tp)), append(f.Series[i].Y, st)
		}
	}
	// The floor's line spans the TP sizes within one node, where it was
	// measured.
	var within []int
	for _, tp := range b.TP {
		if tp <= b.Node.PerNode {
			within = append(within, tp)
		}
	}
	if b.Floor > 0 && len(within) > 0 {
		fl := float64(b.Shape.Calls()) * b.Floor
		f.Series = append(f.Series, figure.Series{Name: "article's ~" + units.FormatDuration(b.Floor) + " one-node floor × calls",
			X: []float64{float64(within[0]), float64(within[len(within)-1])}, Y: []float64{fl, fl}})
	}
	f.Marks = append(f.Marks, measured...)
	for _, tp := range b.TP {
		f.X.Ticks = append(f.X.Ticks, float64(tp))
	}
	return f, nil
}

// Names of the public H20 logs notebook 06 reads (data.PublicLog).
const (
	// PublicH20SmallLog is one node of 8 H20, nccl-tests with redop "none"
	// (AllToAll or AllGather), 0..2048 B: its 0-byte rows are the launch floor.
	PublicH20SmallLog = "h20_1x8_alltoall_or_allgather_deepep303.log"
	// PublicH20CrossNodeLog is 2 x 8 H20 all_reduce_perf with NVLSTree, 4..512 B.
	PublicH20CrossNodeLog = "h20_2x8_allreduce_nvlstree_nccl1244.log"
)

// MeasuredFloor is the small-message floor of H20 collectives: the article's
// statement and the public runs, read through the data package.
type MeasuredFloor struct {
	// Article is the article's "~10 us" floor of measured AllReduce, in
	// seconds (data.StatementByID("allreduce-floor")).
	Article float64
	// Node are the out-of-place rows of PublicH20SmallLog, sizes in bytes,
	// times in seconds, 0-byte rows included.
	Node []fit.Sample
	// CrossNode are the out-of-place rows of PublicH20CrossNodeLog.
	CrossNode []fit.Sample
}

// StatedFloor returns the article's "~10 us" floor of measured AllReduce, in
// seconds (data.StatementByID("allreduce-floor")).
func StatedFloor() (float64, error) {
	st, ok := data.StatementByID("allreduce-floor")
	if !ok || st.Unit != "s" {
		return 0, fmt.Errorf("data: no statement allreduce-floor in seconds")
	}
	return st.Low, nil
}

// NewMeasuredFloor returns the floor with the article's figure floor, in
// seconds (StatedFloor), and the out-of-place rows of PublicH20SmallLog and
// PublicH20CrossNodeLog as frames of the tidy schema (data.Log.Frame
// filtered on placement), which it reads with data.Samples.
func NewMeasuredFloor(floor float64, node, crossNode dataframe.DataFrame) (MeasuredFloor, error) {
	m := MeasuredFloor{Article: floor}
	var err error
	if m.Node, err = data.Samples(node); err != nil {
		return MeasuredFloor{}, fmt.Errorf("%s: %w", PublicH20SmallLog, err)
	}
	if m.CrossNode, err = data.Samples(crossNode); err != nil {
		return MeasuredFloor{}, fmt.Errorf("%s: %w", PublicH20CrossNodeLog, err)
	}
	if len(m.Node) == 0 || len(m.CrossNode) == 0 {
		return MeasuredFloor{}, fmt.Errorf("article: NewMeasuredFloor: %d rows on one node, %d across nodes: want some of each", len(m.Node), len(m.CrossNode))
	}
	return m, nil
}

// loadMeasuredFloor reads the article's statement and the out-of-place rows
// of the two public logs (NewMeasuredFloor).
func loadMeasuredFloor() (MeasuredFloor, error) {
	floor, err := StatedFloor()
	if err != nil {
		return MeasuredFloor{}, err
	}
	var frames []dataframe.DataFrame
	for _, name := range []string{PublicH20SmallLog, PublicH20CrossNodeLog} {
		lg, err := data.PublicLog(name, nil)
		if err != nil {
			return MeasuredFloor{}, err
		}
		frames = append(frames, lg.Frame().Filter(dataframe.F{Colname: "placement", Comparator: series.Eq, Comparando: "out-of-place"}))
	}
	return NewMeasuredFloor(floor, frames[0], frames[1])
}

// meanTime returns the mean time of the samples whose size is in [lo, hi]
// bytes, in seconds, and how many there were.
func meanTime(ss []fit.Sample, lo, hi float64) (float64, int) {
	sum, n := 0.0, 0
	for _, s := range ss {
		if s.Size >= lo && s.Size <= hi {
			sum += s.Time
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return sum / float64(n), n
}

// Table sets the measured floors beside the model's small-message times on
// the same GPUs (1 x 8 and 2 x 8 on nodes like node; the article's:
// presets.H20Cluster(1)): the fastest model AllReduce at the smallest non-empty size
// measured, and at the decode message S.
func (m MeasuredFloor) Table(s float64, node commmodel.Cluster) (figure.Table, error) {
	zero, nz := meanTime(m.Node, 0, 0)
	if nz == 0 {
		return figure.Table{}, fmt.Errorf("%s: no 0-byte rows", PublicH20SmallLog)
	}
	small, _ := meanTime(m.Node, 128, 128)
	cross, nc := meanTime(m.CrossNode, 0, 512)
	if small == 0 || nc == 0 {
		return figure.Table{}, fmt.Errorf("public logs: no rows at 128 B or up to 512 B")
	}
	one, err := DecodeCluster(8, node)
	if err != nil {
		return figure.Table{}, err
	}
	two, err := DecodeCluster(16, node)
	if err != nil {
		return figure.Table{}, err
	}
	a0, t0 := commmodel.Fastest(DecodeAlgorithms(one), one, 0)
	a8, t8 := commmodel.Fastest(DecodeAlgorithms(one), one, 128)
	a8s, t8s := commmodel.Fastest(DecodeAlgorithms(one), one, s)
	a16, t16 := commmodel.Fastest(DecodeAlgorithms(two), two, 512)
	a16s, t16s := commmodel.Fastest(DecodeAlgorithms(two), two, s)
	return figure.Table{
		Header: []string{"what", "GPUs", "measured", "model (fastest)", "source"},
		Align:  []figure.Align{figure.Left, figure.Left, figure.Right, figure.Right, figure.Left},
		Rows: [][]string{
			{"empty call (0 B)", "1 x 8", units.FormatDuration(zero), units.FormatDuration(t0) + " " + a0.Name(), fmt.Sprintf("public log, mean of %d rows (%s)", nz, PublicH20SmallLog)},
			{"128 B", "1 x 8", units.FormatDuration(small), units.FormatDuration(t8) + " " + a8.Name(), "public log (AllToAll or AllGather, not AllReduce)"},
			{"AllReduce floor", "1 x 8", "~" + units.FormatDuration(m.Article), units.FormatDuration(t8s) + " " + a8s.Name() + " at " + units.FormatSize(s), "the article (measured table not in its text)"},
			{"AllReduce 4..512 B", "2 x 8", units.FormatDuration(cross), units.FormatDuration(t16) + " " + a16.Name() + " at 512 B", fmt.Sprintf("public log, mean of %d rows, NCCL NVLSTree (%s)", nc, PublicH20CrossNodeLog)},
			{"AllReduce at " + units.FormatSize(s), "2 x 8", "–", units.FormatDuration(t16s) + " " + a16s.Name(), "model"},
		},
	}, nil
}

// nodeLinks names the links of nodes like node in a title: "article's H20
// links" for the article's (presets.H20Cluster), else their α and BW.
func nodeLinks(node commmodel.Cluster) string {
	if node.Intra == presets.H20Intra && node.Inter == presets.H20Inter {
		return "article's H20 links"
	}
	return fmt.Sprintf("NVLink α %s, %s; network α %s, %s", units.FormatDuration(node.Intra.Alpha), units.FormatBandwidth(node.Intra.BW),
		units.FormatDuration(node.Inter.Alpha), units.FormatBandwidth(node.Inter.BW))
}

// SmallFigure plots the model's AllReduce times on 8 GPUs of nodes like node
// (the article's: presets.H20Cluster(1)) over small sizes with the public 1 x 8 rows as
// points, the article's floor as a line and the decode message S marked.
func (m MeasuredFloor) SmallFigure(s float64, sizes []float64, node commmodel.Cluster) (figure.Figure, error) {
	c, err := DecodeCluster(8, node)
	if err != nil {
		return figure.Figure{}, err
	}
	f := figure.Figure{
		Title:  "Small AllReduce on 8 x H20: model (α = " + units.FormatDuration(c.Intra.Alpha) + ") against the measured floor",
		X:      figure.Axis{Label: "message size S (per GPU)", Unit: figure.Bytes, Log: true},
		Y:      figure.Axis{Label: "time per call", Unit: figure.Seconds, Log: true},
		Marks:  []figure.Mark{{X: s, Label: "decode S = " + units.FormatSize(s)}},
		Legend: figure.TopLeft,
	}
	if c.Intra != presets.H20Intra {
		f.Title = fmt.Sprintf("Small AllReduce on 8 GPUs: model (α = %s, BW = %s) against the H20 floor", units.FormatDuration(c.Intra.Alpha), units.FormatBandwidth(c.Intra.BW))
	}
	f.Series = figure.TimeSeries(DecodeAlgorithms(c), c, sizes, nil)
	meas := figure.Series{Name: "public 1 x 8 H20 run (AllToAll/AllGather)", Style: figure.Points}
	sized, _ := fit.SplitEmpty(m.Node)
	for _, x := range sized {
		meas.X, meas.Y = append(meas.X, x.Size), append(meas.Y, x.Time)
	}
	f.Series = append(f.Series, meas, figure.Series{Name: "article's ~" + units.FormatDuration(m.Article) + " floor",
		X: []float64{sizes[0], sizes[len(sizes)-1]}, Y: []float64{m.Article, m.Article}})
	// Headroom above the curves for the legend (top left, where they are flat).
	lo, hi := math.Inf(1), 0.0
	for _, sr := range f.Series {
		for _, y := range sr.Y {
			lo, hi = min(lo, y), max(hi, y)
		}
	}
	f.Y.Min, f.Y.Max = lo/1.2, hi*4
	return f, nil
}

// AlphaSweep is the decode budget on one link as its alpha varies.
type AlphaSweep struct {
	// Shape gives the message and the calls per step.
	Shape DecodeShape
	// P is the TP size (one node).
	P int
	// Link gives BW and gamma; its Alpha is replaced by each of Alphas.
	Link commmodel.Link
	// Alphas are the per-step latencies swept, in seconds.
	Alphas []float64
}

// step returns algorithm a's communication per decode step at alpha, in seconds.
func (w AlphaSweep) step(a commmodel.Algorithm, alpha float64) float64 {
	l := w.Link
	l.Alpha = alpha
	return float64(w.Shape.Calls()) * commmodel.Time(a, w.P, w.Shape.Message(), l)
}

// Figure plots each algorithm's communication per decode step against
// alpha, with the given alphas marked.
func (w AlphaSweep) Figure(marks []figure.Mark) figure.Figure {
	f := figure.Figure{
		Title: fmt.Sprintf("Decode-step budget against α: TP %d, %d calls of %s, BW = %s",
			w.P, w.Shape.Calls(), units.FormatSize(w.Shape.Message()), units.FormatBandwidth(w.Link.BW)),
		X:      figure.Axis{Label: "α per step", Unit: figure.Seconds, Log: true},
		Y:      figure.Axis{Label: "time per step", Unit: figure.Seconds, Log: true},
		Marks:  marks,
		Legend: figure.TopLeft,
	}
	for _, a := range commmodel.Algorithms(commmodel.AllReduce) {
		sr := figure.Series{Name: a.Name(), X: w.Alphas, Y: make([]float64, len(w.Alphas))}
		for i, al := range w.Alphas {
			sr.Y[i] = w.step(a, al)
		}
		f.Series = append(f.Series, sr)
	}
	return f
}

// Table lists each algorithm's per-step time at each alpha and the fastest.
func (w AlphaSweep) Table() figure.Table {
	algs := commmodel.Algorithms(commmodel.AllReduce)
	t := figure.Table{Header: []string{"α"}, Align: []figure.Align{figure.Right}}
	for _, a := range algs {
		t.Header = append(t.Header, a.Name())
		t.Align = append(t.Align, figure.Right)
	}
	t.Header = append(t.Header, "fastest", "per call")
	t.Align = append(t.Align, figure.Left, figure.Right)
	for _, al := range w.Alphas {
		row := []string{units.FormatDuration(al)}
		for _, a := range algs {
			row = append(row, units.FormatDuration(w.step(a, al)))
		}
		l := w.Link
		l.Alpha = al
		best, bt := commmodel.Fastest(commmodel.Algorithms(commmodel.AllReduce), commmodel.Flat{P: w.P, Link: l}, w.Shape.Message())
		row = append(row, best.Name(), units.FormatDuration(bt))
		t.Rows = append(t.Rows, row)
	}
	return t
}

// FloorAlpha returns the alpha at which a's model time for p ranks and S =
// size bytes on l equals floor seconds, in seconds: the per-step latency a
// measured floor implies,
//
//	α = (floor - T_a(S; α = 0)) / steps_a
//
// NaN if a has no steps or the floor is below the alpha-free time.
func FloorAlpha(a commmodel.Algorithm, p int, size float64, l commmodel.Link, floor float64) float64 {
	l.Alpha = 0
	rest := commmodel.Time(a, p, size, l)
	steps := a.Cost(p, size).Steps
	if steps == 0 || floor < rest {
		return math.NaN()
	}
	return (floor - rest) / float64(steps)
}

// CrossNodeMarks returns the public 2 x 8 AllReduce rows up to 512 B as one
// labelled point at TP 16: their mean time × d's calls per step.
func (m MeasuredFloor) CrossNodeMarks(d DecodeShape) []figure.Mark {
	t, n := meanTime(m.CrossNode, 0, 512)
	if n == 0 {
		return nil
	}
	st := float64(d.Calls()) * t
	return []figure.Mark{{X: 16, Y: st, Label: "measured 2 x 8"}}
}

// AlphaMarks marks the model's alpha (the link's) and, for one-shot and
// two-shot, the alpha at which their time per call reaches floor seconds
// (FloorAlpha).
func (w AlphaSweep) AlphaMarks(floor float64) []figure.Mark {
	ms := []figure.Mark{{X: w.Link.Alpha, Label: "model α = " + units.FormatDuration(w.Link.Alpha)}}
	for _, a := range []commmodel.Algorithm{commmodel.OneShot{}, commmodel.TwoShot{}} {
		if al := FloorAlpha(a, w.P, w.Shape.Message(), w.Link, floor); !math.IsNaN(al) {
			ms = append(ms, figure.Mark{X: al, Label: fmt.Sprintf("%s takes %s", a.Name(), units.FormatDuration(floor))})
		}
	}
	return ms
}

// decodeExhibits are notebook 06's tables and figures.
func decodeExhibits(in inputs) ([]Exhibit, error) {
	d := DeepSeekV3Decode
	m, err := loadMeasuredFloor()
	if err != nil {
		return nil, err
	}
	b := DecodeBudget{Shape: d, TP: []int{2, 4, 8, 16}, Node: in.node, Floor: m.Article}
	budget, err := b.Table()
	if err != nil {
		return nil, err
	}
	byTP, err := b.Figure(m.CrossNodeMarks(d))
	if err != nil {
		return nil, err
	}
	floorT, err := m.Table(d.Message(), in.node)
	if err != nil {
		return nil, err
	}
	small, err := m.SmallFigure(d.Message(), figure.Sizes(128, 4<<20, 4), in.node)
	if err != nil {
		return nil, err
	}
	sweep := AlphaSweep{Shape: d, P: in.node.PerNode, Link: in.node.Intra, Alphas: commmodel.LogSizes(0.5e-6, 40e-6, 37)}
	few := sweep
	few.Alphas = []float64{1e-6, 2e-6, 5e-6, 10e-6, 15e-6}
	sweepT := few.Table()
	shape := d.Table()
	return []Exhibit{
		{Name: "06-decode-shape", Title: "The decode step's AllReduce: model shape and message size", Table: &shape},
		{Name: "06-decode-budget", Title: "AllReduce time per decode step by algorithm and TP size", Table: &budget},
		{Name: "06-decode-by-tp", Title: "Communication per decode step against TP size, with the measured floor", Figure: byTP},
		{Name: "06-decode-floor", Title: "The measured floor beside the model's small-message times", Table: &floorT},
		{Name: "06-decode-small", Title: "Small AllReduce on 8 x H20: model against the public runs", Figure: small},
		{Name: "06-decode-alpha", Title: "Decode-step budget against α (2 µs model, ~10 µs measured floor)", Figure: sweep.Figure(sweep.AlphaMarks(m.Article))},
		{Name: "06-decode-alpha-table", Title: "Decode-step budget at a few α", Table: &sweepT},
	}, nil
}
