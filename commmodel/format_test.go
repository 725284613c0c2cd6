package commmodel

import "testing"

// TestStrings checks the String methods on values whose counts the formulas
// give: Ring AllReduce at P = 8 takes 2(P-1) = 14 steps and sends
// 2(P-1)/P·S = 1.75 MiB of S = 1 MiB to 2 peers; one-shot overtakes two-shot
// at α·BW/5.25 = 133333 B on the article's NVLink (2 µs, 350 GB/s).
func TestStrings(t *testing.T) {
	l := Link{Alpha: 2e-6, BW: 350e9}
	if got, want := l.String(), "2 µs, 350 GB/s"; got != want {
		t.Errorf("Link: %q, want %q", got, want)
	}
	if got, want := (Link{Alpha: 2e-6, BW: 350e9, Gamma: 1e-11}).String(), "2 µs, 350 GB/s, reduce 0.01 ns/B"; got != want {
		t.Errorf("Link with Gamma: %q, want %q", got, want)
	}
	if got, want := (Ring{}).Cost(8, 1<<20).String(), "14 steps, 1.75 MiB sent, 2 peers"; got != want {
		t.Errorf("Cost: %q, want %q", got, want)
	}
	xs := Crossovers([]Algorithm{OneShot{}, TwoShot{}}, Flat{P: 8, Link: l})
	if len(xs) != 1 {
		t.Fatalf("crossovers %v", xs)
	}
	if got, want := xs[0].String(), "one-shot -> two-shot at 130 KiB"; got != want {
		t.Errorf("Crossover: %q, want %q", got, want)
	}
}
