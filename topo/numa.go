package topo

import "slices"

// inferNUMA fills in unknown NUMA nodes as Parse documents: from devices with
// the same CPU affinity, from disjoint CPU affinity lists when no device states
// a node, and along PCIe paths that stay within one NUMA node.
func (t *Topology) inferNUMA() {
	all := make([]*Device, 0, t.size())
	for i := range t.gpus {
		all = append(all, &t.gpus[i])
	}
	for i := range t.nics {
		all = append(all, &t.nics[i])
	}

	// 1. Same CPU affinity, same node.
	known := false
	for _, d := range all {
		known = known || d.NUMA >= 0
	}
	for _, d := range all {
		if d.NUMA >= 0 || d.CPUs == nil {
			continue
		}
		for _, e := range all {
			if e.NUMA >= 0 && e.CPUs.Equal(d.CPUs) {
				d.NUMA = e.NUMA
				break
			}
		}
	}

	// 2. No node stated anywhere: number disjoint affinity lists by lowest CPU.
	if !known {
		var lists []CPUList
		for _, d := range all {
			if d.CPUs != nil && !slices.ContainsFunc(lists, d.CPUs.Equal) {
				lists = append(lists, d.CPUs)
			}
		}
		if len(lists) >= 2 && disjoint(lists) {
			slices.SortFunc(lists, func(a, b CPUList) int { return a[0].First - b[0].First })
			for _, d := range all {
				if d.CPUs != nil {
					d.NUMA = slices.IndexFunc(lists, d.CPUs.Equal)
				}
			}
		}
	}

	// 3. Propagate along same-NUMA PCIe paths (union-find), when a component's
	// known nodes agree.
	n := len(all)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if t.paths[i*n+j].SameNUMA() {
				parent[find(i)] = find(j)
			}
		}
	}
	node := map[int]int{} // root -> node; -2 when members disagree
	for i, d := range all {
		if d.NUMA < 0 {
			continue
		}
		r := find(i)
		if v, ok := node[r]; !ok {
			node[r] = d.NUMA
		} else if v != d.NUMA {
			node[r] = -2
		}
	}
	for i, d := range all {
		if v, ok := node[find(i)]; ok && d.NUMA < 0 && v >= 0 {
			d.NUMA = v
		}
	}
}

// disjoint reports whether no CPU is in two of the lists.
func disjoint(lists []CPUList) bool {
	for i, a := range lists {
		for _, b := range lists[i+1:] {
			for _, r := range a {
				for _, s := range b {
					if r.First <= s.Last && s.First <= r.Last {
						return false
					}
				}
			}
		}
	}
	return true
}
