package article

import (
	"fmt"
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/topo"
	"github.com/inframethod/commlab/units"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PathMap is a heat-map of the GPU x NIC path classes of several machines,
// drawn as one RegimeMap: each machine a block of NIC columns (a blank column
// between blocks), GPU0 in the top row, every cell coloured by its class and
// labelled with it, the machine's name above its block.
type PathMap struct {
	Title    string
	Machines []H20Machine
	// Width and Height are the PNG's size; zero: 8 x 5 in.
	Width, Height vg.Length
}

// pathNotes explains each class in the legend.
var pathNotes = map[topo.Class]string{
	topo.PIX:  "PIX: same PCIe switch",
	topo.PXB:  "PXB: several PCIe switches",
	topo.PHB:  "PHB: through the host bridge",
	topo.NODE: "NODE: same NUMA, across host bridges",
	topo.SYS:  "SYS: across NUMA nodes",
}

// pathMapTop is the least room above the grid, in rows, for the machine
// names and the legend; each class past the third adds a row, so that the
// legend stays clear of the names.
const pathMapTop = 3

// Classes returns the GPU-NIC path classes that occur in the machines, near
// to far: the regimes of the map, in the order of its Names.
func (m PathMap) classes() []topo.Class {
	seen := map[topo.Class]bool{}
	for _, mc := range m.Machines {
		for _, row := range mc.Topology.GPUNICTable() {
			for _, p := range row {
				seen[p.Class] = true
			}
		}
	}
	var out []topo.Class
	for c := topo.Unknown; c <= topo.SYS; c++ {
		if seen[c] {
			out = append(out, c)
		}
	}
	return out
}

// columns returns the x centre of each machine's first NIC column and the
// total number of columns, gaps included.
func (m PathMap) columns() (first []int, total int) {
	for i, mc := range m.Machines {
		if i > 0 {
			total++ // blank column between machines
		}
		first = append(first, total)
		total += len(mc.Topology.NICs())
	}
	return first, total
}

func (m PathMap) gpus() int {
	n := 0
	for _, mc := range m.Machines {
		n = max(n, len(mc.Topology.GPUs()))
	}
	return n
}

// RegimeMap returns the map's grid: column x is a NIC of one machine, row y
// = -g is GPU g, cells index Classes (-1 in the gaps).
func (m PathMap) regimeMap() figure.RegimeMap {
	classes := m.classes()
	index := map[topo.Class]int{}
	var names []string
	for k, c := range classes {
		index[c] = k
		name, ok := pathNotes[c]
		if !ok {
			name = c.String()
		}
		names = append(names, name)
	}
	first, total := m.columns()
	g := m.gpus()
	rm := figure.RegimeMap{
		Title: m.Title,
		X:     figure.Axis{Label: "NIC (its NUMA node)", Unit: figure.Plain, Min: -0.5, Max: float64(total) - 0.5},
		Y:     figure.Axis{Label: "GPU (its NUMA node)", Unit: figure.Plain, Min: -float64(g) + 0.5, Max: 0.5 + float64(max(pathMapTop, len(classes)))},
		Names: names, Legend: figure.TopRight,
		Width: m.Width, Height: m.Height,
	}
	if rm.Width <= 0 {
		rm.Width = 8 * vg.Inch
	}
	if rm.Height <= 0 {
		rm.Height = 5 * vg.Inch
	}
	for x := range total {
		rm.Xs = append(rm.Xs, float64(x))
	}
	for y := -(g - 1); y <= 0; y++ {
		rm.Ys = append(rm.Ys, float64(y))
		row := make([]int, total)
		for i := range row {
			row[i] = -1
		}
		for k, mc := range m.Machines {
			t := mc.Topology
			if -y >= len(t.GPUs()) {
				continue
			}
			for n := range t.NICs() {
				row[first[k]+n] = index[t.GPUNIC(-y, n).Class]
			}
		}
		rm.Cells = append(rm.Cells, row)
	}
	return rm
}

// PNG renders the map to PNG bytes, with device tick labels and the cell
// and block labels.
func (m PathMap) PNG() ([]byte, error) {
	if len(m.Machines) == 0 {
		return nil, fmt.Errorf("path map %q: no machines", m.Title)
	}
	rm := m.regimeMap()
	p, err := rm.Plot()
	if err != nil {
		return nil, err
	}
	first, _ := m.columns()
	var xt, yt []plot.Tick
	labels := labelLayer{}
	for k, mc := range m.Machines {
		t := mc.Topology
		for n, nic := range t.NICs() {
			x := float64(first[k] + n)
			xt = append(xt, plot.Tick{Value: x, Label: nic.Name + "\n(" + numaString(nic.NUMA) + ")"})
			for g := range t.GPUs() {
				labels.add(x, -float64(g), t.GPUNIC(g, n).String(), false)
			}
		}
		labels.add(float64(first[k])-0.45, 0.95, mc.Name, true)
	}
	for g, l := range m.rowLabels() {
		yt = append(yt, plot.Tick{Value: -float64(g), Label: l})
	}
	p.X.Tick.Marker = plot.ConstantTicks(xt)
	p.Y.Tick.Marker = plot.ConstantTicks(yt)
	p.Add(labels)
	return figure.PNG(p, rm.Width, rm.Height)
}

// rowLabels labels each row, GPU g of every machine that has one: its
// name, and its NUMA node on each machine, in their order, when they differ
// ("GPU4 (1 | 2)").
func (m PathMap) rowLabels() []string {
	var out []string
	for g := range m.gpus() {
		var name string
		var numa []string
		for _, mc := range m.Machines {
			gpus := mc.Topology.GPUs()
			if g >= len(gpus) {
				continue
			}
			if name == "" {
				name = gpus[g].Name
			}
			if s := numaString(gpus[g].NUMA); !slices.Contains(numa, s) {
				numa = append(numa, s)
			}
		}
		out = append(out, name+" ("+strings.Join(numa, " | ")+")")
	}
	return out
}

// labelLayer draws text at data coordinates: centred cell labels, and
// left-aligned block titles.
type labelLayer struct{ items []labelItem }

type labelItem struct {
	x, y  float64
	text  string
	title bool
}

func (l *labelLayer) add(x, y float64, text string, title bool) {
	l.items = append(l.items, labelItem{x, y, text, title})
}

func (l labelLayer) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, it := range l.items {
		sty := p.X.Tick.Label
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
		if it.title {
			sty = p.Title.TextStyle
			sty.Font.Size = p.X.Label.TextStyle.Font.Size
			sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
		}
		c.FillText(sty, vg.Point{X: trX(it.x), Y: trY(it.y)}, it.text)
	}
}

// NICShareFigure plots a GPU's network bandwidth against the number of GPUs
// of the node that send across the network at once (activeShare): for each
// machine with ranks on GPUs 0..k-1 and, where it differs, with GPUs added
// one per NIC first (spreadOrder); the inter-node link inter (the article's:
// presets.H20Inter, intra ÷17.5) for reference; and each machine's measured rate as a
// labelled point at the measurement's GPUs per node.
func NICShareFigure(ms []H20Machine, inter commmodel.Link) figure.Figure {
	f := figure.Figure{
		Title:  "Network bandwidth per GPU when k GPUs of a node send at once",
		X:      figure.Axis{Label: "GPUs of the node sending across the network at once, k", Unit: figure.Plain, Min: 0.5, Max: 8.5},
		Y:      figure.Axis{Label: "network BW of the busiest GPU", Unit: figure.BytesPerSecond, Min: 0, Max: 60e9},
		Legend: figure.BottomRight,
	}
	most := 0
	for _, m := range ms {
		t := m.Topology
		most = max(most, len(t.GPUs()))
		byIndex := make([]int, len(t.GPUs()))
		for g := range byIndex {
			byIndex[g] = g
		}
		spread := spreadOrder(t)
		orders := []struct {
			name  string
			order []int
		}{{"GPUs 0..k-1", byIndex}, {"one GPU per NIC first", spread}}
		var prev []float64
		for _, o := range orders {
			var xs, ys []float64
			for k := 1; k <= len(o.order); k++ {
				xs = append(xs, float64(k))
				ys = append(ys, activeShare(t, m.NICLineRate, o.order[:k]))
			}
			if prev != nil && slices.Equal(prev, ys) {
				continue // the spread order changes nothing on this machine
			}
			prev = ys
			f.Series = append(f.Series, figure.Series{Name: m.Short + ", " + o.name, X: xs, Y: ys, Style: figure.LinePoints})
		}
	}
	f.X.Max = float64(most) + 0.5
	f.Series = append(f.Series, figure.Series{
		Name: "article's inter-node link, " + units.FormatBandwidth(inter.BW) + " (intra ÷17.5)",
		X:    []float64{1, float64(most)}, Y: []float64{inter.BW, inter.BW},
	})
	for _, m := range ms {
		if mr := m.Measured; mr.BW > 0 {
			f.Marks = append(f.Marks, figure.Mark{X: float64(mr.PerNode), Y: mr.BW,
				Label: fmt.Sprintf("measured on %s, %d x %d AllToAll: %s", m.Short, mr.Nodes, mr.PerNode, units.FormatBandwidth(mr.BW))})
		}
	}
	return f
}

// topologyExhibits are notebook 02's tables and figures.
func topologyExhibits(in inputs) ([]Exhibit, error) {
	ms, err := H20Machines()
	if err != nil {
		return nil, err
	}
	machines, err := MachinesTable(ms, in.figures)
	if err != nil {
		return nil, err
	}
	art, pub := ms[0].Topology, ms[1].Topology
	tables := []struct {
		name, title string
		t           figure.Table
	}{
		{"02-gpu-nic-article", "GPU-NIC distance table of the article's 8 x H20 / 4-NIC server", GPUNICTable(art)},
		{"02-gpu-nic-public", "GPU-NIC distance table of the public 8 x H20-3e VM with 8 NICs", GPUNICTable(pub)},
		{"02-numa-pcie", "NUMA nodes and PCIe switch groups of both machines", NUMATable(ms)},
		{"02-bindings-article", "NIC bindings of the article's server: nearest NIC, GDR at NCCL's default level, CPUs", BindingsTable(art)},
		{"02-bindings-public", "NIC bindings of the public H20-3e VM", BindingsTable(pub)},
		{"02-machines", "The article's server and the public H20-3e VM side by side", machines},
	}
	var out []Exhibit
	for _, tb := range tables {
		t := tb.t
		out = append(out, Exhibit{Name: tb.name, Title: tb.title, Table: &t})
	}
	out = append(out,
		Exhibit{Name: "02-path-map", Title: "GPU x NIC path classes of both machines", Figure: PathMap{Title: "GPU-NIC paths: the article's server and a public H20-3e VM", Machines: ms}},
		Exhibit{Name: "02-nic-share", Title: "Per-GPU network bandwidth against GPUs sending at once (NIC arithmetic)", Figure: NICShareFigure(ms, in.node.Inter)},
	)
	return out, nil
}
