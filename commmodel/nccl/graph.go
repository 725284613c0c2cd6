package nccl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// PathType is NCCL's class of the path between two devices, from nearest to
// farthest (PATH_LOC ... PATH_DIS, NCCL 2.30.7 src/graph/topo.h). C2C exists
// from NCCL 2.26 and P2C from 2.27; both sit where those versions insert
// them, so comparisons such as "at most PXB" mean the same in every version.
type PathType int

// NCCL's path types in NCCL 2.30.7's order.
const (
	PathLOC PathType = iota // the device itself
	PathNVL                 // NVLink, directly or through NVSwitch
	PathNVB                 // NVLink through an intermediate GPU
	PathC2C                 // chip-to-chip link (Grace)
	PathPIX                 // at most one PCIe bridge
	PathPXB                 // several PCIe bridges, not through the CPU
	PathP2C                 // GPU to NIC through C2C and the CPU's PCIe
	PathPXN                 // through an intermediate GPU to reach a NIC
	PathPHB                 // through a CPU's PCIe host bridge
	PathSYS                 // across CPUs (QPI, UPI, Infinity Fabric)
	PathNET                 // through the network
	PathDIS                 // not connected
	numPathTypes
)

// pathNames are NCCL's topoPathTypeStr (NCCL 2.30.7 src/graph/topo.cc).
var pathNames = [numPathTypes]string{"LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS", "NET", "DIS"}

// String returns NCCL's name ("PIX").
func (t PathType) String() string { return nameOf(pathNames[:], int(t), "PathType") }

// MarshalText encodes the path type by name, so JSON shows "PIX".
func (t PathType) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// ParsePathType reads NCCL's name of a path type, case-insensitive, and
// RCCL's "XGMI" for NVL: RCCL's AMD build names its GPU links so
// (topoPathTypeStr in ROCm/rccl src/graph/topo.cc, commit 0cbce2a7).
func ParsePathType(s string) (PathType, error) {
	if t := indexFold(pathNames[:], s); t >= 0 {
		return PathType(t), nil
	}
	if strings.EqualFold(s, "XGMI") {
		return PathNVL, nil
	}
	return 0, fmt.Errorf("nccl: unknown path type %q (want one of %s, or RCCL's XGMI)", s, strings.Join(pathNames[:], ", "))
}

// Pattern is the shape a graph search looks for (NCCL_TOPO_PATTERN_*, NCCL
// 2.30.7 src/include/graph.h).
type Pattern int

// NCCL's search patterns.
const (
	PatternBalancedTree  Pattern = 1 // NIC traffic spread over two GPUs
	PatternSplitTree     Pattern = 2 // tree parent on one GPU, children on another
	PatternTree          Pattern = 3 // all NIC traffic through one GPU
	PatternRing          Pattern = 4
	PatternNVLS          Pattern = 5
	PatternCollNetDirect Pattern = 6 // from NCCL 2.19
)

// MaxTopoNodes is the most devices of one kind (GPUs, NICs) NCCL's
// topology holds: NCCL_TOPO_MAX_NODES, 640 from NCCL 2.29.7 ("up to 576
// GPUs (e.g., NVLD144) with headroom", NCCL 2.30.7 src/include/graph.h),
// 576 from 2.27 and 256 before. ncclTopoCreateNode (src/graph/topo.cc)
// fails past it ("tried to create too many nodes").
const MaxTopoNodes = 640

// Graph is what NCCL's search found for one pattern, the per-channel values
// the tuning model reads (struct ncclTopoGraph, NCCL 2.30.7
// src/include/graph.h). Bandwidths are in NCCL's unit, GB/s per channel,
// and are entries of the search's speed arrays, not raw link rates. The
// zero Graph is a pattern that was not searched (no NVLS, no CollNet).
type Graph struct {
	Pattern  Pattern
	CrossNic int
	// NChannels is the number of channels the search found.
	NChannels int
	// BWIntra and BWInter are the bandwidth of one channel inside a node
	// and across nodes, GB/s (1e9 B/s).
	BWIntra, BWInter float64
	// TypeIntra and TypeInter are the farthest path a channel takes inside
	// a node and to the network.
	TypeIntra, TypeInter PathType
	// SameChannels reports that every channel uses the same GPU order.
	SameChannels bool
	// LatencyInter is the network latency the net plugin reports, us
	// (0 for InfiniBand and sockets).
	LatencyInter float64
}

// Graphs are the searched graphs of one communicator, by the algorithms that
// read them (graphs[] in NCCL 2.30.7 src/init.cc): Tree and PAT read Tree,
// NVLS and NVLSTree read NVLS. NCCL 2.18 has one CollNet graph for both
// CollNet algorithms; give it as both fields.
type Graphs struct {
	Ring, Tree, CollNetChain, CollNetDirect, NVLS Graph
}

// of returns the graph algorithm a reads.
func (g *Graphs) of(a Algo) *Graph {
	switch a {
	case AlgoRing:
		return &g.Ring
	case AlgoCollNetDirect:
		return &g.CollNetDirect
	case AlgoCollNetChain:
		return &g.CollNetChain
	case AlgoNVLS, AlgoNVLSTree:
		return &g.NVLS
	}
	return &g.Tree
}

// graphLineRE matches the line NCCL_DEBUG_SUBSYS=GRAPH prints for each
// search, "Pattern 4, crossNic 0, nChannels 12, bw 30.000000/30.000000,
// type NVL/PIX, sameChannels 1" (ncclTopoPrintGraph, NCCL 2.30.7
// src/graph/search.cc; NCCL before 2.12 wrote "speed" for "bw").
var graphLineRE = regexp.MustCompile(`Pattern (\d+), crossNic (\d+), nChannels (\d+), (?:bw|speed) ([0-9.eE+-]+)/([0-9.eE+-]+), type ([A-Z0-9]+)/([A-Z0-9]+), sameChannels (\d+)`)

// ErrNoGraphLine is the cause of a ParseGraphLine error for a line that is
// not a GRAPH search result.
var ErrNoGraphLine = errors.New("not a \"Pattern P, crossNic C, nChannels N, bw X/Y, type T/U, sameChannels S\" line")

// ParseGraphLine reads the search result NCCL prints with
// NCCL_DEBUG_SUBSYS=GRAPH. Anything before "Pattern" (host, pid, "NCCL
// INFO") is ignored. The line carries no LatencyInter; set it if the net
// plugin reports one.
func ParseGraphLine(line string) (Graph, error) {
	m := graphLineRE.FindStringSubmatch(line)
	if m == nil {
		return Graph{}, ErrNoGraphLine
	}
	var g Graph
	ints := [...]*int{nil, nil, &g.CrossNic, &g.NChannels}
	pattern, err := strconv.Atoi(m[1])
	if err != nil || pattern < 1 || pattern > 6 {
		return Graph{}, fmt.Errorf("pattern %q: want 1 to 6", m[1])
	}
	g.Pattern = Pattern(pattern)
	for i := 2; i <= 3; i++ {
		n, err := strconv.Atoi(m[i])
		if err != nil || n > 1<<16 {
			return Graph{}, fmt.Errorf("%q: bad count", m[i])
		}
		*ints[i] = n
	}
	for i, dst := range [...]*float64{&g.BWIntra, &g.BWInter} {
		x, err := strconv.ParseFloat(m[4+i], 64)
		if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			return Graph{}, fmt.Errorf("bandwidth %q: want a finite number of GB/s", m[4+i])
		}
		*dst = x
	}
	if g.TypeIntra, err = ParsePathType(m[6]); err != nil {
		return Graph{}, err
	}
	if g.TypeInter, err = ParsePathType(m[7]); err != nil {
		return Graph{}, err
	}
	switch m[8] {
	case "0":
	case "1":
		g.SameChannels = true
	default:
		return Graph{}, fmt.Errorf("sameChannels %q: want 0 or 1", m[8])
	}
	return g, nil
}

// LineError is an error of ReadGraphs or ReadTuning at a line of its input.
type LineError struct {
	Line int // 1-based
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

func (e *LineError) Unwrap() error { return e.Err }

// ReadGraphs collects the GRAPH lines of a log into Graphs. Every rank prints
// its own searches; ReadGraphs keeps the lines of the rank that printed the
// first one (the "host:pid:tid [dev]" or "[rank]" prefix of the line) and
// takes them in NCCL's order: Ring (pattern 4), Tree (1, 2 or 3), then, when
// CollNet is enabled, CollNetChain (a second tree pattern) and
// CollNetDirect (6), then NVLS (5). It reports how many graphs it filled; a
// malformed GRAPH line is a *LineError.
func ReadGraphs(r io.Reader) (Graphs, int, error) {
	var gs Graphs
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n, key, keyed := 0, "", false
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if !strings.Contains(text, "crossNic") {
			continue
		}
		g, err := ParseGraphLine(text)
		if err != nil {
			return gs, n, &LineError{line, err}
		}
		if k := rankKey(text); !keyed {
			key, keyed = k, true
		} else if k != key {
			continue
		}
		var dst *Graph
		switch g.Pattern {
		case PatternRing:
			dst = &gs.Ring
		case PatternBalancedTree, PatternSplitTree, PatternTree:
			dst = &gs.Tree
			if gs.Tree.NChannels > 0 {
				dst = &gs.CollNetChain
			}
		case PatternCollNetDirect:
			dst = &gs.CollNetDirect
		case PatternNVLS:
			dst = &gs.NVLS
		}
		if dst.NChannels == 0 {
			*dst = g
			n++
		}
	}
	return gs, n, sc.Err()
}

// rankKeyRE finds who printed a log line: "host:pid:tid [dev]" (NCCL's
// prefix) or "[rank]" (mpirun --tag-output).
var rankKeyRE = regexp.MustCompile(`\S+:\d+:\d+ \[\d+\]|^\[\d+(?:,\d+)*\]`)

func rankKey(line string) string { return rankKeyRE.FindString(line) }
