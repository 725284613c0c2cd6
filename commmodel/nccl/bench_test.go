package nccl

import "testing"

// BenchmarkTime times one Time call on the 8 x H100 node, and
// BenchmarkChoose one Choose (21 candidate times).
func BenchmarkTime(b *testing.B) {
	m, err := New(h100Node(Latest))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := m.Time(AllReduce, Tree, LL128, 1<<20); !ok {
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
		if _, err := m.Choose(AllReduce, 1<<20); err != nil {
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
