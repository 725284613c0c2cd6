package fit_test

import (
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"gonum.org/v1/gonum/floats/scalar"
)

// TestThroughRecoversLinkWhereRanksTakeTurns: where ranks take turns the
// time follows the critical path (Cost.Path), not the busiest rank's bytes,
// so Through must regress on the path to give back the link Cost.Time made
// the times on. Regressing on Bytes gave halving-doubling at P = 6 a BW of
// 250 GB/s for times made at 350 GB/s (350·2.5/3.5: 2.5 S sent, 3.5 S on
// the path), and ring broadcast at P = 8 a seventh of it (S sent, 7 S on
// the path). Red team 40: commlab model's times fed to commlab fit -algo.
func TestThroughRecoversLinkWhereRanksTakeTurns(t *testing.T) {
	want := commmodel.Link{Alpha: 2e-6, BW: 350e9}
	for _, c := range []struct {
		a commmodel.Algorithm
		p int
	}{
		{commmodel.HalvingDoubling{}, 6},
		{commmodel.HalvingDoubling{}, 12},
		{commmodel.PipelinedBroadcast{}, 8},
		{commmodel.PipelinedBroadcast{Chunks: 8}, 8},
	} {
		var samples []fit.Sample
		for _, s := range powersOfTwo(10, 32) {
			samples = append(samples, fit.Sample{Size: s, Time: commmodel.Time(c.a, c.p, s, want)})
		}
		f, err := fit.Through(c.a, c.p, samples, nil)
		if err != nil {
			t.Fatal(err)
		}
		if l := f.Regimes[0].Link(); !scalar.EqualWithinAbs(l.Alpha, want.Alpha, 1e-9*want.Alpha) || !scalar.EqualWithinAbs(l.BW, want.BW, 1e-9*want.BW) {
			t.Errorf("%s at P = %d: link %+v, want %+v", c.a.Name(), c.p, l, want)
		}
		for _, s := range []float64{1, 3 << 20, 1 << 40} {
			if got, w := f.Predict(s), commmodel.Time(c.a, c.p, s, want); !scalar.EqualWithinAbs(got, w, 1e-9*w) {
				t.Errorf("%s at P = %d: Predict(%g B) = %g s, Time on the link %g s", c.a.Name(), c.p, s, got, w)
			}
		}
	}
}
