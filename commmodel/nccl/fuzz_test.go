package nccl

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The log readers never panic; what they accept is finite, and their errors
// carry the line.
func FuzzReadTuning(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "tuning_*.log"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("x NCCL INFO   Algorithm   |  Tree  Bogus |\n"))
	f.Add([]byte("NCCL INFO     AllReduce |     1.0/   2.0 |\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tun, err := ReadTuning(bytes.NewReader(b))
		if err != nil {
			var le *LineError
			if errors.As(err, &le) && le.Line < 1 {
				t.Errorf("line %d in %v", le.Line, err)
			}
			return
		}
		for f := range tun.Lat {
			for a := range tun.Lat[f] {
				for p := range tun.Lat[f][a] {
					if math.IsInf(tun.Lat[f][a][p], 0) || math.IsNaN(tun.Lat[f][a][p]) || math.IsInf(tun.BW[f][a][p], 0) || math.IsNaN(tun.BW[f][a][p]) {
						t.Errorf("non-finite cell %v/%v/%v", f, a, p)
					}
				}
			}
		}
		for _, c := range tun.Calls {
			if c.NBytes < 0 || c.Algo < 0 || c.Algo >= NumAlgos || c.Proto < 0 || c.Proto >= NumProtocols || math.IsInf(c.Time, 0) {
				t.Errorf("bad call %+v", c)
			}
		}
	})
}

// FuzzParseGraphLine: a graph line is read or refused; what is read has no
// negative channel count and finite bandwidths, and a Ring and a Tree read
// from it build a model. Seeds: testdata/fuzz/FuzzParseGraphLine, the
// lines below and every "Pattern" line of the real logs in testdata.
func FuzzParseGraphLine(f *testing.F) {
	logs, _ := filepath.Glob(filepath.Join("testdata", "*.log"))
	for _, name := range logs {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, " Pattern ") {
				f.Add(line)
			}
		}
	}
	for _, s := range []string{
		"x:1:2 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 12, bw 30.000000/30.000000, type NVL/PIX, sameChannels 1",
		"Pattern 5, crossNic 0, nChannels 7, bw 3.000000/3.000000, type NVL/PHB, sameChannels 0",
		"Pattern 4, crossNic 0, nChannels 4, speed 1.200000/1.200000, type SYS/SYS, sameChannels 0",
		"Pattern 9, crossNic 0, nChannels 1, bw 1/1, type NVL/XYZ, sameChannels 2",
		"Pattern 1, crossNic 0, nChannels 99999999999, bw 1e400/1, type LOC/LOC, sameChannels 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGraphLine(s)
		if err == nil && (g.NChannels < 0 || !(g.BWIntra >= 0) || !(g.BWInter >= 0) || math.IsInf(g.BWIntra, 0) || math.IsInf(g.BWInter, 0)) {
			t.Errorf("ParseGraphLine(%q) = %+v", s, g)
		}
		gs, _, err := ReadGraphs(strings.NewReader(s + "\n" + s))
		if err == nil {
			if _, err := New(Config{Ranks: 2, Nodes: 1, MinCompCap: 90, Graphs: gs}); err != nil && gs.Ring.NChannels > 0 && gs.Tree.NChannels > 0 {
				t.Errorf("New with graphs read from %q: %v", s, err)
			}
		}
	})
}

// ParseVersion and the NCCL_ALGO/NCCL_PROTO lists never panic, and New
// either refuses a list or builds a model whose every value is finite.
func FuzzConfigStrings(f *testing.F) {
	for _, s := range []string{"2.21.5", "2.29.7+cuda12.9", "v2.30.7-1", "22907", "2.x", "^LL128;allreduce:LL128", "ring,collnetdirect;allreduce:tree,collnetdirect;broadcast:ring", "LL,Simple;allreduce:^LL", "Tree,Ring,,CollnetDirect", ";;", ":", "allreduce:", "CollNetChain,CollNetDirect", "^Ring,Tree,NVLS,NVLSTree,PAT", "CollNet"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, err := ParseVersion(s); err == nil && !v.Release() {
			t.Errorf("ParseVersion(%q) = %v", s, v)
		}
		for _, v := range []Version{{2, 8, 4}, {2, 18, 6}, {2, 23, 4}, Latest} {
			// OnlyCollNet's shortcut (a list that names no CollNet and
			// excludes nothing leaves other algorithms) agrees with the
			// lists NCCL's parser makes.
			e, err := enableLists(v, s, "")
			for f := range Func(NumFuncs) {
				want := err == nil && s != ""
				some := false
				for a, on := range e.algo[f] {
					collNet := Algo(a).CollNet()
					want = want && (on == 0 || collNet)
					some = some || on != 0 && collNet
				}
				if got := OnlyCollNet(v, f, s); got != (want && some) {
					t.Fatalf("OnlyCollNet(%v, %v, %q) = %v, the lists say %v", v, f, s, got, want && some)
				}
			}
			if v.legacy() {
				continue
			}
			cfg := hopperConfig(v, 2, PathPIX)
			cfg.Algo, cfg.Proto = s, s
			m, err := New(cfg)
			if err != nil {
				continue
			}
			for f := range Func(NumFuncs) {
				for a := range Algo(NumAlgos) {
					for p := range Protocol(NumProtocols) {
						if x, y := m.Latency(f, a, p), m.Bandwidth(f, a, p); math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) || y < 0 {
							t.Fatalf("%v: %v/%v/%v = %g s, %g B/s", v, f, a, p, x, y)
						}
					}
				}
			}
		}
	})
}
