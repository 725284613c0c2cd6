package commmodel

// The plans of pipelined algorithms: chunked, from a sweep of every rank's
// windows of steps (pipeline.go); in the fluid limit, in closed form.

// A pipeKind is one of the pipelined schedules.
type pipeKind int

const (
	treePipe  pipeKind = iota // Tree's (and NVLSTree's trees), on two halves
	chainPipe                 // CollNetChain's, on one buffer
)

// A pipeShape is what a pipeline's sweep depends on: its schedule, N, p
// and C >= 1.
type pipeShape struct {
	kind                   pipeKind
	nodes, perNode, chunks int
}

// parts is how many parts the buffer is cut into before each is cut into
// C chunks: a chunk is S/(parts·C).
func (s pipeShape) parts() int {
	if s.kind == treePipe {
		return 2
	}
	return 1
}

// sweep sweeps every rank's windows of s.
func (s pipeShape) sweep() pipeline {
	var q pipeline
	if s.kind == treePipe {
		h := s.perNode - 1 + treeHeight(s.nodes)
		q = newPipeline(s.chunks, 2*h-1) // the last rank to forward is at depth H-1
	} else {
		fill, _ := chainSteps(s.nodes, s.perNode)
		q = newPipeline(s.chunks, fill-1) // the last to forward is GPU p-2 (or the head to the switch)
	}
	s.windows(&q)
	return q
}

// windows adds every rank's windows to q.
func (s pipeShape) windows(q *pipeline) {
	if s.kind == treePipe {
		treeWindows(s.nodes, s.perNode, q)
	} else {
		chainWindows(s.nodes, s.perNode, q)
	}
}

// peers returns the connections a rank of s holds inside its node and
// across the network.
func (s pipeShape) peers() (intra, inter int) {
	if s.kind == treePipe {
		return treePeers(s.nodes, s.perNode)
	}
	return min(s.perNode-1, 2), min(s.nodes-1, 1)
}

// key returns s packed in one word, and whether it fits in one: the key of
// sweeps, since Go's maps look a word up on a path of their own, where a
// struct is hashed as memory. Each count takes 21 bits, more than any
// sweep can cover.
func (s pipeShape) key() (uint64, bool) {
	const limit = 1 << 21
	if uint(s.nodes) >= limit || uint(s.perNode) >= limit || uint(s.chunks) >= limit {
		return 0, false
	}
	return uint64(s.kind)<<63 | uint64(s.nodes)<<42 | uint64(s.perNode)<<21 | uint64(s.chunks), true
}

// A sweep is what a pipeline's plans need of the sweep of its shape: the
// steps, the messages summed over them, the most messages of one rank in
// one step, the critical path of a pipeline of one byte (the chunks summed
// over the steps, times the chunk's size), and its runs of steps as
// stages.
type sweep struct {
	steps, messages, fanout int
	path                    float64
	runs                    []Stage
}

// maxSweptNodes is the most nodes a chunked tree's sweep walks, each node
// once (its chain's GPUs once per pair of depths of its head): 2^16 nodes
// take a few tenths of a second, and more than any machine NCCL runs on.
const maxSweptNodes = 1 << 16

// sweeps keeps the sweep of every pipeShape planned, by its key: a sweep
// costs ranks x 2L x windows, its shape's plans a few arithmetic
// operations.
var sweeps memo[uint64, *sweep]

// sweepOf returns the sweep of s; one of a shape too large for a key is
// swept anew.
func sweepOf(s pipeShape) *sweep {
	k, ok := s.key()
	if !ok {
		return newSweep(s)
	}
	return sweeps.get(k, func() *sweep { return newSweep(s) })
}

// newSweep sweeps s.
func newSweep(s pipeShape) *sweep {
	q := s.sweep()
	chunks, messages, fanout := q.path()
	w := &sweep{steps: q.steps(), messages: messages, fanout: fanout, path: float64(chunks) / float64(s.parts()*s.chunks)}
	q.split()
	s.windows(&q)
	intraPeers, interPeers := s.peers()
	w.runs = q.stages(1/float64(s.parts()*s.chunks), intraPeers, interPeers)
	return w
}

// pipePlan is the plan of a chunked pipeline of shape s for S = size bytes,
// a checked size, whose busiest rank sends and reduces as cost says: its
// cost, with the sweep's steps, messages, fanout and critical path, and, to
// st if not nil, the sweep's runs of steps as stages.
//
// A tree's sweep walks every node, so a chunked tree over more than
// maxSweptNodes nodes is not swept: its cost is that of a shape it does not
// fit, NaN bytes (Tree{Chunks: 4} on 2^40 ranks swept for hours).
func pipePlan(l load, r reach, s pipeShape, size float64, st *stages) (load, reach) {
	if s.kind == treePipe && s.nodes > maxSweptNodes {
		return undefined(st)
	}
	w := sweepOf(s)
	l.steps, l.messages, r.fanout = w.steps, w.messages, w.fanout
	// The path is never below the busiest rank's bytes; max keeps rounding from saying so.
	l.path = max(r.bytes, w.path*size)
	if st != nil {
		for _, run := range w.runs {
			st.add(Stage{Intra: run.Intra.scaled(size), Inter: run.Inter.scaled(size)})
		}
	}
	return l, r
}

// fluidStages appends to st the stages of a pipeline's fluid limit
// (Chunks = 0) on a two-level fabric: the first chunk's intraSteps steps
// inside a node and interSteps across the network pay each level's α, one
// message each, and the data then streams at the pace of the slower level,
// the busiest rank sending intra inside its node and inter across the
// network at once. A level with no steps has no part.
func fluidStages(st *stages, intraSteps, interSteps int, intra, inter Cost) {
	var bw Stage
	if intraSteps > 0 {
		st.add(Stage{Intra: Cost{Steps: intraSteps, Messages: intraSteps, Peers: intra.Peers, Fanout: 1}})
		bw.Intra = intra
	}
	if interSteps > 0 {
		st.add(Stage{Inter: Cost{Steps: interSteps, Messages: interSteps, Peers: inter.Peers, Fanout: 1}})
		bw.Inter = inter
	}
	st.add(bw)
}
