package topo

import (
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
)

// TestNICPath: the path NCCL types from each GPU to the NIC it reaches
// best. PXN needs a GPU NVLinked to this one among the NIC's nearest at PXB
// or nearer (ncclTopoComputePaths, NCCL 2.30.7 src/graph/paths.cc).
func TestNICPath(t *testing.T) {
	cases := []struct {
		name, matrix string
		want         []nccl.PathType
	}{
		// The article's server (topo.H20Article): GPU1, 3, 4, 6 PIX to their
		// NICs; GPU0, 2, 5, 7 NODE to theirs, relayed by an NV18 PIX GPU.
		{"article", "", []nccl.PathType{nccl.PathPXN, nccl.PathPIX, nccl.PathPXN, nccl.PathPIX, nccl.PathPIX, nccl.PathPXN, nccl.PathPIX, nccl.PathPXN}},
		// The same two GPUs joined by PCIe only: no relay, GPU1 stays SYS.
		{"no NVLink", "\tGPU0\tGPU1\tNIC0\nGPU0\t X \tSYS\tPIX\nGPU1\tSYS\t X \tSYS\nNIC0\tPIX\tSYS\t X \n",
			[]nccl.PathType{nccl.PathPIX, nccl.PathSYS}},
		{"NVLink", "\tGPU0\tGPU1\tNIC0\nGPU0\t X \tNV4\tPIX\nGPU1\tNV4\t X \tSYS\nNIC0\tPIX\tSYS\t X \n",
			[]nccl.PathType{nccl.PathPIX, nccl.PathPXN}},
		// The NIC's nearest GPU is PHB to it: beyond PXB, no relay.
		{"far relay", "\tGPU0\tGPU1\tNIC0\nGPU0\t X \tNV4\tPHB\nGPU1\tNV4\t X \tSYS\nNIC0\tPHB\tSYS\t X \n",
			[]nccl.PathType{nccl.PathPHB, nccl.PathSYS}},
		// No NIC: DIS.
		{"no NIC", "\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNV4\t X \n", []nccl.PathType{nccl.PathDIS, nccl.PathDIS}},
	}
	for _, c := range cases {
		top := H20Article()
		if c.matrix != "" {
			top = mustParse(t, c.matrix)
		}
		for g, want := range c.want {
			if got := top.NICPath(g); got != want {
				t.Errorf("%s: GPU%d NICPath = %v, want %v", c.name, g, got, want)
			}
		}
	}
}
