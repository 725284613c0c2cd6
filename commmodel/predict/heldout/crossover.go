package heldout

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/predict"
)

// CrossNoise is the relative difference below which two times count as
// equal when crossovers are looked for: curves cross where one goes from
// more than CrossNoise faster to more than CrossNoise slower. It keeps the
// run-to-run scatter of nccl-tests (a few percent) and curves that sit on
// the same floor from counting as crossings.
const CrossNoise = 0.05

// A Crossover is a size where two ways of running a collective trade
// places, measured and predicted.
type Crossover struct {
	// A and B name what crosses: two tables that pin different
	// algorithms or protocols, or a default-tuner table and the choices
	// its tuner switches between ("Tree/LL -> Tree/LL128").
	A, B string
	// Measured and Predicted are the crossover sizes, bytes; 0 where
	// there is none (the other side found one without a partner).
	Measured, Predicted float64
}

// Ratio is Predicted/Measured, NaN when either is missing.
func (c Crossover) Ratio() float64 {
	if c.Measured == 0 || c.Predicted == 0 {
		return math.NaN()
	}
	return c.Predicted / c.Measured
}

// Within reports whether the prediction is within factor f of the
// measurement either way, or both sides agree that there is no crossover.
func (c Crossover) Within(f float64) bool {
	if c.Measured == 0 && c.Predicted == 0 {
		return true
	}
	r := c.Ratio()
	return r <= f && r >= 1/f
}

// crossTol is CrossNoise as a tolerance on ln(tA/tB), the curve whose
// sign changes (commmodel.SampledCrossings) are crossovers.
var crossTol = math.Log1p(CrossNoise)

// match pairs measured and predicted crossovers nearest in log size, in
// order; those left over get a zero partner.
func match(a, b string, measured, predicted []float64) []Crossover {
	var out []Crossover
	used := make([]bool, len(predicted))
	for _, m := range measured {
		best := -1
		for j, p := range predicted {
			if !used[j] && (best < 0 || math.Abs(math.Log(p/m)) < math.Abs(math.Log(predicted[best]/m))) {
				best = j
			}
		}
		c := Crossover{A: a, B: b, Measured: m}
		if best >= 0 {
			used[best] = true
			c.Predicted = predicted[best]
		}
		out = append(out, c)
	}
	for j, p := range predicted {
		if !used[j] {
			out = append(out, Crossover{A: a, B: b, Predicted: p})
		}
	}
	if len(out) == 0 {
		out = append(out, Crossover{A: a, B: b})
	}
	return out
}

// gridPerDoubling is the density of the size grid on which predicted curves
// are compared.
const gridPerDoubling = 8

// PinCrossovers compares, for every two tables of the same collective and
// shape that pin different algorithms or protocols, where their measured
// curves cross (interpolated in log size over the sizes both hold) with
// where the model calibrated on the other tables predicts them to cross
// (over the same range). Neither table of a pair is in the calibration
// that predicts it; a pair with fewer than two other tables is left out.
// The measured log ratio is first smoothed by a running median of three,
// so that one noisy size does not make a crossing.
func PinCrossovers(h predict.Hardware, tables []predict.Table, s *predict.Settings) ([]Crossover, error) {
	var set predict.Settings
	if s != nil {
		set = *s
	}
	set.NoIntervals = true
	var out []Crossover
	for i := range tables {
		for j := i + 1; j < len(tables); j++ {
			a, b := &tables[i], &tables[j]
			if a.Collective != b.Collective || a.Nodes != b.Nodes || a.PerNode != b.PerNode ||
				a.Algo == b.Algo && a.Proto == b.Proto {
				continue
			}
			sizes, d := commonLogRatio(a, b)
			if len(sizes) < 2 {
				continue
			}
			var rest []predict.Table
			for k := range tables {
				if k != i && k != j {
					rest = append(rest, tables[k])
				}
			}
			if len(rest) < 2 {
				continue // nothing to calibrate on
			}
			m, err := predict.Calibrate(h, rest, &set)
			if err != nil {
				return nil, fmt.Errorf("predict: without %s and %s: %w", a.Name, b.Name, err)
			}
			grid := commmodel.LogSizes(sizes[0], sizes[len(sizes)-1], 1+int(gridPerDoubling*math.Log2(sizes[len(sizes)-1]/sizes[0])))
			pa, err := m.Predict(a.Query(), grid)
			if err != nil {
				return nil, err
			}
			pb, err := m.Predict(b.Query(), grid)
			if err != nil {
				return nil, err
			}
			dp := make([]float64, len(grid))
			for k := range grid {
				dp[k] = math.Log(pa[k].Time / pb[k].Time)
			}
			out = append(out, match(a.Name, b.Name, commmodel.SampledCrossings(sizes, median3(d), crossTol), commmodel.SampledCrossings(grid, dp, crossTol))...)
		}
	}
	return out, nil
}

// median3 is the running median of three of d, ends kept.
func median3(d []float64) []float64 {
	out := slices.Clone(d)
	for i := 1; i+1 < len(d); i++ {
		out[i] = fit.Median(d[i-1 : i+2])
	}
	return out
}

// commonLogRatio returns the sizes a and b both hold, increasing, and
// ln(tA/tB) at each.
func commonLogRatio(a, b *predict.Table) (sizes, d []float64) {
	tb := map[float64]float64{}
	for _, p := range b.Points {
		tb[p.Size] = p.Time
	}
	for _, p := range a.Points {
		if t, ok := tb[p.Size]; ok {
			sizes = append(sizes, p.Size)
			d = append(d, math.Log(p.Time/t))
		}
	}
	order := make([]int, len(sizes))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(x, y int) int { return int(math.Copysign(1, sizes[x]-sizes[y])) })
	s2, d2 := make([]float64, len(sizes)), make([]float64, len(sizes))
	for k, o := range order {
		s2[k], d2[k] = sizes[o], d[o]
	}
	return s2, d2
}

// TunerSwitches compares, for every table that left the choice to NCCL's
// tuner, each size where the tuner's choice changes over the table's sizes
// (the geometric mean of the two sizes around the change, as fit's
// regime boundaries are placed) with the nearest break between the
// table's measured regimes (fit.Piecewise with its defaults). A switch
// without a regime break has Measured 0. The switches are NCCL's tuner
// model's on h; no calibration enters them.
func TunerSwitches(h predict.Hardware, tables []predict.Table) ([]Crossover, error) {
	var out []Crossover
	m := predict.Uncalibrated(h)
	for i := range tables {
		t := &tables[i]
		if t.Algo != "" || t.Proto != "" || len(t.Points) < 6 {
			continue
		}
		pts := slices.Clone(t.Points)
		slices.SortFunc(pts, func(x, y predict.Point) int { return cmp.Compare(x.Size, y.Size) })
		sizes := make([]float64, len(pts))
		for k, p := range pts {
			sizes[k] = p.Size
		}
		preds, err := m.Predict(t.Query(), sizes)
		if err != nil {
			return nil, fmt.Errorf("predict: %s: %w", t.Name, err)
		}
		type sw struct {
			at   float64
			name string
		}
		var switches []sw
		for k := 1; k < len(preds); k++ {
			prev, cur := choiceName(preds[k-1]), choiceName(preds[k])
			if cur != prev {
				switches = append(switches, sw{math.Sqrt(sizes[k-1] * sizes[k]), prev + " -> " + cur})
			}
		}
		if len(switches) == 0 {
			continue
		}
		res, err := fit.Piecewise(t.Samples(), nil)
		if err != nil {
			return nil, fmt.Errorf("predict: %s: %w", t.Name, err)
		}
		breaks := res.Boundaries()
		for _, s := range switches {
			c := Crossover{A: t.Name, B: s.name, Predicted: s.at}
			for _, b := range breaks {
				if c.Measured == 0 || math.Abs(math.Log(b/s.at)) < math.Abs(math.Log(c.Measured/s.at)) {
					c.Measured = b
				}
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// choiceName names what NCCL runs at a prediction's size ("Tree/LL128").
func choiceName(p predict.Prediction) string { return p.Algorithm + "/" + p.Protocol }
