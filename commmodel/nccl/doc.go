// Package nccl is NCCL's own tuning model, re-implemented as a reference
// predictor: for a communicator it gives the latency and bandwidth NCCL
// assigns every (collective, algorithm, protocol), NCCL's predicted time of
// one call, and the algorithm and protocol NCCL's tuner picks. It follows
// src/graph/tuning.cc, src/enqueue.cc and src/graph/search.cc of NCCL 2.18
// to 2.30.7 (tags v2.18.6-1 to v2.30.7-1); each rule below names the
// versions it holds for.
//
// NCCL 2.8 (Legacy, tag v2.8.4-1; 2.8.3 alike) is tabulated too, for logs
// of that era. Its tuner has three algorithms, Tree and CollNet (here
// CollNetChain) for AllReduce and Ring for every function, its own
// constants (legacyConstants lists them), and these rules: every bus
// bandwidth at most 235 GB/s when all GPUs are SM80; Ring and Tree LL128
// capped per channel by function; Tree/LL128 at 0.915 of Tree across nodes;
// no Tree pattern factor; CollNet at 0.9 with LL at a sixth and no LL128;
// LL's intra-node step latency times 1.8 across nodes; Ring AllReduce with
// 2(N−1) network steps and no network overhead; the Ring/Simple plateau
// (×1.9) from nBytes ≥ n/16 · 64 KiB; LL128 enabled by default on SM70 and
// SM80 only, NVLink inside the node and the NIC at most PXB away. Its
// search (System.Graphs) has one speed array for every case, counts SM70
// and SM80 NVLinks at 21 GB/s and duplicates channels of 25 GB/s or more
// after the search. NCCL 2.9 to 2.17 are not tabulated.
//
// # Units
//
// The exported API is SI, like commmodel: seconds, bytes, bytes per second.
// Constants and Graph keep NCCL's own units, microseconds and GB/s (1e9 B/s)
// per channel, because they are NCCL's tables and the values its logs print;
// the conversion happens in one place (time.go). Sizes are nBytes as NCCL
// counts them: the buffer of one rank for AllReduce, Broadcast and Reduce,
// the whole buffer (ranks × count × type size) for AllGather and
// ReduceScatter, which is also nccl-tests' size column (NBytes, BusBW).
//
// # Inputs
//
// NCCL searches a graph per pattern (ring, tree, NVLS, CollNet) and the
// model reads, per graph, the channel count nCh, the per-channel bandwidths
// bwIntra and bwInter (entries of the search's speed arrays, not link
// rates), the path types, the net plugin's latencyInter and sameChannels
// (Graph). They can be given as NCCL_DEBUG_SUBSYS=GRAPH prints them
// (ParseGraphLine, ReadGraphs) or derived from a System (System.Graphs),
// whose search is a simplification of NCCL's. Config adds the rank and node
// counts, compute capabilities, CPU, and the NCCL_ALGO/NCCL_PROTO pins.
//
// # The model
//
// With n ranks on N nodes, p = n/N ranks per node, and nsteps = 2(n−1) for
// AllReduce, n−1 for AllGather and ReduceScatter, n for Broadcast and
// Reduce, New computes for every (f, a, p) a bus bandwidth
//
//	busBW = nCh · bw,   bw = bwIntra if N ≤ 2 or a is CollNet, else bwInter
//
// refined per algorithm and protocol:
//
//	Ring/LL       min(llMax, busBW/2)             (/4, or /3 on one node outside AllReduce and Reduce, before 2.21)
//	Ring/LL128    min(0.92·busBW, nCh·capRingLL128) (0.7 instead of 0.92 below two ranks per node, before 2.23)
//	Tree          min(0.92·busBW, nCh·capTree), then /3.8 capped at llMax for LL,
//	              ×7/9 (one node) or ×120/128 capped at nCh·capTreeLL128 for LL128,
//	              ×0.85 when the tree pattern sends all NIC traffic through one GPU
//	PAT           ×0.85 (2.23), ×0.75 (2.24 on); one rank per node only
//	NVLS, NVLSTree (2.28 on) min(2·ε·bwIntra·(nCh−1)/nCh, bwInter) for AllReduce,
//	              with (p−1)/p instead of 2 otherwise, ε = 0.85 Hopper, 0.74 Blackwell;
//	              NVLSTree doubles bwInter on two nodes and is capped per channel;
//	              2.19–2.27: min(bwIntra, bwInter) (for NVLSTree bwInter/2 beyond two
//	              nodes; from 2.27 min(bwIntra·(p−1)/p, 0.9·bwInter) outside AllReduce);
//	              2.18: bw as for every algorithm
//	CollNetDirect AllReduce: busBW / ((p/nCh + 1)/2), ×0.85 from Hopper on
//
// and stores the algorithm bandwidth busBW·ratio: ratio n/nsteps for Ring (and
// NVLS and NVLSTree from 2.28; 5/6 before, and 0.7·N/(2(N−1)) for NVLSTree in
// 2.18), 1/2 for Tree and CollNet, none for the non-Ring algorithms of
// AllGather and ReduceScatter (2.23 on; CollNetDirect's from 2.20). The
// latency is a base latency plus per-step hardware latencies, intra for the
// node's NVLink or PCI, inter for the network (the Tree's when p = 1, from
// 2.23; plus latencyInter, twice for Simple):
//
//	Ring          base + (nsteps − k)·max(intra, o) + k·inter,
//	              k = 2(N−1) for AllReduce (2N before 2.23), N−1 otherwise,
//	              o = net overhead (1 us Intel, 2 us AMD; ×3 for Simple)
//	Ring Bcast    base + hw (sameChannels) or base + nsteps·hw
//	Tree          base + 2((p−1)·intra + ⌊log2 N⌋·inter)
//	NVLS          intra (+ inter across nodes)
//	NVLSTree      base + intra + 2⌊log2 N⌋·inter
//	PAT           base + ⌊log2 N⌋·inter/3.5 + 2.8·n
//	CollNetDirect base + 2(min(1, p−1)·intra + (p−1)·0.4) + inter
//
// DefaultConstants holds the base and hardware latencies, the caps and the
// other numbers per version. Then the enable masks zero the bandwidth of
// what cannot run: NCCL_ALGO/NCCL_PROTO, NVLSTree on one node, CollNet unless
// Config.CollNet, multi-node NVLS without CollNet, CollNetDirect without
// NVSwitch, NVLS without an NVLS graph (Hopper and later with NVSwitch), PAT
// unless one rank per node, and LL128 unless its automatic rule holds (the
// network path at most PXB, or PXN from Hopper on; NVLink inside the node;
// one compute capability; SM70 and later, and before 2.27 only the
// validated SM70, SM80, SM90, SM100 and SM120). NCCL 2.19 to 2.23 give Ring
// back to a function left with nothing.
//
// # One call
//
// For nBytes, with k = ⌊log2(nBytes/64)⌋,
//
//	time = lat' + nBytes / bw'
//
// where bw' is the table's bandwidth times the Tree correction factor of
// column k for Tree AllReduce (and NVLSTree on Blackwell x86 from 2.29), and
// lat' is the latency, times 1.4 (1.9 before SM80) for Ring/Simple AllReduce
// across nodes once nBytes ≥ 64 · channels · n. The tuner takes the strict
// minimum over algorithms then protocols in NCCL's order, so ties go to the
// lower index (Choose). Calls alone in their group are assumed
// (numPipeOps = 1).
//
// # Concurrency
//
// A Model does not change once New returns it: its methods are safe for
// concurrent use by many goroutines.
//
// # RCCL on AMD Instinct
//
// RCCL (ROCm/rccl) runs NCCL's tuner with its own tables on AMD GPUs
// (src/graph/tuning.cc, the __HIP_PLATFORM_AMD__ branches; read at RCCL
// 2.18.6, 2.20.5 and 2.21.5 and at a 2025 development snapshot):
//
//   - Latency: one base latency for every GPU, 12/12/17 us (LL/LL128/Simple)
//     for Tree, Ring and CollNet, and per-step latencies from one of several
//     tuning tables, chosen by the topology model RCCL matches
//     (src/graph/rome_models.cc); 8-GPU MI300X platforms (gfx942) match
//     table 5 from RCCL 2.18.6, whose network step is 9.5 us for Ring/LL
//     and, from 2.21, 320 us for Ring/Simple.
//   - Bandwidth: NCCL's per-channel caps and protocol factors are replaced
//     by the table's bwRatio per (algorithm, protocol) and node count, and
//     the per-size corrections by the table's own Tree factors (every
//     function) and Ring factors (across nodes), with no Ring/Simple plateau.
//   - Protocol per call: rcclUpdateCollectiveProtocol (src/rccl_common.cc,
//     2025) overrides the tuner's protocol by the per-rank size: on one node
//     LL for gfx950 AllGather up to 88448 B and ReduceScatter up to 1 MiB,
//     and for gfx942 ReduceScatter up to 352128 B; across nodes the table's
//     LL and LL128 ranges (table 5: AllReduce LL up to 1 MiB, LL128 to 9 MiB
//     where LL128 is enabled, Simple above).
//   - Channels: across nodes rcclOverrideChannels sets the channel count by
//     the per-rank size from the table's thresholds; RCCL_REDUCED_CU_ENABLE
//     caps gfx950 at 48 channels.
//   - Algorithms: Tree/Simple is left out on one node of gfx942 (gfx950 in
//     later releases), Broadcast and Reduce Ring/LL run 1.65 times faster on
//     one node, and AllToAll is grouped sends as in NCCL.
//
// For an AMD GPU (Config.ISA) the model follows RCCL's LL128 enable rule
// and its Tree/Simple rule on one node of gfx942; it keeps NCCL's
// latencies, bandwidths, corrections, protocol choice and channels. RCCL's
// latency tables for gfx942, tried in NCCL's place, time the repository's
// two-node MI300X AllReduce closer to the measurement and the one-node one
// further from it, without the bandwidth side they go with. Which tables gfx950 and gfx90a platforms match is not
// modelled.
//
// # What is left out
//
// Tuner plugins (which may rewrite every constant and the cost table), the
// symmetric-memory kernels of NCCL 2.27 on, MNNVL, the fp8 Ring penalty,
// aggregation of several operations in a group, the CUDA 11.8 LL128
// exception and the CTA-policy override. The channel and thread counts NCCL
// picks after the choice do not enter its time model and are not modelled.
package nccl
