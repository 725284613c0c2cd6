// Package fit turns measurements into links of the commmodel cost model.
//
// A Sample is one measured point, a size in bytes and a time in seconds, as
// nccl-tests prints them. AlphaBeta fits one latency-bandwidth pair,
//
//	T(S) = α + S/BW
//
// Piecewise fits one pair per contiguous size regime (NCCL changes protocol
// and channel count with size), choosing the number of regimes by a robust
// BIC; Through fits the link on which one algorithm of commmodel explains the
// samples,
//
//	T(S) = Steps(P, S)·α + Bytes(P, S)/BW
//
// Every fit minimises relative error, so a 10% miss costs the same at 8 B as
// at 8 GB, and by default down-weights wild samples with Tukey's bisquare
// (Loss). A Result carries the fitted regimes with bootstrap confidence
// intervals, each sample's prediction, relative error, leave-one-out error
// and robustness weight, the sizes at which Predict moves from one regime to
// the next (Boundaries), notes on regimes too narrow to separate α from BW
// (Regime.Narrow), and the samples set aside before the fit because they are
// slower than a larger size (NonMonotone, below). Settings tunes a fit; a nil
// *Settings means defaults.
//
// # Non-monotone samples
//
// Every α-β regime (α ≥ 0, BW > 0) takes longer at a larger size, so a sample
// slower than a sample of a larger size cannot lie on one: NCCL switched
// algorithm or protocol too late for it (a public H200 2 x 8 AllReduce takes
// 304.32 µs at 16 MiB and 276.88 µs at 32 MiB), or it was a slow first call.
// Fitted, such a sample bends its regime and can push a good neighbour out
// as an outlier. Before fitting, every fit therefore sets aside each sample
// i for which some sample j of a strictly larger size took
//
//	tᵢ > (1 + 3·√2·σ)·tⱼ   (MonotoneRatio)
//
// and reports it in Result.NonMonotone with the smallest such size, the one
// it contradicts; it is in no regime, no boundary and no error figure.
// Settings.KeepNonMonotone turns this off. The choices, and why:
//
//   - Any larger size, not only the next: a curve that never decreases lies
//     below the times of all larger sizes (the H200's 64 KiB, 70.32 µs, is
//     faster than 128 KiB but slower than 256 KiB's 63.59 µs).
//   - A margin of three standard deviations of the difference of two
//     samples with relative noise σ, not the printed precision: times of one
//     regime jitter by about 1% from size to size, and a rule at the
//     printing's 0.01-0.1% would set most of a flat latency range aside.
//     Rounding to nccl-tests' printed digits (at least three significant
//     ones, 0.5% at worst) is inside the margin.
//   - σ is the table's own noise, the robust scale of the least-squares fit
//     with the most regimes (as for the regime criterion), at least
//     NoiseFloor: a sweep timed once per size jitters by 5% where an average
//     of 100 iterations jitters by 1%, and one margin for both would either
//     miss algorithm switches in the one or set noise aside in the other.
//     σ is that of the samples kept, found by iterating from all samples
//     until the set aside no longer changes, since the samples set aside
//     would otherwise inflate it.
//   - The smaller size is set aside, not the larger: at an algorithm switch
//     the larger size runs the algorithm NCCL goes on to use for the sizes
//     above it, so it lies on the next regime, while the smaller one ran the
//     algorithm NCCL should already have left.
//
// Units are those of commmodel: float64 seconds, bytes and bytes per second.
// A fit returns ErrTooFewSamples or ErrOneSize for data it cannot fit, a
// *SampleError, wrapping ErrBadSample, for a sample that is not a finite
// positive size and time, and ErrSettings for a Settings field out of its
// range; SplitEmpty sets aside nccl-tests' 0-byte rows, which time an empty
// call, before a fit. Median is the median commlab uses throughout.
package fit
