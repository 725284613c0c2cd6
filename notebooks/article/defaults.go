package article

import (
	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/topo"
)

// The article's values, the defaults of its analyses. Every analysis of this
// package takes its inputs as arguments (frames or samples, links, clusters,
// P, fit settings); the exhibits (Exhibits, "commlab reproduce") and the
// claims (Ledger) pass these. A notebook cell can pass other values to one
// analysis, or set one of these and rebuild everything with it.
var (
	// Intra is the link inside one node of the article's 8 x H20 server:
	// α 2 µs and BW 350 GB/s (commmodel.H20Intra, derived there from the
	// article's "14 steps = 28 us" and "1 MB moves in 5 us").
	Intra = commmodel.H20Intra
	// Inter is the link between two such nodes: α 15 µs and BW 20 GB/s, the
	// article's "α ×7.5, egress ÷17.5" (commmodel.H20Inter).
	Inter = commmodel.H20Inter
	// P is the number of GPUs of one node of the article's server.
	P = 8
	// Figures are the per-link figures that turn a topology into links
	// (topo.Topology.Levels): NCCL's Hopper NVLink and the article's 400G
	// NICs (topo.H20Figures).
	Figures = topo.H20Figures
	// DefaultFit is the fit settings of the analyses, fit's defaults spelled
	// out: the robust bisquare loss, the number of regimes chosen by BIC
	// (Regimes 0), and 95% intervals from 200 bootstrap replicates.
	DefaultFit = fit.Settings{Loss: fit.Bisquare, Regimes: 0, Bootstrap: 200, Level: 0.95}
)

// Cluster returns nodes nodes of the article's server: P GPUs each, Intra
// inside a node and Inter between nodes (commmodel.H20Cluster with the
// values above).
func Cluster(nodes int) commmodel.Cluster {
	return commmodel.Cluster{Nodes: nodes, PerNode: P, Intra: Intra, Inter: Inter}
}

// settingsCopy returns a copy of *s, or fit's defaults (the zero Settings)
// for a nil s, for an analysis that changes a field.
func settingsCopy(s *fit.Settings) fit.Settings {
	if s == nil {
		return fit.Settings{}
	}
	return *s
}
