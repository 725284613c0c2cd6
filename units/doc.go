// Package units reads and writes the amounts of commlab as text: sizes,
// durations, bandwidths and times per byte, in SI base units (bytes, seconds,
// bytes per second, seconds per byte).
//
// Every package and the command line read and write amounts through this
// package, under one grammar: a decimal number ("64", "1.5", "1e-6"; no Inf,
// NaN or hex), optional spaces, and a unit. Units are case-sensitive:
//
//	size           B (byte) or b, bit (bit, 1/8 B), optionally after a prefix:
//	               k or K, M, G, T (powers of 1000) or Ki, Mi, Gi, Ti (powers
//	               of 1024): 64KB = 64000 B, 64KiB = 65536 B, 8Gb = 1e9 B
//	duration       ns, us, µs (or Greek μs), ms, s
//	bandwidth      a size unit per second: GB/s, GiB/s, Gb/s, Gbit/s
//	time per byte  a duration per size unit: 0.01ns/B, 10ns/KB
//
// m, g and t are not prefixes (m is milli), and "kb", all in lower case, is
// refused, since it is written for both kilobytes and kilobits. A size's
// bare K, M or G, either case ("64K", "1M"), is read as nccl-tests reads it:
// a power of 1024 (64K = 65536 B). A list of sizes (ParseSizes) also takes
// ranges, A..B in steps of x2 and A..B:xF in steps of xF. A bare number is bytes for a
// size and seconds per byte for a time per byte; durations and bandwidths
// need their unit. A size must be a whole number of bytes: a size in bits
// that is not ("12b") is refused, never rounded. Text follows nccl-tests:
// GB/s is 1e9 B/s.
//
// Bad text gives an *AmountError, which names the kind of amount and the
// text, and wraps one of the causes ErrSyntax, ErrUnit, ErrRange or
// ErrFraction.
//
// The formatters write sizes with binary prefixes (B, KiB, ... TiB),
// bandwidths with decimal ones (B/s, KB/s, ... TB/s), durations in ns, µs,
// ms or s, each with the prefix that keeps the number from 1 to 1000 (1024
// for sizes), and all with one precision: three significant digits
// (FormatNumber). Text is for reading; JSON carries full float64 values.
package units
