package topo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/internal/parseerr"
)

// Class is the kind of connection between two devices, as `nvidia-smi topo -m`
// classifies it. The zero value is Unknown.
type Class uint8

// The path classes, from near to far; Unknown (a cell the output left out or
// printed as N/A) sorts after all of them.
const (
	Unknown Class = iota
	Self          // X: the device itself
	NVLink        // NV#: a bonded set of NVLinks
	PIX           // at most one PCIe bridge
	PXB           // several PCIe bridges, without the host bridge
	PHB           // through a PCIe host bridge (the CPU)
	NODE          // across PCIe host bridges within one NUMA node
	SYS           // across the SMP interconnect between NUMA nodes
	// XGMI is AMD's Infinity Fabric (xGMI) between two GPUs, as rocm-smi
	// --showtopo's "Link Type" table prints it (ParseROCm). It sorts
	// between NVLink and PIX (rank); nvidia-smi never prints it.
	XGMI
)

var classNames = [...]string{
	Unknown: "N/A",
	Self:    "X",
	NVLink:  "NV#",
	PIX:     "PIX",
	PXB:     "PXB",
	PHB:     "PHB",
	NODE:    "NODE",
	SYS:     "SYS",
	XGMI:    "XGMI",
}

// String returns the class as nvidia-smi's legend spells it ("NV#" for NVLink).
func (c Class) String() string {
	if int(c) >= len(classNames) {
		return fmt.Sprintf("Class(%d)", int(c))
	}
	return classNames[c]
}

// rank orders classes from near (small) to far (large), Unknown last.
func (c Class) rank() int {
	switch c {
	case Unknown:
		return 2*int(SYS) + 2
	case XGMI:
		return 2*int(NVLink) + 1
	}
	return 2 * int(c)
}

// Path is the connection between two devices: its class and, for NVLink, the
// number of bonded links. The zero value is an Unknown path.
type Path struct {
	// Class is the path class.
	Class Class
	// NVLinks is the number of bonded NVLinks when Class is NVLink, else 0.
	NVLinks int
}

// MaxLinks is the most GPU-to-GPU links (NVLink, Infinity Fabric) a GPU
// may have, to one peer or to all: a GPU has at most MaxNVLinksPerGPU, and
// a count far beyond that is a typing error, not a machine. ParsePath
// reads no NV# above it (ErrNVLinks), and predict's -hw links takes counts
// up to it, so that the links a capture gives are ones -hw takes: a GPU's
// NVLinks summed over its peers beyond MaxNVLinksPerGPU read as NVSwitch
// (ReadNVLinks), whose links are one pair's.
const MaxLinks = 1 << 16

// NV returns the path of n bonded NVLinks (nvidia-smi's "NV<n>").
func NV(n int) Path { return Path{Class: NVLink, NVLinks: n} }

// String returns the path as nvidia-smi prints it in the matrix: X, NV18, PIX,
// PXB, PHB, NODE, SYS, or N/A for Unknown.
func (p Path) String() string {
	if p.Class == NVLink {
		return "NV" + strconv.Itoa(p.NVLinks)
	}
	return p.Class.String()
}

// MarshalText encodes the path as String does, so JSON shows "PIX", "NV18".
func (p Path) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (p *Path) UnmarshalText(b []byte) error {
	if strings.EqualFold(strings.TrimSpace(string(b)), "XGMI") {
		*p = Path{Class: XGMI}
		return nil
	}
	q, err := ParsePath(string(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// Compare orders paths from near to far: it returns a negative number if p is
// nearer than q, zero if they are equally near and a positive number if p is
// farther. Between two NVLink paths the one with more links is nearer.
// Unknown is farther than every known class.
func (p Path) Compare(q Path) int {
	if d := p.Class.rank() - q.Class.rank(); d != 0 {
		return d
	}
	if p.Class == NVLink {
		return q.NVLinks - p.NVLinks
	}
	return 0
}

// PCIe reports whether the path is a PCIe class (PIX, PXB, PHB, NODE, SYS), the
// classes that say where a device sits in the PCIe and NUMA tree.
func (p Path) PCIe() bool { return p.Class >= PIX && p.Class <= SYS }

// SameNUMA reports whether a PCIe path stays within one NUMA node: PIX, PXB,
// PHB and NODE do, SYS does not. NVLink, Self and Unknown paths say nothing and
// give false.
func (p Path) SameNUMA() bool { return p.Class >= PIX && p.Class <= NODE }

var (
	// ErrPathToken is the cause of a ParseError on a matrix cell that is
	// not a path class.
	ErrPathToken = errors.New("not a path class (want X, NV#, PIX, PXB, PHB, NODE, SYS or N/A)")
	// ErrNVLinks is the cause of a ParseError on an NV# cell of more than
	// MaxLinks links.
	ErrNVLinks = errors.New("more NVLinks than a GPU has")
)

// ParsePath reads a matrix cell. It ignores case and accepts, besides the
// current classes, "SOC" (the name older drivers used for SYS) and "N/A" or
// "-" for Unknown. NV# needs a positive link count, at most MaxLinks
// (ErrNVLinks beyond).
func ParsePath(s string) (Path, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	switch u {
	case "X":
		return Path{Class: Self}, nil
	case "PIX":
		return Path{Class: PIX}, nil
	case "PXB":
		return Path{Class: PXB}, nil
	case "PHB":
		return Path{Class: PHB}, nil
	case "NODE":
		return Path{Class: NODE}, nil
	case "SYS", "SOC":
		return Path{Class: SYS}, nil
	case "N/A", "-":
		return Path{}, nil
	}
	if rest, ok := strings.CutPrefix(u, "NV"); ok {
		n, err := strconv.Atoi(rest)
		switch {
		case rest == "" || rest[0] == '+' || rest[0] == '-':
		case err == nil && n > MaxLinks, errors.Is(err, strconv.ErrRange):
			return Path{}, fmt.Errorf("%q: links past %d, the most -hw links takes: %w", parseerr.Excerpt(s), MaxLinks, ErrNVLinks)
		case err == nil && n > 0:
			return NV(n), nil
		}
	}
	return Path{}, fmt.Errorf("%q: %w", parseerr.Excerpt(s), ErrPathToken)
}
