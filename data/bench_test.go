package data

import (
	"bytes"
	"fmt"
	"os"
	"testing"
)

func readTestFile(name string) ([]byte, error) { return os.ReadFile(name) }

// syntheticLog is an nccl-tests log of n rows in the 2023-2024 layout, with
// a header, Rank lines and a trailer.
func syntheticLog(n int) []byte {
	var b bytes.Buffer
	b.WriteString("# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 8(bytes) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n")
	for r := 0; r < 8; r++ {
		fmt.Fprintf(&b, "#  Rank %2d Group  0 Pid %6d on %10s device %2d [0000:%02x:00] NVIDIA H20\n", r, 1000+r, "h20-node", r, 0x18+r)
	}
	b.WriteString("#\n#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n")
	b.WriteString("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n")
	for i := 1; i <= n; i++ {
		size := int64(i) * 8192
		us := 10 + float64(size)/(300e3)*1.75 // alpha 10 us, busBW 300 GB/s, AllReduce on 8
		alg := float64(size) / (us * 1e3)
		fmt.Fprintf(&b, "%12d  %12d  %8s  %6s  %6d  %7.2f  %6.2f  %6.2f  %6d  %7.2f  %6.2f  %6.2f  %6d\n",
			size, size/4, "float", "sum", -1, us, alg, alg*1.75, 0, us, alg, alg*1.75, 0)
	}
	b.WriteString("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 123.4 \n#\n")
	return b.Bytes()
}

// BenchmarkReadNCCLTests reads logs of 100 to 10,000 rows (target: 10,000
// rows in at most 20 ms, issue 5).
func BenchmarkReadNCCLTests(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		in := syntheticLog(n)
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				l, err := ReadNCCLTests(bytes.NewReader(in), "bench.log", nil)
				if err != nil || len(l.Tests[0].Rows) != n {
					b.Fatalf("%v, %d rows", err, len(l.Tests[0].Rows))
				}
			}
		})
	}
}

// The synthetic log itself reads back row for row, as AllReduce on 8 ranks.
func TestSyntheticLog(t *testing.T) {
	l, err := ReadNCCLTests(bytes.NewReader(syntheticLog(500)), "synthetic.log", nil)
	if err != nil {
		t.Fatal(err)
	}
	tt := l.Tests[0]
	if len(tt.Rows) != 500 || tt.Ranks != 8 || tt.Nodes != 1 || tt.Collective.String() != "allreduce" || len(l.Problems) != 0 {
		t.Errorf("%d rows, %d ranks, %d nodes, %v, problems %v; want 500, 8, 1, allreduce, none",
			len(tt.Rows), tt.Ranks, tt.Nodes, tt.Collective, l.Problems)
	}
}
