package nccltests

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/inframethod/commlab/commmodel"
)

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

// BenchmarkReader reads logs of 100 to 10,000 rows (target: 10,000
// rows in at most 20 ms, docs/performance.md).
func BenchmarkReader(b *testing.B) { benchmarkRead(b, syntheticLog) }

// benchmarkRead reads the inputs of 100 to 10,000 rows that input writes.
func benchmarkRead(b *testing.B, input func(rows int) []byte) {
	for _, n := range []int{100, 1000, 10000} {
		in := input(n)
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				tests, err := NewReader(bytes.NewReader(in)).ReadAll()
				if err != nil || len(tests[0].Rows) != n {
					b.Fatalf("%v, %d tests", err, len(tests))
				}
			}
		})
	}
}

// tagSplit prints log as mpirun --tag-output prints the p5 log of
// TestRealLogTagSplitRows: every line tagged, every row also before its
// time columns (fields 6 and 10).
func tagSplit(log []byte) []byte {
	const tag = "[1,0]<stdout>:"
	var b bytes.Buffer
	for _, line := range strings.SplitAfter(string(log), "\n") {
		if line == "" {
			continue
		}
		b.WriteString(tag)
		f, starts := splitFields(line, nil, nil)
		if len(f) != 13 || !allDigits(f[0]) {
			b.WriteString(line)
			continue
		}
		b.WriteString(line[:starts[5]])
		b.WriteString(tag)
		b.WriteString(line[starts[5]:starts[9]])
		b.WriteString(tag)
		b.WriteString(line[starts[9]:])
	}
	return b.Bytes()
}

// BenchmarkReaderTagSplit reads the 10,000-row log with every row cut in
// three by Open MPI tags.
func BenchmarkReaderTagSplit(b *testing.B) {
	in := tagSplit(syntheticLog(10000))
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		r := NewReader(bytes.NewReader(in))
		tests, err := r.ReadAll()
		if err != nil || len(tests[0].Rows) != 10000 || len(r.Problems()) != 1 {
			b.Fatalf("%v, %d tests, problems %v", err, len(tests), r.Problems())
		}
	}
}

// The synthetic log itself reads back row for row, as AllReduce on 8 ranks;
// at 10,000 rows (1.3 MB) its lines straddle the reader's 64 KiB chunks, and
// a reader handed one byte at a time reads the same.
func TestSyntheticLog(t *testing.T) {
	in := syntheticLog(10000)
	l, err := read(bytes.NewReader(in), "synthetic.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	tt := l.Tests[0]
	for i, r := range tt.Rows {
		// syntheticLog: row i (from 0) is on line 15+i (3 header lines, 8 Rank lines, 3 more) with size (i+1)·8 KiB.
		if r.Line != 15+i || r.Size != int64(i+1)*8192 || !r.OutOfPlace.OK() || !r.InPlace.OK() {
			t.Fatalf("row %d: %+v; want line %d, size %d, both halves", i, r, 15+i, (i+1)*8192)
		}
	}
	one, err := read(iotest.OneByteReader(bytes.NewReader(in)), "synthetic.log", Options{})
	if err != nil || !reflect.DeepEqual(one, l) {
		t.Errorf("one byte at a time: %v; the tests differ", err)
	}
	if len(tt.Rows) != 10000 || tt.Ranks != 8 || tt.Nodes != 1 || tt.Collective != commmodel.AllReduce || len(l.Problems) != 0 {
		t.Errorf("%d rows, %d ranks, %d nodes, %v, problems %v; want 10000, 8, 1, allreduce, none",
			len(tt.Rows), tt.Ranks, tt.Nodes, tt.Collective, l.Problems)
	}
}

// syntheticJSON is syntheticLog's run as nccl-tests -J writes it (src/
// util.cu: one line, numbers as "%lf").
func syntheticJSON(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"version":3,"args":["all_reduce_perf","-b","8K","-e","8G","-i","8192"],"env":[],"nccl_version":22703,"config":{"nthreads":1,"ngpus":1,"minimum_bytes":8,"maximum_bytes":8589934592,"step_bytes":8192,"warmup_iters":5,"iterations":20,"aggregated_iterations":1,"validation":1,"graph":0,"devices":[`)
	for r := 0; r < 8; r++ {
		if r > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"rank":%d,"group":0,"pid":%d,"hostname":"h20-node","device":%d,"device_hex":"0000:%02x:00","device_info":"NVIDIA H20"}`, r, 1000+r, r, 0x18+r)
	}
	b.WriteString(`]},"results":[`)
	for i := 1; i <= n; i++ {
		size := int64(i) * 8192
		us := 10 + float64(size)/(300e3)*1.75
		alg := float64(size) / (us * 1e3)
		if i > 1 {
			b.WriteByte(',')
		}
		half := fmt.Sprintf(`{"time":%f,"alg_bw":%f,"bus_bw":%f,"nwrong":0.000000}`, us, alg, alg*1.75)
		fmt.Fprintf(&b, `{"size":%d,"count":%d,"type":"float","redop":"sum","root":"    -1","out_of_place":%s,"in_place":%s,"actual_iterations":20,"experiment_name":""}`, size, size/4, half, half)
	}
	b.WriteString(`],"out_of_bounds":{"count":0,"okay":"true"},"average_bus_bandwidth":{"bandwidth":123.400000,"okay":"unchecked"}}`)
	return b.Bytes()
}

// BenchmarkReaderJSON reads syntheticLog's runs of 100 to 10,000 rows from
// nccl-tests' JSON output, beside BenchmarkReader's text.
func BenchmarkReaderJSON(b *testing.B) { benchmarkRead(b, syntheticJSON) }
