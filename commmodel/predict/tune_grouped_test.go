package predict

import (
	"slices"
	"testing"
)

// TestTuneGroupedSendsNoEvidence (red team 46): grouped sends (AllToAll,
// SendRecv) run as p2p operations, outside NCCL's algorithms and its
// tuner, so neither where they ran a protocol nor how far the model
// misses them there is evidence about a collective's ring or tree on that
// protocol (unmeasured, slowNear). nccl-tests#78's 8 x 8 V100 AllToAll
// ran P2P/Simple at 256 and 512 MiB, 1.15 times the model's time in
// tune's calibration: NCCL's Ring/Simple AllReduce was taken as that
// much slower at 1 GiB, and tune wrote a Ring/LL128 rule on 16 x 8 whose
// interval (378 to 590 ms) reached past NCCL's predicted 517 ms. With the
// AllToAll beside the AllReduce, the protocols' sizes and the points
// slowNear reads are the AllReduce's alone.
func TestTuneGroupedSendsNoEvidence(t *testing.T) {
	const dir = "../../data/nccltests/testdata/real/"
	pin := Pins{Nodes: 8, PerNode: 8, GPU: "V100"}
	hw, ar := pinnedTable(t, dir+"v100_8x8_allreduce_ib100_nccltests78.log", pin)
	_, a2a := pinnedTable(t, dir+"v100_8x8_alltoall_ib100_nccltests78.log", pin)
	alone, err := Calibrate(hw, []Table{ar}, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	both, err := Calibrate(hw, []Table{ar, a2a}, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	if both.ran != alone.ran {
		t.Errorf("protocols' sizes with the AllToAll %v, without %v: want the AllReduce's alone", both.ran, alone.ran)
	}
	sizes := func(m *Machine) [][]float64 {
		var out [][]float64
		for _, ps := range m.own {
			var s []float64
			for _, p := range ps {
				s = append(s, p.size)
			}
			out = append(out, s)
		}
		return out
	}
	if a, b := sizes(alone), sizes(both); !slices.EqualFunc(a, b, slices.Equal) {
		t.Errorf("slowNear's points with the AllToAll at %v, without at %v: want the AllReduce's alone", b, a)
	}
}
