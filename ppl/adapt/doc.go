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
//		u := w.Update(st.Position, info.AcceptStat)
//		sampler.SetStepSize(u.StepSize)
//		if u.MetricUpdated {
//			// copy w.Var() or w.Cov() into the sampler's metric, rerun the
//			// step-size heuristic, then w.Restart(sampler.StepSize())
//		}
//	}
//	sampler.SetStepSize(w.Final())
package adapt
