package nccl

import (
	"fmt"
	"math"

	"github.com/inframethod/commlab/units"
)

// NCCL's units, converted here and nowhere else: its latencies are in
// microseconds and its bandwidths in GB/s (1e9 B/s), so bytes / (1000 · bw)
// is a time in us.
const (
	usec = 1e-6 // seconds per us
	gbps = 1e9  // B/s per GB/s
)

// Estimate is NCCL's prediction for one call of nBytes (ncclTopoGetAlgoTime,
// NCCL 2.30.7 src/graph/tuning.cc), in SI units:
//
//	Time = Latency + nBytes / Bandwidth
//
// Latency and Bandwidth are the table's values after the per-size
// corrections: the Tree correction factor and the Ring/Simple plateau.
type Estimate struct {
	Algo  Algo
	Proto Protocol
	// Latency in seconds.
	Latency float64
	// Bandwidth is the algorithm bandwidth over nBytes, B/s.
	Bandwidth float64
	// Time in seconds.
	Time float64
}

// Estimate returns NCCL's predicted latency, bandwidth and time of one call
// of (f, a, p) moving nBytes as NCCL counts them (NBytes), and false if the
// tuner cannot pick (f, a, p) or nBytes is negative. The call is alone in
// its group (numPipeOps = 1). Like every size in commlab, nBytes is a
// float64 number of bytes; NCCL counts whole bytes, and a size between two
// counts as the lower (wholeBytes).
func (m *Model) Estimate(f Func, a Algo, p Protocol, nBytes float64) (Estimate, bool) {
	n, ok := wholeBytes(nBytes)
	if !m.Available(f, a, p) || !ok {
		return Estimate{}, false
	}
	if m.nRanks == 1 {
		return Estimate{Algo: a, Proto: p, Bandwidth: math.Inf(1)}, true
	}
	lat, bw := m.corrected(f, a, p, n, m.bw[f][a][p])
	return estimate(a, p, lat, bw, n), true
}

// wholeBytes is nBytes as NCCL's size_t holds it: the whole number of
// bytes at or below nBytes, and false for a negative, NaN or infinite size.
func wholeBytes(nBytes float64) (int64, bool) {
	if !(nBytes >= 0 && nBytes < units.MaxSize) {
		return 0, false
	}
	return int64(nBytes), true
}

// Time is Estimate's time in seconds.
func (m *Model) Time(f Func, a Algo, p Protocol, nBytes float64) (float64, bool) {
	e, ok := m.Estimate(f, a, p, nBytes)
	return e.Time, ok
}

func estimate(a Algo, p Protocol, lat, bw float64, nBytes int64) Estimate {
	return Estimate{
		Algo:      a,
		Proto:     p,
		Latency:   lat * usec,
		Bandwidth: bw * gbps,
		Time:      (lat + float64(nBytes)/(1000*bw)) * usec,
	}
}

// corrected applies ncclTopoGetAlgoTime's per-size rules to the table's
// latency and bandwidth bw, in NCCL's units.
func (m *Model) corrected(f Func, a Algo, p Protocol, nBytes int64, bw float64) (lat, bwOut float64) {
	v := m.v
	lat = m.lat[f][a][p]
	logSize := log2i(v, nBytes>>6)
	if a == AlgoTree && (f == FuncAllReduce || !v.from(23, 0)) && logSize >= 0 && logSize < 23 {
		bw *= m.c.TreeCorrection[p][logSize]
	}
	if a == AlgoNVLSTree && f == FuncAllReduce && v.from(29, 0) && logSize >= 0 && logSize < 24 &&
		m.minCC >= 100 && m.cpu.Arch == X86 {
		bw *= m.c.TreeCorrection[p][logSize]
	}
	plateau := nBytes/int64(m.ch*m.nRanks) >= 64
	if v.legacy() {
		plateau = float64(nBytes) >= float64(m.nRanks)/16*65536
	}
	if a == AlgoRing && p == Simple && m.nNodes > 1 && f == FuncAllReduce && plateau {
		// Plateau effect of the ring.
		if m.minCC < 80 {
			lat *= m.c.RingPlateau[0]
		} else {
			lat *= m.c.RingPlateau[1]
		}
	}
	return lat, bw
}

// Choose returns the algorithm and protocol NCCL's tuner picks for one call
// of f moving nBytes, with its estimate: the strict minimum of the
// available times, scanning algorithms and then protocols in NCCL's order,
// so ties go to the lower index (topoGetAlgoInfo, NCCL 2.30.7
// src/enqueue.cc). NCCL 2.19 to 2.23 fall back on Ring with its bandwidth
// before NCCL_ALGO/NCCL_PROTO when nothing else is available. It returns an
// error, as NCCL does, when no combination is available.
func (m *Model) Choose(f Func, nBytes float64) (Estimate, error) {
	n, ok := wholeBytes(nBytes)
	if f < 0 || f >= NumFuncs || !ok {
		return Estimate{}, fmt.Errorf("nccl: no choice for function %d and %g bytes", int(f), nBytes)
	}
	if m.nRanks == 1 {
		return Estimate{Algo: AlgoRing, Proto: Simple, Bandwidth: math.Inf(1)}, nil
	}
	best, found := Estimate{}, false
	for a := range Algo(NumAlgos) {
		for p := range Protocol(NumProtocols) {
			if e, ok := m.Estimate(f, a, p, nBytes); ok && (!found || e.Time < best.Time) {
				best, found = e, true
			}
		}
	}
	if !found && m.v.from(19, 0) && !m.v.from(24, 0) {
		for p := range Protocol(NumProtocols) {
			bw := m.ringBackup[f][p]
			if bw <= 0 {
				continue
			}
			lat, bw := m.corrected(f, AlgoRing, p, n, bw)
			if e := estimate(AlgoRing, p, lat, bw, n); !found || e.Time < best.Time {
				best, found = e, true
			}
		}
	}
	if !found && (m.algoEnv != "" || m.protoEnv != "") {
		return Estimate{}, fmt.Errorf("nccl: no algorithm/protocol available for %v: NCCL_ALGO=%q and NCCL_PROTO=%q leave none NCCL runs on %d ranks of %d node(s) "+
			"(PAT runs AllGather and ReduceScatter on one GPU a node; NVLS and NVLSTree need an NVSwitch with NVLS; CollNet a network plugin's collectives; "+
			"Broadcast and Reduce run Ring alone; RCCL leaves Tree/Simple out on one node of MI300X or MI325X)", f, m.algoEnv, m.protoEnv, m.nRanks, m.nNodes)
	}
	if !found {
		return Estimate{}, fmt.Errorf("nccl: no algorithm/protocol available for %v", f)
	}
	return best, nil
}
