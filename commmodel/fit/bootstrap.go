package fit

import "math/rand/v2"

// bootstrap sets each regime's confidence intervals by resampling cases: for
// each of s.Bootstrap replicates, every regime draws as many of its own
// samples as it holds, with replacement and with their robustness weights,
// and is refitted with its breakpoints fixed. The intervals are the
// replicates' (1-Level)/2 and (1+Level)/2 quantiles (percentile bootstrap).
// Replicates whose draw cannot determine a fit are left out: those that hold
// fewer than 2 sizes of positive weight, through which any alpha ≥ 0 fits
// with its BW, so that solve's choice between the bounds is arbitrary (of a
// regime of 3 sizes, 1 draw in 9 repeats one; cluster01's 2-node SendRecv,
// data/logs/paired/h100-sxm-10node-cluster01, took such draws at the BW
// cap and printed a BW interval unbounded above). The random numbers come
// from PCG seeded with s.Seed, so results are reproducible.
func (d *design) bootstrap(res *Result, segs []segment, s Settings) {
	rng := rand.New(rand.NewPCG(s.Seed, 0x636f6d6d6c6162)) // "commlab"
	alphas := make([]float64, 0, s.Bootstrap)
	bws := make([]float64, 0, s.Bootstrap)
	for k, sg := range segs {
		alphas, bws = alphas[:0], bws[:0]
		n := sg.hi - sg.lo
		for range s.Bootstrap {
			var sm sums
			first, sizes := -1.0, 0
			for range n {
				i := sg.lo + rng.IntN(n)
				sm.add(res.Weight[i], d.u[i], d.v[i])
				if res.Weight[i] > 0 && sizes < 2 && d.samples[i].Size != first {
					first, sizes = d.samples[i].Size, sizes+1
				}
			}
			a, b, _, ok := sm.solve()
			if !ok || sizes < 2 {
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
