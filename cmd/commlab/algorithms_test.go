package main

import (
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// The flags' Options: -inter only where hierarchical AllReduce runs it, the
// pipelined broadcast's chunk count when none is given, and every other
// value as given.
func TestAlgorithmOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		c       commmodel.Collective
		name    string
		inter   string
		chunks  int
		want    commmodel.Options
		wantErr bool
	}{
		{commmodel.AllReduce, "hierarchical", "", 0, commmodel.Options{PerNode: 8}, false},
		{commmodel.AllReduce, "hierarchical", "ring", 0, commmodel.Options{PerNode: 8}, false},
		{commmodel.AllReduce, " Hierarchical ", "two-shot", 0, commmodel.Options{PerNode: 8, Inter: commmodel.TwoShot{}}, false},
		{commmodel.AllReduce, "hierarchical", "bogus", 0, commmodel.Options{}, true},
		{commmodel.AllReduce, "hierarchical", "hierarchical", 0, commmodel.Options{}, true},
		{commmodel.AllReduce, "ring", "bogus", 0, commmodel.Options{PerNode: 8}, false}, // -inter unused
		{commmodel.AllToAll, "hierarchical", "bogus", 0, commmodel.Options{PerNode: 8}, false},
		{commmodel.AllReduce, "tree", "", 0, commmodel.Options{PerNode: 8}, false}, // the fluid tree
		{commmodel.AllReduce, "tree", "", 3, commmodel.Options{PerNode: 8, Chunks: 3}, false},
		{commmodel.Broadcast, "pipelined", "", 0, commmodel.Options{PerNode: 8, Chunks: defaultChunks}, false},
		{commmodel.Broadcast, "pipelined", "", 1, commmodel.Options{PerNode: 8, Chunks: 1}, false}, // Lookup refuses it
	} {
		got, err := algorithmOptions(tc.c, tc.name, 8, tc.inter, tc.chunks)
		if (err != nil) != tc.wantErr || err == nil && got != tc.want {
			t.Errorf("algorithmOptions(%v, %q, 8, %q, %d) = %+v, %v; want %+v (error %v)",
				tc.c, tc.name, tc.inter, tc.chunks, got, err, tc.want, tc.wantErr)
		}
	}
}
