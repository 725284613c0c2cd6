// Package predict calibrates a few machine parameters on nccl-tests tables
// of one machine and predicts collectives the tables did not measure: other
// collectives, rank counts, node counts, sizes, and pinned algorithms or
// protocols, with an interval and the algorithm and protocol NCCL runs.
//
// # Use
//
// The calls commlab's commands make, in order (ExampleHardware_FromTables):
//
//  1. ReadFile (or ReadBytes) reads an nccl-tests log into Tables. Its
//     error is only for a file it cannot read at all; a test it cannot
//     model (no node count, no sized row) is left out with a problem, a
//     *LeftOutError, so a log can give no Table and no error. Pins give
//     what a log does not print (ExampleReadFile_pins).
//  2. DefaultHardware of the tables' GPU name, or Describe with a spec
//     (DescribeKeys), gives the Hardware; SetTopology adds what an
//     `nvidia-smi topo -m` capture settles.
//  3. Hardware.FromTables adds what the logs show of the machine (NCCL's
//     debug lines: NICs, their rate and path, the NICs a run drives, the
//     channel count, NVLS, CollNet; the host's GPUs; the NICs and fabric
//     the tables fit best), with notes to check, among them where two
//     logs' lines give a fact two values. Skipping
//     it calibrates on assumed facts where the logs had evidence, and the
//     prediction is not the one commlab predict prints.
//  4. Calibrate fits the machine; Machine.Notes, Params and Facts say what
//     the tables identified and what stayed assumed.
//  5. Machine.Predict times a Query at sizes; Beyond says where the query
//     goes beyond the tables. Without any log, Untabled predicts from the
//     Hardware alone (ExampleUntabled). Predict takes the hosts to hold a
//     query's GPUs a node: Hardware.HostFits says where the hosts the
//     Hardware documents (a catalog system, the user's gpus) hold fewer,
//     which the commands refuse.
//
// Units are SI throughout: sizes in bytes (nccl-tests' size column), times
// in seconds, bandwidths in bytes per second (400 Gb/s is 50e9);
// package units prints them. A hint (Fact.Hint, Guess.Hint, a -hw KEY
// in a note) names the command line's -hw setting, whose KEY=VALUE is
// Describe's spec; a FILE:KEY=VALUE hint (the Guess of nccl_version's
// FILE:version=V, a note's or problem's FILE:nodes=N) is a calibration
// file's key, which Pins takes in a program. Errors wrap the Err sentinels below where one applies,
// for errors.Is; no prediction is NaN or infinite (Curve, which returns no
// error, gives NaN where Predict fails).
//
// # The model
//
// A table is one nccl-tests run (Table): a collective on N nodes of p GPUs
// (n = N·p ranks), NCCL's version, and NCCL_ALGO/NCCL_PROTO if the run set
// them. At each size S the model runs what NCCL ran: the pinned choice, or
// the choice of NCCL's tuner, from NCCL's own tuning model (commmodel/nccl)
// for the table's shape on the machine's Hardware. AllToAll and SendRecv
// are outside the tuner: NCCL runs them as grouped sends, with LL for
// messages of up to 16 KiB per peer and Simple above (a peer's message is
// S/n for AllToAll, S for SendRecv). The time of one call is
//
//	T = max(φ·(G + a), L + W)                         (a smooth maximum)
//	L = λb·Lbase + λi·Lintra + λn·Linter
//	W = max(Bytes_GPU / B_GPU, Wnet) / (e_protocol · e_algorithm)
//	Wnet = max(Bytes_NIC · f / (B_NIC · e_chain), Bytes_channel / B_channel)
//	f = max(1, leaving · r)                          (a smooth maximum; 1 without groups)
//
// where Bytes_channel / B_channel, a channel's network bytes over
// channel_bw, counts for grouped sends and for LL and LL128 across nodes
// (below), and is 0 otherwise; every max is a smooth maximum.
//
// The launch floor φ·(G + a): a thread that drives G GPUs (nccl-tests -g G)
// launches G kernels per call one after the other, and with back-to-back
// calls the slower of the host's launches and the GPUs' work sets the pace.
// Under RCCL the host's cost of a call is c0 + c1·G, not c1·G: a = c0/c1
// launches (rcclLaunches); under NVIDIA's NCCL, whose public logs fit no
// c0, a = 0. φ's prior is the vendor's (Layout.launches, params.go).
// Every collective of a run shares it; an AllToAll of n ranks adds, for each
// GPU, the host's enqueue of its 2(n−1) sends and receives, 0.108 of a
// launch each (p2pEnqueue), under NVIDIA's NCCL; RCCL's AllToAll adds none.
// The threads of a process (-t) and the
// processes launch in parallel, so the floor is one thread's, whatever their
// number. With CUDA graphs (-G N, "graph: N" in the header) nccl-tests times
// replays of a graph captured from the whole timed loop, and the host
// launches one graph per GPU for many calls: the floor is dropped (Layout).
// A table's layout comes from its header, and a Query's from the tables
// unless it says otherwise (Machine.Layout).
//
// The latency L is NCCL's latency formula for what ran (its base latency
// plus per-step latencies over NVLink or PCI and over the network, e.g.
// base + (2(n−1) − 2(N−1))·intra + 2(N−1)·inter for Ring AllReduce and
// base + 2((p−1)·intra + ⌊log2 N⌋·inter) for Tree), split into its three
// tables (reference.go: the split is exact, and what NCCL adds on top, the
// network overhead, counts as network latency). AllToAll, outside NCCL's
// formula, posts a send and a receive to every peer: the GPU serves up to
// 8 peers at once on each of its p2p channels, but one proxy thread per GPU
// serves every network send and receive in turn, so its latency is
//
//	L_AllToAll = λb·Lbase + λi·(p−1)·intra + λn·c_peer·(n−p)
//
// with c_peer, p2p_peer_latency, the time per network peer on a network of
// NCCL's latency, scaled by the network's λn as its steps are, with every
// protocol: it grows with the peers and, at hundreds of nodes, is the
// network peers' (p2pLatency).
// The calibration scales
// each table by one factor, so that NCCL's ratios between algorithms and
// protocols (LL's short steps, Simple's flush across nodes) stay as NCCL
// states them and three numbers carry the machine. Params reports them as
// the Ring/LL values they give.
//
// The bandwidth term W charges the busiest link: a GPU's bytes on each
// level are those of commmodel's algorithm (Ring, Tree, NVLS, NVLSTree,
// CollNetDirect, CollNetChain, PATAllGather, PATReduceScatter, Direct for
// AllToAll), and a node's network bytes are spread over its NICs, since
// NCCL's channels cross the network at different GPUs:
//
//	Ring AllReduce        2(n−1)/n·S on NVLink, and over the node's NICs across nodes
//	Ring AllGather, RS    (n−1)/n·S likewise
//	Ring Broadcast        S likewise (every GPU receives and forwards S)
//	Tree AllReduce        2S on a chain of p ≥ 3 (S for p = 2), min(N, 4)/2·S over the node's NICs
//	                      (a node is inner in one of the two trees and a leaf in the other)
//	NVLS AllReduce        S + S/p on NVLink: the switch reduces, so a GPU sends its S once and
//	                      its reduced slice once
//	NVLSTree AllReduce    S + S/p + min(N, 4)·S/(2p) on NVLink, and p·min(N, 4)·S/(2p) over the
//	                      node's NICs (p trees of S/p slices across nodes)
//	NVLS AllGather, RS    S on NVLink (one load or store of the buffer), and the other nodes'
//	                      (N−1)/N·S over the node's NICs across nodes
//	CollNet AllGather, RS likewise: the network's switch, not the GPUs, sends the buffer on
//	CollNetDirect         2(p−1)/p·S + S/p on NVLink (two-shot's), p·S/p over the node's NICs
//	CollNetChain          the chain's bytes, S over the node's NICs (its head's)
//	PAT AllGather, RS     (n−1)/n·S over the NIC (one GPU per node)
//	AllToAll (Direct)     (p−1)/n·S on NVLink, p·(n−p)/n·S over the node's NICs
//	SendRecv (Shift)      S on NVLink, S over the NICs of the node's last GPU across nodes
//
// intra_bw is a GPU's bandwidth on all its links. On a host whose GPUs join
// pair by pair (an NVLink mesh, Infinity Fabric) a GPU's bytes go over the
// links of the peers it sends to at once (Hardware.intraShare): a run on k
// of a host's G GPUs drives (k−1)/(G−1) of them, and a SendRecv, whose
// rank sends to one neighbour, 1/(G−1) of them whatever k, one
// Infinity Fabric link of an MI300X platform's 7.
//
// Grouped sends across nodes move a GPU's network bytes over the channels
// NCCL gives its network peers (nccl.Model.P2PNetChannels, at most its p2p
// channels), each carrying channel_bw: with few peers and many ranks,
// a SendRecv of 10 nodes or more, they bind below the NICs (p2pChannels).
// So do an LL or LL128 collective's across nodes under NCCL (RCCL's
// channel rules are not modelled): a call of size S runs on the channels
// NCCL gives it (nccl.Model.MaxChannels), each of which carries
// channel_bw times the efficiencies of its protocol and algorithm, so
// that where they carry less than the NICs, most often at mid sizes
// (NCCL's few channels), the network time is a channel's bytes over that
// rather than a NIC's over nic_bw.
//
// A node's NICs are min(p, NICs per host), one per GPU by default. Under
// RCCL a collective across nodes moves RCCLNodesGain times what one node
// moves over a GPU's links: its bytes on them are divided by it (grouped
// sends excepted), and intra_bw stays one node's.
//
// NCCL's per-size rules scale both terms as they scale NCCL's own
// estimate (ncclTopoGetAlgoTime): Tree AllReduce's bandwidth by its
// correction factor of the size (up to 512 MiB; NVLSTree's too on
// Blackwell x86 hosts from 2.29), and a multi-node Ring/Simple
// AllReduce's latency by the ring's plateau factor once each channel and
// rank carries 64 bytes or more.
//
// Beyond the NICs, the network is described by groups (Hardware.Group): the
// hosts under one first-tier switch of a fat tree, or one dragonfly group,
// whose uplinks carry r times less than their NICs (Hardware.
// Oversubscription, the prior of the parameter fabric_oversubscription).
// The share of the network bytes that leave a group, leaving, is
// commmodel's Stage.Leaving of what ran: a ring leaves a group of g nodes
// 1/g of its bytes, so it rarely meets the fabric, while AllToAll leaves
// (N − g)/(N − 1), so at hundreds of nodes its time is the fabric's. The
// group's uplinks bind where leaving · r exceeds 1. Tables across node
// counts, AllToAll above all, identify r. The
// efficiencies are LL's and LL128's share of Simple's bandwidth, NVLS's
// and Tree's share of the egress model's, and e_chain Broadcast's and
// Reduce's share of the NICs across nodes (1 for every other collective):
// a one-directional ring from or to the root, which multi-node Broadcast
// tables measure well below the NIC rate that AllReduce tables of the same
// machine reach (docs/scores.md).
//
// # The pipeline
//
// A calibration and a prediction pass through the same stages, each in its
// own file, and each table or query through each stage once:
//
//	read     table.go, logs.go        nccl-tests logs into Tables (ReadFile, TablesOf, Pins)
//	runs     run.go, layout.go        a Table or a Query into a run: its shape on the Hardware,
//	                                  NCCL version, pins and launch layout
//	terms    terms.go, reference.go   a run and a size into a term: what NCCL runs there (its
//	                                  tuner), NCCL's latency split into the parts the calibration
//	                                  scales, and the bytes on each level, and the time of a
//	                                  term under the parameters
//	params   params.go                one descriptor per parameter: its name, unit, prior, the
//	                                  terms that use it and its prior's width
//	fit      calibrate.go             the terms of every point into the parameters (Calibrate),
//	                                  and the refits that leave out each table in turn
//	predict  predict.go, interval.go  a Query's terms timed, with the 80% interval
//
// hardware.go and describe.go describe the machine; package heldout scores
// the model on the repository's tables.
//
// # Parameters, priors and identifiability
//
// Machine.Params lists, in this order: launch (s), base_latency,
// intra_step_latency, inter_step_latency (s), intra_bw (B/s, one GPU's
// NVLink or PCIe egress), nic_bw (B/s, one NIC), and ll, ll128, nvls,
// tree and chain efficiencies, fabric_oversubscription, p2p_peer_latency
// and channel_bw. Each has a
// prior: 3.1 us for the launch (the order of
// the public H20 run's empty-call floor, data's claims), 4.6 us under
// RCCL (c1 of its floor c0 + c1·G on the public AMD logs without graphs:
// one GPU a process, MI300X, and -g 8, Radeon and MI300X VF), NCCL's own
// latencies (factors of 1; the network's RCCL's, 2.1 times NCCL's, where
// Hardware.NetLatency is unset on an Infinity Fabric host of 7 links a GPU,
// an MI300- or MI350-series platform or one described so: RCCL's tuning
// table for those hosts puts a Tree/LL step across nodes at 10.5 µs,
// NCCL's at 5.0),
// the bus bandwidth NCCL's tuning model gives a
// Ring/Simple AllReduce inside one NVSwitch node (its channels times their
// speed, LinkShare of the datasheet's NVLinks times their rate, and that
// share of links NCCL's tables do not hold, such as AMD's Infinity Fabric;
// NCCL's PCIe figure without NVSwitch), the NIC's line rate, the payload efficiencies of
// commmodel.Protocol for LL and LL128 (1/2: 8-byte lines, half flag; 15/16:
// 128-byte lines carrying 120 bytes), NCCL's
// NVLS efficiency (0.85 on Hopper, 0.74 on Blackwell, NCCL 2.28 on),
// NCCL's 0.92 for Tree, and 1 for the chain (NCCL's tuning model gives a
// Broadcast or Reduce ring the bus bandwidth of every ring: its ratio
// n/nsteps is 1, commmodel/nccl), and for the fabric the oversubscription
// the hardware states (1, non-blocking, unless described), and
// p2p_peer_latency (s per network peer) 2.2 µs, what a public 2-node
// AllToAll of small messages fits (data/nccltests/testdata/real/
// rtx6000d_2x8_alltoall_late2025.log: 8 network peers per rank, 29.7 µs at
// 2 KiB). Only AllToAll tables across nodes with messages of a few KiB per
// peer identify it; channel_bw (B/s a channel) NCCL's 14 GB/s
// (P2P_PER_CHANNEL_NET_BW, nccl.P2PChannelNetBW), which SendRecv tables
// of many ranks across nodes, and LL and LL128 sizes across nodes, identify; beyond the network peers of the
// tables' AllToAll runs
// (one peer without any) the interval takes the time with the per-peer
// cost moved by SlowerAbove per doubling on the slow side (FasterAbove on
// the fast side), so that it widens the time that cost makes and no more:
// at thousands of peers congestion and the NICs' connection state add to a
// per-peer cost that small runs cannot show.
//
// Calibrate minimises, over the logs of the parameters,
//
//	Σ_tables 1/n_t Σ_points ρ(ln(T/t))/σ² + Σ_k (ln θ_k − ln θ0_k)²/(2w²)
//
// with Huber's ρ, σ = 0.1 and w = ln 3 (ln 2 for intra_bw: NVLink is the
// GPU board's, alike on every machine, the network the cluster's; and
// NetworkSlower, 1.73, for inter_step_latency: public networks' latency
// lies as far about the prior, up to 16 times it on EFA, GCP's TCPXO and
// RCCL over RoCE; Settings), by Levenberg-Marquardt, from the priors and from the priors
// with either bandwidth at a quarter of its prior, keeping the lowest
// objective: a table of several nodes slower than the priors fits as slow
// NVLink or as a slow network, and a fit from the priors alone stops at
// the nearer. The fit holds what the hardware bounds within its bound
// (Machine.upper): intra_bw at most the links' rate (where they are not
// assumed: a GPU the catalog lacks, an assumed PCIe fabric), nic_bw at most the
// NIC's, LL's and LL128's efficiencies at most 1/2 and 15/16 of the
// links' rate over Simple's share of it (intra_bw's prior), and NVLS's at
// most 1 (it runs Simple on the links intra_bw is the egress of); a
// parameter the tables push against its bound stays there, and the
// machine's notes say so, with the value the tables would give it
// unbounded. A table that runs far off what the others predict, where
// they surround it, or held out far worse than their median, is named
// first among the notes (offTables).
// Each table counts once. The prior keeps a parameter that no table
// informs where NCCL or the datasheet puts it: one rank count cannot tell
// a per-step latency from the per-call one, one-node tables say nothing of
// the network, and tables that start at 32 MiB nothing of latency. A
// parameter is Identified when its posterior standard deviation (from the
// fit's curvature) is under half the prior's; Machine.Notes names the ones
// that are not, and those no table depends on.
//
// # Uncertainty and scores
//
// One table is enough to calibrate. With two or more, Calibrate also
// refits without each table in turn and keeps the errors of each refit on
// the table it left out (Machine.LOO). Predict's Low and High are an 80%
// interval of the measured time: the spread of those held-out errors (at
// the points of the call's protocol, where held-out tables ran it), net
// of what the refits' unidentified parameters explain, pooled with a prior
// spread that stands for one table, widened where the
// query goes beyond the tables (another collective, more or fewer nodes or
// ranks, another launch layout; Machine.Beyond says which) and by the
// parameters the tables leave unidentified (interval.go; the NICs'
// bandwidth above the time only, by NICSlower: a network delivers less
// than its NICs' line rate, never more). The same
// held-out tables decide whether the
// calibration improves on NCCL's uncalibrated model: where at least three
// of them are modelled by NCCL and a blend of the two (in logs, weights in
// tenths) brings their errors 5% or more below the calibration's, Predict
// uses the blend (Machine.NCCLWeight) and the notes say so. With a single
// table nothing is held out: the table's own errors at the fit stand in
// for a held-out table's, pooled with the prior spread as above (widened
// as above, but not for another collective, which the prior spread
// already stands for), and nothing decides a blend. Where a fact of the
// machine is assumed and the evidence does not settle it, Guesses
// calibrates its alternative too, and HoldGuesses widens the interval to
// hold the alternative's prediction (commlab predict does): giving the
// fact narrows it again.
//
// ReadFile and TablesOf build Tables from nccl-tests logs, parsed once by
// package data/nccltests: the table, its Rank lines and header, and NCCL's
// debug lines (nccltests.Evidence) say how the run went, and Pins what they
// do not. Package heldout scores the model on tables it
// did not see, and reads the repository's paired logs into machines ready
// to calibrate.
//
// # Concurrency
//
// A Machine that Calibrate or Uncalibrated returned is safe for concurrent
// use by many goroutines through its methods (Predict, Curve, Choices,
// Beyond, Layout, TablesLayouts, Diagnose, ScoreSweep, TunerRules,
// TunerModel, Version), as long as none of them changes its exported
// fields. The package's
// functions share nothing between calls.
//
// # What is left out
//
// The channel count NCCL picks per size, but for a channel's network
// rate under LL and LL128 across nodes (nccl.Model.Channels follows it,
// but NCCL runs every channel from a few MiB on, so it cannot explain the
// slow rise of bus bandwidth from tens of MiB to GiB, and scaling the
// calibrated bandwidths by the share of channels used made more held-out
// tables worse than better),
// tuner plugins, and the choices of NCCL releases before 2.18: 2.18's tuner
// is used, and the notes say so. commmodel/nccl models NCCL 2.8's tuner too,
// but calibrated with it the paired ABCI tables (NCCL 2.8.4) are predicted
// worse, though its switches come closer to the measured regime breaks
// (docs/scores.md). Of the launch layout, nccl-tests' agg iters (-m, calls
// grouped in one ncclGroupStart/End, which NCCL may launch as one kernel)
// and any contention between a process's threads for the CUDA driver: no
// log of the repository runs more than one agg iter or thread to measure them.
package predict
