package predict

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
)

// ncclOwn reports that table t ran NCCL's own choices: no algorithm or
// protocol pinned but the exclusions ex every table ran with
// (TunerExclusions, under which the rules choose too), and no tuner
// plugin, whose choices are the plugin's (aws-ofi-nccl's on p5), not
// NCCL's. Only such a table measures NCCL's own choice (measuredAt), and
// only its points say how far the model misses the protocol NCCL ran
// (slowNear, missNear): the model prices a tuner plugin's table with
// NCCL's choices, which the plugin replaced.
func ncclOwn(t *Table, ex Env) bool {
	return strings.EqualFold(t.Algo, ex.Algo) && strings.EqualFold(t.Proto, ex.Proto) && !t.Evidence.TunerPlugin.Known()
}

// slowNear returns how slow the tables ran protocol p near size bytes for
// q against the model (nearMiss), where above 1 (the model faster than the
// machine with p there), and 1 otherwise or without such points (m.own,
// misfits). A gain the model expects of p there is a gain over a time the
// tables say is that much too fast (AWS's p5 2 x 8 AllReduce, whose Tree/LL
// rows of 64 and 128 KiB took 135.1 and 108.9 us against 71.3 and 73.2
// predicted, where a rule ran Tree/LL up to 334 KB).
func (m *Machine) slowNear(q Query, p string, size float64) float64 {
	same, other := m.nearMiss(q, p, size)
	if same > 0 {
		return max(same, 1)
	}
	return max(other, 1)
}

// beyondRan returns, where size lies above every size at which tables of
// q's collective and shape ran ours's algorithm and protocol, what those
// tables' own times give the choice at size: the line through the largest
// of those sizes, s1, and the largest at most half of it, s0 (the time a
// byte cost over the top doubling measured, carried on), and the half-width
// in logs of the band about it that the repeat scatter of the two times
// (repeatSpread) makes at size, carried k = (size-s1)/(s1-s0) times the
// line's length beyond s1. It returns 0 within the sizes measured, where s0
// lies more than two doublings below s1, or where the line does not rise.
// A protocol's efficiency fitted at the sizes it ran is no evidence that
// it costs less a byte beyond them: Together's H100 node ran Ring/LL128 up
// to 16 MiB (AllGather at 8 and 16 MiB in 46.67 and 68.98 µs out of place,
// 46.39 and 68.73 in place), and rules took it up to 128 MiB, 187 µs at 64
// MiB by an LL128 efficiency of 1.06 fitted at mid sizes, over NCCL's
// Ring/Simple measured at 207 µs, where the line gives 202 µs (red team 42).
func (m *Machine) beyondRan(q Query, ours Prediction, size float64) (floor, spread float64) {
	pr, err := commmodel.ParseProtocol(ours.Protocol)
	if err != nil {
		return 0, 0
	}
	// The fastest time each size ran at, of the tables of q's collective
	// and shape that ran ours's algorithm and protocol there.
	fastest := map[float64]float64{}
	for _, pt := range m.own[pr] {
		if pt.algo != ours.Algorithm || pt.collective != q.Collective || pt.ranks != q.Ranks || pt.perNode != q.PerNode {
			continue
		}
		if t, ok := fastest[pt.size]; !ok || pt.time < t {
			fastest[pt.size] = pt.time
		}
	}
	sizes := slices.Sorted(maps.Keys(fastest))
	if len(sizes) < 2 || size <= sizes[len(sizes)-1] {
		return 0, 0
	}
	s1 := sizes[len(sizes)-1]
	k := slices.IndexFunc(sizes, func(s float64) bool { return s > s1/2 }) - 1
	if k < 0 || !near([2]float64{sizes[k], sizes[k]}, s1) {
		return 0, 0
	}
	s0 := sizes[k]
	slope := (fastest[s1] - fastest[s0]) / (s1 - s0)
	if !(slope > 0) {
		return 0, 0
	}
	lever := (size - s1) / (s1 - s0)
	return fastest[s1] + (size-s1)*slope, repeatSpread * math.Hypot(1+lever, lever)
}

// missNear returns how the tables ran protocol p near size bytes for q
// against the model (nearMiss), below 1 too (the machine faster than the
// model), and 1 without such points. NCCL's own choice is taken so
// (beatsNCCL), against the model's choice on protocol ours: as fast as the
// tables ran its protocol there, not only as slow (AWS's p5 2 x 8 AllReduce
// ran NVLSTree/Simple at 1 MiB in 122 us against 271 predicted, and a rule
// on 4 x 8, which no table ran, claimed Tree/LL 3.1 times faster than
// NCCL's 513 us). It is taken as slow only where tables of q's collective
// and shape ran both p and ours near the size. How the model misses NCCL's
// protocol on another collective or shape is no evidence that NCCL runs it
// that much slower on q's (OCI's GB200 tables of 2 x 4, one rack's NVLS, and
// 32 x 4, two racks' NVLSTree, ran Simple 1.43 times the model near 2 MiB,
// and a rule on 24 x 4, which no table ran, took Tree/LL from 1.48 to
// 2.97 MB, 0.76x-1.14x against the model's time for NCCL's own); and where
// q's tables ran NCCL's protocol alone, its slowness may be the shape's (its
// network), which the model's choice would meet too (cluster01's 10 x 8
// AllReduce ran NVLSTree/Simple 1.5 to 1.7 times the model at 16 and 32
// MiB, and Tree/LL128, which no table of 10 x 8 ran, took a rule there).
func (m *Machine) missNear(q Query, p, ours string, size float64) float64 {
	same, other := m.nearMiss(q, p, size)
	if same == 0 {
		return min(other, 1)
	}
	if measured, _ := m.nearMiss(q, ours, size); measured == 0 {
		return min(same, 1)
	}
	return same
}

// nearMiss returns the median of measured/predicted over the calibration
// points of tables of NCCL's own choices (ncclOwn) the model says ran
// protocol p within two doublings of size bytes: same over those of q's
// collective and shape (its ranks and GPUs a node), 0 without such points,
// and other over the rest, 1 without any.
func (m *Machine) nearMiss(q Query, p string, size float64) (same, other float64) {
	pr, err := commmodel.ParseProtocol(p)
	if err != nil {
		return 0, 1
	}
	var s, o []float64
	for _, pt := range m.own[pr] {
		if !pt.ncclOwn || !near([2]float64{pt.size, pt.size}, size) {
			continue
		}
		if pt.collective == q.Collective && pt.ranks == q.Ranks && pt.perNode == q.PerNode {
			s = append(s, pt.ratio)
		} else {
			o = append(o, pt.ratio)
		}
	}
	same, other = 0, 1
	if len(s) > 0 {
		same = fit.Median(s)
	}
	if len(o) > 0 {
		other = fit.Median(o)
	}
	return same, other
}

// missesNear returns the calibration points within two doublings of size
// bytes, of every collective and shape and every protocol (m.own), and
// how many of them lie outside their 80% intervals. Where more than half
// do (TunerChoice.Misses), the model does not follow its tables near the
// size and its interval says nothing of a gain there: the NCCL INFO
// H800's Broadcast on 1 x 8 runs flat at 43 µs from 512 KiB to 4 MiB, 4 of
// its 5 points near 512 KiB outside their intervals, where a Ring/LL rule
// over NCCL's Ring/Simple would have claimed 1.37x.
func (m *Machine) missesNear(size float64) (n, outside int) {
	for _, pts := range m.own {
		for _, pt := range pts {
			if !near([2]float64{pt.size, pt.size}, size) {
				continue
			}
			n++
			if !pt.inside {
				outside++
			}
		}
	}
	return n, outside
}

// beyondNodes reports that q runs on a node count outside the calibration
// tables' (more nodes than any, or fewer): there the tables measured
// neither NCCL's own choice nor the model's, and no rule replaces NCCL's
// (beatsNCCL). OCI's GB200 tables of 2 x 4 (one rack, NVLS) and 32 x 4
// (two racks, NVLSTree) gave a rule on 64 x 4, four racks, Tree/LL from
// 1.48 to 2.97 MB against NCCL's NVLSTree/Simple, "1.33x faster
// (0.76x-1.36x)" against the model's time for NCCL's own; AWS's p5 tables
// of 2 x 8 one on 4 x 8, Tree/LL from 741 KB to 1.48 MB, 3.13x faster
// (1.46x-4.28x). Without tables the model is NCCL's own, and nothing is
// beyond.
func (m *Machine) beyondNodes(q Query) bool {
	if q.PerNode <= 0 {
		return false
	}
	_, _, beyond := m.NodesBeyond(Comm{q.Ranks / q.PerNode, q.PerNode})
	return beyond
}

// NodesBeyond returns the least and the most nodes of the calibration
// tables, and whether communicator c runs on a node count outside them,
// where every tuner rule for it keeps NCCL's own choice (beyondNodes).
func (m *Machine) NodesBeyond(c Comm) (lo, hi int, beyond bool) {
	for i := range m.tables {
		n := m.tables[i].Nodes
		if lo == 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	return lo, hi, hi > 0 && (c.Nodes > hi || c.Nodes < lo)
}
