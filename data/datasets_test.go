package data

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"gonum.org/v1/gonum/floats/scalar"
)

// The article's points (seed/003, "H20 实测 NCCL AllToAll"): 8 GPUs 64 KB
// 9.5 us, 1 MB 14.8, 16 MB 72, 64 MB 216; 2 x 8 GPUs 1 MB 173, 16 MB 733,
// 128 MB 4409, with binary KB and MB.
func TestArticle(t *testing.T) {
	want := []struct {
		ranks, nodes int
		size         int64
		us           float64
	}{
		{8, 1, 64 << 10, 9.5}, {8, 1, 1 << 20, 14.8}, {8, 1, 16 << 20, 72}, {8, 1, 64 << 20, 216},
		{16, 2, 1 << 20, 173}, {16, 2, 16 << 20, 733}, {16, 2, 128 << 20, 4409},
	}
	ps := Article()
	if len(ps) != len(want) {
		t.Fatalf("%d points, want %d", len(ps), len(want))
	}
	for i, w := range want {
		p := ps[i]
		if p.NRanks != w.ranks || p.NNodes != w.nodes || p.Size != w.size || !scalar.EqualWithinAbs(p.Time/1e-6, w.us, 1e-9) ||
			p.Collective != "alltoall" || !strings.Contains(p.Source, "003_c6e9d2e394e324d2") {
			t.Errorf("point %d = %+v, want %d ranks %d nodes %d B %g us from the article", i, p, w.ranks, w.nodes, w.size, w.us)
		}
	}
	// Only the 64 MiB point has a busBW in the article (272 GB/s); the others
	// are left empty rather than computed.
	for _, p := range ps {
		if (p.BusBW != 0) != (p.Size == 64<<20 && p.NNodes == 1) {
			t.Errorf("%d B on %d nodes: busBW %g", p.Size, p.NNodes, p.BusBW)
		}
	}
	if got := len(ps.Select(Filter{NNodes: 2}).Samples()); got != 3 {
		t.Errorf("2-node samples: %d, want 3", got)
	}
	if got := len(ps.Select(Filter{System: "h20", NRanks: 8})); got != 4 {
		t.Errorf("Filter is case-blind on System: %d 8-rank H20 points, want 4", got)
	}
}

func TestFrames(t *testing.T) {
	for _, c := range []struct {
		name       string
		frame      func() dataframe.DataFrame
		rows, cols int
	}{
		// article_h20.csv: 7 points in the 11 tidy columns.
		{"article", ArticleFrame, 7, 11},
		// kernels_public.csv: 148 data lines, 8 columns of its own.
		{"kernels", KernelsFrame, 148, 8},
		// article_statements.csv: 11 statements; 7 string and 2 number columns.
		{"statements", StatementsFrame, 11, 9},
		// logs/*.log: 2 placements x (13 + 10 + 10 + 8 + 25) rows.
		{"public", PublicFrame, 132, 11},
	} {
		df := c.frame()
		if df.Err != nil {
			t.Errorf("%s: %v", c.name, df.Err)
		}
		if rows, cols := df.Dims(); rows != c.rows || cols != c.cols {
			t.Errorf("%s frame: %d x %d, want %d x %d", c.name, rows, cols, c.rows, c.cols)
		}
	}
	if got := KernelsFrame().Names(); strings.Join(got, ",") != "source,gpu,nranks,collective,algorithm,size_bytes,time_us,note" {
		t.Errorf("kernels columns %v", got)
	}
	// The 64 MiB point's busBW is 272 GB/s in the frame's GB/s column.
	df := ArticleFrame()
	if bw := df.Col("busbw_gbps").Elem(3).Float(); bw != 272 {
		t.Errorf("busbw_gbps of 64 MiB = %g, want 272", bw)
	}
	// A log's frame has one row per measured cell: issue #321 has 13 rows x 2 placements.
	l, err := PublicLog("h20-3e_2x2_alltoall_nccltests321.log", nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := l.Frame().Dims(); r != 26 {
		t.Errorf("log frame has %d rows, want 26", r)
	}
}

func TestKernels(t *testing.T) {
	ps := Kernels()
	if len(ps) != 148 {
		t.Fatalf("%d kernel points, want 148 (kernels_public.csv)", len(ps))
	}
	for _, p := range ps {
		if p.Source == "" || p.System == "" || p.Time <= 0 {
			t.Fatalf("kernel point without source, gpu or time: %+v", p)
		}
	}
}

func TestStatements(t *testing.T) {
	for _, c := range []struct {
		id        string
		low, high float64
		unit      string
	}{
		{"allreduce-floor", 10e-6, 10e-6, "s"},               // ~10 us
		{"allreduce-measured-vs-model", 2.5, 3, "1"},         // 2.5-3x
		{"allreduce-oneshot-twoshot-tie", 65536, 65536, "B"}, // 64 KB, binary
		{"alltoall-model-too-fast", 1.3, 4, "1"},             // 1.3-4x
		{"alltoall-fit-bw", 280e9, 280e9, "B/s"},             // ~280 GB/s
	} {
		s, ok := StatementByID(c.id)
		if !ok {
			t.Errorf("no statement %s", c.id)
			continue
		}
		if !scalar.EqualWithinAbs(s.Low, c.low, 1e-9*c.low) || !scalar.EqualWithinAbs(s.High, c.high, 1e-9*c.high) || s.Unit != c.unit {
			t.Errorf("%s: [%g, %g] %s, want [%g, %g] %s", c.id, s.Low, s.High, s.Unit, c.low, c.high, c.unit)
		}
	}
}

func ExampleArticle() {
	// The article's NCCL AllToAll on one node of 8 H20 GPUs.
	for _, s := range Article().Select(Filter{Collective: "alltoall", NNodes: 1}).Samples() {
		fmt.Printf("%9.0f B  %6.1f us\n", s.Size, s.Time*1e6)
	}
	// Output:
	//     65536 B     9.5 us
	//   1048576 B    14.8 us
	//  16777216 B    72.0 us
	//  67108864 B   216.0 us
}
