package commmodel

// NVLS is NCCL's NVLink SHARP AllReduce, in which the NVSwitch does the
// reduction (Hopper and later; NCCL 2.30.7 src/device/all_reduce.h,
// RunWorkColl for NCCL_ALGO_NVLS). On a node of p GPUs, GPU h owns slice h
// of S/p. It loads its slice with multimem.ld_reduce, which the switch
// answers with the sum over the p GPUs, reading every GPU's copy of the
// slice over that GPU's link; then it stores the sum with multimem.st, which
// the switch writes into all p GPUs. In the load every GPU's whole buffer
// leaves it once (each of its p slices for its owner), in the store one
// slice, so a GPU sends
//
//	steps = 2, bytes = S + S/p, reduced = 0 (the switch reduces), peers = 1 (the switch)
//
// against ring's 2(p-1)/p·S: 1.125·S against 1.75·S on 8 GPUs. What a GPU
// receives, S/p and then S, comes from the switch over the other direction
// of the same link, and in NCCL's pipelined kernel the loads of one chunk
// overlap the stores of the one before, so a GPU's egress sets the pace as
// for every algorithm here. The copies between the user's buffers and the
// multicast buffer (the kernel's scatter and gather) stay inside a GPU and
// are not counted. Because the switch reduces and replicates, NVLS sends
// less than the point-to-point lower bound (LowerBound).
//
// Across nodes (PerNode = p < P) NCCL runs NVLS with the network switch
// reducing too (CollNet, SHARP): between the load and the store GPU h of
// every node AllReduces its slice through the network switch, sending it
// once and receiving the sum (SwitchAllReduceCost):
//
//	steps = 3, bytes = S + 2S/p, network bytes = S/p, peers = 2 (the two switches)
type NVLS struct {
	// PerNode is the number of GPUs per node, p, each node one NVLink
	// domain; P must be a multiple of it. 0 means one node of P GPUs.
	PerNode int
}

func (NVLS) Name() string           { return "nvls" }
func (NVLS) Collective() Collective { return AllReduce }

// Cost returns NVLS's cost for p ranks (N = p/PerNode nodes, one if
// PerNode is 0) and S = size bytes on one Link. Its bytes are NaN if p is
// not a multiple of PerNode.
func (v NVLS) Cost(p int, size float64) Cost { return costOn(v, p, size) }

func (v NVLS) nodeSize(p int) int {
	if v.PerNode == 0 {
		return p
	}
	return v.PerNode
}

// plan: the load-reduce of the buffer through the NVSwitch, the switch
// AllReduce of each GPU's slice between nodes, and the multicast store of
// the slice; a level with one member has no stage.
func (NVLS) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	size = checkSize(size)
	slice := size / float64(perNode)
	ld, ldReach := switchStep(perNode, size) // the load-reduce
	net, netReach := switchStep(nodes, slice)
	sto, stoReach := switchStep(perNode, slice) // the multicast store
	if st != nil {
		switch {
		case nodes*perNode == 1:
			st.add(Stage{Intra: Cost{Bytes: 0 * size}})
		case perNode == 1:
			st.add(Stage{Inter: costOf(net, netReach)})
		case nodes == 1:
			st.add(Stage{Intra: costOf(ld, ldReach)})
			st.add(Stage{Intra: costOf(sto, stoReach)})
		default:
			st.add(Stage{Intra: costOf(ld, ldReach)})
			st.add(Stage{Inter: costOf(net, netReach)})
			st.add(Stage{Intra: costOf(sto, stoReach)})
		}
	}
	peers := min(perNode-1, 1) + min(nodes-1, 1) // the NVSwitch, the network's switch
	return ld.then(net).then(sto), reach{ldReach.bytes + netReach.bytes + stoReach.bytes, peers, min(peers, 1)}
}

// switchStep is one step in which every member sends size bytes through
// a switch that reduces or replicates them, a message to one peer: none for
// one member.
func switchStep(members int, size float64) (load, reach) {
	if members < 2 {
		return load{path: 0 * size}, reach{bytes: 0 * size}
	}
	return load{1, 1, size, 0}, reach{size, 1, 1}
}

// SwitchAllReduceCost is the cost of an AllReduce of size bytes among
// members ranks done by a switch that reduces in the network (SHARP, as
// NCCL's CollNet uses it; NCCL 2.30.7 src/device/all_reduce.h, the
// collnet "send to network" and "recv from network" of each head): every
// member sends its data once and receives the sum, in one step, reducing
// nothing itself.
//
//	steps = 1, bytes = S, reduced = 0, peers = 1 (the switch)
//
// It is the zero Cost for a single member.
func SwitchAllReduceCost(members int, size float64) Cost {
	mustRanks(members)
	return costOf(switchStep(members, checkSize(size)))
}

// NVLSTree is NCCL's NVLSTree AllReduce (NCCL 2.30.7 src/device/all_reduce.h,
// RunWorkColl for NCCL_ALGO_NVLS_TREE; src/graph/connect.cc, the NVLS trees):
// NVLS inside each of N nodes of p = PerNode GPUs, and between the nodes
// NCCL's double binary tree among the GPUs that own the same slice, one tree
// per slice. GPU h of a node loads the node's sum of slice h from the switch,
// AllReduces it with GPU h of the other nodes over the trees (Tree with one
// GPU per node, on S/p, pipelined in Chunks or fluid), and stores the result
// through the switch:
//
//	steps = 2 + 2⌈log2 N⌉ (+ C-1)
//	bytes = S + S/p + min(N, 4)·S/(2p), network bytes = min(N, 4)·S/(2p)
//	reduced = min(N-1, 2)·S/(2p), peers = 1 + the tree's
//
// NCCL's tuning model charges it intraLat + 2·log2 N·interLat
// (src/graph/tuning.cc): the NVLS operations as one latency, the tree's
// 2 log2 N network hops. On one node it is NVLS (NCCL disables it there).
type NVLSTree struct {
	// PerNode is the number of GPUs per node, p; P must be a multiple of it.
	PerNode int
	// Chunks is the number of chunks each half of a slice is pipelined in
	// across the nodes, C; 0 means the fluid limit (see Tree).
	Chunks int
}

func (NVLSTree) Name() string           { return "nvlstree" }
func (NVLSTree) Collective() Collective { return AllReduce }

func (v NVLSTree) nodeSize(int) int { return v.PerNode }

// Cost returns NVLSTree's cost for p ranks (N = p/PerNode nodes) and S =
// size bytes on one Link. Its bytes are NaN if p is not a multiple of
// PerNode.
func (v NVLSTree) Cost(p int, size float64) Cost { return costOn(v, p, size) }

// plan: the NVLS load-reduce inside the node, the double binary tree of
// the node's slice between the nodes (one GPU per node in the tree, so
// that the slices of the node's GPUs travel in parallel), and the
// multicast store. On a Cluster, PerNode is ignored: p is the cluster's.
func (v NVLSTree) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	size = checkSize(size)
	slice := size / float64(perNode)
	ld, ldReach := switchStep(perNode, size)
	sto, stoReach := switchStep(perNode, slice)
	if st != nil && perNode > 1 {
		st.add(Stage{Intra: costOf(ld, ldReach)})
	}
	tree, treeReach := Tree{PerNode: 1, Chunks: v.Chunks}.plan(nodes, 1, slice, st)
	if st != nil && perNode > 1 {
		st.add(Stage{Intra: costOf(sto, stoReach)})
	}
	r := ldReach.then(treeReach).then(stoReach)
	r.peers = min(ldReach.peers, 1) + treeReach.peers
	return ld.then(tree).then(sto), r
}
