package nccl

import (
	"fmt"
	"strings"
)

// enable holds NCCL's protoEnable and algoEnable per function: 0 off, 1 on,
// 2 automatic (LL128's default).
type enable struct {
	proto [NumFuncs][NumProtocols]int8
	algo  [NumFuncs][NumAlgos]int8
}

// legacyAlgoNames are NCCL 2.8's ncclAlgoStr (Tree, Ring, CollNet) at the
// indices of the algorithms they are here: its CollNet is CollNetChain.
var legacyAlgoNames = [NumAlgos]string{"Tree", "Ring", "", "CollNet", "", "", ""}

// AlgoListAt returns NCCL_ALGO list algo, as release v reads it, in the
// names of release at's. Before NCCL 2.14 one algorithm was CollNet
// (ncclAlgoStr: Tree, Ring, CollNet): 2.8's ran a chain through the GPUs
// to the network (ncclPatternCollTreeUp and Down; legacyAlgoNames), 2.9 to
// 2.13's the direct pattern; from 2.14 they are CollNetChain and
// CollNetDirect. So "CollNet" of a release before 2.14 means that one to
// the model of a later release, which knows no CollNet, and "^CollNet"
// both: the run excluded every CollNet it had. Other lists, and lists
// read under a release that has CollNet (at 2.8, which the model
// tabulates), are as given; the zero v is the newest release.
func AlgoListAt(v, at Version, algo string) string {
	if !v.orLatest().Before(splitCollNet) || at.legacy() {
		return algo
	}
	was := AlgoCollNetDirect
	if v.Before(Version{2, 9, 0}) {
		was = AlgoCollNetChain
	}
	neg := strings.HasPrefix(algo, "^")
	later := algoNames[was]
	if neg {
		later = algoNames[AlgoCollNetDirect] + "," + algoNames[AlgoCollNetChain]
	}
	var names []string
	for _, name := range splitNonEmpty(strings.TrimPrefix(algo, "^"), ",") {
		if strings.EqualFold(strings.TrimSpace(name), "CollNet") {
			name = later
		}
		names = append(names, name)
	}
	out := strings.Join(names, ",")
	if neg {
		out = "^" + out
	}
	return out
}

// splitCollNet is the release whose NCCL_ALGO names CollNetDirect and
// CollNetChain where earlier ones name CollNet (ncclAlgoStr, src/init.cc
// at v2.14.3-1 and v2.13.4-1).
var splitCollNet = Version{2, 14, 0}

// enableLists applies NCCL_ALGO and NCCL_PROTO to NCCL's defaults (every
// algorithm on, LL128 automatic).
func enableLists(v Version, algo, proto string) (enable, error) {
	var e enable
	for f := range e.proto {
		e.proto[f] = [NumProtocols]int8{1, 2, 1}
		for a := range e.algo[f] {
			e.algo[f][a] = 1
		}
	}
	if proto != "" {
		rows := make([][]int8, NumFuncs)
		for f := range rows {
			rows[f] = e.proto[f][:]
		}
		if err := parseList(v, proto, protoNames[:], rows); err != nil {
			return e, fmt.Errorf("nccl: NCCL_PROTO=%q: %w", proto, err)
		}
	}
	if algo != "" {
		rows := make([][]int8, NumFuncs)
		for f := range rows {
			rows[f] = e.algo[f][:]
		}
		names := algoNames[:]
		if v.legacy() {
			names = legacyAlgoNames[:]
		}
		if err := parseList(v, algo, names, rows); err != nil {
			return e, fmt.Errorf("nccl: NCCL_ALGO=%q: %w", algo, err)
		}
	}
	return e, nil
}

// parseList is NCCL's parseList (NCCL 2.30.7 src/graph/tuning.cc): a
// comma-separated list of names, all others off, or with a leading '^' the
// names off and all others on. From NCCL 2.24 lists are ';'-separated per
// function, "allreduce:tree,ring", and only the first may omit the prefix,
// which then applies to every function; unknown names are errors. Before
// 2.24 there are no prefixes and unknown names are ignored.
func parseList(v Version, s string, names []string, rows [][]int8) error {
	perFunc := v.from(24, 0)
	entries := []string{s}
	if perFunc {
		entries = splitNonEmpty(s, ";")
	}
	for i, entry := range entries {
		prefix, list, hasPrefix := strings.Cut(entry, ":")
		if !hasPrefix {
			list, prefix = prefix, ""
		} else if !perFunc {
			return fmt.Errorf("per-function lists (%q) need NCCL 2.24 or later", entry)
		}
		if prefix == "" && i > 0 {
			return fmt.Errorf("every entry but the first needs a function prefix")
		}
		var set, unset int8 = 1, 0
		if strings.HasPrefix(list, "^") {
			set, unset = 0, 1
			list = list[1:]
		}
		found := false
		for f := range rows {
			if prefix != "" && !strings.EqualFold(prefix, funcNames[f]) {
				continue
			}
			found = true
			for j := range rows[f] {
				rows[f][j] = unset
			}
			for _, name := range splitNonEmpty(list, ",") {
				j := indexFold(names, name)
				if j < 0 {
					if perFunc {
						return fmt.Errorf("unknown name %q (want %s)", name, strings.Join(names, ", "))
					}
					continue
				}
				rows[f][j] = set
			}
		}
		if !found {
			return fmt.Errorf("unknown function prefix %q", prefix)
		}
	}
	return nil
}

// splitNonEmpty splits s at sep and drops empty fields, as strtok does.
func splitNonEmpty(s, sep string) []string {
	var out []string
	for _, f := range strings.Split(s, sep) {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

func indexFold(names []string, s string) int {
	for i, n := range names {
		if strings.EqualFold(n, s) {
			return i
		}
	}
	return -1
}

// DefaultLL128 reports whether LL128 may run by default on a GPU of LLVM
// target isa ("" for NVIDIA's, whose rule is NCCL's) in a communicator of
// perNode GPUs a node: RCCL enables it on gfx950, and on gfx90a only in a
// communicator of 16 GCDs a node (ll128Auto gives why, and the nodes and
// paths each needs).
func DefaultLL128(isa string, perNode int) bool {
	return isa == "" || isa == "gfx90a" && perNode == gfx90aLL128PerNode || isa == "gfx950"
}

// gfx90aLL128PerNode is the GCDs a node of the only hosts RCCL enables LL128
// on by default on gfx90a: its topology's ll128Enabled, false unless
// RCCL_LL128_FORCE_ENABLE=1 (src/init.cc:1332 and :1506), is set by the
// Rome models of hosts of 16 GCDs and 8 NICs alone (rome_model_59 and
// rome_model_65, options "ll128Enabled=1", src/graph/rome_models.cc; ROCm/rccl
// 0cbce2a7, 2024-10), which match a communicator across nodes only: on one
// node NCCL's topology keeps no NIC (ncclTopoTrimSystem), and the models'
// 8 NICs match none. An HPE Cray EX235a node (Frontier, LUMI) has 8 GCDs.
const gfx90aLL128PerNode = 16

// ll128Auto is LL128's automatic enable rule for the graph of algorithm a
// (NCCL 2.30.7 src/graph/tuning.cc and its predecessors).
func (m *Model) ll128Auto(g *Graph, maxCC int, noC2C bool) bool {
	v, minCC := m.v, m.minCC
	if !DefaultLL128(m.isa, m.nRanks/m.nNodes) {
		// gfx942 runs LL128 only with RCCL_LL128_FORCE_ENABLE=1 (ROCm/rccl
		// pull request 1549, 2025-02: "not enabled by default"), and so
		// does every target RCCL does not list (UnknownISA among them), and
		// gfx90a but on hosts of 16 GCDs (gfx90aLL128PerNode).
		return false
	}
	switch m.isa {
	case "gfx90a":
		// Across nodes (gfx90aLL128PerNode), with xGMI's paths inside the
		// node and the NIC at most PXB away (ROCm/rccl src/graph/tuning.cc,
		// 2024-10, pull request 1054).
		return m.nNodes > 1 && g.TypeInter <= PathPXB && g.TypeIntra <= PathNVL
	case "gfx950":
		// Across nodes only (ROCm/rccl pull request 1731, 2025-06).
		return m.nNodes > 1 && g.TypeInter <= PathPXB
	}
	if v.legacy() {
		// NCCL 2.8: SM70 or SM80 only, NVLink inside the node, the NIC
		// at most PXB away (src/graph/tuning.cc at tag v2.8.4-1).
		return g.TypeInter <= PathPXB && g.TypeIntra <= PathNVL && minCC == maxCC && (minCC == 70 || minCC == 80)
	}
	var ok bool
	switch {
	case !v.from(27, 0):
		ok = g.TypeInter <= PathPXB || minCC >= 90 && g.TypeInter <= PathPXN
	case !noC2C && minCC >= 90:
		ok = g.TypeInter <= PathPXN
	default:
		ok = g.TypeInter <= PathPXB
	}
	ok = ok && g.TypeIntra <= PathNVB
	if v.from(30, 0) {
		ok = ok && (minCC == maxCC || minCC >= 90)
	} else {
		ok = ok && minCC == maxCC
	}
	if v.from(27, 0) {
		return ok && minCC >= 70
	}
	// Before 2.27 LL128 was enabled only on the architectures NCCL had
	// validated: SM70, SM80, SM90, and from 2.25 SM100 and SM120.
	switch minCC {
	case 70, 80, 90:
		return ok
	case 100, 120:
		return ok && v.from(25, 0)
	}
	return false
}

// mask applies the enable masks and NCCL's own algorithm disables, as the
// second half of ncclTopoTuneModel does, and records the per-call skips of
// enqueue.cc.
func (m *Model) mask(gs *Graphs, cfg *Config, maxCC int, e enable) {
	v, nNodes := m.v, m.nNodes
	for f := range Func(NumFuncs) {
		al := &e.algo[f]
		if nNodes == 1 {
			al[AlgoNVLSTree] = 0
		}
		if !cfg.CollNet {
			al[AlgoCollNetDirect], al[AlgoCollNetChain] = 0, 0
			if nNodes > 1 {
				al[AlgoNVLS] = 0
			}
			// Before 2.24 an NCCL_ALGO that left only CollNet fell back
			// to Ring and Tree.
			if !v.from(24, 0) && al[AlgoRing] == 0 && al[AlgoTree] == 0 && al[AlgoNVLS] == 0 && al[AlgoNVLSTree] == 0 {
				al[AlgoRing], al[AlgoTree] = 1, 1
			}
		}
		if !cfg.NVSwitch {
			al[AlgoCollNetDirect] = 0
		}
		if m.isa != "" && cfg.PAT != PATOn {
			// RCCL runs AMD GPUs: 2.21.5 has no PAT (src/include/nccl_common.h,
			// NCCL_NUM_ALGORITHMS 6), and later releases run it only where
			// NCCL_PAT_ENABLE=1 (ROCm/rccl pull request 1756, 2025-06;
			// ROCm/rocm-systems pull request 2869, 2026-01).
			al[AlgoPAT] = 0
		}
		for a := range Algo(NumAlgos) {
			for p := range Protocol(NumProtocols) {
				on := e.proto[f][p]
				if on == 2 && p == LL128 {
					on = 0
					if m.ll128Auto(gs.of(a), maxCC, cfg.NoLL128C2C) {
						on = 1
					}
				}
				if on == 0 {
					m.bw[f][a][p] = 0
					if a == AlgoRing && v.from(22, 0) {
						m.ringBackup[f][p] = 0
					}
				}
				// NCCL 2.18 never disables Ring outside AllReduce.
				if a == AlgoRing && f != FuncAllReduce && !v.from(19, 0) {
					continue
				}
				if al[a] == 0 {
					m.bw[f][a][p] = 0
				}
			}
		}
	}
	if v.from(19, 0) && !v.from(24, 0) {
		// A function left with nothing gets Ring back (ringbdw).
		for f := range Func(NumFuncs) {
			if m.bw[f] == ([NumAlgos][NumProtocols]float64{}) {
				m.bw[f][AlgoRing] = m.ringBackup[f]
			}
		}
	}
	ppn := m.nRanks / nNodes
	for f := range Func(NumFuncs) {
		// 2.19 to 2.26 run NVLS AllGather and ReduceScatter on one node only.
		if f == FuncAllGather || f == FuncReduceScatter {
			m.skip[f][AlgoNVLS] = nNodes > 1 && v.from(19, 0) && !v.from(27, 0)
		}
		// NVLS outside AllReduce serves at most NCCL_MAX_NVLS_ARITY (32)
		// local ranks; CollNet at most NCCL_MAX_DIRECT_ARITY+1 (8).
		if f != FuncAllReduce && ppn > 32 && v.from(26, 0) {
			m.skip[f][AlgoNVLS], m.skip[f][AlgoNVLSTree] = true, true
		}
		if ppn > 8 {
			m.skip[f][AlgoCollNetDirect], m.skip[f][AlgoCollNetChain] = true, true
		}
	}
}

// CheckEnable reports whether algo and proto are NCCL_ALGO and NCCL_PROTO
// values NCCL's newest release the model follows accepts: lists of names,
// exclusions such as "^LL128" or "^NVLS", and per-function lists
// ("allreduce:^nvls"); "" for either leaves it unset.
func CheckEnable(algo, proto string) error { return CheckEnableAt(Latest, algo, proto) }

// CheckEnableAt is CheckEnable under release v, as NCCL's model of v reads
// the two (New): before 2.24 an unknown name is skipped, and a
// per-function list is an error.
func CheckEnableAt(v Version, algo, proto string) error {
	_, err := enableLists(v, algo, proto)
	return err
}

// OnlyCollNet reports whether algo, NCCL_ALGO under release v, leaves f
// only CollNet's algorithms (CollNetDirect, CollNetChain) to run on. A
// call no enabled algorithm can run fails ("No algorithm/protocol
// available", NCCL 2.30.7 src/enqueue.cc), so a run measured under such a
// setting had CollNet set up. An unparsable algo leaves nothing known:
// false.
func OnlyCollNet(v Version, f Func, algo string) bool {
	if algo == "" || f < 0 || f >= NumFuncs {
		return false
	}
	// A list that leaves only CollNet names it, or excludes the others.
	if !strings.Contains(strings.ToLower(algo), "collnet") && !strings.Contains(algo, "^") {
		return false
	}
	e, err := enableLists(v, algo, "")
	if err != nil {
		return false
	}
	collNet := false
	for a, on := range e.algo[f] {
		switch {
		case on == 0:
		case Algo(a).CollNet():
			collNet = true
		default:
			return false
		}
	}
	return collNet
}
