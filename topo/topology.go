package topo

import (
	"fmt"
	"regexp"
)

// Kind says whether a device is a GPU or a NIC.
type Kind uint8

// Device kinds.
const (
	GPU Kind = iota + 1
	NIC
)

// String returns "GPU" or "NIC".
func (k Kind) String() string {
	switch k {
	case GPU:
		return "GPU"
	case NIC:
		return "NIC"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Device is one GPU or NIC of a server.
type Device struct {
	// Name is the device's label in the matrix: "GPU0", "NIC3", or a NIC's
	// device name ("mlx5_0") in outputs of drivers that had no NIC legend.
	Name string
	// Kind is GPU or NIC.
	Kind Kind
	// Index is the device's position among the devices of its kind, from 0.
	Index int
	// Device is a NIC's RDMA device name from the NIC Legend ("mlx5_bond_0"),
	// or "" if the output does not give one. Always "" for a GPU.
	Device string
	// NUMA is the NUMA node the device is attached to, or -1 if unknown.
	NUMA int
	// CPUs is the GPU's CPU affinity; nil if unknown (always nil for NICs,
	// which nvidia-smi gives no affinity columns).
	CPUs CPUList
	// GPUNUMA is the NUMA node of the GPU's own memory (nvidia-smi's "GPU NUMA
	// ID", set on systems such as Grace Hopper that expose it), or -1.
	GPUNUMA int
}

// Topology is a server: its GPUs and NICs and the path between every pair.
// Build one with New and SetPath, Parse, or a preset; the zero value is an
// empty server. A nil *Topology is no server: the writers (WriteReport,
// WriteGPUNICTable, Format) return an error for it; the methods and the
// functions that return no error panic.
type Topology struct {
	gpus, nics []Device
	paths      []Path // n×n, n = len(gpus)+len(nics), GPUs first
	// rocm holds what rocm-smi --showtopo printed for each pair of GPUs
	// (ParseROCm); nil for other topologies.
	rocm []ROCmPair
}

// errNil is the error of function fn given a nil *Topology.
func errNil(fn string) error {
	return fmt.Errorf("topo: %s of a nil *Topology: want a topology (Parse, New or a preset)", fn)
}

// New returns a topology of the given devices with every path between distinct
// devices Unknown and every device's path to itself X. Kinds and indices are
// set from the position in each slice. Names must be unique and non-empty.
func New(gpus, nics []Device) (*Topology, error) {
	t := &Topology{gpus: append([]Device(nil), gpus...), nics: append([]Device(nil), nics...)}
	seen := map[string]bool{}
	for i := range t.gpus {
		t.gpus[i].Kind, t.gpus[i].Index, t.gpus[i].Device = GPU, i, ""
	}
	for i := range t.nics {
		t.nics[i].Kind, t.nics[i].Index = NIC, i
	}
	for _, d := range t.devices() {
		if d.Name == "" {
			return nil, fmt.Errorf("topo: %s%d has no name", d.Kind, d.Index)
		}
		if seen[d.Name] {
			return nil, fmt.Errorf("topo: device %s named twice", d.Name)
		}
		seen[d.Name] = true
	}
	n := t.size()
	t.paths = make([]Path, n*n)
	for i := range n {
		t.paths[i*n+i] = Path{Class: Self}
	}
	return t, nil
}

func (t *Topology) size() int { return len(t.gpus) + len(t.nics) }

func (t *Topology) devices() []Device {
	return append(append([]Device(nil), t.gpus...), t.nics...)
}

// GPUs returns the GPUs in index order (a copy).
func (t *Topology) GPUs() []Device { return append([]Device(nil), t.gpus...) }

// NICs returns the NICs in index order (a copy).
func (t *Topology) NICs() []Device { return append([]Device(nil), t.nics...) }

// GPU returns GPU i; it panics if i is out of range.
func (t *Topology) GPU(i int) Device { return t.gpus[i] }

// NIC returns NIC i; it panics if i is out of range.
func (t *Topology) NIC(i int) Device { return t.nics[i] }

// pos is a device's row in the path matrix.
func (t *Topology) pos(d Device) int {
	switch d.Kind {
	case GPU:
		if d.Index >= 0 && d.Index < len(t.gpus) {
			return d.Index
		}
	case NIC:
		if d.Index >= 0 && d.Index < len(t.nics) {
			return len(t.gpus) + d.Index
		}
	}
	panic(fmt.Sprintf("topo: no %s%d in this topology", d.Kind, d.Index))
}

// Lookup finds a device by its Name or, for a NIC, its Device name.
func (t *Topology) Lookup(name string) (Device, bool) {
	for _, d := range t.gpus {
		if d.Name == name {
			return d, true
		}
	}
	for _, d := range t.nics {
		if d.Name == name || (d.Device != "" && d.Device == name) {
			return d, true
		}
	}
	return Device{}, false
}

// Path returns the path between a and b, devices of t identified by Kind and
// Index. It panics if either is not in t.
func (t *Topology) Path(a, b Device) Path {
	return t.paths[t.pos(a)*t.size()+t.pos(b)]
}

// PathByName returns the path between the devices named a and b.
func (t *Topology) PathByName(a, b string) (Path, error) {
	da, ok := t.Lookup(a)
	if !ok {
		return Path{}, fmt.Errorf("topo: no device %q", a)
	}
	db, ok := t.Lookup(b)
	if !ok {
		return Path{}, fmt.Errorf("topo: no device %q", b)
	}
	return t.Path(da, db), nil
}

// GPUNIC returns the path between GPU g and NIC n.
func (t *Topology) GPUNIC(g, n int) Path { return t.Path(t.gpus[g], t.nics[n]) }

// SetPath sets the path between a and b in both directions. It panics if
// either device is not in t.
func (t *Topology) SetPath(a, b Device, p Path) {
	i, j, n := t.pos(a), t.pos(b), t.size()
	t.paths[i*n+j] = p
	t.paths[j*n+i] = p
}

// Pair is the path between two distinct devices, named A and B.
type Pair struct {
	// A and B are the devices' names, A before B in matrix order.
	A, B string
	// Path is the connection between them.
	Path Path
}

// Pairs lists the path of every unordered pair of distinct devices, in matrix
// order (GPUs, then NICs): GPU-GPU pairs, then GPU-NIC, then NIC-NIC.
func (t *Topology) Pairs() []Pair {
	all := t.devices()
	n := len(all)
	out := make([]Pair, 0, n*(n-1)/2)
	for i := range n {
		for j := i + 1; j < n; j++ {
			out = append(out, Pair{all[i].Name, all[j].Name, t.paths[i*n+j]})
		}
	}
	return out
}

var gpuName = regexp.MustCompile(`^GPU[0-9]+$`)
