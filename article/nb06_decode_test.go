package article

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/floats/scalar"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/units"
)

// DeepSeek-V3 (config.json: hidden_size 7168, num_hidden_layers 61), bf16,
// 4 tokens: 7168·4·2 = 57,344 B = 56 KiB, the article's "~56 KB"; two
// AllReduces per layer make 122 per step, the article's "hundreds".
func TestDecodeShape(t *testing.T) {
	d := DeepSeekV3Decode
	if d.Message() != 57344 || d.Message() != 56<<10 || d.Calls() != 122 {
		t.Errorf("message %g B, %d calls; want 57344 B (56 KiB), 122", d.Message(), d.Calls())
	}
	if tab := d.Table(); len(tab.Rows) != 7 || !strings.HasPrefix(tab.Rows[4][1], "56 KiB") {
		t.Errorf("shape table %v", tab.Rows)
	}
}

func TestDecodeCluster(t *testing.T) {
	for _, tp := range []int{0, -1, 12, 20} {
		if _, err := DecodeCluster(tp, presets.H20Cluster(1)); err == nil {
			t.Errorf("TP %d: want an error", tp)
		}
	}
	c, err := DecodeCluster(16, presets.H20Cluster(1))
	if err != nil || c != presets.H20Cluster(2) {
		t.Errorf("TP 16: %+v, %v; want H20Cluster(2)", c, err)
	}
	if len(DecodeAlgorithms(c)) != 5 || len(DecodeAlgorithms(presets.H20Cluster(1))) != 4 {
		t.Error("hierarchical should join the candidates across nodes only")
	}
}

// One-shot at P = 8 on H20Intra: α + 7·S/BW = 2 µs + 7·57344 B/350 GB/s =
// 3.14688 µs per call, × 122 = 383.9 µs per step; the table's fastest on one
// node is commmodel.Fastest.
func TestDecodeBudget(t *testing.T) {
	b := DecodeBudget{Shape: DeepSeekV3Decode, TP: []int{2, 4, 8, 16}, Node: presets.H20Cluster(1), Floor: 10e-6}
	st, err := b.stepTime(commmodel.OneShot{}, 8)
	if err != nil || !scalar.EqualWithinAbs(st, 122*(2e-6+7*57344/350e9), 1e-12*(122*(2e-6+7*57344/350e9))) {
		t.Errorf("one-shot step time %g, %v", st, err)
	}
	tab, err := b.Table()
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 4 {
		t.Fatalf("%d rows, want 4", len(tab.Rows))
	}
	for i, p := range []int{2, 4, 8} {
		a, per := commmodel.Fastest(commmodel.Algorithms(commmodel.AllReduce), commmodel.Flat{P: p, Link: presets.H20Intra}, 57344)
		row := tab.Rows[i]
		if row[7] != a.Name() || row[8] != units.FormatDuration(122*per) || row[9] != units.FormatDuration(61*per) || row[6] != "–" {
			t.Errorf("TP %d row %q: want %s, %s", p, row, a.Name(), units.FormatDuration(122*per))
		}
		if row[10] != units.FormatDuration(122*10e-6) {
			t.Errorf("TP %d floor cell %q, want 1.22 ms (122 × 10 µs)", p, row[10])
		}
	}
	if row := tab.Rows[3]; row[6] == "–" || row[10] != "–" {
		t.Errorf("TP 16 row %q: want hierarchical, and no floor: the article's ~10 µs is one node's", row)
	}
	if _, err := (DecodeBudget{Shape: DeepSeekV3Decode, TP: []int{12}, Node: presets.H20Cluster(1)}).Table(); err == nil {
		t.Error("TP 12: want an error")
	}
	f, err := b.Figure(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Series) != 6 || len(f.Series[4].X) != 1 || f.Series[4].X[0] != 16 || f.Series[5].X[1] != 8 {
		t.Errorf("series %v: want 4 algorithms, hierarchical at TP 16 only, the floor up to TP 8", f.Series)
	}
}

// The public logs (data/logs): 1 x 8 H20, five 0-byte rows 3.18, 3.12, 3.12,
// 3.17, 3.20 us (mean 3.158 us) and 10.59 us at 128 B (out-of-place); 2 x 8 H20
// NVLSTree AllReduce, eight rows 4..512 B, mean 46.879 us. The article: ~10 us.
func TestMeasuredFloor(t *testing.T) {
	m, err := loadMeasuredFloor()
	if err != nil {
		t.Fatal(err)
	}
	if !scalar.EqualWithinAbs(m.Article, 10e-6, 1e-12*10e-6) { // data.Statements parses "10 us"
		t.Errorf("article floor %g, want 10 µs", m.Article)
	}
	if z, n := meanTime(m.Node, 0, 0); n != 5 || !scalar.EqualWithinAbs(z, 3.158e-6, 1e-9*3.158e-6) {
		t.Errorf("0-byte rows: %d, mean %g", n, z)
	}
	if z, n := meanTime(m.Node, 128, 128); n != 1 || !scalar.EqualWithinAbs(z, 10.59e-6, 1e-9*10.59e-6) {
		t.Errorf("128 B: %d, %g", n, z)
	}
	if z, n := meanTime(m.CrossNode, 0, 512); n != 8 || !scalar.EqualWithinAbs(z, 46.87875e-6, 1e-9*46.87875e-6) {
		t.Errorf("2 x 8 rows: %d, mean %g", n, z)
	}
	tab, err := m.Table(57344, presets.H20Cluster(1))
	if err != nil {
		t.Fatal(err)
	}
	if tab.Rows[0][2] != "3.16 µs" || tab.Rows[3][2] != "46.9 µs" {
		t.Errorf("floor table %v", tab.Rows)
	}
	marks := m.CrossNodeMarks(DeepSeekV3Decode)
	if len(marks) != 1 || marks[0].X != 16 || !scalar.EqualWithinAbs(marks[0].Y, 122*46.87875e-6, 1e-9*(122*46.87875e-6)) {
		t.Errorf("cross-node marks %v", marks)
	}
	if _, err := (MeasuredFloor{Article: 10e-6}).Table(57344, presets.H20Cluster(1)); err == nil {
		t.Error("no rows: want an error")
	}
	// Frames that are empty or not of the tidy schema are refused.
	rows := data.Article().Frame()
	empty := rows.Filter(dataframe.F{Colname: "nnodes", Comparator: series.Eq, Comparando: 99})
	if _, err := NewMeasuredFloor(10e-6, rows, empty); err == nil {
		t.Error("no cross-node rows: want an error")
	}
	if _, err := NewMeasuredFloor(10e-6, rows.Select([]string{"source"}), rows); err == nil || !errors.Is(err, data.ErrFrame) {
		t.Errorf("a frame without size_bytes: err = %v, want data.ErrFrame", err)
	}
	f, err := m.SmallFigure(57344, figure.Sizes(128, 4<<20, 1), presets.H20Cluster(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Series) != 6 || len(f.Series[4].X) != 5 || f.Marks[0].X != 57344 {
		t.Errorf("small figure: %d series, measured %v, marks %v", len(f.Series), f.Series[4].X, f.Marks)
	}
}

// α at which a call takes the 10 µs floor, S = 57344 B, P = 8, 350 GB/s:
// one-shot 10 µs - 7·S/BW = 8.85312 µs; two-shot (10 µs - 1.75·S/BW)/2 = 4.85664 µs.
func TestFloorAlpha(t *testing.T) {
	l := presets.H20Intra
	if a := FloorAlpha(commmodel.OneShot{}, 8, 57344, l, 10e-6); !scalar.EqualWithinAbs(a, 8.85312e-6, 1e-9*8.85312e-6) {
		t.Errorf("one-shot: %g", a)
	}
	if a := FloorAlpha(commmodel.TwoShot{}, 8, 57344, l, 10e-6); !scalar.EqualWithinAbs(a, 4.85664e-6, 1e-9*4.85664e-6) {
		t.Errorf("two-shot: %g", a)
	}
	if a := FloorAlpha(commmodel.OneShot{}, 8, 57344, l, 1e-6); !math.IsNaN(a) {
		t.Errorf("floor below the bandwidth term: %g, want NaN", a)
	}
	if a := FloorAlpha(commmodel.Ring{}, 1, 57344, l, 1e-6); !math.IsNaN(a) {
		t.Errorf("one rank (no steps): %g, want NaN", a)
	}
	w := AlphaSweep{Shape: DeepSeekV3Decode, P: 8, Link: presets.H20Intra, Alphas: []float64{2e-6, 10e-6}}
	ms := w.AlphaMarks(10e-6)
	if len(ms) != 3 || ms[0].X != 2e-6 || !scalar.EqualWithinAbs(ms[1].X, 8.85312e-6, 1e-9*8.85312e-6) || !scalar.EqualWithinAbs(ms[2].X, 4.85664e-6, 1e-9*4.85664e-6) {
		t.Errorf("marks %v", ms)
	}
	// At α = 10 µs the one-shot budget is 122·(10 µs + 1.14688 µs).
	tab := w.Table()
	if row := tab.Rows[1]; row[4] != units.FormatDuration(122*(10e-6+7*57344/350e9)) || row[5] != "one-shot" {
		t.Errorf("α = 10 µs row %q", row)
	}
}

func TestExhibits06(t *testing.T) {
	t.Parallel()
	checkExhibits(t, "06_decode", 7)
}

// The budget's columns are the candidates of commmodel's registry
// (DecodeAlgorithms) on the clusters of its TP sizes, not a list of names:
// on nodes of 4 GPUs TP 8 already spans two nodes and brings hierarchical in.
func TestDecodeBudgetColumns(t *testing.T) {
	var want []string
	for _, a := range commmodel.Algorithms(commmodel.AllReduce) {
		want = append(want, a.Name()+" per call")
	}
	one := DecodeBudget{Shape: DeepSeekV3Decode, TP: []int{2, 4, 8}, Node: presets.H20Cluster(1)}
	tab, err := one.Table()
	if err != nil {
		t.Fatal(err)
	}
	if got := tab.Header[2 : 2+len(want)]; !slices.Equal(got, want) || tab.Header[2+len(want)] != "fastest" {
		t.Errorf("one node: header %q, want the registry's %q then fastest", tab.Header, want)
	}
	small := commmodel.Cluster{Nodes: 1, PerNode: 4, Intra: presets.H20Intra, Inter: presets.H20Inter}
	two := DecodeBudget{Shape: DeepSeekV3Decode, TP: []int{2, 4, 8}, Node: small}
	tab, err = two.Table()
	if err != nil {
		t.Fatal(err)
	}
	if h, hier := tab.Header[2+len(want)], (commmodel.HierarchicalAllReduce{PerNode: 4}).Name(); h != hier+" per call" {
		t.Errorf("nodes of 4: column after the registry's is %q, want hierarchical", h)
	}
	if row := tab.Rows[2]; row[1] != "2 x 4 GPUs" || row[2+len(want)] == "–" {
		t.Errorf("TP 8 on nodes of 4: row %q; want 2 x 4 GPUs with a hierarchical time", row)
	}
}

// The figures name the article's H20 links only when they are the model's:
// a reader who sets other links in notebook 06's input cell gets their α and
// BW in the titles.
func TestDecodeTitlesNameTheLinks(t *testing.T) {
	other := presets.H20Cluster(1)
	other.Intra.Alpha, other.Inter.BW = 5e-6, 50e9
	for _, c := range []struct {
		node commmodel.Cluster
		want string
	}{{presets.H20Cluster(1), "article's H20 links"}, {other, "NVLink α 5 µs, 350 GB/s; network α 15 µs, 50 GB/s"}} {
		f, err := DecodeBudget{Shape: DeepSeekV3Decode, TP: []int{2, 8, 16}, Node: c.node, Floor: 10e-6}.Figure(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(f.Title, "(model: "+c.want+")") {
			t.Errorf("budget figure title %q, want the links %q", f.Title, c.want)
		}
	}
	m, err := loadMeasuredFloor()
	if err != nil {
		t.Fatal(err)
	}
	for node, want := range map[commmodel.Cluster]string{presets.H20Cluster(1): "on 8 x H20: model (α = 2 µs)", other: "on 8 GPUs: model (α = 5 µs, BW = 350 GB/s)"} {
		f, err := m.SmallFigure(DeepSeekV3Decode.Message(), []float64{128, 1 << 20}, node)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(f.Title, want) {
			t.Errorf("small-size figure title %q, want %q", f.Title, want)
		}
	}
}
