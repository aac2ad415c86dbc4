// Package adapt is warm-up for the samplers of package mcmc: Stan's
// dual-averaging step-size adaptation and windowed estimation of the
// (diagonal or dense) inverse metric on the 75/25/50 schedule.
//
// A Warmup is driven by the chain loop, never reaching into the sampler:
//
//	w := adapt.New(dim, nWarmup, adapt.Options{})
//	w.Init(sampler.StepSize())
//	for i := 0; i < nWarmup; i++ {
//		info := sampler.Step(st)
//		w.Cost(info.NLeapfrog, info.Divergent) // for Options.Auto
//		u := w.Update(st.Position, info.AcceptStat)
//		sampler.SetStepSize(u.StepSize)
//		if u.MetricUpdated {
//			// copy w.Var() or w.Cov() into the sampler's metric, rerun the
//			// step-size heuristic, then w.Restart(sampler.StepSize())
//		}
//	}
//	sampler.SetStepSize(w.Final())
//
// Beyond Stan: with Options.Auto (what NUTS and HMC run by default) the
// metric starts diagonal and the warm-up decides whether to make it dense.
// At the end of a window whose draws' correlation matrix is badly
// conditioned — worse than 10 and than three times what chance gives for
// that many draws (DenseWorthIt) — the next window tries a dense metric,
// which stays only if its transitions take at most 0.8 of the diagonal
// window's leapfrog steps without many more divergences. On posteriordb
// this took ESS per gradient from 4.8 to 66 (nes2000), 8.5 to 69
// (mesquite) and 9.7 to 83 (arK) and left the uncorrelated models as they
// were; the centred eight schools, whose funnel is not a linear
// correlation, keeps its divergences (cmd/validate, before and after).
package adapt
