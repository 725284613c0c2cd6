package topo

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/internal/parseerr"
)

// Causes of a ParseError of ParseROCm besides those Parse shares with it
// (ErrNoMatrix, ErrNoHeader, ErrUnknownRow, ErrDuplicate, ErrLongRow,
// ErrShortRow, ErrMissingRow, ErrDiagonal, ErrAsymmetric, ErrTooLarge).
var (
	// ErrROCmCell: a cell of a rocm-smi table is not what the table holds
	// (a whole number for Weight and Hops; XGMI, PCIE or N/A for Link Type).
	ErrROCmCell = errors.New("not a cell of this rocm-smi table")
	// ErrROCmTables: two tables of one capture head different GPUs.
	ErrROCmTables = errors.New("the tables of one rocm-smi --showtopo name different GPUs")
	// ErrROCmJSON: rocm-smi --showtopo --json's object, whose keys name
	// each pair ("(Topology) Link type between DRM devices 0 and 1"),
	// which no reader here takes.
	ErrROCmJSON = errors.New("rocm-smi --showtopo --json's output is not read: give the text rocm-smi --showtopo prints without --json (its Weight, Hops and Link Type tables)")
)

// rocmJSONKey is in every key of rocm-smi --showtopo --json's pairs.
const rocmJSONKey = "between DRM devices"

// rocmJSON returns the 1-based line and byte offset of the first key of
// rocm-smi --showtopo --json's output in lines, or 0, 0.
func rocmJSON(lines []string) (line, off int) {
	for i, l := range lines {
		if k := strings.Index(l, rocmJSONKey); k >= 0 && strings.Contains(l, "(Topology)") {
			return i + 1, max(0, strings.LastIndex(l[:k], "(Topology)"))
		}
	}
	return 0, 0
}

// ROCmPair is what rocm-smi --showtopo prints for one pair of GPUs.
type ROCmPair struct {
	// A and B are the GPUs, A before B.
	A, B string `json:"-"`
	// Link is the "Link Type" cell: "XGMI", "PCIE", or "" where N/A.
	Link string
	// Hops and Weight are the "Hops" and "Weight" cells, -1 where the
	// capture has no such table. AMD documents hops (MI200 system
	// optimization guide, "Hardware verification with ROCm"): 1 for GPUs
	// joined by XGMI, 2 for GPUs under one CPU socket, communicating
	// through it, 3 for GPUs under two sockets. An XGMI pair of hops 1 need
	// not be one direct link (an MI250X's GCD pairs are joined by one, two
	// or four links, or none directly, and all print 1: ROCm/rocm-systems
	// issue 5763). The weight is the kernel's io_link weight, 15 for each
	// physical XGMI hop (AMD SMI's "Interpreting hops and weight",
	// ROCm/rocm-systems PR 7372; KFD_CRAT_XGMI_WEIGHT in amdkfd): an XGMI
	// pair weighed more than 15 is reached through another GPU. Direct
	// reads both.
	Hops, Weight int
}

// xgmiHopWeight is the weight of one physical XGMI hop (ROCmPair.Weight).
const xgmiHopWeight = 15

// Direct reports that the capture shows p's GPUs joined directly by XGMI,
// by one link or more: its link type is XGMI, its hops at most 1 and its
// weight at most one XGMI hop's 15, each where printed. An XGMI pair of
// hops 2 or more, or of a larger weight, is reached through other GPUs
// and has no link of its own. rocm-smi prints no link count, so a direct
// pair's links are one at least.
func (p ROCmPair) Direct() bool {
	return p.Link == "XGMI" && p.Hops <= 1 && p.Weight <= xgmiHopWeight
}

// XGMIPeers returns, for each GPU of t in order, how many of its peers are
// joined to it directly by XGMI (ROCmPair.Direct), the fewest links the
// capture gives it: one to each such peer. It is nil where t has no XGMI
// pair. A topology that ParseROCm did not read has no hops or weights,
// and each of its XGMI pairs counts as direct.
func XGMIPeers(t *Topology) []int {
	p := len(t.gpus)
	peers := make([]int, p)
	xgmi := false
	k := 0 // t.rocm holds the GPU pairs in this order (ParseROCm)
	for i := range p {
		for j := i + 1; j < p; j, k = j+1, k+1 {
			if t.Path(t.gpus[i], t.gpus[j]).Class != XGMI {
				continue
			}
			xgmi = true
			if k < len(t.rocm) && !t.rocm[k].Direct() {
				continue
			}
			peers[i]++
			peers[j]++
		}
	}
	if !xgmi {
		return nil
	}
	return peers
}

// ROCm returns what rocm-smi printed for each pair of GPUs, in the order
// of Pairs, for a topology ParseROCm read; nil for any other.
func (t *Topology) ROCm() []ROCmPair { return slices.Clone(t.rocm) }

// rocm-smi --showtopo's table titles.
const (
	rocmWeight = "Weight between two GPUs"
	rocmHops   = "Hops between two GPUs"
	rocmType   = "Link Type between two GPUs"
	rocmNUMA   = "Numa Nodes"
)

// amdSMITables are the titles of amd-smi topology's tables that hold what
// rocm-smi --showtopo's do, each line the title alone, and the rocm-smi
// table each stands for. Its other tables (ACCESS, NUMA BW, CACHE
// COHERANCY, ATOMICS, DMA, BI-DIRECTIONAL) are skipped.
var amdSMITables = map[string]string{"WEIGHT TABLE:": rocmWeight, "HOPS TABLE:": rocmHops, "LINK TYPE TABLE:": rocmType}

// busID is a GPU's PCI address as amd-smi topology heads its columns and
// rows, "0000:0d:00.0".
var busID = regexp.MustCompile(`^[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$`)

// gpuLabel reports whether s labels a GPU's column or row: rocm-smi's
// "GPU0", or amd-smi's PCI address.
func gpuLabel(s string) bool { return gpuName.MatchString(s) || busID.MatchString(s) }

// gpuKey is the GPU a label names: a PCI address in lower case, as the
// tables of one capture may print its hex digits either way.
func gpuKey(s string) string {
	if busID.MatchString(s) {
		return strings.ToLower(s)
	}
	return s
}

// rocmNUMALine is a line of the "Numa Nodes" block, "GPU[0] : (Topology)
// Numa Node: 0" or "GPU 0 : (Topology) Numa Affinity: 0".
var rocmNUMALine = regexp.MustCompile(`^\s*GPU\s*\[?\s*([0-9]+)\s*\]?\s*:\s*\(Topology\)\s*Numa (Node|Affinity)\s*:\s*(\S+)\s*$`)

// ReadCapture reads a topology capture of either vendor: rocm-smi
// --showtopo's output (ParseROCm) where the text carries a ROCm tool's
// title, else `nvidia-smi topo -m`'s (Parse).
func ReadCapture(r io.Reader) (*Topology, []*ParseError, error) {
	name, data, err := readInput(r)
	if err != nil {
		return nil, nil, err
	}
	lines, _ := splitLines(data)
	if rocmLine(lines) >= 0 {
		return parseROCm(name, data)
	}
	if line, _ := rocmJSON(lines); line > 0 {
		return parseROCm(name, data) // which refuses it (ErrROCmJSON)
	}
	return parseBytes(name, data)
}

// ParseROCm reads the output of `rocm-smi --showtopo` (AMD GPUs): its
// "Weight between two GPUs", "Hops between two GPUs" and "Link Type
// between two GPUs" tables, each a header of GPU columns and a row a GPU,
// and its "Numa Nodes" block, all but the Link Type table optional. Lines
// outside them (the banner, a WARNING, comments) are skipped; the cell where
// a GPU meets itself may be 0, X or SELF. It reads `amd-smi topology`'s
// tables alike (amdSMITables: its WEIGHT, HOPS and LINK TYPE TABLE), whose
// columns and rows are the GPUs' PCI addresses: the GPUs are named GPU0,
// GPU1, ... in their order, as amd-smi numbers them, and have no NUMA node
// (amd-smi topology prints none). A weight of 0, or N/A, is no weight.
//
// The topology has the GPUs, no NICs (rocm-smi shows none), each GPU's NUMA
// node ("Numa Node", else "Numa Affinity"), and a path for every pair: XGMI
// where the Link Type is XGMI; for PCIE, by the hops as AMD documents them
// (ROCmPair): SYS at 3 or more (two CPU sockets), NODE at 2 (one socket,
// through the CPU), PHB otherwise (an assumption: AMD documents no PCIe
// pair of 1 hop), and without a Hops table SYS where the two GPUs' NUMA
// nodes differ, else PHB. ROCm gives the cells as printed.
//
// Damage is an error, a *ParseError at the line and column, as Parse gives
// (a row of more or fewer cells than GPU columns, a cell that is not the
// table's, a GPU without its row, tables of different GPUs), except a pair
// whose two cells disagree (ErrAsymmetric, a warning): it takes the
// farther (PCIE over XGMI, the larger number), and past the first
// maxAsymmetric such pairs the rest are one warning, as Parse folds them.
// More GPUs than NCCL's topology holds (nccl.MaxTopoNodes) are
// ErrTooLarge. rocm-smi --showtopo --json's object is refused
// (ErrROCmJSON).
func ParseROCm(r io.Reader) (*Topology, []*ParseError, error) {
	name, data, err := readInput(r)
	if err != nil {
		return nil, nil, err
	}
	return parseROCm(name, data)
}

// ParseROCmFile is ParseROCm on the named file.
func ParseROCmFile(name string) (*Topology, []*ParseError, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return ParseROCm(f)
}

// rocmTable is one table of rocm-smi --showtopo as read.
type rocmTable struct {
	title  string
	shown  string   // the title as the capture prints it (amd-smi's "HOPS TABLE")
	line   int      // 1-based line of the header
	gpus   []string // the header's GPU columns
	cells  []string // n×n, "" where the diagonal
	lines  []int    // n×n: 1-based line of each cell
	offs   []int    // n×n: byte offset of each cell in its line
	titled int      // 1-based line of the title
}

func parseROCm(name string, data []byte) (*Topology, []*ParseError, error) {
	lines, shifts := splitLines(data)
	p := &parser{name: name, lines: lines, shifts: shifts}
	tables := map[string]*rocmTable{}
	numa := map[int]int{}     // GPU index -> Numa Node
	affinity := map[int]int{} // GPU index -> Numa Affinity
	numaLine := map[int]int{} // GPU index -> line of its first NUMA line
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		title := amdSMITables[strings.TrimSpace(l)]
		shown := strings.TrimSuffix(strings.TrimSpace(l), ":")
		for _, t := range []string{rocmWeight, rocmHops, rocmType} {
			if strings.Contains(l, t) {
				title, shown = t, t
			}
		}
		if m := rocmNUMALine.FindStringSubmatch(l); m != nil {
			g, err := strconv.Atoi(m[1])
			if err != nil || g >= maxDevices {
				return nil, nil, p.errLine(i+1, fmt.Errorf("GPU %q: %w", parseerr.Excerpt(m[1]), ErrUnknownRow))
			}
			v := -1
			if !strings.EqualFold(m[3], "N/A") {
				if v, err = strconv.Atoi(m[3]); err != nil || v < -1 || v > maxCPU {
					return nil, nil, p.errAt(i+1, strings.LastIndex(l, m[3]), fmt.Errorf("%q: %w", parseerr.Excerpt(m[3]), ErrNUMA))
				}
			}
			if _, ok := numaLine[g]; !ok {
				numaLine[g] = i + 1
			}
			if m[2] == "Node" {
				numa[g] = v
			} else {
				affinity[g] = v
			}
			continue
		}
		if title == "" {
			continue
		}
		if tables[title] != nil {
			return nil, nil, p.errLine(i+1, fmt.Errorf("%q again (%q on line %d): %w", shown, tables[title].shown, tables[title].titled, ErrDuplicate))
		}
		t, next, err := p.rocmTable(title, shown, i)
		if err != nil {
			return nil, nil, err
		}
		tables[title] = t
		i = next - 1
	}
	kind := tables[rocmType]
	if kind == nil {
		if line, off := rocmJSON(lines); line > 0 {
			return nil, nil, p.errAt(line, off, ErrROCmJSON)
		}
		return nil, nil, &ParseError{File: name, Err: fmt.Errorf("no %q table (amd-smi's LINK TYPE TABLE): %w", rocmType, ErrNoMatrix)}
	}
	for _, t := range []*rocmTable{tables[rocmWeight], tables[rocmHops]} {
		if t != nil && !slices.Equal(t.gpus, kind.gpus) {
			return nil, nil, p.errLine(t.line, fmt.Errorf("%q heads %s, %q (line %d) %s: %w",
				t.shown, nameList(t.gpus), kind.shown, kind.line, nameList(kind.gpus), ErrROCmTables))
		}
	}
	n := len(kind.gpus)
	gpus := make([]Device, n)
	for i, g := range kind.gpus {
		if busID.MatchString(g) {
			g = "GPU" + strconv.Itoa(i) // amd-smi's PCI address, in its order
		}
		gpus[i] = Device{Name: g, NUMA: -1, GPUNUMA: -1}
	}
	for _, g := range slices.Sorted(maps.Keys(numaLine)) {
		line := numaLine[g]
		if g >= n || gpus[g].Name != "GPU"+strconv.Itoa(g) {
			return nil, nil, p.errLine(line, fmt.Errorf("GPU %d of the Numa Nodes is no column of %q (line %d): %w", g, kind.shown, kind.line, ErrUnknownRow))
		}
		if v, ok := numa[g]; ok && v >= 0 {
			gpus[g].NUMA = v
		} else if v, ok := affinity[g]; ok && v >= 0 {
			gpus[g].NUMA = v
		}
	}
	top, err := New(gpus, nil)
	if err != nil {
		return nil, nil, p.errLine(kind.line, err)
	}
	// asymmetric counts the pair i, j of t, whose cells a and b disagree,
	// as read as far.
	asymmetric := func(t *rocmTable, i, j int, a, b, far string) {
		p.noteAsymmetric(t.lines[j*n+i], t.offs[j*n+i], func() string {
			return fmt.Sprintf("%s/%s of %q is %s but %s/%s on line %d is %s; read as %s, the farther",
				t.gpus[j], t.gpus[i], t.shown, b, t.gpus[i], t.gpus[j], t.lines[i*n+j], a, far)
		})
	}
	num := func(t *rocmTable, i, j int) int {
		if t == nil {
			return -1
		}
		a, b := t.cells[i*n+j], t.cells[j*n+i]
		if a == "" && b == "" {
			return -1 // not printed: N/A, or amd-smi's weight of 0
		}
		va, _ := strconv.Atoi(cmp.Or(a, b))
		vb, _ := strconv.Atoi(cmp.Or(b, a))
		if va != vb {
			far := max(va, vb)
			asymmetric(t, i, j, a, b, strconv.Itoa(far))
			return far
		}
		return va
	}
	linkNoted := false
	for i := range n {
		for j := i + 1; j < n; j++ {
			pair := ROCmPair{A: gpus[i].Name, B: gpus[j].Name}
			pair.Weight = num(tables[rocmWeight], i, j)
			pair.Hops = num(tables[rocmHops], i, j)
			a, b := kind.cells[i*n+j], kind.cells[j*n+i]
			link := a
			switch {
			case a != b && a != "" && b != "":
				link = "PCIE" // the farther
				asymmetric(kind, i, j, a, b, link)
			case a == "":
				link = b
			}
			pair.Link = link
			if link == "PCIE" && (a == b || a == "" || b == "") && pair.Hops == 1 && pair.Weight == xgmiHopWeight && !linkNoted {
				// One XGMI hop's hops and weight under a PCIe link type
				// both ways (an asymmetric pair is noted as such): the
				// tables contradict each other, noted once.
				linkNoted = true
				k := i*n + j
				if kind.cells[k] != "PCIE" {
					k = j*n + i
				}
				p.problems = append(p.problems, p.errAt(kind.lines[k], kind.offs[k], fmt.Errorf(
					"%s/%s of %q is PCIE, where its hops (1) and weight (%d) are one XGMI hop's: %w; read as PCIe, as the link type says (-hw fabric=infinity if the GPUs are joined by XGMI)",
					gpus[i].Name, gpus[j].Name, kind.shown, xgmiHopWeight, ErrLinkType)))
			}
			top.SetPath(top.gpus[i], top.gpus[j], rocmPath(pair, top.gpus[i], top.gpus[j]))
			top.rocm = append(top.rocm, pair)
		}
	}
	return top, p.sorted(), nil
}

// rocmPath is the path of a pair as ParseROCm documents it.
func rocmPath(pair ROCmPair, a, b Device) Path {
	switch pair.Link {
	case "XGMI":
		return Path{Class: XGMI}
	case "PCIE":
		switch {
		case pair.Hops >= 3:
			return Path{Class: SYS}
		case pair.Hops == 2:
			return Path{Class: NODE}
		case pair.Hops < 0 && a.NUMA >= 0 && b.NUMA >= 0 && a.NUMA != b.NUMA:
			return Path{Class: SYS}
		}
		return Path{Class: PHB}
	}
	return Path{}
}

// rocmTable reads the table titled title at line index i: its header, the
// next line with words, and its rows, the lines after it that start with a
// GPU label, up to a blank or ruled line. It returns the table and the
// index of the line after it.
func (p *parser) rocmTable(title, shown string, i int) (*rocmTable, int, error) {
	h := i + 1
	for h < len(p.lines) && strings.TrimSpace(p.lines[h]) == "" {
		h++
	}
	if h == len(p.lines) {
		return nil, 0, p.errLine(i+1, fmt.Errorf("%q has no header line of GPU columns under it: %w", shown, ErrNoHeader))
	}
	head := p.fieldsOf(h)
	t := &rocmTable{title: title, shown: shown, line: h + 1, titled: i + 1}
	index := map[string]int{}
	for _, f := range head {
		if !gpuLabel(f.text) {
			return nil, 0, p.errAt(h+1, f.off, fmt.Errorf("%q under %q is not a GPU column (GPU0, GPU1, ..., or amd-smi's 0000:0d:00.0): %w", parseerr.Excerpt(f.text), shown, ErrNoHeader))
		}
		g := gpuKey(f.text)
		if _, dup := index[g]; dup {
			return nil, 0, p.errAt(h+1, f.off, fmt.Errorf("%s: %w", f.text, ErrDuplicate))
		}
		index[g] = len(t.gpus)
		t.gpus = append(t.gpus, g)
	}
	if err := p.tooMany(h+1, head); err != nil {
		return nil, 0, err
	}
	n := len(t.gpus)
	t.cells, t.lines, t.offs = make([]string, n*n), make([]int, n*n), make([]int, n*n)
	seen := map[string]int{}
	j := h + 1
	for ; j < len(p.lines); j++ {
		fs := p.fieldsOf(j)
		if len(fs) == 0 || isRule(p.lines[j]) || !gpuLabel(fs[0].text) {
			break
		}
		label := fs[0]
		r, ok := index[gpuKey(label.text)]
		if !ok {
			return nil, 0, p.errAt(j+1, label.off, fmt.Errorf("%s: %w", parseerr.Excerpt(label.text), ErrUnknownRow))
		}
		if prev, dup := seen[gpuKey(label.text)]; dup {
			return nil, 0, p.errAt(j+1, label.off, fmt.Errorf("%s (first on line %d): %w", label.text, prev, ErrDuplicate))
		}
		seen[gpuKey(label.text)] = j + 1
		cells := fs[1:]
		if len(cells) > n {
			return nil, 0, p.errAt(j+1, cells[n].off, fmt.Errorf("%s has %d cells for %d GPU columns, from %s on: %w", label.text, len(cells), n, parseerr.Excerpt(cells[n].text), ErrLongRow))
		}
		if len(cells) < n {
			return nil, 0, p.errLine(j+1, fmt.Errorf("%s has %d of %d cells: %w", label.text, len(cells), n, ErrShortRow))
		}
		for c, f := range cells {
			v, err := rocmCell(title, f.text, c == r)
			if err != nil {
				return nil, 0, p.errAt(j+1, f.off, fmt.Errorf("%s/%s of %q: %w", label.text, t.gpus[c], shown, err))
			}
			t.cells[r*n+c], t.lines[r*n+c], t.offs[r*n+c] = v, j+1, f.off
		}
	}
	var missing []string
	for _, g := range t.gpus {
		if _, ok := seen[g]; !ok {
			missing = append(missing, g)
		}
	}
	if len(missing) > 0 {
		return nil, 0, p.errLine(max(j, h+1), fmt.Errorf("%q ends here, with no row for %s of its %d GPU columns (line %d; is the capture cut?): %w",
			shown, nameList(missing), n, h+1, ErrMissingRow))
	}
	return t, j, nil
}

// rocmCell reads one cell of the table titled title: "" on the diagonal
// (0, X or SELF), else a whole number for Weight and Hops ("" for N/A, and
// for a weight of 0), and XGMI, PCIE or "" (N/A) for Link Type.
func rocmCell(title, s string, diagonal bool) (string, error) {
	u := strings.ToUpper(s)
	if diagonal {
		if u == "0" || u == "X" || u == "SELF" {
			return "", nil
		}
		return "", fmt.Errorf("%q where a GPU meets itself (want 0 or X): %w", parseerr.Excerpt(s), ErrDiagonal)
	}
	if title == rocmType {
		switch u {
		case "XGMI", "PCIE":
			return u, nil
		case "N/A", "-":
			return "", nil
		}
		return "", fmt.Errorf("%q (want XGMI, PCIE or N/A): %w", parseerr.Excerpt(s), ErrROCmCell)
	}
	if v, err := strconv.Atoi(s); err == nil && v > 0 && s[0] != '+' {
		return strconv.Itoa(v), nil
	}
	if u == "N/A" || title == rocmWeight && s == "0" {
		// Not given: amd-smi prints N/A where it has no figure, and a
		// weight of 0 for the pairs of some XGMI hosts (OCI's MI355X).
		return "", nil
	}
	return "", fmt.Errorf("%q (want a positive whole number): %w", parseerr.Excerpt(s), ErrROCmCell)
}

// XGMIGroups returns the GPUs (names) that XGMI joins in groups, directly
// or through each other, each group in GPU order and the groups in order
// of their first GPU, where XGMI joins some of t's GPUs but not every
// pair (AllXGMI): MI210 cards on Infinity Fabric bridges of two or four,
// PCIe between the bridges, as NVLink bridges join pairs of NVIDIA cards.
// A GPU without XGMI is in no group. It is nil where no pair is XGMI or
// every pair is.
func XGMIGroups(t *Topology) [][]string {
	if AllXGMI(t) {
		return nil
	}
	p := len(t.gpus)
	group := make([]int, p) // 1 + the index of a GPU's group in out, 0 for none
	var out [][]string
	for i := range p {
		if group[i] > 0 {
			continue
		}
		// The GPUs XGMI reaches from GPU i, i among them where any is.
		members := []int{i}
		for next := 0; next < len(members); next++ {
			for j := range p {
				if j != members[next] && !slices.Contains(members, j) && t.Path(t.gpus[members[next]], t.gpus[j]).Class == XGMI {
					members = append(members, j)
				}
			}
		}
		if len(members) < 2 {
			continue
		}
		slices.Sort(members)
		var names []string
		for _, m := range members {
			group[m] = len(out) + 1
			names = append(names, t.gpus[m].Name)
		}
		out = append(out, names)
	}
	return out
}
