// Package schedule executes the algorithms of commmodel as explicit schedules.
//
// A Schedule is the explicit form of an algorithm: a list of steps, and in each
// step a list of transfers from one rank's buffer to another's. New (or
// NewElem, for another element size) builds one for any algorithm of
// commmodel; Simulate runs it on P in-memory ranks holding real data, checks
// the output against a direct reference and counts what it moves (Count);
// Replay times it under the alpha-beta model, with one link for every pair
// of ranks (Uniform) or one inside a node and another between nodes
// (TwoLevel). The counts and times can then be held against commmodel's Cost
// and Cluster.Time, so that each formula is checked against what the
// algorithm really does. Footprint says what a simulation will need in
// memory before it is built.
//
// # The simulator
//
// Simulate holds every element as a uint16 and adds modulo 2^16, so that
// sums are exact for any number of ranks. Each rank's inputs are a seeded
// affine function of a seeded value per element, which makes the reference
// of a sum over the ranks one multiply-add per element; every element of
// every rank's output is compared with it. A schedule whose transfers keep
// their offsets (every AllReduce, ReduceScatter, AllGather and Broadcast
// here but one-shot's) is run by tiles, ranges of offsets that each worker
// fills, runs through every step and checks in a few megabytes; any other
// is run in whole buffers. The two are one code path, a whole buffer being
// one tile (sim.go).
//
// # Elements and the one rounding rule
//
// Buffers are counted in elements of ElemBytes bytes each (4 by default, the
// float that nccl-tests uses); a size S must be a whole number of elements,
// n = S/ElemBytes. Wherever an algorithm cuts a range of n elements into k parts
// (k = P for a ring, P' for halving-doubling, p for the node level of a
// hierarchy, C for a pipelined broadcast), part i is
//
//	[⌊i·n/k⌋, ⌊(i+1)·n/k⌋)
//
// so parts hold ⌊n/k⌋ or ⌈n/k⌉ elements and always cover the range. This is the
// schedules' only rounding (partBounds). An AllToAll block bound for
// rank j is part j of the sender's buffer, so every block rank j receives has
// the length of part j.
//
// How this meets the model's formulas, which treat S as divisible: when every
// cut divides evenly, each rank's bytes are exactly the formula's, so the
// busiest rank's simulated bytes equal Cost(P, S). Otherwise every part lies
// between its length for S rounded down and for S rounded up to a size that
// every cut divides, so the busiest rank's bytes lie between the formula at
// those two sizes. (Not between the formula at S and at S rounded up: where
// ranks do different work, as in the fold of halving-doubling, the busiest
// rank may hold the shorter parts.) The property tests hold every schedule
// to this bracket, and to equality when S divides.
//
// # Step semantics
//
// Within a step all transfers happen at once: every transfer reads its source
// as it was when the step began, whatever else the step writes. A Reduce adds
// its source into its destination element by element; reductions into the same
// range in one step are allowed (addition commutes), but a Copy may not overlap
// any other write of its step. A transfer whose Src equals its Dst is a local
// copy or reduction (the rotations of Bruck, the scratch copy of one-shot); it
// moves no bytes over any link, and a step of local transfers only is not a
// communication step.
//
// # Switches
//
// A transfer with a non-zero Switch goes through a switch that reduces or
// replicates in the network: the NVSwitch of NVLink SHARP (multimem.ld_reduce
// with Reduce, multimem.st with Copy) or a network switch that reduces (SHARP,
// as NCCL's CollNet uses it). Its data is that of a direct transfer, except
// that one from a rank to itself moves none (the rank's value is already in
// place; the switch reads it to add it into the others', or writes it back).
// Its cost is the switch's: what a rank sends through a switch in one step is
// one message to the switch, in which each source range is sent once however
// many ranks the switch hands it to, and that from a rank to itself is sent
// too (the switch reads the rank's memory over its link); a range the switch
// writes into a rank is received once however many ranks it sums; nobody
// reduces it (the switch does, at line rate, so no γ); and the switch is one
// peer of each rank it talks to.
package schedule
