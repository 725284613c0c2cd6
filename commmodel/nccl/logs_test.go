package nccl

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// A logCase is a public log with a TUNING table, and the communicator it
// describes. Graph values come from the log's GRAPH lines where the stored
// excerpt has them; where it does not, the comment says which printed cells
// fix them.
type logCase struct {
	file string
	cfg  Config
	// skip are cells the excerpt prints but whose inputs it does not show,
	// with the reason.
	skip map[cell]string
}

type cell struct {
	f Func
	a Algo
	p Protocol
}

var logCases = []logCase{
	{
		file: "tuning_2.29.7_rtx5090_2x1_socket.log",
		cfg: Config{
			Version: Version{2, 29, 7}, Ranks: 2, Nodes: 2, // NCCL_HOSTID per rank: 2 nodes of 1 GPU
			MinCompCap: 120, // GeForce RTX 5090, compute capability 12.0
			Graphs: Graphs{
				// No GRAPH lines in the excerpt. Ring/Simple Broadcast prints
				// nCh·bwIntra = 2.4 GB/s (ratio 1 at two nodes); the per-call
				// lines use channels 0..3, the runtime count 2·nCh, so 2 x 1.2
				// (a speed-array entry). Broadcast latency 9.3 = 6.6 + 2.7 is the
				// sameChannels form. LL128 prints 0: a socket NIC's path (PHB)
				// is farther than PXN.
				Ring: Graph{Pattern: PatternRing, NChannels: 2, BWIntra: 1.2, BWInter: 1.2,
					TypeIntra: PathLOC, TypeInter: PathPHB, SameChannels: true},
				// One GPU per node makes the tree pattern TREE (×0.85); PAT
				// prints 0.75·nCh·bwIntra = 3.6, so bwIntra = 2.4, the
				// search's 2·bwInter.
				Tree: Graph{Pattern: PatternTree, NChannels: 2, BWIntra: 2.4, BWInter: 1.2,
					TypeIntra: PathLOC, TypeInter: PathPHB, SameChannels: true},
			},
		},
	},
	{
		file: "tuning_2.20_h100_2x8_nccl1519.log",
		cfg: Config{
			Version: Version{2, 20, 5}, Ranks: 16, Nodes: 2, MinCompCap: 90, NVSwitch: true,
			Graphs: Graphs{
				// The ring's GRAPH line is not in the excerpt. Ring/Simple
				// Broadcast prints nCh·bwIntra = 20 GB/s; only that product
				// enters these rows. LL128 prints 0 and the NVLS line's NIC
				// path is PHB, farther than PXN. Broadcast latency 9.3 is the
				// sameChannels form.
				Ring: Graph{Pattern: PatternRing, NChannels: 4, BWIntra: 5, BWInter: 5,
					TypeIntra: PathNVL, TypeInter: PathPHB, SameChannels: true},
				Tree: Graph{Pattern: PatternBalancedTree, NChannels: 4, BWIntra: 5, BWInter: 5,
					TypeIntra: PathNVL, TypeInter: PathPHB},
				// "Pattern 5, crossNic 0, nChannels 7, bw 3.000000/3.000000,
				// type NVL/PHB, sameChannels 0", as printed.
				NVLS: Graph{Pattern: PatternNVLS, NChannels: 7, BWIntra: 3, BWInter: 3,
					TypeIntra: PathNVL, TypeInter: PathPHB},
			},
		},
		skip: map[cell]string{
			{FuncAllReduce, AlgoTree, LL}:     "Tree AllReduce prints bandwidth 0: a disable the excerpt does not show",
			{FuncAllReduce, AlgoTree, LL128}:  "same",
			{FuncAllReduce, AlgoTree, Simple}: "same",
		},
	},
}

// printTol is the print precision of the table: "%8.1f/%6.1f" rounds to
// 0.05, and NCCL computes in float32.
const printTol = 0.05 + 1e-6

// tableDiff compares a model with a printed table cell by cell: the cells
// compared, the largest deviations within printTol, and the cells outside.
func tableDiff(m *Model, tun *Tuning, skip map[cell]string) (n int, maxLat, maxBW float64, bad []string) {
	for f := range Func(NumFuncs) {
		for a := range Algo(NumAlgos) {
			if !tun.Seen[f][a] {
				continue
			}
			for p := range Protocol(NumProtocols) {
				n++
				lat := m.Latency(f, a, p) / usec
				if !scalar.EqualWithinAbs(lat, tun.Lat[f][a][p], printTol) {
					bad = append(bad, fmt.Sprintf("%v %v/%v latency: model %.3f us, log %.1f", f, a, p, lat, tun.Lat[f][a][p]))
				} else {
					maxLat = math.Max(maxLat, math.Abs(lat-tun.Lat[f][a][p]))
				}
				if _, ok := skip[cell{f, a, p}]; ok {
					continue
				}
				bw := m.Bandwidth(f, a, p) / gbps
				if !scalar.EqualWithinAbs(bw, tun.BW[f][a][p], printTol) {
					bad = append(bad, fmt.Sprintf("%v %v/%v bandwidth: model %.3f GB/s, log %.1f", f, a, p, bw, tun.BW[f][a][p]))
				} else {
					maxBW = math.Max(maxBW, math.Abs(bw-tun.BW[f][a][p]))
				}
			}
		}
	}
	return n, maxLat, maxBW, bad
}

// TestLogTables checks the model against every cell of the TUNING tables of
// public logs (sources in each testdata file): the latency and bandwidth
// NCCL printed with one decimal must be within 0.05 of the model's.
func TestLogTables(t *testing.T) {
	for _, lc := range logCases {
		t.Run(lc.file, func(t *testing.T) {
			tun := readTuningFile(t, lc.file)
			m, err := New(lc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			n, maxLat, maxBW, bad := tableDiff(m, tun, lc.skip)
			for _, b := range bad {
				t.Error(b)
			}
			if n == 0 {
				t.Fatal("no cells compared")
			}
			t.Logf("%d cells (%d bandwidths left out): max |latency - log| %.3f us, max |bandwidth - log| %.3f GB/s; %v", n, len(lc.skip), maxLat, maxBW, tun.Problems)
		})
	}
}

// TestLogTablesDateVersion checks that the tables tell NCCL versions apart:
// of the release tags, only those the testdata file names reproduce every
// cell. The 2.20 table needs CollNetDirect AllGather (2.20 on) and Ring/LL
// at a quarter (before 2.21); the 2.29.7 table needs PAT at 0.75 (2.24 on)
// and NVLS skipped below two channels (2.28 on).
func TestLogTablesDateVersion(t *testing.T) {
	tags := []Version{{2, 18, 6}, {2, 19, 4}, {2, 20, 5}, {2, 21, 5}, {2, 22, 3}, {2, 23, 4}, {2, 24, 3}, {2, 25, 1},
		{2, 26, 6}, {2, 27, 7}, {2, 28, 3}, {2, 28, 9}, {2, 29, 7}, {2, 30, 7}}
	want := map[string]string{
		"tuning_2.29.7_rtx5090_2x1_socket.log": "[2.28.3 2.28.9 2.29.7 2.30.7]",
		"tuning_2.20_h100_2x8_nccl1519.log":    "[2.20.5]",
	}
	for _, lc := range logCases {
		tun := readTuningFile(t, lc.file)
		var match []string
		for _, v := range tags {
			cfg := lc.cfg
			cfg.Version = v
			m, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, _, bad := tableDiff(m, tun, lc.skip); len(bad) == 0 {
				match = append(match, v.String())
			}
		}
		if got := fmt.Sprint(match); got != want[lc.file] {
			t.Errorf("%s: reproduced by %s, want %s", lc.file, got, want[lc.file])
		}
	}
}

func readTuningFile(t *testing.T, name string) *Tuning {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tun, err := ReadTuning(f)
	if err != nil {
		t.Fatal(err)
	}
	return tun
}

// TestLogCalls checks the per-call lines of public logs: the time NCCL 2.22
// printed for the (algorithm, protocol) it ran, and the choices NCCL 2.29.7
// printed. Sources are in the testdata files.
func TestLogCalls(t *testing.T) {
	// NVIDIA/nccl #1453: 3 nodes x 8 H100, NCCL 2.22. The excerpt has no
	// GRAPH lines. "16 coll channels" is the runtime count, twice the ring
	// graph's 8 channels. The Ring/Simple time of 8 GiB fixes the ring's
	// bwInter at 24 GB/s (8 x 24); the Tree/LL times fix Tree/LL at
	// 20.4·0.85·0.5 GB/s: the Intel-CPU LL cap of three or more nodes and the
	// TREE pattern.
	h100 := Config{
		Version: Version{2, 22, 3}, Ranks: 24, Nodes: 3, MinCompCap: 90, NVSwitch: true, Channels: 16,
		Graphs: Graphs{
			Ring: Graph{Pattern: PatternRing, NChannels: 8, BWIntra: 24, BWInter: 24, TypeIntra: PathNVL, TypeInter: PathPIX},
			Tree: Graph{Pattern: PatternTree, NChannels: 8, BWIntra: 24, BWInter: 24, TypeIntra: PathNVL, TypeInter: PathPIX},
		},
	}
	// NVIDIA/nccl #1595: one node of 8 H100, NCCL 2.20 to 2.22 with
	// NCCL_PROTO=Simple. No GRAPH lines; the ring is the 12 x 30 GB/s of an
	// H100 NVSwitch node (example_test.go). The excerpt shows no NVLS, so
	// none is given.
	h100Node := Config{
		Version: Version{2, 21, 5}, Ranks: 8, Nodes: 1, MinCompCap: 90, NVSwitch: true, Proto: "Simple",
		Graphs: Graphs{
			Ring: Graph{Pattern: PatternRing, NChannels: 12, BWIntra: 30, BWInter: 30, TypeIntra: PathNVL, TypeInter: PathPIX, SameChannels: true},
			Tree: Graph{Pattern: PatternBalancedTree, NChannels: 12, BWIntra: 30, BWInter: 30, TypeIntra: PathNVL, TypeInter: PathPIX},
		},
	}
	// eunomia-bpf/nccl-eBPF: NCCL 2.29.7 on 2 x 1 RTX 5090, the first logCase.
	cases := []struct {
		file string
		cfg  Config
		f    Func // for logs whose lines do not name it
	}{
		{"tuning_2.22_h100_3x8_nccl1453.log", h100, FuncAllReduce},
		{"tuning_2.21_h100_1x8_nccl1595.log", h100Node, FuncAllReduce},
		{"tuning_2.29.7_rtx5090_2x1_socket.log", logCases[0].cfg, FuncBroadcast},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			tun := readTuningFile(t, c.file)
			m, err := New(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(tun.Calls) == 0 {
				t.Fatal("no per-call lines")
			}
			maxRel := 0.0
			for _, call := range tun.Calls {
				f := c.f
				if call.HasFunc {
					f = call.Func
				}
				if !math.IsNaN(call.Time) {
					got, ok := m.Time(f, call.Algo, call.Proto, call.NBytes)
					// NCCL prints a float32 time with %f.
					if !ok || !scalar.EqualWithinAbs(got/usec, call.Time, 2e-6*call.Time) {
						t.Errorf("%v %.0f B %v/%v: model %.6f us (%v), log %.6f", f, call.NBytes, call.Algo, call.Proto, got/usec, ok, call.Time)
					}
					maxRel = math.Max(maxRel, math.Abs(got/usec-call.Time)/call.Time)
				}
				// The choice among what the model knows: with no NVLS graph
				// in the #1453 excerpt, NVLS and NVLSTree are left out.
				e, err := m.Choose(f, call.NBytes)
				if err != nil {
					t.Fatal(err)
				}
				if e.Algo != call.Algo || e.Proto != call.Proto {
					t.Errorf("%v %.0f B: model chooses %v/%v, log %v/%v", f, call.NBytes, e.Algo, e.Proto, call.Algo, call.Proto)
				}
			}
			t.Logf("%d calls, max relative time error %.2g", len(tun.Calls), maxRel)
		})
	}
}
