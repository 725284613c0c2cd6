package nccl

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestChannelsLog holds Channels to the per-call lines of NCCL 2.29.7 on
// 2 x 1 RTX 5090 (testdata/tuning_2.29.7_rtx5090_2x1_socket.log, the first
// logCase): every line prints the channels the call ran on, from 1 KiB to
// 128 MiB, as the ring of 4 runtime channels (twice the graph's 2) shrinks
// for small calls: LL on one channel up to 8 KiB and two at 16 KiB,
// Simple on one at 32 KiB, two at 64 KiB and four from 128 KiB.
func TestChannelsLog(t *testing.T) {
	tun := readTuningFile(t, "tuning_2.29.7_rtx5090_2x1_socket.log")
	m, err := New(logCases[0].cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range tun.Calls {
		if c.Channels == 0 {
			continue
		}
		n++
		if got, _ := m.Channels(c.Func, c.Algo, c.Proto, c.NBytes); got != c.Channels {
			t.Errorf("%v %.0f B %v/%s: %d channels, the log %d", c.Func, c.NBytes, c.Algo, ProtocolName(c.Proto), got, c.Channels)
		}
	}
	if n != 18 {
		t.Errorf("%d per-call lines with channels, want the log's 18", n)
	}
}

// maxThreadsRE reads a TUNING table's "Max NThreads" row.
var maxThreadsRE = regexp.MustCompile(`Max NThreads \|((?:\s*[0-9]+ \|)+)`)

// TestMaxThreadsLogs holds maxThreads to the "Max NThreads" rows NCCL
// prints above its TUNING tables (0 where an algorithm and protocol cannot
// run): 256 for the RTX 5090's Ring/Simple, whose ring moves 2 x 1.2 GB/s,
// at most PCI_BW, and 512 for the H100 rings.
func TestMaxThreadsLogs(t *testing.T) {
	for _, lc := range logCases {
		m, err := New(lc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join("testdata", lc.file))
		if err != nil {
			t.Fatal(err)
		}
		var rows [][]int
		for _, line := range strings.Split(string(b), "\n") {
			if mm := maxThreadsRE.FindStringSubmatch(line); mm != nil {
				var row []int
				for _, f := range strings.Split(mm[1], "|") {
					if f = strings.TrimSpace(f); f != "" {
						v, _ := strconv.Atoi(f)
						row = append(row, v)
					}
				}
				rows = append(rows, row)
			}
		}
		// The rows print three algorithms of three protocols each, in
		// NCCL's order; an excerpt may hold only the first.
		var printed []int
		for _, r := range rows {
			printed = append(printed, r...)
		}
		checked := 0
		for a := range Algo(NumAlgos) {
			for p := range Protocol(NumProtocols) {
				i := int(a)*int(NumProtocols) + int(p)
				if i >= len(printed) {
					continue // the excerpt stops before this row
				}
				want := printed[i]
				if want == 0 {
					continue
				}
				checked++
				if got := m.maxThreads(a, p); got != want {
					t.Errorf("%s: %v/%s max threads %d, the log %d", lc.file, a, ProtocolName(p), got, want)
				}
			}
		}
		if checked < 6 {
			t.Errorf("%s: %d cells checked", lc.file, checked)
		}
	}
}

// TestChannelsRules checks the rules of Channels on an 8 x H100 node of
// NCCL 2.26 (runtime channels 24, twice the graph's 12): Ring/Simple keeps
// 24 channels while nBytes >= 24 x 512 x 64 B (768 KiB); below it
// topoGetAlgoInfo drops channels and the scheduler gives each at least
// 16 KiB of traffic, in whole cells (AllReduce counting its traffic twice);
// NVLS runs on NCCL's 16 Hopper channels at every size.
func TestChannelsRules(t *testing.T) {
	m, err := New(Config{Version: Version{2, 26, 2}, Ranks: 8, Nodes: 1, MinCompCap: 90, NVSwitch: true,
		Graphs: Graphs{
			Ring: Graph{Pattern: PatternRing, NChannels: 12, BWIntra: 30, BWInter: 30, TypeIntra: PathNVL, TypeInter: PathPIX, SameChannels: true},
			Tree: Graph{Pattern: PatternBalancedTree, NChannels: 12, BWIntra: 30, BWInter: 30, TypeIntra: PathNVL, TypeInter: PathPIX},
			NVLS: Graph{Pattern: PatternNVLS, NChannels: 16, BWIntra: 30, BWInter: 30, TypeIntra: PathNVL, TypeInter: PathNVL},
		}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		f        Func
		a        Algo
		p        Protocol
		n        int64
		channels int
	}{
		{FuncAllGather, AlgoRing, Simple, 1 << 30, 24},
		{FuncAllGather, AlgoRing, Simple, 768 << 10, 24},   // 768 KiB = 24 x 512 x 64
		{FuncAllGather, AlgoRing, Simple, 768<<10 - 1, 16}, // 23 by the threshold; 48 cells, 3 a channel
		{FuncAllGather, AlgoRing, Simple, 64 << 10, 2},     // 2 channels by the threshold, 4 cells of 16 KiB
		{FuncAllReduce, AlgoRing, Simple, 128 << 10, 4},    // 4 by the threshold; 16 cells
		{FuncAllGather, AlgoRing, Simple, 16 << 10, 1},
		{FuncAllReduce, AlgoNVLS, Simple, 1 << 20, 16},
		{FuncAllReduce, AlgoNVLS, Simple, 1 << 30, 16},
	}
	for _, c := range cases {
		if got, _ := m.Channels(c.f, c.a, c.p, float64(c.n)); got != c.channels {
			t.Errorf("%v %v/%s %d B: %d channels, want %d", c.f, c.a, ProtocolName(c.p), c.n, got, c.channels)
		}
	}
	if nc, nt := m.FullChannels(FuncAllReduce, AlgoRing, Simple); nc != 24 || nt != 512 {
		t.Errorf("full Ring/Simple: %d channels of %d threads, want 24 of 512", nc, nt)
	}
}
