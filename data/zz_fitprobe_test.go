package data

import (
	"path/filepath"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

func TestRealLogsFitProbe(t *testing.T) {
	files, _ := filepath.Glob("testdata/real/*.log")
	for _, f := range files {
		l, err := ReadFile(f, nil)
		if err != nil {
			continue
		}
		for i, tt := range l.Tests {
			var s []commmodel.Sample
			for _, x := range tt.Samples(OutOfPlace) {
				if x.Size > 0 {
					s = append(s, x)
				}
			}
			if len(s) < 3 {
				t.Logf("%s[%d]: %d samples", filepath.Base(f), i, len(s))
				continue
			}
			single, err1 := commmodel.FitAlphaBeta(s, &commmodel.FitSettings{Bootstrap: -1})
			pw, err := commmodel.FitPiecewise(s, &commmodel.FitSettings{Bootstrap: -1})
			if err != nil || err1 != nil {
				t.Logf("%s[%d]: %v %v", filepath.Base(f), i, err, err1)
				continue
			}
			t.Logf("%-45s[%d] n=%2d K=%d pw med %.2f%% max %.2f%% loo %.2f%% | single med %.1f%% max %.1f%% loo %.1f%%", filepath.Base(f), i, len(s), len(pw.Regimes),
				100*pw.MedianRelErr, 100*pw.MaxRelErr, 100*pw.LOOMedianRelErr, 100*single.MedianRelErr, 100*single.MaxRelErr, 100*single.LOOMedianRelErr)
			for _, g := range pw.Regimes {
				t.Logf("      [%g..%g] n=%d alpha=%.2fus bw=%.2fGB/s atbound=%v", g.MinSize, g.MaxSize, g.N, g.Alpha*1e6, g.BW/1e9, g.BWAtBound)
			}
			worst, wi := 0.0, 0
			for j, r := range pw.RelErr {
				if r < 0 {
					r = -r
				}
				if r > worst {
					worst, wi = r, j
				}
			}
			t.Logf("      worst at %g B: %.1f%% weight %.2f", pw.Samples[wi].Size, 100*pw.RelErr[wi], pw.Weight[wi])
		}
	}
}
