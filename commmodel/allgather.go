package commmodel

// RingReduceScatter is ReduceScatter around a ring: P-1 steps in which every
// rank passes one S/P chunk to its neighbour and reduces the one it receives.
//
//	steps = P-1, bytes = (P-1)/P·S, reduced = (P-1)/P·S, peers = 2
type RingReduceScatter struct{}

func (RingReduceScatter) Name() string           { return "ring" }
func (RingReduceScatter) Collective() Collective { return ReduceScatter }

// Cost returns ring ReduceScatter's cost for p ranks and S = size bytes.
func (r RingReduceScatter) Cost(p int, size float64) Cost {
	return withRingPeers(costOf(r.terms(p, size)), p)
}

func (RingReduceScatter) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	lap := lapBytes(p, size)
	return p - 1, p - 1, lap, 0, lap
}

// RingAllGather is AllGather around a ring: P-1 steps in which every rank
// passes on the S/P chunk it received last.
//
//	steps = P-1, bytes = (P-1)/P·S, peers = 2
type RingAllGather struct{}

func (RingAllGather) Name() string           { return "ring" }
func (RingAllGather) Collective() Collective { return AllGather }

// Cost returns ring AllGather's cost for p ranks and S = size bytes.
func (r RingAllGather) Cost(p int, size float64) Cost {
	return withRingPeers(costOf(r.terms(p, size)), p)
}

func (RingAllGather) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	return p - 1, p - 1, lapBytes(p, size), 0, 0
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

// Cost returns the broadcast's cost for p ranks and S = size bytes.
func (b PipelinedBroadcast) Cost(p int, size float64) Cost {
	return withRingPeers(costOf(b.terms(p, size)), p)
}

func (b PipelinedBroadcast) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	mustRanks(p)
	size = checkSize(size)
	if p == 1 {
		return 0, 0, 0 * size, 0, 0
	}
	c := max(b.Chunks, 1)
	path := float64(p-1) * size // unpipelined: P-1 steps of S
	if c > 1 {
		path = float64(p-2+c) / float64(c) * size
	}
	return p - 2 + c, p - 2 + c, size, path, 0
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
