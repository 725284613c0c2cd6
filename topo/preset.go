package topo

import "strconv"

// H20ArticleNICDevices are the RDMA devices of the article's four NICs, each a
// bond of two 200G ports (the article writes 400G).
var H20ArticleNICDevices = [4]string{"mlx5_bond_0", "mlx5_bond_1", "mlx5_bond_2", "mlx5_bond_3"}

// h20ArticlePIX lists the article's GPU-NIC pairs under one PCIe switch
// (GPU index -> NIC index).
var h20ArticlePIX = map[int]int{1: 0, 3: 1, 4: 2, 6: 3}

// H20Article returns the source article's 8 x H20 / 4-NIC server (the topology
// it takes from SGLang #5186):
//
//	NUMA0: GPU0-3, NIC0-1     NUMA1: GPU4-7, NIC2-3
//	NIC0..3 = mlx5_bond_0..3
//	PIX:  GPU1-NIC0, GPU3-NIC1, GPU4-NIC2, GPU6-NIC3
//	NODE: every other GPU-NIC and NIC-NIC pair on one NUMA node
//	SYS:  every pair across NUMA nodes
//	NV18: every GPU pair (NVSwitch)
//
// The article gives no CPU lists. The ones here, 0-47,96-143 on NUMA0 and
// 48-95,144-191 on NUMA1, are an illustrative two-socket, 48-core-per-socket
// layout with SMT, so that bindings have something to print; they are not
// from the article.
func H20Article() *Topology {
	cpus := [2]CPUList{MustCPUList("0-47,96-143"), MustCPUList("48-95,144-191")}
	gpus := make([]Device, 8)
	for g := range gpus {
		node := g / 4
		gpus[g] = Device{Name: "GPU" + strconv.Itoa(g), NUMA: node, CPUs: cpus[node], GPUNUMA: -1}
	}
	nics := make([]Device, 4)
	for n := range nics {
		nics[n] = Device{Name: "NIC" + strconv.Itoa(n), Device: H20ArticleNICDevices[n], NUMA: n / 2, GPUNUMA: -1}
	}
	t, err := New(gpus, nics)
	if err != nil {
		panic(err) // the literal above is well-formed
	}
	for i, a := range t.gpus {
		for _, b := range t.gpus[i+1:] {
			t.SetPath(a, b, NV(18))
		}
		for _, n := range t.nics {
			pix, ok := h20ArticlePIX[a.Index]
			t.SetPath(a, n, pcieDistance(a, n, ok && pix == n.Index))
		}
	}
	for i, a := range t.nics {
		for _, b := range t.nics[i+1:] {
			t.SetPath(a, b, pcieDistance(a, b, false))
		}
	}
	return t
}

// pcieDistance is the article's rule for devices without NVLink between them:
// PIX under a shared switch, NODE on one NUMA node, SYS across nodes.
func pcieDistance(a, b Device, sharedSwitch bool) Path {
	switch {
	case a.NUMA != b.NUMA:
		return Path{Class: SYS}
	case sharedSwitch:
		return Path{Class: PIX}
	}
	return Path{Class: NODE}
}
