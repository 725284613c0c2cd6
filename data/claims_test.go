package data

import (
	"strings"
	"testing"
)

// Every claim of the ledger passes, IDs are unique, and each says what it
// expected and what it got.
func TestLedger(t *testing.T) {
	seen := map[string]bool{}
	all := Ledger()
	if len(all) < len(Claims())+10 {
		t.Errorf("ledger has %d claims; the model's and fabrics' are missing", len(all))
	}
	for _, c := range all {
		if seen[c.ID] {
			t.Errorf("claim ID %q twice", c.ID)
		}
		seen[c.ID] = true
		if c.Statement == "" || c.Expected == "" || c.Got == "" {
			t.Errorf("%s: empty field: %+v", c.ID, c)
		}
		if !c.Pass {
			t.Errorf("%s fails: %s: expected %s, got %s", c.ID, c.Statement, c.Expected, c.Got)
		}
	}
}

// The measured claims compute what they claim from the data: changing the
// data would change Got. Spot-check the figures against hand computation.
func TestClaimsFigures(t *testing.T) {
	got := map[string]string{}
	for _, c := range Claims() {
		got[c.ID] = c.Got
	}
	for id, want := range map[string]string{
		// 67108864 B / 216e-6 s · 7/8 = 271.85 GB/s.
		"alltoall-busbw-64mib": "271.9 GB/s",
		// 216 us / (2 us + 58720256 B / 350 GB/s) = 1.27; 9.5 us / (2 us + 57344 B / 350 GB/s) = 4.39.
		"alltoall-model-too-fast": "1.27x at 64 MiB .. 4.39x at 64 KiB",
		// 134217728 B · 8/16 / 20 GB/s = 3.36 ms.
		"alltoall-2x8-network-half": "3.36 ms",
		// DeepEP #303 0-byte cells: 3.07 .. 3.20 us, median (3.12 + 3.13)/2.
		"h20-public-empty-floor": "3.125 us",
		// DeepEP #303 128 B: 10.59 and 10.32 us, median 10.455.
		"h20-public-128b": "10.455 us",
	} {
		if !strings.HasPrefix(got[id], want) {
			t.Errorf("%s: got %q, want it to start with %q", id, got[id], want)
		}
	}
}
