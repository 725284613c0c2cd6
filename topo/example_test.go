package topo_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/inframethod/commlab/topo"
)

// The article's complete GPU-NIC distance table, computed from the preset.
func ExampleWriteGPUNICTable() {
	topo.WriteGPUNICTable(os.Stdout, topo.H20Article())
	// Output:
	// | GPU (NUMA) | NIC0 mlx5_bond_0 | NIC1 mlx5_bond_1 | NIC2 mlx5_bond_2 | NIC3 mlx5_bond_3 |
	// |---|---|---|---|---|
	// | GPU0 (0) | NODE | NODE | SYS | SYS |
	// | GPU1 (0) | PIX | NODE | SYS | SYS |
	// | GPU2 (0) | NODE | NODE | SYS | SYS |
	// | GPU3 (0) | NODE | PIX | SYS | SYS |
	// | GPU4 (1) | SYS | SYS | PIX | NODE |
	// | GPU5 (1) | SYS | SYS | NODE | NODE |
	// | GPU6 (1) | SYS | SYS | NODE | PIX |
	// | GPU7 (1) | SYS | SYS | NODE | NODE |
}

func ExampleParse() {
	out := `        GPU0    GPU1    NIC0    CPU Affinity    NUMA Affinity   GPU NUMA ID
GPU0     X      NV18    PIX     0-47,96-143     0               N/A
GPU1    NV18     X      NODE    0-47,96-143     0               N/A
NIC0    PIX     NODE     X

NIC Legend:

  NIC0: mlx5_bond_0
`
	t, problems, err := topo.Parse(strings.NewReader(out))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range problems {
		fmt.Println("warning:", p)
	}
	for _, b := range t.Bindings() {
		fmt.Printf("%s -> %s (%s, GDR %v), CPUs %s\n", b.GPU, b.Device, b.Path, b.GDR, b.CPUs)
	}
	fmt.Printf("NCCL_IB_HCA=%s on every rank\n", t.IBHCA().Value)
	// Output:
	// GPU0 -> mlx5_bond_0 (PIX, GDR true), CPUs 0-47,96-143
	// GPU1 -> mlx5_bond_0 (NODE, GDR false), CPUs 0-47,96-143
	// NCCL_IB_HCA==mlx5_bond_0 on every rank
}

func ExampleTopology_Levels() {
	l, err := topo.H20Article().Levels(topo.H20Figures)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("intra %.1f GB/s, inter %.1f GB/s per GPU (%d GPUs per NIC), ratio %.2f\n",
		l.Intra.BW/1e9, l.Inter.BW/1e9, l.GPUsPerNIC, l.Ratio())
	// Output:
	// intra 370.8 GB/s, inter 25.0 GB/s per GPU (2 GPUs per NIC), ratio 14.83
}
