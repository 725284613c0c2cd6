package topo

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrFormat: Format cannot write the topology as `nvidia-smi topo -m` text
// that Parse reads back to it; the error says what it cannot write.
var ErrFormat = errors.New("topo: not writable as nvidia-smi topo -m text")

// Format writes t as `nvidia-smi topo -m` prints it with recent drivers: the
// matrix with NIC columns NIC0..., CPU Affinity, NUMA Affinity and GPU NUMA ID
// columns for GPUs, the legend and a NIC Legend. Columns are padded with
// spaces. Parse reads the result back, without problems, to a topology with
// t's devices in t's order, t's paths, its GPUs' CPU affinities, GPU NUMA
// IDs and NUMA nodes, and its NICs' devices, except what nvidia-smi does not
// print and Parse infers: a NIC's NUMA node (from its paths), a GPU's
// unknown (negative) NUMA node (from its affinity or paths), and the device
// of a NIC labelled by its device name as old drivers print it ("mlx5_0",
// whose device is its name); nor is what rocm-smi printed (ROCm) written.
//
// What Parse would not read back so, Format refuses with an error wrapping
// ErrFormat, before writing anything: a nil t, a topology without GPUs (the header
// starts with GPU0); a GPU named other than GPU<n>, or whose CPU affinity,
// NUMA node or GPU NUMA ID Parse would not read (a range last to first, a
// number above 2^20); a NIC whose name is not one word that Parse takes
// for a NIC's (GPU<n>, a path cell such as SYS, a word of the attribute
// headings, a leading '#', or holding white space, ':', '=', ESC or
// invalid UTF-8); a NIC's device that the NIC Legend cannot give (one
// word, for a NIC labelled NIC<n>, and for all of them or none); a
// device's path to itself other than X, and between two devices a path
// nvidia-smi has no cell for: X, XGMI (AMD's Infinity Fabric, which
// ParseROCm reads), NVLink of fewer than one link, more than MaxLinks or to a NIC, NVLinks
// given on a path that is not NVLink, or a class of no name. As a last
// check Format reads its text back with Parse, and refuses, naming the
// difference, what still does not read back as t.
func Format(w io.Writer, t *Topology) error {
	if t == nil {
		return fmt.Errorf("%w: %w", ErrFormat, errNil("Format"))
	}
	if err := t.writable(); err != nil {
		return err
	}
	text := t.formatText()
	back, problems, err := ParseString(text)
	if err == nil && len(problems) > 0 {
		err = problems[0]
	}
	if err == nil {
		err = t.readsBackAs(back)
	}
	if err != nil {
		return fmt.Errorf("%w: its text does not read back as it: %v", ErrFormat, err)
	}
	_, err = io.WriteString(w, text)
	return err
}

// attrWords are the words of the attribute headings Format writes, upper
// case: a NIC so named would be read as a heading's word or the heading's
// word as a device column.
var attrWords = []string{"CPU", "AFFINITY", "NUMA", "GPU", "ID"}

// writable returns an error wrapping ErrFormat for what Format cannot write
// of t (see Format), naming the first device or pair at fault.
func (t *Topology) writable() error {
	if len(t.gpus) == 0 {
		return fmt.Errorf("%w: no GPUs (the matrix's header starts with GPU0)", ErrFormat)
	}
	for _, d := range t.gpus {
		if !gpuName.MatchString(d.Name) {
			return fmt.Errorf("%w: the GPU at index %d is named %q: Parse takes only GPU0, GPU1, ... for a GPU", ErrFormat, d.Index, d.Name)
		}
		for _, r := range d.CPUs {
			if r.First < 0 || r.Last < r.First || r.Last > maxCPU {
				return fmt.Errorf("%w: %s's CPU affinity holds the range %d-%d: Parse reads ranges first to last of CPUs 0 to %d", ErrFormat, d.Name, r.First, r.Last, maxCPU)
			}
		}
		if d.NUMA > maxCPU || d.GPUNUMA > maxCPU {
			return fmt.Errorf("%w: %s's NUMA node %d or GPU NUMA ID %d is above %d, the largest Parse reads", ErrFormat, d.Name, d.NUMA, d.GPUNUMA, maxCPU)
		}
	}
	named := 0
	for _, d := range t.nics {
		if why := nicNameFault(d.Name); why != "" {
			return fmt.Errorf("%w: the NIC at index %d is named %q, %s", ErrFormat, d.Index, d.Name, why)
		}
		switch {
		case d.Device == "" || d.Device == d.Name && !nicLabel.MatchString(d.Name):
			// Nothing to write: no device, or a label that is its device.
		case !nicLabel.MatchString(d.Name):
			return fmt.Errorf("%w: NIC %s's device %q: a NIC Legend names NIC0, NIC1, ... alone, and Parse takes the device of a NIC labelled %s for %s",
				ErrFormat, d.Name, d.Device, d.Name, d.Name)
		case !legendWord(d.Device):
			return fmt.Errorf("%w: NIC %s's device %q is not one word a NIC Legend entry reads (no space, tab or line break, valid UTF-8 without terminal escapes)", ErrFormat, d.Name, d.Device)
		default:
			named++
		}
	}
	if named > 0 {
		for _, d := range t.nics {
			if nicLabel.MatchString(d.Name) && d.Device == "" {
				return fmt.Errorf("%w: NIC %s has no device where other NICs have one: a NIC Legend that names some NICs reads as cut (ErrNoLegend)", ErrFormat, d.Name)
			}
		}
	}
	all := t.devices()
	n := len(all)
	for i, a := range all {
		for j, b := range all {
			if why := cellFault(t.paths[i*n+j], i == j, a.Kind == GPU && b.Kind == GPU); why != "" {
				return fmt.Errorf("%w: %s/%s is %v: %s", ErrFormat, a.Name, b.Name, t.paths[i*n+j], why)
			}
		}
	}
	return nil
}

// nicNameFault says why Parse would not read name as a NIC's label in
// Format's text, "" where it would.
func nicNameFault(name string) string {
	switch {
	case !oneField(name):
		return "not one word (no white space, valid UTF-8 without terminal escapes)"
	case gpuName.MatchString(name) || gluedGPUs.MatchString(name):
		return "which Parse takes for a GPU's"
	case isPathToken(name):
		return "which Parse takes for a matrix cell"
	case slices.Contains(attrWords, strings.ToUpper(name)):
		return "a word of the attribute headings (CPU Affinity, NUMA Affinity, GPU NUMA ID)"
	case strings.HasPrefix(name, "#"):
		return "which Parse takes for a comment"
	case strings.ContainsAny(name, ":="):
		return "which holds ':' or '=', as the legends' lines do"
	}
	return ""
}

// oneField reports whether s is what Parse reads as one field of a line,
// unchanged, whatever follows it: non-empty, without white space
// (unicode.IsSpace, where Parse splits a line), valid UTF-8 and without
// ESC, which can start a terminal escape with what follows it that
// cleanLine removes.
func oneField(s string) bool {
	return s != "" && utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsSpace) && !strings.Contains(s, "\x1b")
}

// legendWord reports whether s is what Parse reads as the device of a NIC
// Legend entry, the last word of its line, unchanged: non-empty, unchanged
// by cleanLine, and without the white space of legendEntry's \s (space,
// tab, line feed, form feed, carriage return).
func legendWord(s string) bool {
	clean, _ := cleanLine(s, 0)
	return s != "" && clean == s && !strings.ContainsAny(s, " \t\n\f\r")
}

// cellFault says why path p cannot be a cell of Format's matrix, "" where
// it can: self is the cell where a device meets itself, gpus that both of
// its devices are GPUs.
func cellFault(p Path, self, gpus bool) string {
	switch {
	case self && p.Class != Self:
		return "a device's path to itself is X"
	case p.Class != NVLink && p.NVLinks != 0:
		return fmt.Sprintf("NVLinks %d on a path that is not NVLink, which its cell does not show", p.NVLinks)
	case self:
		return ""
	case p.Class == Self:
		return "X is a device's path to itself alone"
	case p.Class == XGMI:
		return "AMD's Infinity Fabric, which nvidia-smi topo -m has no cell for"
	case p.Class > XGMI:
		return "a path class of no name"
	case p.Class == NVLink && p.NVLinks < 1:
		return "NVLink needs at least one link"
	case p.Class == NVLink && p.NVLinks > MaxLinks:
		return fmt.Sprintf("more NVLinks than MaxLinks, %d, which Parse reads", MaxLinks)
	case p.Class == NVLink && !gpus:
		return "NVLink joins GPUs alone, and Parse refuses it to a NIC"
	}
	return ""
}

// formatText is the text Format writes for t.
func (t *Topology) formatText() string {
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
	// as cut (ErrNoLegend). Parse reads entries of NICs labelled NIC<n>
	// alone (writable).
	var entries []string
	for _, n := range t.nics {
		if n.Device != "" && nicLabel.MatchString(n.Name) {
			entries = append(entries, fmt.Sprintf("  %s: %s\n", n.Name, n.Device))
		}
	}
	if len(entries) > 0 {
		b.WriteString("\nNIC Legend:\n\n" + strings.Join(entries, ""))
	}
	return b.String()
}

// readsBackAs returns an error naming the first difference between t and
// back, the topology Parse read from Format's text of t, in what Format
// promises to keep (see Format).
func (t *Topology) readsBackAs(back *Topology) error {
	if len(back.gpus) != len(t.gpus) || len(back.nics) != len(t.nics) {
		return fmt.Errorf("%d GPUs and %d NICs read back as %d and %d", len(t.gpus), len(t.nics), len(back.gpus), len(back.nics))
	}
	all, got := t.devices(), back.devices()
	for i, d := range all {
		g := got[i]
		if g.Name != d.Name || g.Kind != d.Kind {
			return fmt.Errorf("%s %s reads back as %s %s", d.Kind, d.Name, g.Kind, g.Name)
		}
		if d.Kind == GPU {
			want := slices.Clone(d.CPUs).normalize()
			if !g.CPUs.Equal(want) || d.NUMA >= 0 && g.NUMA != d.NUMA || max(d.GPUNUMA, -1) != g.GPUNUMA {
				return fmt.Errorf("%s's CPU affinity %q, NUMA node %d and GPU NUMA ID %d read back as %q, %d and %d",
					d.Name, d.CPUs, d.NUMA, d.GPUNUMA, g.CPUs, g.NUMA, g.GPUNUMA)
			}
		} else if g.Device != d.Device && !(d.Device == "" && g.Device == d.Name) {
			return fmt.Errorf("NIC %s's device %q reads back as %q", d.Name, d.Device, g.Device)
		}
	}
	for i, a := range all {
		for j, b := range all {
			if p, q := t.Path(a, b), back.Path(got[i], got[j]); p != q {
				return fmt.Errorf("%s/%s, %v, reads back as %v", a.Name, b.Name, p, q)
			}
		}
	}
	return nil
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
