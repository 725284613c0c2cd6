package nccl

import "testing"

func TestEstimateString(t *testing.T) {
	e := Estimate{Algo: AlgoRing, Proto: LL128, Latency: 5e-6, Bandwidth: 300e9, Time: 12.3e-6}
	if got, want := e.String(), "Ring/LL128: 12.3 µs (latency 5 µs, 300 GB/s)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
