package schedule

import (
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"gonum.org/v1/gonum/floats/scalar"
)

// TestSwitchTransfers: on one node of 4 GPUs and S = 4096 B, NVLS's two
// steps go through the node's NVSwitch. A GPU sends each of its 4 slices
// once in the load-reduce (S) and its own slice once in the store, however
// many GPUs the switch writes it into (S/4); it receives its summed slice
// (S/4) and then every slice (S); it reduces nothing and holds one peer, the
// switch. The replay is 2α + (S + S/4)/BW.
func TestSwitchTransfers(t *testing.T) {
	const p, size = 4, 4096
	s, err := New(commmodel.NVLS{}, p, size)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Simulate(s, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Correct {
		t.Fatalf("wrong result: %s", r.Mismatch)
	}
	for rank := range p {
		if r.Sent[rank] != size+size/p || r.Received[rank] != size/p+size || r.Reduced[rank] != 0 || r.Peers[rank] != 1 {
			t.Errorf("rank %d: sent %d, received %d, reduced %d, peers %d; want %d, %d, 0, 1",
				rank, r.Sent[rank], r.Received[rank], r.Reduced[rank], r.Peers[rank], size+size/p, size/p+size)
		}
	}
	if r.Steps != 2 || r.Fanout != 1 || r.PathMessages != 2 {
		t.Errorf("steps %d, fanout %d, messages %d; want 2, 1, 2", r.Steps, r.Fanout, r.PathMessages)
	}
	l := commmodel.Link{Alpha: 2e-6, BW: 350e9, Gamma: 1e-12}
	if got, want := Replay(s, Uniform(l)), 2*l.Alpha+float64(size+size/p)/l.BW; !scalar.EqualWithinAbs(got, want, 1e-12*want) {
		t.Errorf("replay %g s, want %g (no γ: the switch reduces)", got, want)
	}
	// A negative switch is an error, not a panic.
	s.Steps[0][0].Switch = -1
	if err := s.Validate(); err == nil {
		t.Error("switch -1 validated")
	}
}
