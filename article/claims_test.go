package article

import (
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// Every claim of the ledger passes, IDs are unique, and each says what it
// expected and what it got. The ledger holds 13 model claims, 4 fabric
// claims and 7 measured claims.
func TestLedger(t *testing.T) {
	for _, c := range []struct {
		name   string
		claims []Claim
		n      int
	}{{"model", modelClaims(articleInputs()), 13}, {"fabric", fabricClaims(articleInputs()), 4}, {"measured", measuredClaims(articleInputs()), 7}, {"ledger", Ledger(), 24}} {
		if len(c.claims) != c.n {
			t.Errorf("%s: %d claims, want %d", c.name, len(c.claims), c.n)
		}
		seen := map[string]bool{}
		for _, cl := range c.claims {
			if seen[cl.ID] {
				t.Errorf("%s: claim ID %q twice", c.name, cl.ID)
			}
			seen[cl.ID] = true
			if cl.ID == "" || cl.Statement == "" || cl.Expected == "" || cl.Got == "" {
				t.Errorf("%s: %q: empty field: %+v", c.name, cl.ID, cl)
			}
			if !cl.Pass {
				t.Errorf("%s: %s fails: %s: expected %s, got %s", c.name, cl.ID, cl.Statement, cl.Expected, cl.Got)
			}
		}
	}
}

// The ledger can fail: with another intra-node link in place of the
// article's (presets.H20Intra), the link-dependent claims do not hold.
func TestClaimsCanFail(t *testing.T) {
	in := articleInputs()
	in.node.Intra = commmodel.Link{Alpha: 10e-6, BW: 280e9} // the article's better fit to AllToAll
	failed := map[string]bool{}
	for _, c := range modelClaims(in) {
		if !c.Pass {
			failed[c.ID] = true
		}
	}
	for _, id := range []string{"ring-alpha-p8", "ring-1mb-transfer", "oneshot-crossover-p8", "cross-node-ratios"} {
		if !failed[id] {
			t.Errorf("claim %s still passes with alpha 10 us, BW 280 GB/s", id)
		}
	}
}

// The measured claims compute what they claim from the data: changing the
// data would change Got. Spot-check the figures against hand computation.
func TestMeasuredClaimsFigures(t *testing.T) {
	got := map[string]string{}
	for _, c := range measuredClaims(articleInputs()) {
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
		"h20-public-empty-floor": "3.125 µs",
		// DeepEP #303 128 B: 10.59 and 10.32 us, median 10.455.
		"h20-public-128b": "10.455 µs",
	} {
		if !strings.HasPrefix(got[id], want) {
			t.Errorf("%s: got %q, want it to start with %q", id, got[id], want)
		}
	}
}
