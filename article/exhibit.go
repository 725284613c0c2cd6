package article

import (
	"fmt"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/topo"
)

// An Exhibit is one table or figure of a notebook. The notebooks show
// exhibits built by this package's functions, and "commlab reproduce" writes
// every exhibit to files, so each exists in one place only.
type Exhibit struct {
	// Name is the file stem, prefixed by its notebook's number, e.g.
	// "01-allreduce-times"; reproduce writes Name.png or Name.md.
	Name string
	// Title says what it shows, in a sentence.
	Title string
	// Exactly one of Table and Figure is set.
	Table  *figure.Table
	Figure figure.PNGer
}

// inputs are what the exhibits and the claims are computed from.
type inputs struct {
	// node is one node of the server: its GPUs (PerNode), the link inside
	// it (Intra) and the link between nodes (Inter); Nodes is 1.
	node commmodel.Cluster
	// figures are the per-link figures that turn a topology into links
	// (topo.Topology.Levels).
	figures topo.Figures
	// fit are the settings of every fit.
	fit fit.Settings
	// executed is the cluster notebook 03 executes the schedules on, and
	// executedSize the size S in bytes it executes them at.
	executed     commmodel.Cluster
	executedSize int64
	// scored names the paired machines whose tables notebook 07 scores
	// and whose crossovers it compares; nil means every paired machine
	// (heldout.PairedMachines).
	scored []string
}

// articleInputs returns the article's inputs: its 8 x H20 server
// (presets.H20Cluster: NVLink α 2 µs, BW 350 GB/s; network α 15 µs,
// BW 20 GB/s per GPU), NCCL's Hopper NVLink and the article's 400G NICs
// (topo.H20Figures), and fit's defaults spelled out as notebook 05 spells
// them: the robust bisquare loss, the number of regimes chosen by BIC (up to
// 8, with a 1% noise floor), and 95% intervals from 200 bootstrap replicates.
// Notebook 03 executes the schedules on 16 such nodes at ExecutedSize;
// notebook 07 scores every paired machine.
func articleInputs() inputs {
	return inputs{
		node:         presets.H20Cluster(1),
		figures:      topo.H20Figures,
		fit:          fit.Settings{Loss: fit.Bisquare, Regimes: 0, MaxRegimes: 8, NoiseFloor: 0.01, Bootstrap: 200, Level: 0.95},
		executed:     presets.H20Cluster(16),
		executedSize: ExecutedSize,
	}
}

// cluster returns nodes nodes like in.node.
func (in inputs) cluster(nodes int) commmodel.Cluster {
	c := in.node
	c.Nodes = nodes
	return c
}

// notebooks are the builders of each notebook's exhibits, in notebook
// order, under the notebook's file stem.
var notebooks = []struct {
	name  string
	build func(inputs) ([]Exhibit, error)
}{
	{"01_allreduce", allReduceExhibits},
	{"02_topology", topologyExhibits},
	{"03_crossnode", crossNodeExhibits},
	{"04_alltoall", allToAllExhibits},
	{"05_fitting", fittingExhibits},
	{"06_decode", decodeExhibits},
	{"07_prediction", predictionExhibits},
	{"08_diagnose_tune", diagnoseExhibits},
}

// Exhibits builds every notebook's exhibits with the article's inputs,
// notebook by notebook.
func Exhibits() ([]Exhibit, error) {
	var out []Exhibit
	seen := map[string]bool{}
	for _, nb := range notebooks {
		ex, err := nb.build(articleInputs())
		if err != nil {
			return nil, fmt.Errorf("exhibits of %s: %w", nb.name, err)
		}
		for _, e := range ex {
			if seen[e.Name] || (e.Table == nil) == (e.Figure == nil) {
				return nil, fmt.Errorf("exhibits of %s: %q is a duplicate or not exactly one of table and figure", nb.name, e.Name)
			}
			seen[e.Name] = true
		}
		out = append(out, ex...)
	}
	return out, nil
}
