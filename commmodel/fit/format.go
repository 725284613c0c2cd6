package fit

import (
	"fmt"

	"github.com/inframethod/commlab/units"
)

// String is "[Lo, Hi]" in three significant digits; the unit is the
// quantity's.
func (iv Interval) String() string {
	return "[" + units.FormatNumber(iv.Lo) + ", " + units.FormatNumber(iv.Hi) + "]"
}

// String is the regime in words: "1 MiB..64 MiB: alpha 112 µs, 189 GB/s
// (7 points)", or "...: alpha 44.1 µs, latency-bound: no bandwidth measured
// (3 points)" when BW sits at its cap (BWAtBound), which is no measurement.
func (g Regime) String() string {
	bw := units.FormatBandwidth(g.BW)
	if g.BWAtBound {
		bw = LatencyBound
	}
	return fmt.Sprintf("%s..%s: alpha %s, %s (%d points)", units.FormatSize(g.MinSize), units.FormatSize(g.MaxSize),
		units.FormatDuration(g.Alpha), bw, g.N)
}

// LatencyBound is what a regime with BWAtBound says in place of its
// bandwidth: its time does not grow with size, so no bandwidth was measured.
const LatencyBound = "latency-bound: no bandwidth measured"

// String lists the regimes, one a line, after the fit's errors.
func (r *Result) String() string {
	s := fmt.Sprintf("%d regime(s), median error %.1f%%, leave-one-out %.1f%%", len(r.Regimes), 100*r.MedianRelErr, 100*r.LOOMedianRelErr)
	for _, g := range r.Regimes {
		s += "\n  " + g.String()
	}
	return s
}
