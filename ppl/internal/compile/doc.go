// Package compile turns a model's graph (package ppl/internal/graph) into
// accel/ir programs: the compiler behind ppl.Model.Compile.
//
//	p, err := compile.Compile(g, compile.Sharding{AutoVolume: 50_000}, fuse.Plan) // layout, Density, Values, shards
//	pr, err := p.Predictive()    // over every variable's constrained value
//	ll, ids, err := p.LogLik(pr) // pointwise log-likelihood
//
// Compile lays out the unconstrained position: each free parameter gets
// slots and a bijector (a Transform) chosen from its family's support or its
// bound options (log for positive values, scaled logit for intervals,
// ordered, stick-breaking simplex, Cholesky factor of a correlation
// matrix). It then emits the log-density program (the constrained values,
// the log-Jacobians, every variable's log density and the explicit terms,
// summed into the target, with the constrained values, deterministic
// quantities and terms as outputs) and a forward-only program of the same
// outputs. Expressions of data alone (observed variables included) are
// folded into constants at compile time, and an instruction written twice
// over the same inputs is emitted once. A Scan's step is compiled into a
// body program (scan.go), or, when it is an affine update of one scalar
// carry, rewritten into elementwise ops over the whole sequences and one
// OpLinearRecurrence (recurrence.go). Large observed variables are split
// into blocks of rows, one program each, beside a main program
// (shard.go); package ppl/internal/shard evaluates them.
// A censored or truncated variable's log density (graph.RV's Censor and
// Truncated) is emitted where every variable's is (censor.go): censored
// elements, known from the data, go to the family's log CDF or log CCDF
// op, and a truncated density subtracts its log normaliser; such
// variables are not sharded yet.
//
// It is apart from package ppl so that the modelling API and the compiler
// meet only at the graph: ppl builds and validates graph.Model and wraps
// Programs in its Compiled and Density (pools, lazily built programs,
// backends, sampling), and this package knows nothing of users, options or
// samplers. Its exported names are what ppl reads: Programs and its layout
// (Latent, Transform), the predictive and log-likelihood programs, Fold for
// data given as an expression, and the sharding setting and plan (ppl owns
// Shards and AutoShardVolume and passes them in; the plan's types mirror
// ppl.ShardPlan field for field, so that ppl converts them). Errors are *Error,
// with the fields of *ppl.Error.
package compile
