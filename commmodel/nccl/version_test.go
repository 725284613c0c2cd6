package nccl

import "testing"

// TestOldestFor: Blackwell (compute capability 10.0 and later) runs on
// the releases that build its code, from 2.25.1 (makefiles/common.mk); the
// GPUs before it on every release the model follows.
func TestOldestFor(t *testing.T) {
	for _, c := range []struct {
		cc   int
		want Version
	}{{70, Oldest}, {90, Oldest}, {100, Version{2, 25, 1}}, {103, Version{2, 25, 1}}, {120, Version{2, 25, 1}}, {0, Oldest}} {
		if got := OldestFor(c.cc); got != c.want {
			t.Errorf("OldestFor(%d) = %v, want %v", c.cc, got, c.want)
		}
	}
}
