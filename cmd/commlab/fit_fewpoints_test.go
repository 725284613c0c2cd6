package main

import (
	"strconv"
	"strings"
	"testing"
)

// TestFitFewPointsBounded: cluster01's 2-node SendRecv (test 1 of
// nccl_N2_G4, lines 54..56: 4, 8 and 16 GiB in 106623, 207484 and 427293
// µs) grows with size at every step, yet fit printed a BW interval of
// "[40.2 GB/s, unbounded]": 1 bootstrap draw in 9 repeated one size, which
// fits no line, and the constrained solve put a few of them at the BW cap.
// Such draws are left out; the interval is bounded, and fit says that 3
// points make it rough.
func TestFitFewPointsBounded(t *testing.T) {
	t.Parallel()
	log := "../../data/logs/paired/h100-sxm-10node-cluster01/nccl_N2_G4_cnode3-002_cnode3-003.log"
	res, _ := fitJSON(t, log, "-test", "1")
	for _, b := range append([]fitBW{res.Single.fitBW}, res.Regimes[0].fitBW) {
		if b.BWCIOpen || b.BWCIBps[0] == nil || b.BWCIBps[1] == nil || *b.BWCIBps[0] < 40e9 || *b.BWCIBps[1] > 43e9 {
			t.Errorf("BW interval open %v, %v; want bounded within 40..43 GB/s", b.BWCIOpen, fmtBWCI(b.BWCIBps))
		}
	}
	if len(res.Regimes) != 1 || res.Regimes[0].AlphaCIS[1] == nil || *res.Regimes[0].AlphaCIS[1] > 10e-3 {
		t.Errorf("regimes %+v; want one, alpha's interval under 10 ms (a draw of 4 GiB alone gave 107 ms)", res.Regimes)
	}
	code, text, stderr := runCLI("fit", log, "-test", "1")
	if code != 0 || strings.Contains(text, "unbounded") || !strings.Contains(text, "[40.2 GB/s, 42.6 GB/s]") {
		t.Errorf("exit %d, text:\n%s\nwant the interval [40.2 GB/s, 42.6 GB/s]", code, text)
	}
	if want := log + ":54: the table holds only 3 points, too few to bound alpha and BW well"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q; want %q", stderr, want)
	}

	// A table of 25 points gets no such note; its 8..32 KiB regime of 3
	// points, which ended at the cap, is bounded.
	res, _ = fitJSON(t, publicLog(t, "h200_2x8_allreduce_spectrumx_openshift.log"))
	for _, p := range res.Problems {
		if strings.Contains(p.Message, "too few to bound") {
			t.Errorf("25 points: %v", p)
		}
	}
	for _, g := range res.Regimes {
		if g.MinBytes == 8192 && (g.BWCIOpen || g.BWCIBps[1] == nil) {
			t.Errorf("8..32 KiB: %v; want bounded", fmtBWCI(g.BWCIBps))
		}
	}

	// Where two-size draws find time falling with size the top stays open:
	// DeepEP's 128..2048 B regime.
	_, text, _ = runCLI("fit", publicLog(t, "h20_1x8_alltoall_or_allgather_deepep303.log"))
	if !strings.Contains(text, "[2.31 GB/s, unbounded]") || !strings.Contains(text, "some resamples found time not growing with size") {
		t.Errorf("DeepEP:\n%s\nwant its 128..2048 B interval open", text)
	}
}

// TestFitNoBootstrapInterval: without a bootstrap (-bootstrap 0) a fit has
// no intervals, and the JSON says null for alpha's as for the bandwidth's
// (it said [0, 0], which reads as an exact interval), the text "-".
func TestFitNoBootstrapInterval(t *testing.T) {
	t.Parallel()
	log := "../../data/logs/paired/h100-sxm-10node-cluster01/nccl_N2_G4_cnode3-002_cnode3-003.log"
	res, _ := fitJSON(t, log, "-test", "1", "-bootstrap", "0")
	for _, ci := range append([][2]*float64{res.Single.AlphaCIS}, res.Regimes[0].AlphaCIS) {
		if ci[0] != nil || ci[1] != nil {
			t.Errorf("alpha's interval %v without a bootstrap; want null", fmtCI(ci, func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }))
		}
	}
}
