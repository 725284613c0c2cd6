package commmodel

// Shift is SendRecv as nccl-tests' sendrecv_perf runs it: rank i sends its
// S bytes to rank i+1 and receives S bytes from rank i-1 (mod P), one
// point-to-point send each way, all ranks at once. It is one round of
// Pairwise's i+t rule, t = 1, with the whole buffer as its block, and its
// send is Direct's to a single peer. A rank sends to one neighbour and
// receives from the other, as in a ring:
//
//	steps = 1, bytes = S, fanout = 1, peers = min(2, P-1)   (all 0 for P = 1: a local copy)
//
// On N nodes of p ranks, numbered node by node, p-1 of a node's ranks send
// to the next over NVLink while its last rank sends to the next node's
// first over the network (for N > 1): one stage, S on each level.
type Shift struct{}

func (Shift) Name() string           { return "shift" }
func (Shift) Collective() Collective { return SendRecv }
func (Shift) nodeSize(p int) int     { return p }

// Cost returns the shift's cost for p ranks and S = size bytes.
func (s Shift) Cost(p int, size float64) Cost { return costOn(s, p, size) }

func (Shift) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	p := nodes * perNode
	mustRanks(p)
	size = checkSize(size)
	if st != nil {
		intra, inter := min(1, perNode-1), min(1, nodes-1)
		st.add(Stage{Intra: costOf(toPeers(intra, size, false)), Inter: costOf(toPeers(inter, size, false))})
	}
	if p == 1 {
		return load{path: 0 * size}, reach{bytes: 0 * size} // a local copy: NaN for a NaN size
	}
	l, r := toPeers(1, size, false)
	r.peers = min(2, p-1)
	return l, r
}
