// Package data holds commlab's measured datasets and reads measurement files.
//
// The datasets are embedded with go:embed and each row names its source: the
// source article's H20 figures (article_h20.csv, article_statements.csv), the
// public H20 nccl-tests logs (logs/*.log), paired public runs of several
// machines (logs/paired, listed in logs/paired/MANIFEST.csv), a table of
// public kernel latencies (kernels_public.csv) and `nvidia-smi topo -m`
// texts (topology/*.txt). Loaders return gota DataFrames and plain
// []fit.Sample slices.
//
// ReadTidyCSV reads the tidy measurement schema
//
//	source,system,collective,algorithm,nranks,nnodes,size_bytes,time_us,busbw_gbps,placement,note
//
// the nccltests package reads the output of the nccl-tests binaries, and
// ReadMeasurements and ReadFile accept either, deciding by content.
// Collective and TestSamples turn a nccltests.Test into commmodel's
// collective and fit's samples. PairedLogs holds the paired logs, which
// package heldout (heldout.PairedMachines) reads into calibration tables.
//
// # Units
//
// Files follow nccl-tests: times in microseconds, bandwidths in GB/s (1e9 B/s).
// Everything this package returns is SI: seconds, bytes, bytes per second,
// except the DataFrames, which keep the files' columns (time_us, busbw_gbps).
//
// # Errors
//
// A file that is empty, holds no table, or is not text gives an error. A bad
// row does not stop the readers: it is skipped and reported in Log.Problems.
// Both are a *nccltests.ParseError carrying the file, the line, the column
// and a sentinel cause (nccltests.ErrNumber, ErrHeader, ...), so one garbled
// line in a long capture costs one point. The warnings in Log.Problems are
// nccltests' (its package documentation lists them: a size printed twice, a
// count that disagrees with its size, a table that stops below the
// header's maxBytes, ...).
package data
