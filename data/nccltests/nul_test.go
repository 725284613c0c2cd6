package nccltests

import (
	"errors"
	"strings"
	"testing"
)

// TestDebugBufferOverflow: NCCL 2.17 to 2.19 (src/debug.cc) format a debug
// line into a 1024-byte buffer and write as many bytes as the whole line
// would take, so a line longer than the buffer comes out cut, a NUL, bytes
// of the stack past the buffer and a newline. Such a line (a Trees line of
// many channels here) is left unread with ErrNULLine at its line and
// column; the rest of the log, its table among it, reads as before.
func TestDebugBufferOverflow(t *testing.T) {
	prefix := "host-a:1001:1001 [0] NCCL INFO "
	trees := prefix + "Trees"
	for c := 0; len(trees) < 1023; c++ {
		trees += " [" + itoa(c) + "] 1/-1/-1->0->-1"
	}
	trees = trees[:1023] + "\x00\xe8\x03\xff\x7f\x00\x00\x10\n\x90\xff\xfe"
	in := strings.Join([]string{
		"# nThread 1 nGpus 1 minBytes 1048576 maxBytes 2097152 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
		"#  Rank  0 Group  0 Pid   1001 on     host-a device  0 [0x18] NVIDIA H100 80GB HBM3",
		"#  Rank  1 Group  0 Pid   1002 on     host-a device  1 [0x2a] NVIDIA H100 80GB HBM3",
		prefix + "NCCL version 2.18.3+cuda12.2",
		trees,
		"#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
		"     1048576        262144     float     sum      -1    10.00  104.86  104.86      0    10.00  104.86  104.86      0",
		"     2097152        524288     float     sum      -1    20.00  104.86  104.86      0    20.00  104.86  104.86      0",
		"",
	}, "\n")
	l, err := read(strings.NewReader(in), "overflow.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Tests) != 1 || len(l.Tests[0].Rows) != 2 {
		t.Fatalf("%d tests; want one of 2 rows", len(l.Tests))
	}
	if e := l.Tests[0].Evidence; e.Trees.Known() || e.NCCLVersion.Value != "2.18.3" {
		t.Errorf("trees %v, version %v; want no trees from the cut line, NCCL 2.18.3", e.Trees, e.NCCLVersion)
	}
	var pe *ParseError
	if len(l.Problems) == 0 || !errors.As(l.Problems[0], &pe) || !errors.Is(pe, ErrNULLine) || pe.Line != 5 || pe.Column != 1024 {
		t.Errorf("problems %v; want ErrNULLine at line 5, column 1024", l.Problems)
	}
}
