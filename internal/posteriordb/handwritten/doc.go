// Package handwritten is an independent plain-Go log density of every
// reference posterior in package posteriordb (and of the simulated logistic
// regression), written directly from each case's model.md: the oracle that
// the compiled ppl models are tested against and the anchor they are
// benchmarked against.
//
// Every density is on the unconstrained scale, with constrained parameters
// mapped in by the bijectors Stan (and ppl) use — exp for a positive
// parameter, a scaled logistic for an interval (whose bound may depend on
// another parameter), the ordered and positive-ordered maps, stick-breaking
// for a simplex — and their log-Jacobians added, so a compiled model's log
// density equals this one up to a constant:
//
//	c, _ := posteriordb.Load("eight_schools-eight_schools_noncentered")
//	m, _ := handwritten.New(c)
//	x := make([]float64, m.Dim) // laid out as m.Blocks says
//	lp := m.LogDensity(x)
//
// The benchmark models (eight schools non-centred, sblrc-blr and the other
// linear regressions, gp_pois_regr, hmm_example, the logistic regression)
// and arma11 also have an analytic gradient, written for speed with no
// allocation per call: that is the bar the compiled models are measured
// against. Values gives what a draw records (constrained parameters and
// derived quantities such as eight schools' theta) at a position.
package handwritten
