// Package dist is the catalogue of probability distributions a model is
// built from: each *Family says which ir op computes its log density, the
// order of its parameters, what values it and its parameters take (from
// which the model compiler picks bijectors and checks data), and how to
// draw from it.
//
// Use the exported families (Normal, HalfCauchy, Binomial, Dirichlet, …)
// directly, or find one by name with Lookup; Families lists them all:
//
//	f := dist.Normal                    // Params: mu, sigma
//	out := make([]float64, 3)
//	f.Sample(rng, [][]float64{{0}, {1}}, out)
//
// # Conventions
//
// The log-density op of a family takes the variate first, then the
// parameters in Family.Params order (accel/ir's ops.go). Scalar families
// broadcast: every parameter has one value or one per element. In Sample,
// a multivariate family (EventRank ≥ 1) takes the parameters of one event
// (Dirichlet α [K], CategoricalLogit logits [K]) shared by every event
// written to out; to draw events with different parameters, call Sample
// once per event. MultiNormalChol takes L [K×K] and μ [K] or one row per
// event [N×K]. LKJCorrChol writes one
// K×K factor, K = √len(out).
//
// Flat and HalfFlat are improper: their Op is ir.OpNop, the compiler adds
// no log-density term for them, and they have no sampler.
//
// # Finite mixtures
//
// A mixture of scalar families with weights w (a simplex of K) has the
// log density, per element, log Σ_k w_k p_k(y) =
// logsumexp_k(log w_k + lpdf_k(y)), where lpdf_k is component k's op in
// pointwise mode (Instr.Ints = [1]). The components must share a support.
// SampleMixture draws from one.
package dist
