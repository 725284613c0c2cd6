package commmodel

import "testing"

// Every statement of the article in the ledger holds in the model.
func TestClaims(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Claims() {
		if c.ID == "" || c.Statement == "" || c.Expected == "" || c.Got == "" {
			t.Errorf("claim %q is incomplete: %+v", c.ID, c)
		}
		if seen[c.ID] {
			t.Errorf("claim ID %q twice", c.ID)
		}
		seen[c.ID] = true
		if !c.Pass {
			t.Errorf("claim %s fails: expected %s, got %s", c.ID, c.Expected, c.Got)
		}
	}
}

// The ledger can fail: with other links, the link-dependent claims do not hold.
func TestClaimsCanFail(t *testing.T) {
	saved := H20Intra
	defer func() { H20Intra = saved }()
	H20Intra = Link{Alpha: 10e-6, BW: 280e9} // the article's better fit to AllToAll
	failed := map[string]bool{}
	for _, c := range Claims() {
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
