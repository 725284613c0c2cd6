package nccltests

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// layoutLog is an all_reduce_perf log of one 1 MiB row over the ranks of
// rankLines, "HOST PID" for each rank in order ("" leaves its line out),
// after header (a "# nThread" line, or "" for none). The row's busbw is algbw·2(n-1)/n, nccl-tests'
// AllReduce bus factor, so that the table fits its ranks.
func layoutLog(header string, rankLines []string) string {
	var b strings.Builder
	b.WriteString("# Collective test starting: all_reduce_perf\n")
	if header != "" {
		b.WriteString(header + "\n")
	}
	for r, hp := range rankLines {
		if hp == "" {
			continue
		}
		host, pid, _ := strings.Cut(hp, " ")
		fmt.Fprintf(&b, "#  Rank %2d Group  0 Pid %6s on %10s device %2d [0000:18:00] NVIDIA H100 80GB HBM3\n", r, pid, host, r%8)
	}
	n := float64(len(rankLines))
	bus := 104.86 * 2 * (n - 1) / n
	fmt.Fprintf(&b, "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n")
	fmt.Fprintf(&b, "     1048576        262144     float     sum      -1    10.00  104.86  %6.2f      0    10.00  104.86  %6.2f      0\n", bus, bus)
	return b.String()
}

// ranksOn lists n ranks "HOST PID", each process (per ranks of them) with a
// Pid of its own, on one host.
func ranksOn(host string, n, per int) []string {
	out := make([]string, n)
	for r := range out {
		out[r] = fmt.Sprintf("%s %d", host, 4100+r/per)
	}
	return out
}

// The run's layout from the header line and the Rank lines: nThread and
// nGpus, "agg iters" and "graph" (nccl-tests' PRINT of them in
// src/util.cu), and the processes as distinct host and Pid pairs.
func TestReadLayout(t *testing.T) {
	const (
		modern  = "# nThread %d nGpus %d minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: %d validation: 1 graph: %d"
		pre2022 = "# nThread %d nGpus %d minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 validation: 1 "
	)
	twoHosts := []string{"ip-192-168-2-54 14", "ip-192-168-16-52 14"} // containers: Pid 14 on both (testdata/real/v100_efa_2x1_allreduce_pre2022.log)
	elided := ranksOn("h", 4, 1)
	elided[2] = "" // ranks 0, 1 and 3 listed: 4 ranks, the Rank lines warn
	cases := []struct {
		name                           string
		header                         string
		ranks                          []string
		procs, threads, gpus, aggs, gr int
		inconsistent                   bool
	}{
		{"one process per GPU", fmt.Sprintf(modern, 1, 1, 1, 0), ranksOn("h", 4, 1), 4, 1, 1, 1, 0, false},
		{"one thread for 8 GPUs", fmt.Sprintf(modern, 1, 8, 1, 0), ranksOn("h", 8, 8), 1, 1, 8, 1, 0, false},
		{"threads, graphs and aggregation", fmt.Sprintf(modern+" unalign: 0", 2, 2, 4, 10), ranksOn("h", 8, 4), 2, 2, 2, 4, 10, false},
		{"before 2022: no agg iters, no graph", fmt.Sprintf(pre2022, 1, 4), ranksOn("h", 4, 4), 1, 1, 4, 0, 0, false},
		{"one Pid on two hosts", fmt.Sprintf(pre2022, 1, 1), twoHosts, 2, 1, 1, 0, 0, false},
		{"no header: the Rank lines alone", "", ranksOn("h", 4, 2), 2, 0, 0, 0, 0, false},
		{"a count too large for an int", fmt.Sprintf(modern, 1, 1, 1, 0) + "9999999999999999999999", ranksOn("h", 2, 1), 2, 1, 1, 1, 0, false},
		{"Rank lines that contradict nGpus", fmt.Sprintf(modern, 1, 8, 1, 0), ranksOn("h", 8, 1), 8, 1, 8, 1, 0, true},
		{"nGpus that does not divide the ranks", fmt.Sprintf(modern, 1, 3, 1, 0), ranksOn("h", 4, 4), 1, 1, 3, 1, 0, true},
		{"elided Rank lines: the header's count", fmt.Sprintf(modern, 1, 1, 1, 0), elided, 4, 1, 1, 1, 0, true},
	}
	for _, c := range cases {
		l := readString(t, layoutLog(c.header, c.ranks), Options{})
		tt := l.Tests[0]
		if tt.Processes != c.procs || tt.Threads != c.threads || tt.GPUsPerThread != c.gpus || tt.AggIters != c.aggs || tt.Graphs != c.gr {
			t.Errorf("%s: processes %d threads %d GPUs per thread %d agg iters %d graphs %d; want %d %d %d %d %d", c.name,
				tt.Processes, tt.Threads, tt.GPUsPerThread, tt.AggIters, tt.Graphs, c.procs, c.threads, c.gpus, c.aggs, c.gr)
		}
		inconsistent := false
		for _, p := range l.Problems {
			inconsistent = inconsistent || errors.Is(p, ErrInconsistent)
		}
		if inconsistent != c.inconsistent {
			t.Errorf("%s: problems %v; want an ErrInconsistent: %v", c.name, l.Problems, c.inconsistent)
		}
	}
}
