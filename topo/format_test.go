package topo

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// twoGPUs returns GPU0 and GPU1 (or the names given) and the NICs given,
// every NUMA node unknown.
func twoGPUs(t *testing.T, gpus []string, nics ...string) *Topology {
	t.Helper()
	var gs, ns []Device
	for _, n := range gpus {
		gs = append(gs, Device{Name: n, NUMA: -1, GPUNUMA: -1})
	}
	for _, n := range nics {
		ns = append(ns, Device{Name: n, NUMA: -1})
	}
	top, err := New(gs, ns)
	if err != nil {
		t.Fatal(err)
	}
	return top
}

// TestFormatRefuses: what Parse would not read back to the topology,
// Format refuses with ErrFormat and writes nothing. Before, it wrote each
// of these (a red team's report): an XGMI cell of a rocm-smi capture, NV-3,
// NV18 on the diagonal, "GPU 0" (two fields), a GPU named NIC0, Class(77),
// each of which Parse refused or read as another topology.
func TestFormatRefuses(t *testing.T) {
	g2 := []string{"GPU0", "GPU1"}
	cases := map[string]func() *Topology{
		"NV(-3)":   func() *Topology { x := twoGPUs(t, g2); x.SetPath(x.GPU(0), x.GPU(1), NV(-3)); return x },
		"NV(0)":    func() *Topology { x := twoGPUs(t, g2); x.SetPath(x.GPU(0), x.GPU(1), NV(0)); return x },
		"diagonal": func() *Topology { x := twoGPUs(t, g2); x.SetPath(x.GPU(0), x.GPU(0), NV(18)); return x },
		"diagonal unknown": func() *Topology {
			x := twoGPUs(t, g2)
			x.SetPath(x.GPU(1), x.GPU(1), Path{})
			return x
		},
		"X off the diagonal": func() *Topology { x := twoGPUs(t, g2); x.SetPath(x.GPU(0), x.GPU(1), Path{Class: Self}); return x },
		"XGMI":               func() *Topology { x := twoGPUs(t, g2); x.SetPath(x.GPU(0), x.GPU(1), Path{Class: XGMI}); return x },
		"Class(77)":          func() *Topology { x := twoGPUs(t, g2); x.SetPath(x.GPU(0), x.GPU(1), Path{Class: 77}); return x },
		"links on PIX": func() *Topology {
			x := twoGPUs(t, g2)
			x.SetPath(x.GPU(0), x.GPU(1), Path{Class: PIX, NVLinks: 2})
			return x
		},
		"NVLink to a NIC": func() *Topology {
			x := twoGPUs(t, g2, "NIC0")
			x.SetPath(x.GPU(0), x.NIC(0), NV(4))
			return x
		},
		"GPU name with a space": func() *Topology { return twoGPUs(t, []string{"GPU 0", "GPU1"}) },
		"GPU named NIC0":        func() *Topology { return twoGPUs(t, []string{"NIC0", "GPU7"}, "GPU0") },
		"NIC named GPU0":        func() *Topology { return twoGPUs(t, []string{"GPU1"}, "GPU0") },
		"NIC named SYS":         func() *Topology { return twoGPUs(t, []string{"GPU0"}, "SYS") },
		"NIC named CPU":         func() *Topology { return twoGPUs(t, g2, "CPU") },
		"NIC named #0":          func() *Topology { return twoGPUs(t, g2, "#0") },
		"NIC named Legend:":     func() *Topology { return twoGPUs(t, g2, "Legend:") },
		"NIC name with a tab":   func() *Topology { return twoGPUs(t, g2, "mlx5\t0") },
		"no GPUs":               func() *Topology { return twoGPUs(t, nil, "NIC0") },
		"empty":                 func() *Topology { return &Topology{} },
		"device of mlx5_0": func() *Topology {
			x := twoGPUs(t, g2, "mlx5_0")
			x.nics[0].Device = "mlx5_bond_0" // a NIC Legend names NIC<n> alone
			return x
		},
		"device with a space": func() *Topology {
			x := twoGPUs(t, g2, "NIC0")
			x.nics[0].Device = "mlx5 0"
			return x
		},
		"some NICs' devices": func() *Topology {
			x := twoGPUs(t, g2, "NIC0", "NIC1")
			x.nics[0].Device = "mlx5_0" // NIC1 unnamed: the legend reads as cut
			return x
		},
		"CPU list backwards": func() *Topology {
			x := twoGPUs(t, g2)
			x.gpus[0].CPUs = CPUList{{5, 3}}
			return x
		},
	}
	for name, build := range cases {
		var buf bytes.Buffer
		if err := Format(&buf, build()); !errors.Is(err, ErrFormat) || buf.Len() != 0 {
			t.Errorf("%s: Format wrote %d bytes, error %v; want nothing written and ErrFormat", name, buf.Len(), err)
		}
	}
	// rocm-smi captures: the XGMI ones are refused, the PCIe one is
	// written (TestFormatReadsBack reads it back).
	for _, c := range []struct {
		file string
		ok   bool
	}{{"gfx942_8gpu_xgmi_msswift.txt", false}, {"mi210_4gpu_xgmi_archer2.txt", false}, {"rocm_smi_showtopo_4gpu_pcie.txt", true}} {
		top, _, err := ParseROCmFile(filepath.Join("testdata", "rocm", c.file))
		if err != nil {
			t.Fatal(err)
		}
		err = Format(&bytes.Buffer{}, top)
		if c.ok && err != nil || !c.ok && (!errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "XGMI")) {
			t.Errorf("%s: Format: %v; want ok %v, else ErrFormat naming XGMI", c.file, err, c.ok)
		}
	}
}

// TestFormatReadsBack: topologies Format writes read back with Parse,
// without problems, to the same devices, paths, GPU attributes and NIC
// devices, as Format's doc promises: among them a NIC labelled NIC0 whose
// device is "NIC0" (before, the NIC Legend skipped it and it read back
// without a device), a NIC labelled by its device name as old drivers
// print it, and a rocm-smi capture of PCIe paths.
func TestFormatReadsBack(t *testing.T) {
	all := map[string]*Topology{"H20Article": H20Article()}
	x := twoGPUs(t, []string{"GPU0", "GPU1"}, "NIC0", "NIC1")
	x.SetPath(x.GPU(0), x.GPU(1), NV(18))
	x.SetPath(x.GPU(0), x.NIC(0), Path{Class: PIX})
	x.nics[0].Device, x.nics[1].Device = "NIC0", "mlx5_1"
	x.gpus[0].CPUs, x.gpus[0].NUMA, x.gpus[0].GPUNUMA = MustCPUList("0-47"), 0, 2
	all["NIC devices"] = x
	y := twoGPUs(t, []string{"GPU3", "GPU1"}, "mlx5_0")
	y.SetPath(y.GPU(0), y.NIC(0), Path{Class: SYS})
	all["old NIC label, GPUs out of order"] = y
	z, _, err := ParseROCmFile(filepath.Join("testdata", "rocm", "rocm_smi_showtopo_4gpu_pcie.txt"))
	if err != nil {
		t.Fatal(err)
	}
	all["rocm-smi PCIe"] = z
	for name, top := range all {
		var buf bytes.Buffer
		if err := Format(&buf, top); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		back, problems, err := ParseString(buf.String())
		if err != nil || problems != nil {
			t.Errorf("%s: Format's text reads with %v %v:\n%s", name, err, problems, buf.String())
			continue
		}
		if diff := sameWritten(top, back); diff != "" {
			t.Errorf("%s: %s\n%s", name, diff, buf.String())
		}
	}
}

// sameWritten returns "" if back has want's devices in order, its paths, its
// GPUs' CPU affinities, known NUMA nodes and GPU NUMA IDs, and its NICs'
// devices (a NIC labelled by its device name may read back with it), and
// else the first difference: what Format promises Parse reads back. It is
// the tests' own check, apart from Format's.
func sameWritten(want, back *Topology) string {
	w, b := want.devices(), back.devices()
	if len(w) != len(b) || len(want.gpus) != len(back.gpus) {
		return "the devices differ: " + names(w) + " read back as " + names(b)
	}
	for i := range w {
		d, g := w[i], b[i]
		switch {
		case d.Name != g.Name || d.Kind != g.Kind:
			return "the devices differ: " + names(w) + " read back as " + names(b)
		case d.Kind == GPU && (d.CPUs.String() != g.CPUs.String() || d.NUMA >= 0 && d.NUMA != g.NUMA || max(d.GPUNUMA, -1) != g.GPUNUMA):
			return d.Name + "'s affinity or NUMA differs"
		case d.Kind == NIC && d.Device != g.Device && (d.Device != "" || g.Device != d.Name):
			return d.Name + "'s device " + d.Device + " read back as " + g.Device
		}
		for j := range w {
			if p, q := want.Path(w[i], w[j]), back.Path(b[i], b[j]); p != q {
				return w[i].Name + "/" + w[j].Name + " " + p.String() + " read back as " + q.String()
			}
		}
	}
	return ""
}

func names(ds []Device) string {
	var s []string
	for _, d := range ds {
		s = append(s, d.Kind.String()+":"+d.Name)
	}
	return strings.Join(s, " ")
}

// FuzzFormat builds topologies of up to 6 devices from arbitrary names
// (split at '|'; the first gpus are GPUs), a NIC device name, and cells:
// a class byte (any, XGMI and nameless ones included) and a link byte
// (int8, for NV#) for each pair from the diagonal on, then for each GPU
// its NUMA node, GPU NUMA ID and a CPU range (int8 each). Format must either
// refuse with ErrFormat, writing nothing, or write text that Parse reads
// without problems to the same devices and paths (sameWritten).
func FuzzFormat(f *testing.F) {
	f.Add("GPU0|GPU1|NIC0", uint8(2), []byte{1, 0, 2, 18, 3, 0, 1, 0, 4, 0, 1, 0}, "mlx5_0")
	f.Add("GPU0|GPU1|mlx5_0|NIC1", uint8(2), []byte{1, 0, 2, 4, 7, 0, 6, 0, 1, 0, 5, 0, 3, 0, 1, 0, 7, 0, 1, 0}, "")
	f.Add("GPU0|GPU1", uint8(2), []byte{1, 0, 8, 0, 1, 0}, "")                         // XGMI
	f.Add("GPU0|GPU1", uint8(2), []byte{1, 0, 2, 0xfd, 1, 0}, "")                      // NV-3
	f.Add("GPU0|GPU1", uint8(2), []byte{2, 18, 2, 18, 1, 0}, "")                       // NV18 on the diagonal
	f.Add("GPU 0|GPU1", uint8(2), []byte{1, 0, 2, 18, 1, 0}, "")                       // a space
	f.Add("NIC0|GPU7|GPU0", uint8(2), []byte{1, 0, 2, 18, 7, 0, 1, 0, 7, 0, 1, 0}, "") // names swapped
	f.Fuzz(func(t *testing.T, nameList string, gpus uint8, cells []byte, device string) {
		ns := strings.Split(nameList, "|")
		if len(ns) > 6 {
			ns = ns[:6]
		}
		var gs, nics []Device
		for i, n := range ns {
			d := Device{Name: n, NUMA: -1, GPUNUMA: -1}
			if i < int(gpus) {
				gs = append(gs, d)
			} else {
				d.Device = device
				nics = append(nics, d)
			}
		}
		top, err := New(gs, nics)
		if err != nil {
			return
		}
		all := top.devices()
		k := 0
		for i := range all {
			for j := i; j < len(all) && k+1 < len(cells); j++ {
				p := Path{Class: Class(cells[k] % 12)}
				switch {
				case p.Class == NVLink:
					p.NVLinks = int(int8(cells[k+1]))
				case cells[k+1] == 0xff:
					p.NVLinks = 1
				}
				top.SetPath(all[i], all[j], p)
				k += 2
			}
		}
		// The bytes left give GPUs a NUMA node, a GPU NUMA ID and a CPU
		// range, in any order.
		for i := range top.gpus {
			if k+3 >= len(cells) {
				break
			}
			d := &top.gpus[i]
			d.NUMA, d.GPUNUMA = int(int8(cells[k])), int(int8(cells[k+1]))
			if cells[k+2] != 0 || cells[k+3] != 0 {
				d.CPUs = CPUList{{int(int8(cells[k+2])), int(int8(cells[k+3]))}}
			}
			k += 4
		}
		var buf bytes.Buffer
		if err := Format(&buf, top); err != nil {
			if !errors.Is(err, ErrFormat) || buf.Len() != 0 {
				t.Fatalf("Format: %v after writing %d bytes; want ErrFormat and nothing written", err, buf.Len())
			}
			return
		}
		back, problems, err := ParseString(buf.String())
		if err != nil || problems != nil {
			t.Fatalf("Format's text reads with %v %v:\n%s", err, problems, buf.String())
		}
		if diff := sameWritten(top, back); diff != "" {
			t.Fatalf("%s\n%s", diff, buf.String())
		}
	})
}
