package nccl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkTime times one Time call on the 8 x H100 node, and
// BenchmarkChoose one Choose (21 candidate times).
func BenchmarkTime(b *testing.B) {
	m, err := New(h100Node(Latest))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := m.Time(FuncAllReduce, AlgoTree, LL128, 1<<20); !ok {
			b.Fatal("Tree/LL128 not available")
		}
	}
}

func BenchmarkChoose(b *testing.B) {
	m, err := New(h100Node(Latest))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Choose(FuncAllReduce, 1<<20); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNew(b *testing.B) {
	cfg := h100Node(Latest)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadTuning reads the public NCCL 2.29.7 TUNING log of testdata
// (8.5 KB: the command, the Rank lines, the table and 12 per-call lines),
// and "noisy", the same log with each of its lines that is neither the
// table's nor a call's repeated 100 times: the shape of a whole
// NCCL_DEBUG=INFO log, where few lines are the table's or a call's.
func BenchmarkReadTuning(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "tuning_2.29.7_rtx5090_2x1_socket.log"))
	if err != nil {
		b.Fatal(err)
	}
	var noisy bytes.Buffer
	for line := range strings.Lines(string(raw)) {
		if !strings.Contains(line, "|") && !strings.Contains(line, callMark) {
			noisy.WriteString(strings.Repeat(line, 99))
		}
		noisy.WriteString(line)
	}
	for _, c := range []struct {
		name string
		log  []byte
	}{{"log", raw}, {"noisy", noisy.Bytes()}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.log)))
			for b.Loop() {
				if _, err := ReadTuning(bytes.NewReader(c.log)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
