package fit

import "math/rand/v2"

// bootstrap sets each regime's confidence intervals by resampling cases: for
// each of s.Bootstrap replicates, every regime draws as many of its own
// samples as it holds, with replacement and with their robustness weights,
// and is refitted with its breakpoints fixed. The intervals are the
// replicates' (1-Level)/2 and (1+Level)/2 quantiles (percentile bootstrap).
// Replicates whose draw cannot determine a fit are left out. The random
// numbers come from PCG seeded with s.Seed, so results are reproducible.
func (d *design) bootstrap(res *Result, segs []segment, s Settings) {
	rng := rand.New(rand.NewPCG(s.Seed, 0x636f6d6d6c6162)) // "commlab"
	alphas := make([]float64, 0, s.Bootstrap)
	bws := make([]float64, 0, s.Bootstrap)
	for k, sg := range segs {
		alphas, bws = alphas[:0], bws[:0]
		n := sg.hi - sg.lo
		for range s.Bootstrap {
			var sm sums
			for range n {
				i := sg.lo + rng.IntN(n)
				sm.add(res.Weight[i], d.u[i], d.v[i])
			}
			a, b, _, ok := sm.solve()
			if !ok {
				continue
			}
			alpha, bw := d.link(a, b)
			alphas = append(alphas, alpha)
			bws = append(bws, bw)
		}
		if len(alphas) == 0 {
			continue
		}
		lo, hi := (1-s.Level)/2, (1+s.Level)/2
		res.Regimes[k].AlphaCI = Interval{quantile(alphas, lo), quantile(alphas, hi)}
		res.Regimes[k].BWCI = Interval{quantile(bws, lo), quantile(bws, hi)}
	}
}
