package commmodel

// RingReduceScatter is ReduceScatter around a ring: P-1 steps in which every
// rank passes one S/P chunk to its neighbour and reduces the one it receives.
//
//	steps = P-1, bytes = (P-1)/P·S, reduced = (P-1)/P·S, peers = 2
type RingReduceScatter struct{}

func (RingReduceScatter) Name() string           { return "ring" }
func (RingReduceScatter) Collective() Collective { return ReduceScatter }
func (RingReduceScatter) nodeSize(p int) int     { return p }

// Cost returns ring ReduceScatter's cost for p ranks and S = size bytes.
func (r RingReduceScatter) Cost(p int, size float64) Cost { return costOn(r, p, size) }

func (RingReduceScatter) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	p := nodes * perNode
	lap := lapBytes(p, size)
	l, r := ringCost(p, p-1, lap, lap)
	return flat(nodes, perNode, l, r, st)
}

// RingAllGather is AllGather around a ring: P-1 steps in which every rank
// passes on the S/P chunk it received last.
//
//	steps = P-1, bytes = (P-1)/P·S, peers = 2
type RingAllGather struct{}

func (RingAllGather) Name() string           { return "ring" }
func (RingAllGather) Collective() Collective { return AllGather }
func (RingAllGather) nodeSize(p int) int     { return p }

// Cost returns ring AllGather's cost for p ranks and S = size bytes.
func (r RingAllGather) Cost(p int, size float64) Cost { return costOn(r, p, size) }

func (RingAllGather) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	p := nodes * perNode
	l, r := ringCost(p, p-1, lapBytes(p, size), 0)
	return flat(nodes, perNode, l, r, st)
}

// PipelinedBroadcast is Broadcast down a chain from the root: the buffer is
// cut into C = Chunks chunks and each rank forwards a chunk as soon as it has
// it, so the last rank receives the last chunk after P-2+C steps.
//
//	steps = P-2+C, bytes = S, path bytes = (P-2+C)·S/C, messages = C, peers = 2
//
// Every rank but the last sends all of S once; the time is that of the
// P-2+C steps of S/C each. With C <= 1 it is the plain ring broadcast, P-1
// steps of S. The best C balances the two terms, C* = sqrt((P-2)·S/(α·BW)),
// which OptimalChunks gives.
type PipelinedBroadcast struct {
	// Chunks is the number of pieces the buffer is cut into; 0 and 1 mean one.
	Chunks int
}

// Name is "ring" without pipelining and "pipelined" with it.
func (b PipelinedBroadcast) Name() string {
	if b.Chunks > 1 {
		return "pipelined"
	}
	return "ring"
}

func (PipelinedBroadcast) Collective() Collective { return Broadcast }
func (PipelinedBroadcast) nodeSize(p int) int     { return p }

// Cost returns the broadcast's cost for p ranks and S = size bytes.
func (b PipelinedBroadcast) Cost(p int, size float64) Cost { return costOn(b, p, size) }

// plan: rank r forwards chunk c in step r+c, so on more than one node only
// the steps in which a node's last rank forwards to the next node's first
// cross the network: C steps per node boundary, fewer where the windows of
// neighbouring boundaries overlap (C > p). The other steps stay on NVLink.
func (b PipelinedBroadcast) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	p := nodes * perNode
	mustRanks(p)
	size = checkSize(size)
	if p == 1 {
		return flat(nodes, perNode, load{path: 0 * size}, reach{bytes: 0 * size}, st)
	}
	c := max(b.Chunks, 1)
	l, r := ringCost(p, p-2+c, size, 0)
	l.path = float64(p-1) * size // unpipelined: P-1 steps of S
	if c > 1 {
		l.path = float64(p-2+c) / float64(c) * size
	}
	if nodes == 1 {
		return flat(nodes, perNode, l, r, st)
	}
	if st != nil {
		local, remote, chunk := b.split(nodes, perNode, size)
		st.add(Stage{Intra: chainCost(p, local, chunk, size)})
		st.add(Stage{Inter: chainCost(p, remote, chunk, size)})
	}
	return l, r
}

// split returns how many of the broadcast's steps stay on NVLink and how
// many cross the network on nodes >= 2, and the chunk. Boundary k (rank
// k·p-1 to k·p) sends in steps k·p-1 .. k·p+C-2, a window of C steps, and
// windows p apart overlap when C > p: the last boundary adds C steps and
// each of the N-2 others min(C, p),
//
//	network steps = C + (N-2)·min(C, p)
func (b PipelinedBroadcast) split(nodes, perNode int, size float64) (local, remote int, chunk float64) {
	c := max(b.Chunks, 1)
	remote = c + (nodes-2)*min(c, perNode)
	return nodes*perNode - 2 + c - remote, remote, size / float64(c)
}

// chainCost is n steps of the chain of p ranks, each of one chunk: a rank
// sends at most all of S within them. None for none.
func chainCost(p, n int, chunk, size float64) Cost {
	if n == 0 {
		return Cost{}
	}
	l, r := ringCost(p, n, float64(n)*chunk, 0)
	r.bytes, r.fanout = min(size, l.path), 1
	return costOf(l, r)
}

// OptimalChunks returns the chunk count that minimises the pipelined
// broadcast's time on l for p ranks and S = size bytes,
//
//	C* = sqrt((P-2)·S / (α·BW)), at least 1,
//
// the minimum of (P-2+C)·(α + S/(C·BW)). A zero α gives the largest count
// that keeps each chunk at least one byte.
func OptimalChunks(p int, size float64, l Link) int {
	mustRanks(p)
	if p <= 2 || !(size >= 1) || !l.Valid() {
		return 1
	}
	if l.Alpha == 0 {
		return int(min(size, 1<<30))
	}
	c := sqrt(float64(p-2) * size / (l.Alpha * l.BW))
	return max(1, int(min(c+0.5, 1<<30)))
}
