package commmodel

// CollNetDirect is NCCL's CollNet Direct AllReduce (NCCL 2.30.7,
// src/device/all_reduce.h, RunWorkColl for NCCL_ALGO_COLLNET_DIRECT), in
// which the network's switch reduces across nodes (SHARP) on N nodes of p =
// PerNode GPUs, each GPU a head with its own NIC. Every GPU scatters slice h
// of S/p straight to GPU h of its node, which reduces the p copies; GPU h
// AllReduces the slice through the network's switch with GPU h of the other
// nodes (SwitchAllReduceCost); and it sends the result straight to the p-1
// others. Inside the node these are the two steps of two-shot, with the
// switch in between:
//
//	steps = 3, bytes = 2(p-1)/p·S + S/p, network bytes = S/p
//	reduced = (p-1)/p·S, peers = (p-1) + 1 (the switch), fanout = p-1
//
// NCCL's tuning model charges it 2(intraLat + (p-1)·0.4 us) + interLat
// (src/graph/tuning.cc): the two steps inside the node, serialised over the
// p-1 peers (what Link.Overhead charges per message), and one network
// latency. NCCL uses as many heads as the node has NICs; here every GPU is
// one. On one node (NCCL needs two) it is two-shot.
type CollNetDirect struct {
	// PerNode is the number of GPUs per node, p; P must be a multiple of it.
	PerNode int
}

func (CollNetDirect) Name() string           { return "collnet-direct" }
func (CollNetDirect) Collective() Collective { return AllReduce }

// Cost returns CollNet Direct's cost for p ranks (N = p/PerNode nodes) and S
// = size bytes on one Link. Its bytes are NaN if p is not a multiple of
// PerNode.
func (d CollNetDirect) Cost(p int, size float64) Cost { return costOn(d, p, size) }

func (d CollNetDirect) nodeSize(int) int { return d.PerNode }

// plan: the scatter of the node's buffer in slices of S/p to their GPUs,
// reduced, each GPU's switch AllReduce of its slice across the nodes, and
// the gather of the slices. On a Cluster, PerNode is ignored: p is the
// cluster's.
func (CollNetDirect) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	size = checkSize(size)
	slice := size / float64(perNode)
	scatter, scatterReach := toPeers(perNode-1, slice, true)
	gather := scatter
	gather.reduced = 0
	net, netReach := switchStep(nodes, slice)
	if st != nil {
		st.add(Stage{Intra: costOf(scatter, scatterReach)})
		st.add(Stage{Inter: costOf(net, netReach)})
		st.add(Stage{Intra: costOf(gather, scatterReach)})
	}
	r := scatterReach.then(netReach).then(scatterReach)
	r.peers = scatterReach.peers + netReach.peers
	return scatter.then(net).then(gather), r
}

// CollNetChain is NCCL's CollNet Chain AllReduce (NCCL 2.30.7,
// src/device/all_reduce.h, RunWorkColl for NCCL_ALGO_COLLNET_CHAIN;
// src/graph/connect.cc, whose chain's first GPU has the network for its
// parent): on N nodes of p = PerNode GPUs, the GPUs of a node form a chain
// whose head, GPU 0, reduces the node's sum up the chain, AllReduces it
// through the network's switch with the other heads (SHARP), and broadcasts
// the result back down the chain.
//
// Pipelined in C = Chunks chunks of S/C, GPU i >= 1 sends chunk c up in step
// p-1-i+c, the head sends it to the switch in step p-1+c and down in step
// s+c, s = p-1+[N >= 2], and GPU i forwards it down in step s+i+c:
//
//	steps = 2(p-1) + [N >= 2] + C - 1
//	bytes = max(2S·[p >= 3], S·[p >= 2] + S·[N >= 2]), network bytes = S
//	reduced = S·[p >= 2] (the switch reduces across nodes), peers = 2
//
// the latency of NCCL's tuning model, 2(p-1)·intraLat + interLat
// (src/graph/tuning.cc), plus the pipeline's C-1 steps; like Tree, the
// time sums each step's busiest rank (pipeline.go, swept once per shape:
// pipelined.go). With Chunks = 0 it is
// the fluid limit: the first chunk's steps pay α and the data streams
// behind at the busiest rank's pace.
type CollNetChain struct {
	// PerNode is the number of GPUs per node, p; P must be a multiple of it.
	PerNode int
	// Chunks is the number of chunks the buffer is pipelined in, C; 0 means
	// the fluid limit.
	Chunks int
}

func (CollNetChain) Name() string           { return "collnet-chain" }
func (CollNetChain) Collective() Collective { return AllReduce }

// chainSteps returns the steps of the first chunk's trip (2(p-1) along the
// chain, one through the network's switch) and the step in which the head
// sends it down.
func chainSteps(nodes, perNode int) (fill, down int) {
	net := min(nodes-1, 1)
	return 2*(perNode-1) + net, perNode - 1 + net
}

// chainBytes returns the busiest GPU's bytes inside the node, across the
// network, and over both, and the busiest reducer's.
func chainBytes(nodes, perNode int, size float64) (intra, inter, all, reduced float64) {
	switch {
	case perNode >= 3:
		intra = 2 * size
	case perNode == 2:
		intra = size
	}
	head := 0.0
	if perNode >= 2 {
		head, reduced = size, size // down the chain; from GPU 1
	}
	if nodes >= 2 {
		inter = size
		head += size
	}
	return intra, inter, max(intra, head), reduced
}

// Cost returns CollNet Chain's cost for p ranks (N = p/PerNode nodes) and S
// = size bytes on one Link. Its bytes are NaN if p is not a multiple of
// PerNode.
func (d CollNetChain) Cost(p int, size float64) Cost { return costOn(d, p, size) }

func (d CollNetChain) nodeSize(int) int { return d.PerNode }

// plan: chunked, as Tree's; in the fluid limit the first chunk's 2(p-1)
// steps along the chain pay the intra-node α and its step through the
// switch the network's, and the data then streams at the pace of the
// slower level:
//
//	T = 2(p-1)·α_intra + α_inter + max(intra bytes/BW_intra, S/BW_inter)
//
// On a Cluster, PerNode is ignored: p is the cluster's.
func (d CollNetChain) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	size = checkSize(size)
	if nodes*perNode == 1 {
		return single(size, st)
	}
	intra, inter, all, reduced := chainBytes(nodes, perNode, size)
	fill, _ := chainSteps(nodes, perNode)
	peers := max(min(perNode-1, 2), min(perNode-1, 1)+min(nodes-1, 1)) // a chain GPU's two neighbours; the head's GPU 1 and switch
	l, r := load{fill, fill, all, reduced}, reach{all, peers, peers}
	if d.Chunks < 1 {
		if st != nil {
			intraPeers, interPeers := min(perNode-1, 2), min(nodes-1, 1)
			fluidStages(st, 2*(perNode-1), min(nodes-1, 1),
				Cost{Bytes: intra, Reduced: reduced, Peers: intraPeers, Fanout: intraPeers},
				Cost{Bytes: inter, Peers: interPeers, Fanout: interPeers})
		}
		return l, r
	}
	return pipePlan(l, r, pipeShape{chainPipe, nodes, perNode, d.Chunks}, size, st)
}

// chainWindows adds to q the windows of one node's chain (the nodes run
// alike): one chunk per step up, through the switch (peer -1) and down.
func chainWindows(nodes, perNode int, q *pipeline) {
	_, down := chainSteps(nodes, perNode)
	for i := 1; i < perNode; i++ {
		var s sender
		s.send(perNode-1-i, 1, i-1, false)
		if i < perNode-1 {
			s.receive(perNode-2-i, 1, false)
			s.send(down+i, 1, i+1, false)
		}
		q.add(&s)
	}
	var s sender
	if perNode > 1 {
		s.receive(perNode-2, 1, false)
		s.send(down, 1, 1, false)
	}
	if nodes > 1 {
		s.send(perNode-1, 1, -1, true)
	}
	q.add(&s)
}
