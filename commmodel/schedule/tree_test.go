package schedule

import (
	"math/bits"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// TestTreeFluidLimit holds the fluid tree (commmodel.Tree with Chunks 0) to
// the chunked schedules it is the limit of. At every C the schedule's bytes,
// reduction and peers are the fluid form's, and it takes C-1 steps more than
// the fluid form's 2H. With α = 0 its replay is the bandwidth term alone,
// which lies between the fluid form's and (1 + (2H-1)/C) times it (each of
// the 2H-1 steps of fill and drain carries at most one step of the busiest
// rank), on one link and on two levels.
func TestTreeFluidLimit(t *testing.T) {
	intra, inter := commmodel.Link{BW: 350e9}, commmodel.Link{BW: 20e9} // H20Intra's and H20Inter's BW, no α
	for _, sh := range [][2]int{{1, 8}, {2, 8}, {4, 4}, {8, 1}, {5, 3}, {3, 2}} {
		nodes, per := sh[0], sh[1]
		p := nodes * per
		h := per - 1 + bits.Len(uint(nodes-1))
		fluid := commmodel.Tree{PerNode: per}
		cl := commmodel.Cluster{Nodes: nodes, PerNode: per, Intra: intra, Inter: inter}
		for _, c := range []int{16, 256} {
			size := int64(4 * 2 * c * p)
			f := fluid.Cost(p, float64(size))
			a := commmodel.Tree{PerNode: per, Chunks: c}
			s, err := New(a, p, size)
			if err != nil {
				t.Fatal(err)
			}
			n := Count(s)
			if n.Steps != f.Steps+c-1 || float64(n.MaxSent()) != f.Bytes || float64(n.MaxReduced()) != f.Reduced || n.MaxPeers() != f.Peers {
				t.Errorf("%dx%d C=%d: steps %d, sent %d, reduced %d, peers %d; fluid %+v", nodes, per, c, n.Steps, n.MaxSent(), n.MaxReduced(), n.MaxPeers(), f)
			}
			slack := 1 + float64(2*h-1)/float64(c)
			for _, x := range []struct {
				what       string
				got, fluid float64
			}{
				{"one link", Replay(s, Uniform(intra)), f.Time(intra)},
				{"two levels", Replay(s, TwoLevel(per, intra, inter)), cl.Time(fluid, float64(size))},
			} {
				if !(x.got >= x.fluid*(1-1e-12) && x.got <= slack*x.fluid*(1+1e-12)) {
					t.Errorf("%dx%d C=%d %s: replay %.6g s, fluid %.6g s, want within x%.4g", nodes, per, c, x.what, x.got, x.fluid, slack)
				}
			}
		}
	}
}
