package topo

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Format writes t as `nvidia-smi topo -m` prints it with recent drivers: the
// matrix with NIC columns NIC0..., CPU Affinity, NUMA Affinity and GPU NUMA ID
// columns for GPUs, the legend and a NIC Legend. Columns are padded with
// spaces. Parse reads the result back to a topology equal to t whenever t's
// NIC NUMA nodes follow from its paths (they are not printed).
func Format(w io.Writer, t *Topology) error {
	all := t.devices()
	width := 8
	for _, d := range all {
		width = max(width, len(d.Name)+2)
	}
	var b strings.Builder
	var line strings.Builder
	pad := func(s string) {
		line.WriteString(s)
		line.WriteString(strings.Repeat(" ", max(1, width-len(s))))
	}
	flush := func() {
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
		line.Reset()
	}
	line.WriteString(strings.Repeat(" ", width))
	for _, d := range all {
		pad(d.Name)
	}
	line.WriteString("CPU Affinity    NUMA Affinity   GPU NUMA ID")
	flush()
	for _, d := range all {
		pad(d.Name)
		for _, e := range all {
			s := t.Path(d, e).String()
			if s == "X" {
				s = " X" // nvidia-smi centres the self mark
			}
			pad(s)
		}
		if d.Kind == GPU {
			cpus := d.CPUs.String()
			if cpus == "" {
				cpus = "N/A"
			}
			fmt.Fprintf(&line, "%-16s%-16s%s", cpus, numaText(d.NUMA), numaText(d.GPUNUMA))
		}
		flush()
	}
	b.WriteString(legend)
	// A NIC Legend is written only with entries: one that names none reads
	// as cut (ErrNoLegend).
	var entries []string
	for _, n := range t.nics {
		if n.Device != "" && n.Device != n.Name {
			entries = append(entries, fmt.Sprintf("  %s: %s\n", n.Name, n.Device))
		}
	}
	if len(entries) > 0 {
		b.WriteString("\nNIC Legend:\n\n" + strings.Join(entries, ""))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func numaText(n int) string {
	if n < 0 {
		return "N/A"
	}
	return strconv.Itoa(n)
}

// legend explains the classes under the matrix, in the layout nvidia-smi
// uses (its wording paraphrased).
const legend = `
Legend:

  X    = Self
  SYS  = path crosses PCIe and the inter-socket (SMP) link between NUMA nodes
  NODE = path crosses PCIe and the links between PCIe host bridges of one NUMA node
  PHB  = path crosses PCIe and one PCIe host bridge (the CPU)
  PXB  = path crosses several PCIe bridges but no host bridge
  PIX  = path crosses at most one PCIe bridge
  NV#  = path is a bonded set of # NVLinks
`
