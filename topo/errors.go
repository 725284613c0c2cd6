package topo

import (
	"errors"
	"fmt"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/internal/parseerr"
)

// ParseError is a problem at one place of `nvidia-smi topo -m` text: an error
// that stops Parse, or a warning about damage Parse read past (see Parse).
// It is the same type as data/nccltests' ParseError: File is the name given
// (ParseFile's argument, an *os.File's Name) or ""; Line is 1-based, 0 for
// the input as a whole (no matrix in it, too large, unreadable); Column is
// the 1-based byte offset of the offending field in the line, 0 for the whole
// line; Err wraps one of the Err* sentinels below, for errors.Is.
type ParseError = parseerr.ParseError

// Sentinel causes of a ParseError (besides ErrPathToken and ErrCPUList).
// Parse reports ErrShortRow, ErrAsymmetric, ErrNoLegend, ErrLegendDevice,
// ErrStrayLegend, ErrCutHeader, ErrSecondMatrix, ErrLinkType and, for a NIC,
// ErrMissingRow as warnings
// (problems); the others stop it.
var (
	// ErrNoMatrix: no header with matrix rows under it.
	ErrNoMatrix = errors.New("no topology matrix found (want a header line \"GPU0 GPU1 ...\" followed by rows \"GPU0 X NV18 ...\")")
	// ErrNoHeader: a matrix row comes before any header.
	ErrNoHeader = errors.New("matrix row without a header line of device columns above it")
	// ErrUnknownRow: a row's label is not a device column.
	ErrUnknownRow = errors.New("row names a device that is not a column of the header")
	// ErrDuplicate: a device heads two columns or labels two rows.
	ErrDuplicate = errors.New("device listed twice")
	// ErrFieldCount: a row has more attribute fields than the header has
	// attribute columns.
	ErrFieldCount = errors.New("more fields than the header has columns")
	// ErrCutHeader, a warning: the header stops at CPU Affinity while the
	// rows have one field more, read as NUMA Affinity.
	ErrCutHeader = errors.New("one field more than the header has columns, after CPU Affinity")
	// ErrLongRow: a row has more matrix cells than the header has device
	// columns.
	ErrLongRow = errors.New("long row")
	// ErrShortRow (a warning): a row has fewer matrix cells than the header
	// has device columns.
	ErrShortRow = errors.New("short row")
	// ErrMissingRow: a device heads a column of the header but labels no
	// row, as in a capture cut short. An error for a GPU, whose pairs with
	// the other GPUs set the fabric; a warning for a NIC, whose pairs with
	// the GPUs its column holds.
	ErrMissingRow = errors.New("missing row")
	// ErrNoLegend (a warning): a NIC column named NIC0, NIC1, ... has no
	// "NIC0: mlx5_0" entry in a NIC Legend after the matrix, so its device
	// is unknown.
	ErrNoLegend = errors.New("NIC not in the NIC Legend")
	// ErrLegendDevice (a warning): a NIC Legend entry names a device
	// whose name holds a blank or a character NCCL_IB_HCA reads as syntax
	// (',' '=' '^' ':'), or a device another entry names too: a damaged
	// legend, of whose devices Topology.IBHCA makes no list.
	ErrLegendDevice = errors.New("damaged NIC Legend entry")
	// ErrStrayLegend (a warning): NIC Legend entries of NICs the matrix
	// does not head (another capture's lines, or a cut matrix), left
	// unread; the matrix's NICs keep their entries.
	ErrStrayLegend = errors.New("NIC Legend entry of no NIC")
	// ErrSecondMatrix (a warning): another matrix header, with rows under
	// it, follows the matrix read (two captures in one file); only the
	// first matrix and the legend before the second are read.
	ErrSecondMatrix = errors.New("second matrix")
	// ErrLinkType (a warning): an AMD capture's Link Type of a pair says
	// PCIE where its hops and weight are one XGMI hop's; the link type
	// is read, noted at the first such pair.
	ErrLinkType = errors.New("link type against hops and weight")
	// ErrNVLinkNIC: an NVLink cell (NV#) between a GPU and a device
	// that is no GPU's label, which the matrix takes for a NIC.
	ErrNVLinkNIC = errors.New("NVLink to a device that is no GPU")
	// ErrDiagonal: X off the diagonal, or another path on it.
	ErrDiagonal = errors.New("X (self) must be exactly the cell where a device meets itself")
	// ErrAsymmetric (a warning): a cell and its transposed cell name
	// different paths.
	ErrAsymmetric = errors.New("asymmetric pair")
	// ErrNUMA: a NUMA Affinity or GPU NUMA ID field is not a node number.
	ErrNUMA = errors.New("malformed NUMA node (want a number or N/A)")
	// ErrNUMASpan (a warning): a device's NUMA Affinity names several nodes
	// ("0-1", as Azure's NCv4 VMs print), so its NUMA node is not read from
	// it (Parse may infer it from the CPU Affinity lists); noted at the
	// first such field.
	ErrNUMASpan = errors.New("spans several NUMA nodes")
	// ErrROCm: text that Parse cannot read is an AMD topology tool's
	// (rocm-smi --showtopo, amd-smi topology), at the line that says so.
	ErrROCm = errors.New("a ROCm topology (rocm-smi --showtopo or amd-smi topology), not nvidia-smi topo -m, which is what this reads")
	// ErrTooLarge: more than 16 MiB of text, 1024 device columns, or more
	// GPUs or NICs than NCCL's topology holds (nccl.MaxTopoNodes).
	ErrTooLarge = fmt.Errorf("input too large (more than %d MiB, %d device columns, or %d GPUs or NICs)", maxInput>>20, maxDevices, nccl.MaxTopoNodes)
)
