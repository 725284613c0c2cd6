package topo

import (
	"errors"
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
)

func TestParsePath(t *testing.T) {
	cases := []struct {
		in   string
		want Path
	}{
		{"X", Path{Class: Self}}, {" x ", Path{Class: Self}},
		{"NV18", NV(18)}, {"NV4", NV(4)}, {"nv12", NV(12)},
		{"PIX", Path{Class: PIX}}, {"PXB", Path{Class: PXB}}, {"PHB", Path{Class: PHB}},
		{"NODE", Path{Class: NODE}}, {"SYS", Path{Class: SYS}},
		{"SOC", Path{Class: SYS}}, // drivers before 384 printed SOC for SYS
		{"N/A", Path{}},
	}
	for _, c := range cases {
		got, err := ParsePath(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParsePath(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "NV", "NV0", "NV-2", "NV+3", "NVx", "PIXX", "0-63"} {
		if _, err := ParsePath(bad); !errors.Is(err, ErrPathToken) {
			t.Errorf("ParsePath(%q) err = %v, want ErrPathToken", bad, err)
		}
	}
}

// TestPathOrder: near to far X, NV# (more links nearer), PIX, PXB, PHB, NODE,
// SYS, then Unknown (nvidia-smi's legend order).
func TestPathOrder(t *testing.T) {
	order := []Path{{Class: Self}, NV(18), NV(4), {Class: PIX}, {Class: PXB}, {Class: PHB}, {Class: NODE}, {Class: SYS}, {}}
	for i := range order {
		for j := range order {
			c := order[i].Compare(order[j])
			if (i < j) != (c < 0) || (i == j) != (c == 0) {
				t.Errorf("%v.Compare(%v) = %d", order[i], order[j], c)
			}
		}
	}
}

// TestNCCLMapping: NCCL's path types (NCCL 2.30.7 src/graph/topo.h); NODE
// is PHB to NCCL (src/graph/paths.cc types a PCIe path through the CPU node
// PHB, and src/graph/topo.cc makes one CPU node per NUMA node).
func TestNCCLMapping(t *testing.T) {
	want := map[Path]nccl.PathType{
		{Class: Self}: nccl.PathLOC, NV(18): nccl.PathNVL, {Class: PIX}: nccl.PathPIX, {Class: PXB}: nccl.PathPXB,
		{Class: PHB}: nccl.PathPHB, {Class: NODE}: nccl.PathPHB, {Class: SYS}: nccl.PathSYS, {}: nccl.PathDIS,
	}
	for p, n := range want {
		if got := p.NCCL(); got != n {
			t.Errorf("%v.NCCL() = %v, want %v", p, got, n)
		}
	}
}

func TestCPUList(t *testing.T) {
	cases := []struct {
		in, want string
		count    int
	}{
		{"0-47,96-143", "0-47,96-143", 96},
		{"96-143,0-47", "0-47,96-143", 96}, // sorted
		{"0,1,2,3,8", "0-3,8", 5},          // merged
		{"0-3,2-5", "0-5", 6},              // overlaps merged
		{"48-63,176-191", "48-63,176-191", 32},
		{"7", "7", 1},
		{"N/A", "", 0},
	}
	for _, c := range cases {
		l, err := ParseCPUList(c.in)
		if err != nil || l.String() != c.want || l.Count() != c.count {
			t.Errorf("ParseCPUList(%q) = %q (%d CPUs), %v; want %q (%d)", c.in, l, l.Count(), err, c.want, c.count)
		}
	}
	for _, bad := range []string{"0-", "-3", "a", "3-1", "0,,1", "0-3-5", "+1", "99999999999"} {
		if _, err := ParseCPUList(bad); !errors.Is(err, ErrCPUList) {
			t.Errorf("ParseCPUList(%q) err = %v, want ErrCPUList", bad, err)
		}
	}
	l := MustCPUList("0-47,96-143")
	if !l.Contains(100) || l.Contains(50) {
		t.Error("Contains wrong on 0-47,96-143")
	}
}
