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
// the next (Boundaries), and notes on regimes too narrow to separate α from
// BW (Regime.Narrow). Settings tunes a fit; a nil *Settings means defaults.
//
// Units are those of commmodel: float64 seconds, bytes and bytes per second.
// A fit returns ErrTooFewSamples or ErrOneSize for data it cannot fit, and a
// *SampleError, wrapping ErrBadSample, for a sample that is not a finite
// positive size and time; SplitEmpty sets aside nccl-tests' 0-byte rows,
// which time an empty call, before a fit. Median is the median commlab uses
// throughout.
package fit
