package nbplot

import (
	"math"

	"gonum.org/v1/plot"
)

// logTicks marks a logarithmic axis in a unit. Bytes get ticks at powers of
// two (labelled every 2^k, k chosen so that at most maxLabels are labelled);
// other units get decades, with 2 and 5 labelled too when the range spans
// less than two decades.
type logTicks struct{ unit Unit }

const maxLabels = 8

func (t logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max >= min) || math.IsInf(max, 0) {
		return nil
	}
	if t.unit == Bytes {
		return pow2Ticks(min, max, t.unit)
	}
	return decadeTicks(min, max, t.unit)
}

func pow2Ticks(min, max float64, u Unit) []plot.Tick {
	lo, hi := int(math.Floor(math.Log2(min))), int(math.Ceil(math.Log2(max)))
	step := 1
	for _, s := range []int{1, 2, 5, 10} {
		step = s
		if (hi-lo)/s+1 <= maxLabels {
			break
		}
	}
	var ts []plot.Tick
	for e := lo; e <= hi; e++ {
		v := math.Ldexp(1, e)
		tk := plot.Tick{Value: v}
		if e%step == 0 {
			tk.Label = u.Format(v)
		}
		ts = append(ts, tk)
	}
	return ts
}

func decadeTicks(min, max float64, u Unit) []plot.Tick {
	lo, hi := int(math.Floor(math.Log10(min))), int(math.Ceil(math.Log10(max)))
	few := hi-lo <= 3
	step := 1
	for (hi-lo)/step+1 > maxLabels {
		step++
	}
	var ts []plot.Tick
	for e := lo; e <= hi; e++ {
		base := math.Pow(10, float64(e))
		for m := 1; m <= 9; m++ {
			v := float64(m) * base
			tk := plot.Tick{Value: v}
			if (m == 1 && e%step == 0) || (few && (m == 2 || m == 5)) {
				tk.Label = u.Format(v)
			}
			ts = append(ts, tk)
		}
	}
	return ts
}

// linearTicks is plot.DefaultTicks with labels in the unit.
type linearTicks struct{ unit Unit }

func (t linearTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = t.unit.Format(ts[i].Value)
		}
	}
	return ts
}

// intTicks labels every integer value given (rank counts on a regime map).
func intTicks(vs []float64) plot.ConstantTicks {
	ts := make(plot.ConstantTicks, len(vs))
	for i, v := range vs {
		ts[i] = plot.Tick{Value: v, Label: Plain.Format(v)}
	}
	return ts
}
