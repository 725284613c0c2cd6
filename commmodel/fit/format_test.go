package fit

import "testing"

func TestStrings(t *testing.T) {
	g := Regime{MinSize: 1 << 20, MaxSize: 64 << 20, Alpha: 112e-6, BW: 189e9, N: 7}
	if got, want := g.String(), "1 MiB..64 MiB: alpha 112 µs, 189 GB/s (7 points)"; got != want {
		t.Errorf("Regime: %q, want %q", got, want)
	}
	if got, want := (Interval{1.5e-6, 2.25e-6}).String(), "[1.5e-06, 2.25e-06]"; got != want {
		t.Errorf("Interval: %q, want %q", got, want)
	}
	r := &Result{Regimes: []Regime{g}, MedianRelErr: 0.021, LOOMedianRelErr: 0.034}
	if got, want := r.String(), "1 regime(s), median error 2.1%, leave-one-out 3.4%\n  "+g.String(); got != want {
		t.Errorf("Result: %q, want %q", got, want)
	}
}
