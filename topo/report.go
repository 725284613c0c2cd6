package topo

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// GPUNICTable returns the path from every GPU (rows) to every NIC (columns):
// the article's GPU-NIC distance table when t is H20Article.
func (t *Topology) GPUNICTable() [][]Path {
	out := make([][]Path, len(t.gpus))
	for g := range t.gpus {
		out[g] = make([]Path, len(t.nics))
		for n := range t.nics {
			out[g][n] = t.GPUNIC(g, n)
		}
	}
	return out
}

// WriteGPUNICTable writes GPUNICTable as a Markdown table whose column heads
// name each NIC and its device. A nil t is an error (errNil).
func WriteGPUNICTable(w io.Writer, t *Topology) error {
	if t == nil {
		return errNil("WriteGPUNICTable")
	}
	var b strings.Builder
	b.WriteString("| GPU (NUMA) |")
	for _, n := range t.nics {
		if n.Device != "" && n.Device != n.Name {
			fmt.Fprintf(&b, " %s %s |", n.Name, n.Device)
		} else {
			fmt.Fprintf(&b, " %s |", n.Name)
		}
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(t.nics)) + "\n")
	for g, row := range t.GPUNICTable() {
		fmt.Fprintf(&b, "| %s (%s) |", t.gpus[g].Name, numaText(t.gpus[g].NUMA))
		for _, p := range row {
			fmt.Fprintf(&b, " %s |", p)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteReport writes a readable account of t: the devices, the path matrix,
// one recommended binding per GPU, and the host's NCCL_IB_HCA (IBHCA). A
// nil t is an error (errNil), with nothing written.
func WriteReport(w io.Writer, t *Topology) error {
	if t == nil {
		return errNil("WriteReport")
	}
	return writeReport(w, t, 0)
}

// WriteHostReport is WriteReport for a host known to hold hostGPUs GPUs,
// 0 where that is not known: its NCCL_IB_HCA line is IBHCAOf(hostGPUs)'s.
func WriteHostReport(w io.Writer, t *Topology, hostGPUs int) error {
	if t == nil {
		return errNil("WriteHostReport")
	}
	return writeReport(w, t, hostGPUs)
}

// writeReport is WriteHostReport past its nil check.
func writeReport(w io.Writer, t *Topology, hostGPUs int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%d GPU%s, %d NIC%s, NUMA nodes %v\n\n", len(t.gpus), plural(len(t.gpus)), len(t.nics), plural(len(t.nics)), t.NUMANodes())
	fmt.Fprintln(tw, "device\tkind\tRDMA device\tNUMA\tCPU affinity\tGPU NUMA ID")
	for _, d := range t.devices() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Name, d.Kind, orDash(d.Device), numaText(d.NUMA), orDash(d.CPUs.String()), numaText(d.GPUNUMA))
	}
	fmt.Fprintln(tw, "\npaths:")
	all := t.devices()
	for _, d := range all {
		fmt.Fprintf(tw, "\t%s", d.Name)
	}
	fmt.Fprintln(tw)
	for _, d := range all {
		fmt.Fprint(tw, d.Name)
		for _, e := range all {
			fmt.Fprintf(tw, "\t%s", t.Path(d, e))
		}
		fmt.Fprintln(tw)
	}
	if len(t.rocm) > 0 {
		fmt.Fprintln(tw, "\nas the capture prints the pairs (link type, hops, weight; an XGMI pair of hops 1 and weight 15, one XGMI hop, is direct):")
		for _, g := range t.rocmGroups() {
			// XGMI pairs reached through other GPUs have no link of their own
			// (ROCmPair.Direct).
			through := ""
			if g.Link == "XGMI" && !g.Direct() {
				through = "\tthrough other GPUs"
			}
			fmt.Fprintf(tw, "%s\thops %s\tweight %s\t%d pair%s%s\n", orDash(g.Link), rocmNum(g.Hops), rocmNum(g.Weight), g.n, plural(g.n), through)
		}
	}
	if len(t.nics) > 0 {
		// The NIC columns are facts NCCL acts on by itself; the NUMA node
		// and CPUs are each rank's to bind to; NCCL_IB_HCA is one value for
		// the host (HostIBHCA), never a GPU's.
		fmt.Fprintln(tw, "\nbindings (closest NIC, which NCCL pairs with the GPU itself; GDR at NCCL_NET_GDR_LEVEL=PXB; NUMA and CPUs to bind the GPU's rank to):")
		fmt.Fprintln(tw, "GPU\tNIC\tdevice\tpath\tNCCL\tGDR\tGPUs/NIC\tNUMA\tCPUs")
		bs := t.Bindings()
		for _, b := range bs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", b.GPU, orDash(b.NIC), orDash(b.Device), b.Path, b.NCCL,
				yesNo(b.GDR), b.Sharing, numaText(b.NUMA), orDash(b.CPUs.String()))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if a := t.IBHCAOf(hostGPUs).Advice(); a != "" {
			fmt.Fprintln(w, a)
		}
		for _, n := range NotIBNotes(bs) {
			fmt.Fprintf(w, "NCCL_IB_HCA: none; %s\n", n)
		}
	}
	return tw.Flush()
}

// rocmGroup is the pairs of one link type, hops and weight.
type rocmGroup struct {
	ROCmPair
	n int
}

// rocmGroups groups the pairs rocm-smi printed by link type, hops and
// weight, in the order of their first pair.
func (t *Topology) rocmGroups() []rocmGroup {
	var out []rocmGroup
	for _, p := range t.rocm {
		k := slices.IndexFunc(out, func(g rocmGroup) bool {
			return g.Link == p.Link && g.Hops == p.Hops && g.Weight == p.Weight
		})
		if k < 0 {
			out = append(out, rocmGroup{ROCmPair{Link: p.Link, Hops: p.Hops, Weight: p.Weight}, 0})
			k = len(out) - 1
		}
		out[k].n++
	}
	return out
}

// rocmNum is a hops or weight cell, "-" where the table was not printed.
func rocmNum(v int) string {
	if v < 0 {
		return "-"
	}
	return fmt.Sprint(v)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// plural is "s" but for one.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
