package data

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// The paired logs (logs/paired/<machine>/*.log, described in
// logs/paired/README.md) are public nccl-tests runs, several per machine,
// listed table by table in logs/paired/MANIFEST.csv. This test reads every
// file with ReadFile and checks that the reader and the manifest agree.

const pairedDir = "logs/paired"

// pairedHeader is MANIFEST.csv's header.
var pairedHeader = []string{"machine", "file", "test_index", "collective", "nodes", "gpus_per_node",
	"ranks", "algo", "proto", "gpu_name", "nccl_version", "source"}

// pairedSpan is what a table holds, counted in the file as printed: its rows
// and its first and last sizes (B).
type pairedSpan struct {
	rows        int
	first, last int64
}

// pairedSpans gives each table's span, keyed by "machine/file#index", or by
// "machine" for a machine all of whose tables span the same sizes.
var pairedSpans = map[string]pairedSpan{
	// ABCI: -b 4 -e 32M -f 2, 24 rows in every file.
	"a100-sxm4-abci-ib4xhdr": {24, 4, 32 << 20},
	"v100-sxm2-abci-ib2xedr": {24, 4, 32 << 20},
	// nccl-tests#290: 128 MiB..4 GiB on one node, 8 MiB..8 GiB on two.
	"h100-sxm-ib8xndr/allreduce_issue290.log#0": {6, 128 << 20, 4 << 30},
	"h100-sxm-ib8xndr/allreduce_issue290.log#1": {11, 8 << 20, 8 << 30},
	"h100-sxm-ib8xndr/allreduce_issue290.log#2": {11, 8 << 20, 8 << 30},
	// DGX-2, -b 8 -e 10240M: all_gather and reduce_scatter print three
	// 0-byte rows and end at 8589934560 B (a multiple of 12 ranks · 4 B).
	"v100-sxm3-dgx2/five_tests_2019.log#0": {31, 0, 8589934560},
	"v100-sxm3-dgx2/five_tests_2019.log#1": {31, 8, 8 << 30},
	"v100-sxm3-dgx2/five_tests_2019.log#2": {31, 8, 8 << 30},
	"v100-sxm3-dgx2/five_tests_2019.log#3": {31, 8, 8 << 30},
	"v100-sxm3-dgx2/five_tests_2019.log#4": {31, 0, 8589934560},
}

// pairedRow is one row of MANIFEST.csv.
type pairedRow struct {
	line                              int
	machine, file, collective         string
	index, nodes, perNode, ranks      int
	algo, proto, gpu, version, source string
}

func readPairedManifest(t *testing.T) []pairedRow {
	t.Helper()
	f, err := os.Open(filepath.Join(pairedDir, "MANIFEST.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 2 || !slices.Equal(recs[0], pairedHeader) {
		t.Fatalf("MANIFEST.csv: header %q, want %q and rows", recs[0], pairedHeader)
	}
	var rows []pairedRow
	for i, r := range recs[1:] {
		var n [4]int
		for j, col := range []int{2, 4, 5, 6} {
			if n[j], err = strconv.Atoi(r[col]); err != nil {
				t.Fatalf("MANIFEST.csv:%d: %s: %v", i+2, pairedHeader[col], err)
			}
		}
		rows = append(rows, pairedRow{line: i + 2, machine: r[0], file: r[1], collective: r[3],
			index: n[0], nodes: n[1], perNode: n[2], ranks: n[3],
			algo: r[7], proto: r[8], gpu: r[9], version: r[10], source: r[11]})
	}
	return rows
}

func TestPairedLogs(t *testing.T) {
	rows := readPairedManifest(t)
	logs := map[string]*Log{}
	indices := map[string][]int{}
	for _, m := range rows {
		path := filepath.Join(m.machine, m.file)
		key := path + "#" + strconv.Itoa(m.index)
		if m.ranks != m.nodes*m.perNode {
			t.Errorf("MANIFEST.csv:%d: ranks %d != %d nodes x %d", m.line, m.ranks, m.nodes, m.perNode)
		}
		if !slices.Contains([]string{"auto", "ring", "tree", "nvls", "nvlstree", "pat", "collnet"}, m.algo) ||
			!slices.Contains([]string{"auto", "ll", "ll128", "simple"}, m.proto) {
			t.Errorf("MANIFEST.csv:%d: algo %q proto %q", m.line, m.algo, m.proto)
		}
		if m.source == "" {
			t.Errorf("MANIFEST.csv:%d: no source", m.line)
		}
		l := logs[path]
		if l == nil {
			var err error
			if l, err = ReadFile(filepath.Join(pairedDir, path), nil); err != nil {
				t.Errorf("MANIFEST.csv:%d: %v", m.line, err)
				continue
			}
			logs[path] = l
		}
		indices[path] = append(indices[path], m.index)
		if m.index < 0 || m.index >= len(l.Tests) {
			t.Errorf("%s: test %d of %d", key, m.index, len(l.Tests))
			continue
		}
		tt := l.Tests[m.index]
		if c, err := commmodel.ParseCollective(m.collective); err == nil {
			if tt.CollectiveFrom == Unknown || tt.Collective != c {
				t.Errorf("%s: collective %v (%v), want %v", key, tt.Collective, tt.CollectiveFrom, c)
			}
		} else if tt.Op != m.collective {
			t.Errorf("%s: op %q, want %q", key, tt.Op, m.collective)
		}
		if tt.Ranks != m.ranks || tt.Nodes != m.nodes || tt.System != m.gpu {
			t.Errorf("%s: %d ranks on %d nodes of %q, want %d on %d of %q",
				key, tt.Ranks, tt.Nodes, tt.System, m.ranks, m.nodes, m.gpu)
		}
		span, ok := pairedSpans[key]
		if !ok {
			span, ok = pairedSpans[m.machine]
		}
		if !ok {
			t.Errorf("%s: no expected span", key)
			continue
		}
		n := len(tt.Rows)
		if got := (pairedSpan{n, tt.Rows[0].Size, tt.Rows[n-1].Size}); got != span {
			t.Errorf("%s: %d rows %d..%d B, want %d rows %d..%d B",
				key, got.rows, got.first, got.last, span.rows, span.first, span.last)
		}
	}
	for path, l := range logs {
		slices.Sort(indices[path])
		if want := len(l.Tests); !slices.Equal(indices[path], seq(want)) {
			t.Errorf("%s: manifest lists tests %v, the file has %d", path, indices[path], want)
		}
		for _, p := range l.Problems {
			t.Errorf("%s: %v", path, p)
		}
	}
	files, err := filepath.Glob(filepath.Join(pairedDir, "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(pairedDir, f)
		if logs[rel] == nil {
			t.Errorf("%s: not in MANIFEST.csv", rel)
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), "# Source: ") {
			t.Errorf("%s: does not start with a \"# Source: \" line", rel)
		}
	}
}

// seq is 0, 1, ..., n-1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
