package predict

import (
	"fmt"
	"sync"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// reference is NCCL's tuning model of one run, split so that the latency of
// every (function, algorithm, protocol) is a sum of parts the calibration
// scales:
//
//	lat = lat0 + base + intra + inter + over
//
// where base, intra and inter are NCCL's latency with only its base-latency
// table, only its NVLink (or PCI) per-step table, or only its network
// per-step table (the others zero, no network overhead), lat0 what is left
// with every table zero (PAT's per-rank term, CollNet's arity term), and
// over the rest of NCCL's full latency (the network overhead that bounds an
// intra-node step from below across nodes). NCCL's latency is linear in the
// three tables once the overhead is taken out, so the parts add up to it
// (TestReferenceSplit).
type reference struct {
	full *nccl.Model
	// parts[k] is the model with only table k (0 base, 1 intra, 2 inter),
	// parts[3] with none.
	parts [4]*nccl.Model
	// collNet returns, for a pinned run on a machine without CollNet, NCCL's
	// model of it with CollNet and its NCCL_ALGO, which tells a pin that
	// only CollNet runs; it is built once, where the tuner first finds
	// nothing to run (tuned).
	collNet func() (*nccl.Model, string)
}

// newReference builds NCCL's model of r on h, RCCL's where rccl is set
// (references.runsRCCL): an AMD GPU the catalog lacks, whose ISA NCCL's
// model does not have to leave PAT out by, runs without PAT as RCCL does
// by default (nccl's enable rules).
func newReference(h *Hardware, r *run, rccl bool) (*reference, error) {
	cfg, err := referenceConfig(h, r, rccl)
	if err != nil {
		return nil, err
	}
	ref := &reference{}
	if ref.full, err = nccl.New(cfg); err != nil {
		return nil, err
	}
	if !h.CollNet && r.algo != "" {
		hc := *h
		hc.CollNet = true
		ref.collNet = sync.OnceValues(func() (*nccl.Model, string) {
			c, err := hc.config(r, rccl)
			if err != nil || !c.CollNet {
				return nil, ""
			}
			c.Algo, c.Proto, c.PAT = cfg.Algo, cfg.Proto, cfg.PAT
			m, err := nccl.New(c)
			if err != nil {
				return nil, ""
			}
			return m, c.Algo
		})
	}
	zero := 0.0
	for k := range ref.parts {
		c := nccl.DefaultConstants(cfg.Version)
		if k != 0 {
			c.BaseLatency = [nccl.NumAlgos][nccl.NumProtocols]float64{}
		}
		for hw := range nccl.HW(nccl.NumHW) {
			keep := k == 1 && hw != nccl.HWNet || k == 2 && hw == nccl.HWNet
			if !keep {
				c.HWLatency[hw] = [nccl.NumAlgos][nccl.NumProtocols]float64{}
			}
		}
		pc := cfg
		pc.Constants, pc.NetOverhead = &c, &zero
		if ref.parts[k], err = nccl.New(pc); err != nil {
			return nil, err
		}
	}
	return ref, nil
}

// referenceConfig is NCCL's configuration of r on h, with r's pins, as
// newReference models it.
func referenceConfig(h *Hardware, r *run, rccl bool) (nccl.Config, error) {
	cfg, err := h.config(r, rccl)
	if err != nil {
		return cfg, err
	}
	cfg.Algo, cfg.Proto = r.algo, r.proto
	if rccl && cfg.PAT != nccl.PATOn {
		cfg.PAT = nccl.PATOff
	}
	cfg.ISA = isaOf(h, rccl)
	return cfg, nil
}

// isaOf is the LLVM target whose rules the model of h runs: its GPU's,
// or nccl.UnknownISA for an AMD GPU the catalog lacks that runs RCCL
// (rccl): RCCL's rules, not NVIDIA's.
func isaOf(h *Hardware, rccl bool) string {
	if h.GPU.ISA == "" && rccl {
		return nccl.UnknownISA
	}
	return h.GPU.ISA
}

// latency returns the parts of NCCL's latency of (f, a, p), seconds: the
// terms the base, intra-node and network factors multiply.
func (ref *reference) latency(f nccl.Func, a nccl.Algo, p nccl.Protocol) (base, intra, inter float64) {
	l0 := ref.parts[3].Latency(f, a, p)
	base = ref.parts[0].Latency(f, a, p) // with lat0
	intra = ref.parts[1].Latency(f, a, p) - l0
	inter = ref.parts[2].Latency(f, a, p) - l0
	full := ref.full.Latency(f, a, p)
	if over := full - base - intra - inter; over > 1e-9*full {
		inter += over // not rounding: the network overhead
	}
	return base, intra, inter
}

// choice is what NCCL ran for one call: its algorithm and protocol.
type choice struct {
	algo  nccl.Algo
	proto nccl.Protocol
	p2p   bool // grouped sends (AllToAll, SendRecv), outside the tuner
}

// String is "Ring/LL128", or "P2P/Simple" for grouped sends.
func (c choice) String() string {
	if c.p2p {
		return "P2P/" + nccl.ProtocolName(c.proto)
	}
	return c.algo.String() + "/" + nccl.ProtocolName(c.proto)
}

// p2pLLThreshold is the largest per-peer message NCCL sends with LL
// (NCCL_P2P_LL_THRESHOLD, 16 KiB by default, NCCL 2.30.7 src/enqueue.cc).
const p2pLLThreshold = 16 << 10

// choose returns what NCCL runs for a call of size bytes: the tuner's
// choice (honouring the pins), or for grouped sends (p2pAlgorithm)
// point-to-point sends, with LL for per-peer messages up to
// p2pLLThreshold: S/n for AllToAll, S for SendRecv.
func (ref *reference) choose(c commmodel.Collective, ranks int, size float64) (choice, error) {
	if a := p2pAlgorithm(c); a != nil {
		ch := choice{p2p: true, algo: nccl.AlgoRing, proto: nccl.Simple}
		if cost := a.Cost(ranks, size); cost.Bytes/float64(cost.Messages) <= p2pLLThreshold {
			ch.proto = nccl.LL
		}
		return ch, nil
	}
	f, err := nccl.FuncOf(c)
	if err != nil {
		return choice{}, err
	}
	e, err := ref.tuned(f, size)
	if err != nil {
		return choice{}, err
	}
	return choice{algo: e.Algo, proto: e.Proto}, nil
}

// tuned is NCCL's tuner's choice for f at size on ref's machine
// (nccl.Model.Choose), with an ErrPin that names -hw collnet=true where
// the pins leave only CollNet, which the machine lacks, and an ErrQuery
// where they leave nothing else.
func (ref *reference) tuned(f nccl.Func, size float64) (nccl.Estimate, error) {
	e, err := ref.full.Choose(f, size)
	if err == nil {
		return e, nil
	}
	if algo, ok := ref.collNetOnly(f, size); ok {
		return e, fmt.Errorf("%w: NCCL_ALGO=%q leaves only CollNet, which NCCL runs where the network's switches reduce (InfiniBand SHARP, with NCCL_COLLNET_ENABLE=1), and the machine has no CollNet (collnet false): pin another algorithm, or describe the machine with -hw collnet=true if its network reduces",
			ErrPin, algo)
	}
	return e, refusedQuery{fmt.Errorf("predict: %w", err)} // the pins leave nothing NCCL runs
}

// collNetOnly reports that the pins, algo, leave f at size nothing to run
// on ref's machine but would run with CollNet.
func (ref *reference) collNetOnly(f nccl.Func, size float64) (algo string, ok bool) {
	if ref.collNet == nil {
		return "", false
	}
	m, algo := ref.collNet()
	if m == nil {
		return "", false
	}
	e, err := m.Choose(f, size)
	return algo, err == nil && e.Algo.CollNet()
}

// pinned reports whether an (algorithm, protocol) pin is available to the
// tuner of ref, for a clear error when a pin cannot run.
func (ref *reference) available(c commmodel.Collective) bool {
	if grouped(c) {
		return true
	}
	f, err := nccl.FuncOf(c)
	if err != nil {
		return false
	}
	for a := range nccl.Algo(nccl.NumAlgos) {
		for p := range nccl.Protocol(nccl.NumProtocols) {
			if ref.full.Available(f, a, p) {
				return true
			}
		}
	}
	return false
}
