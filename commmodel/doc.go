// Package commmodel is a cost model of collective communication algorithms.
//
// A collective over P ranks runs as a sequence of steps. In each step every rank
// sends to some peers at once; the step costs a start-up latency alpha plus the
// time the busiest rank's egress needs for the bytes it sends. Local reduction
// costs gamma per byte reduced. The model is
//
//	T = steps·α + bytesPerRank/BW + reducedBytesPerRank·γ
//
// where bytesPerRank is the most bytes any one rank sends over the whole
// collective. On a switched fabric (NVSwitch) a rank's egress is the bottleneck,
// so the bytes a rank sends to all its peers in one step share one BW.
//
// # Notation and units
//
// Everything is float64 in SI base units: seconds, bytes, bytes per second.
// Durations are never time.Duration: 1/BW at 350 GB/s is 2.9e-12 s.
// P is the number of ranks; S is the message size in bytes as nccl-tests prints
// it in its size column: for AllReduce and Broadcast the buffer each rank holds
// (for SendRecv the buffer it sends to its one peer), for AllToAll, AllGather
// and ReduceScatter the whole buffer, S/P per peer.
// Package units reads and writes these amounts as text (GB/s is 1e9 B/s, as
// nccl-tests prints).
//
// # Failure channels
//
// Calling an algorithm with P < 1 is a programming error and panics, as do
// mismatched slice lengths. A size that is negative or NaN, or a Link whose BW
// is not positive, gives NaN: the result is undefined, not wrong. Bad data
// (measurements that cannot be fitted, an unknown algorithm name) is reported
// with an error value.
//
// # Concurrency
//
// Algorithms, Links and Timers are values that no method changes, and the
// stages this package keeps per algorithm and shape (plan.go) are safe for
// concurrent use: any number of goroutines may time them at once.
//
// # What is here
//
// Algorithms are small types with Cost(p, size): the article's (allreduce.go,
// allgather.go, alltoall.go; Algorithms) and NCCL's (tree.go, nvls.go,
// collnet.go, pat.go; commmodel/nccl lists them in NCCL's order), whose
// pipelines share pipeline.go and pipelined.go. Each states its structure
// once, in a plan, from which its Cost, its times and its stages follow
// (plan.go, which says how to add an algorithm).
// NCCL's protocols are a dimension of their own, a Link transformed by each
// (protocol.go). A Timer times them on some ranks: Flat is P ranks on one
// Link, Cluster is N nodes of p ranks with one Link inside a node and
// another between nodes (hierarchy.go), and Fabric is one level whose
// bandwidth depends on how many peers a rank sends to at once (fabric.go,
// which also holds the math of switched, full-mesh and PCIe fabrics).
// Fastest, Crossovers, WinnerChanges and NewRegimeGrid compare algorithms on
// any Timer (select.go, crossover.go); LogSizes spaces sizes for them
// (sizes.go).
//
// On one Link every algorithm's time is linear in the size, T0 + T1·S: the
// steps and messages do not depend on S and every byte count is proportional
// to it. Flat.Line reads T0 and T1 off the time once, so that a curve
// (TimeCurve), a regime map (NewRegimeGrid) or a crossover (Crossovers, in
// closed form) costs a multiply and an add per size. On a Cluster each stage
// lasts the longer of two such Lines (Cluster.Lines): times are piecewise
// linear and convex, bending at most once per stage (linear.go). The article's statements are checked against the model in
// package article (its claims ledger), not here.
//
// Two subpackages build on this one, which imports neither: package fit
// turns measurements into Links (AlphaBeta, Piecewise, and Through an
// algorithm's cost), and package schedule executes every algorithm on
// in-memory ranks and times it, so that each formula is checked against
// what the algorithm really does.
//
// Subpackage nccl is NCCL's own tuning model, the reference predictor of
// which algorithm and protocol NCCL runs and how long it expects them to
// take.
//
// The algorithms and their step and byte counts follow the source article
// (an analysis of an 8 x H20 inference server) and, for what it leaves out,
// the cost comments of MPICH's collective implementations.
package commmodel
