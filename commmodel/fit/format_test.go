package fit

import (
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

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

func TestLatencyBoundString(t *testing.T) {
	// A regime whose BW sits at the cap was not measured: its text carries
	// no bandwidth figure.
	g := Regime{MinSize: 1024, MaxSize: 4096, Alpha: 44.1e-6, BW: 259e12, N: 3, BWAtBound: true}
	if got, want := g.String(), "1 KiB..4 KiB: alpha 44.1 µs, latency-bound: no bandwidth measured (3 points)"; got != want {
		t.Errorf("Regime: %q, want %q", got, want)
	}
}

func TestBWCap(t *testing.T) {
	// Flat times: T does not grow with S, so BW sits at the cap
	// 1000·max(S/t) = 1000 · 4096 B / 40 µs = 1.024e11·1000 B/s (AlphaBeta).
	samples := []Sample{{1024, 40e-6}, {2048, 40e-6}, {4096, 40e-6}}
	r, err := AlphaBeta(samples, &Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	const want = 1000 * 4096 / 40e-6
	if got := r.BWCap(); !scalar.EqualWithinAbs(got, want, 1e-12*want) {
		t.Errorf("BWCap %g, want %g", got, want)
	}
	if g := r.Regimes[0]; !g.BWAtBound || !scalar.EqualWithinAbs(g.BW, want, 1e-9*want) {
		t.Errorf("regime BW %g at bound %v; want the cap %g", g.BW, g.BWAtBound, want)
	}
}
