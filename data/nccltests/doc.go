// Package nccltests reads the text that the nccl-tests binaries
// (all_reduce_perf, alltoall_perf, ...) and rccl-tests print, in the manner
// of encoding/csv: NewReader wraps an io.Reader, fields of the Reader set the
// file name and the overrides, and Read returns one Test (one table) at a
// time.
//
//	r := nccltests.NewReader(f)
//	r.Name = "all_reduce.log" // for errors and Test.Source
//	r.Ranks = 16              // optional overrides (Options)
//	tests, err := r.ReadAll()
//	for _, p := range r.Problems() {
//		fmt.Println("skipped:", p) // all_reduce.log:71: wrong number of fields: ...
//	}
//
// It reads every output generation: the 2017 "bytes N type op" tables, with
// and without the root column, with "#wrong" or "error", with the version and
// "Collective test" lines of late 2025, per-iteration columns and time
// stamps; NCCL INFO lines and launcher prefixes (mpirun, srun, kubectl)
// interleaved, rows that mpirun --tag-output cut with tags inside them; and
// several tests in one file. It reads the JSON that nccl-tests 2.17.3 on
// writes with -J FILE.json as the text nccl-tests printed for the same run
// (each line numbered by its JSON line), with NCCL's release (nccl_version)
// and the run's NCCL_* settings (env) in Test.Evidence; see Reader. Each
// test's collective, rank
// count and node count come from the file where it says them and from the
// table's columns where it does not (see Reader); what cannot be told is
// left Unknown rather than guessed. Test.Evidence holds what the log says
// of the machine beside the table, each fact with its line: the Rank
// lines' hosts, devices and PCI bus IDs, and what NCCL prints with
// NCCL_DEBUG=INFO (its version, network, NICs and their speeds,
// GPUDirect RDMA (each host's), NVLS, channels, rings, trees, ranks, nodes
// and local ranks; the ranks from the "Init COMPLETE" lines where no
// "nRanks" line gives them, as before NCCL 2.20).
//
// It depends on the standard library and commmodel alone: a Test's
// Collective is a commmodel.Collective, its Op the binary's stem
// (all_reduce, sendrecv, ...); package data turns a Test into fit's samples.
//
// # Units
//
// Files follow nccl-tests: times in microseconds, bandwidths in GB/s (1e9
// B/s). Everything this package returns is SI: seconds, bytes, bytes per
// second.
//
// # Errors
//
// An input that is empty, holds no table, or is not text gives an error
// (a gzip, xz or zstd input is named with the tool that decompresses it). A
// bad row does not stop the reader: it is skipped and reported in
// Reader.Problems, which lists the first MaxProblems and then one
// ErrMoreProblems that counts the rest. Both are a *ParseError{File, Line, Column, Err}: File as
// given in Reader.Name, Line 1-based (0 for the whole file), Column the
// 1-based byte offset in the line of the start of the offending field (0
// for the whole line), and Err one of the Err* sentinels, wrapped with the
// details, for errors.Is. topo.ParseError has the same shape. Warnings
// are ParseErrors in Problems too, each at its line, the test kept:
// ErrInconsistent (the table against an override or its own labels: a
// size printed twice, whose second row is left out; a count that is not
// the size over the type's bytes as the table's other rows print it; an
// algbw that is not size / time within its rounding and algBWSlack, whose
// row, or half where one half of two disagrees, is left out; and
// NCCL's lines against the table or each other: hosts that disagree on
// GPUDirect RDMA, which is then unknown),
// ErrElided, ErrAmbiguous, ErrRejoined, ErrFailed, ErrLongLine, ErrNULLine, and
// ErrStopped (a table that ends below the header's maxBytes with no
// "# Avg bus bandwidth" line after it).
package nccltests
