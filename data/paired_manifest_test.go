package data

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/data/nccltests"
	"gonum.org/v1/gonum/floats/scalar"
)

// The paired logs (data/logs/paired/<machine>/*.log, described in its
// README.md) are public nccl-tests runs, several per machine, listed table
// by table in its MANIFEST.csv. This test reads every file with nccltests'
// reader and checks that the reader and the manifest agree.

const pairedDir = "logs/paired"

// pairedRows is the number of rows of each table, counted in the file as
// printed, keyed by "machine/file#index", else "machine/file", else
// "machine" (the first key present applies).
var pairedRows = map[string]int{
	// ABCI: -b 4 -e 32M -f 2.
	"a100-sxm4-abci-ib4xhdr": 24,
	"v100-sxm2-abci-ib2xedr": 24,
	// nccl-tests#290: 128 MiB..4 GiB on one node, 8 MiB..8 GiB on two.
	"h100-sxm-ib8xndr/allreduce_issue290.log#0": 6,
	"h100-sxm-ib8xndr/allreduce_issue290.log":   11,
	// DGX-2, -b 8 -e 10240M (all_gather and reduce_scatter start with three 0-byte rows).
	"v100-sxm3-dgx2": 31,
	// Together, 8 B..8 GiB (all_gather and reduce_scatter start with four 0-byte rows).
	"h100-sxm-1x8-together": 31,
	// xxrjun cluster01: 32 MiB..16 GiB; the pairwise runs 4 GiB..16 GiB.
	"h100-sxm-10node-cluster01":                                      10,
	"h100-sxm-10node-cluster01/nccl_N2_G1_cnode3-002_cnode3-003.log": 3,
	"h100-sxm-10node-cluster01/nccl_N2_G4_cnode3-002_cnode3-003.log": 3,
	"h100-sxm-10node-cluster01/nccl_N2_G8_cnode3-002_cnode3-003.log": 3,
	// GB300: the author kept the last two rows of each sweep.
	"gb300-nvl72": 2,
	// CoreWeave GB200: 512 MiB..8 GiB on one rack, ..16 GiB on two and twenty.
	"gb200-nvl72-coreweave/allreduce_1rack.log": 5,
	"gb200-nvl72-coreweave":                     6,
}

// pairedRanksPrinted are the tables whose Rank line gives another rank
// count than the manifest's, with the count it gives. CoreWeave's "2 Racks"
// block ends with rank 143, on the host and Pid of the single rack's last
// Rank line, but its busbw/algbw is 2·127/128 on every row: 128 ranks, the
// 32 hosts of the repository's two-rack job (16 per rack).
var pairedRanksPrinted = map[string]int{
	"gb200-nvl72-coreweave/allreduce_2racks.log#0": 144,
}

// pairedNodesElided lists the tables whose Rank lines were elided with
// "...", so the host names, and the node count, are not all printed.
var pairedNodesElided = map[string]bool{
	"gb300-nvl72/allreduce_alltoall_1to32hosts.log#1": true,
	"gb300-nvl72/allreduce_alltoall_1to32hosts.log#2": true,
	"gb300-nvl72/allreduce_alltoall_1to32hosts.log#3": true,
	"gb300-nvl72/allreduce_alltoall_1to32hosts.log#5": true,
	"gb300-nvl72/allreduce_alltoall_1to32hosts.log#6": true,
	"gb300-nvl72/allreduce_alltoall_1to32hosts.log#7": true,
	"gb200-nvl72-coreweave/allreduce_1rack.log#0":     true,
	"gb200-nvl72-coreweave/allreduce_2racks.log#0":    true,
	"gb200-nvl72-coreweave/allreduce_20racks.log#0":   true,
}

// pairedProblems is the number of problems the reader reports per file: one
// per elided table above. The sendrecv tables of cluster01 report none:
// their redop "sum" and root -1 columns are what nccl-tests 2.17 prints for
// sendrecv (its src/sendrecv.cu hands TimeTest the -o operation and root -1).
var pairedProblems = map[string]int{
	"gb300-nvl72/allreduce_alltoall_1to32hosts.log": 6,
	// CoreWeave: one Rank line each; the two-rack one's count does not fit
	// its rows (pairedRanksPrinted).
	"gb200-nvl72-coreweave/allreduce_1rack.log":   1,
	"gb200-nvl72-coreweave/allreduce_2racks.log":  2,
	"gb200-nvl72-coreweave/allreduce_20racks.log": 1,
	// The all_gather trailer: "Out of bounds values : 4 FAILED".
	"v100-sxm3-dgx2/five_tests_2019.log": 1,
}

// readLog reads the tests of a paired log and the reader's problems.
func readLog(path string) ([]*nccltests.Test, []error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := nccltests.NewReader(f)
	tests, err := r.ReadAll()
	return tests, r.Problems(), err
}

func TestPairedLogs(t *testing.T) {
	rows, err := readPairedManifest(os.DirFS(pairedDir))
	if err != nil {
		t.Fatal(err)
	}
	type log struct {
		tests    []*nccltests.Test
		problems []error
	}
	logs := map[string]*log{}
	indices := map[string][]int{}
	for _, m := range rows {
		path := filepath.Join(m.Machine, m.File)
		key := path + "#" + strconv.Itoa(m.Test)
		if m.Ranks != m.Nodes*m.PerNode {
			t.Errorf("MANIFEST.csv:%d: ranks %d != %d nodes x %d", m.Line, m.Ranks, m.Nodes, m.PerNode)
		}
		if !slices.Contains([]string{"auto", "ring", "tree", "nvls", "nvlstree", "pat", "collnet"}, m.Algo) ||
			!slices.Contains([]string{"auto", "ll", "ll128", "simple"}, m.Proto) {
			t.Errorf("MANIFEST.csv:%d: algo %q proto %q", m.Line, m.Algo, m.Proto)
		}
		if m.Source == "" {
			t.Errorf("MANIFEST.csv:%d: no source", m.Line)
		}
		l := logs[path]
		if l == nil {
			tests, problems, err := readLog(filepath.Join(pairedDir, path))
			if err != nil {
				t.Errorf("MANIFEST.csv:%d: %v", m.Line, err)
				continue
			}
			l = &log{tests, problems}
			logs[path] = l
		}
		indices[path] = append(indices[path], m.Test)
		if m.Test < 0 || m.Test >= len(l.tests) {
			t.Errorf("%s: test %d of %d", key, m.Test, len(l.tests))
			continue
		}
		tt := l.tests[m.Test]
		if c, err := commmodel.ParseCollective(m.Collective); err == nil {
			if tt.CollectiveFrom == nccltests.Unknown || tt.Collective != c {
				t.Errorf("%s: collective %v (%v), want %v", key, tt.Collective, tt.CollectiveFrom, c)
			}
		} else if tt.Op != m.Collective {
			t.Errorf("%s: op %q, want %q", key, tt.Op, m.Collective)
		}
		nodes := m.Nodes
		if pairedNodesElided[key] {
			nodes = 0 // unknown
		}
		ranks := m.Ranks
		if r, ok := pairedRanksPrinted[key]; ok {
			ranks = r
			for _, row := range tt.Rows {
				if f := row.OutOfPlace.BusBW / row.OutOfPlace.AlgBW; !scalar.EqualWithinAbs(f, 2*float64(m.Ranks-1)/float64(m.Ranks), 1e-3*(2*float64(m.Ranks-1)/float64(m.Ranks))) {
					t.Errorf("%s: busbw/algbw %.5f at %d B does not fit AllReduce on %d ranks", key, f, row.Size, m.Ranks)
				}
			}
		}
		if tt.Ranks != ranks || tt.Nodes != nodes || tt.System != m.GPU {
			t.Errorf("%s: %d ranks on %d nodes of %q, want %d on %d of %q",
				key, tt.Ranks, tt.Nodes, tt.System, m.Ranks, nodes, m.GPU)
		}
		want, ok := 0, false
		for _, k := range []string{key, path, m.Machine} {
			if want, ok = pairedRows[k]; ok {
				break
			}
		}
		if !ok {
			t.Errorf("%s: no expected row count", key)
		} else if len(tt.Rows) != want {
			t.Errorf("%s: %d rows, want %d", key, len(tt.Rows), want)
		}
	}
	for path, l := range logs {
		slices.Sort(indices[path])
		if want := len(l.tests); !slices.Equal(indices[path], seq(want)) {
			t.Errorf("%s: manifest lists tests %v, the file has %d", path, indices[path], want)
		}
		if len(l.problems) != pairedProblems[path] {
			t.Errorf("%s: %d problems %v, want %d", path, len(l.problems), l.problems, pairedProblems[path])
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
