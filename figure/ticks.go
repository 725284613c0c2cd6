package figure

import (
	"math"
	"slices"

	"github.com/inframethod/commlab/units"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Unit is the physical unit of an axis; it decides how tick values are
// labelled, through commmodel's formatters.
type Unit int

const (
	Plain          Unit = iota // a pure number, such as a rank count
	Bytes                      // B, labelled with binary prefixes: KiB, MiB, GiB
	Seconds                    // s, labelled ns, µs, ms or s
	BytesPerSecond             // B/s, labelled with decimal prefixes: MB/s, GB/s (1e9 B/s)
	Ratio                      // a dimensionless ratio, labelled "1.5x"
)

// Symbol returns the unit's symbol for an axis label ("B", "s", "B/s"); empty for Plain.
func (u Unit) Symbol() string {
	switch u {
	case Bytes:
		return "B"
	case Seconds:
		return "s"
	case BytesPerSecond:
		return "B/s"
	case Ratio:
		return "x"
	}
	return ""
}

// Format writes v, in the unit's SI base, as commmodel's formatter of its
// kind does (three significant digits): Bytes.Format(65536) is "64 KiB",
// Seconds.Format(2.8e-5) "28 µs", Ratio.Format(7.5) "7.5x".
func (u Unit) Format(v float64) string {
	switch u {
	case Bytes:
		return units.FormatSize(v)
	case Seconds:
		return units.FormatDuration(v)
	case BytesPerSecond:
		return units.FormatBandwidth(v)
	case Ratio:
		return units.FormatNumber(v) + "x"
	}
	return units.FormatNumber(v)
}

// logTicks marks a logarithmic axis in a unit. Bytes get ticks at powers of
// two (labelled every 2^k, k chosen so that at most labels are labelled);
// other units get decades, with 2 and 5 labelled too when the range spans
// at most three decades, and 3 and 7 as well within about one.
type logTicks struct {
	unit   Unit
	labels int // the most labelled decades or powers of two; 0 means maxLabels
}

// maxLabels is how many labels an axis of the default size holds.
const maxLabels = 8

// labelsFor is the label budget of an axis length long, in proportion to
// maxLabels on full (DefaultWidth or DefaultHeight), so that a narrow figure
// (a 3.5 in column) does not crowd its labels; at least 3.
func labelsFor(length, full vg.Length) int {
	if length <= 0 || length >= full {
		return maxLabels
	}
	return max(3, int(float64(maxLabels)*float64(length/full)))
}

func (t logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max >= min) || math.IsInf(max, 0) {
		return nil
	}
	labels := t.labels
	if labels <= 0 {
		labels = maxLabels
	}
	ts := decadeTicks(min, max, t.unit, labels)
	if t.unit == Bytes {
		ts = pow2Ticks(min, max, t.unit, labels)
	}
	// Keep the ticks inside the range (with rounding slack).
	in := ts[:0]
	for _, tk := range ts {
		if tk.Value >= min*(1-1e-9) && tk.Value <= max*(1+1e-9) {
			in = append(in, tk)
		}
	}
	if !slices.ContainsFunc(in, func(tk plot.Tick) bool { return tk.Label != "" }) {
		// A range too narrow for any labelled tick: label its ends.
		in = append(in, plot.Tick{Value: min, Label: t.unit.Format(min)}, plot.Tick{Value: max, Label: t.unit.Format(max)})
	}
	return in
}

func pow2Ticks(min, max float64, u Unit, labels int) []plot.Tick {
	lo, hi := int(math.Floor(math.Log2(min))), int(math.Ceil(math.Log2(max)))
	step := 1
	for _, s := range []int{1, 2, 5, 10} {
		step = s
		if (hi-lo)/s+1 <= labels {
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

func decadeTicks(min, max float64, u Unit, labels int) []plot.Tick {
	lo, hi := int(math.Floor(math.Log10(min))), int(math.Ceil(math.Log10(max)))
	few := hi-lo <= 3
	narrow := max/min < 30 // about a decade: label 3 and 7 as well
	step := 1
	for (hi-lo)/step+1 > labels {
		step++
	}
	var ts []plot.Tick
	for e := lo; e <= hi; e++ {
		base := math.Pow(10, float64(e))
		for m := 1; m <= 9; m++ {
			v := float64(m) * base
			tk := plot.Tick{Value: v}
			if (m == 1 && e%step == 0) || (few && (m == 2 || m == 5)) || (narrow && (m == 3 || m == 7)) {
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

// unitTicks labels exactly the values vs, in unit u (the rank counts of a
// regime map, Axis.Ticks).
func unitTicks(vs []float64, u Unit) plot.ConstantTicks {
	ts := make(plot.ConstantTicks, len(vs))
	for i, v := range vs {
		ts[i] = plot.Tick{Value: v, Label: u.Format(v)}
	}
	return ts
}
