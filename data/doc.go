// Package data holds commlab's measured datasets and reads measurement files.
//
// The datasets are embedded with go:embed and each row names its source: the
// source article's H20 figures (article_h20.csv, article_statements.csv), the
// public H20 nccl-tests logs (logs/*.log) and a table of public kernel
// latencies (kernels_public.csv). Loaders return gota DataFrames and plain
// []fit.Sample slices.
//
// ReadNCCLTests reads the text that the nccl-tests binaries (all_reduce_perf,
// alltoall_perf, ...) print, in every output generation: with and without the
// root column, with "#wrong" or "error", with the version and "Collective test"
// lines of late 2025, with NCCL INFO lines and mpirun prefixes interleaved, and
// with several tests in one file. ReadTidyCSV reads the tidy measurement schema
//
//	source,system,collective,algorithm,nranks,nnodes,size_bytes,time_us,busbw_gbps,placement,note
//
// and ReadMeasurements and ReadFile accept either, deciding by content.
//
// # Units
//
// Files follow nccl-tests: times in microseconds, bandwidths in GB/s (1e9 B/s).
// Everything this package returns is SI: seconds, bytes, bytes per second.
//
// # Errors
//
// A file that is empty, holds no table, or is not text gives an error. A bad
// row does not stop the reader: it is skipped and reported in Log.Problems as
// a *ParseError carrying the file, the line and a sentinel cause (ErrFieldCount,
// ErrNumber, ...), so one garbled line in a long capture costs one point.
package data
