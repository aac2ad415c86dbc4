// Package opdef is the one definition of each scalar log-density op and of
// each elementwise op. A log density (Dist) has its value, its partials,
// where it is defined (support and valid arguments), and what a modeller
// sees of it (the family's name, parameters, supports, a sampler and its
// moments); an elementwise op (Unary, Binary: neg, exp, log, …, add, mul,
// pow) its value and the increment of each input's adjoint. Everything
// else is derived from them by cmd/genops. For the log densities:
//
//   - accel/ir/lpdf_gen.go: the reference Forward and Backward of each
//     density (the scalar evaluator of accel/cpu, NUTS and the plans'
//     fallback);
//   - accel/vec/lpdf_gen.go: the densities' lockstep kernels over B
//     chains (per element, rows of the calls on one or two arguments,
//     then one loop over the chains);
//   - accel/ir/term_gen.go: the ops in term form, the tails today: each
//     one's value and partials of an element written once, inside two
//     loops over a row of elements (<op>Values, <op>Grads) that accel/ir's
//     and accel/vec's hand-written skeletons (term.go in each) run, ir
//     over the batch, vec over the chains of each element;
//   - accel/cuda/cgen/lpdf_gen.cu and lpdf_gen.go: the CUDA C device
//     functions gb_<name>_lpdf and gb_<name>_grad, and the op table;
//   - ppl/dist/families_gen.go: the dist.Family;
//   - ppl/families_gen.go: the Model method (m.BetaBinomial(…)).
//
// For the elementwise ops (elementwise.go):
//
//   - accel/ir/elementwise_gen.go: the registered loops (a binary op's in
//     its three broadcast cases, a broadcast input's adjoint summed before
//     it is added) and the scalar fast path's forward and backward;
//   - accel/vec/elementwise_gen.go: the lockstep kernels, for every op,
//     so that vec hands no op to ir;
//   - accel/cuda/cgen/elementwise_gen.go: the C templates.
//
// accel/vec's TestOpdefElementwise checks every op's kernel against ir
// with no entry of its own, and cgen's gcc tests compile and run the C.
//
// Adding a distribution is one file here and two test rows: the
// log-density suite (accel/ir/lpdf_test.go: an independent oracle, the
// argument ranges and points outside the support) and the sampler's
// moments (ppl/dist/dist_test.go). `go generate ./accel/opdef` writes the
// rest, and cmd/genops's test fails while a generated file is stale. The
// CUDA C (accel/cuda/cgen, compiled with gcc) and the lockstep kernels
// (accel/vec) are checked against accel/ir for every family here with no
// entry of their own.
//
// Why a table of formulas and a generator, not Go generics: one generic
// driver calling a per-family kernel costs about twice as much per
// element (go1.26 does not devirtualise type-parameter methods), and the
// CUDA C can be derived only from Go in a small subset: cmd/genops
// translates the helpers with loops (incgamma.go, incbeta.go, fn.go's
// functions marked //gb:cuda, and accel/ir's and accel/dense's matrix
// routines) into accel/cuda/cgen/device_gen.cu, but a family's loops over
// its shapes, memos and partials come from the formulas. Formulas are written in
// Go's expression syntax, so go/parser reads them; the generator prints
// them as Go and as C, and does by itself what the hand-written loops
// did: a function of one parameter alone (lgamma(alpha), log(sigma),
// inv(b)) is computed once per distinct value of that parameter rather
// than once per element, so a broadcast scalar parameter costs one
// transcendental call per evaluation; a partial is computed only when its
// argument carries a gradient.
//
// The formula language: numbers; the arguments and lets by name; + - * /,
// comparisons, && || !; the constants ln2, lnPi, lnSqrt2Pi, pi; and the
// functions log, log1p, exp, expm1, sqrt, abs, sign, tanh, inv (1/x),
// lgamma, digamma, trigamma, logistic, logisticDeriv, softplus, logitOf,
// pow(a, b), lbeta(a, b), lchoose(n, k), logaddexp(a, b) (log(eᵃ+eᵇ)),
// isCount(x) (a non-negative integer), and where(c, a, b) (a when c
// holds, else b; the loops compute only the branch taken); for the
// tails, logPhi(x) (log Φ, the standard normal CDF, accurate in both
// tails: finite at x = -40), dLogPhi(x) (its derivative φ(x)/Φ(x)),
// log1mexp(x) (log(1-eˣ), x ≤ 0), erf, atan2(y, x), and the incomplete
// gamma and beta functions in log space with their derivatives in the
// shapes (incgamma.go, incbeta.go): logGammaP(a, x), logGammaQ(a, x),
// dLogGammaP(a, x), dLogGammaQ(a, x) (∂/∂a), logIncBeta(a, b, x, y)
// (log I_x(a, b) given y = 1 - x; log(1 - I) is logIncBeta(b, a, y, x)),
// dLogIncBetaA and dLogIncBetaB (∂/∂a, ∂/∂b, same arguments). An
// argument may not be named as a function.
//
// Tails: a family's LCDF and LCCDF (Tail: Valid, Let, Value and a
// partial per argument) are ops of their own, <name>_lcdf and
// <name>_lccdf, over the density's arguments with the bound in place of
// the variate. Ops lists them after every density, so adding one leaves
// the densities' op numbers alone; the generated ir, vec and CUDA code
// covers them like the densities, and dist.Family's LCDF and LCCDF name
// them (ppl's LogCDF, Censored and Truncated read those). The normal,
// lognormal, half-normal, exponential, Weibull, logistic, Laplace,
// Cauchy, half-Cauchy and uniform have them in closed form; the gamma,
// inverse gamma, beta, Student's t and half-t through the incomplete
// gamma and beta functions, whose derivatives in the shapes give the
// partials in α, β and ν (a Tail may Keep lets as a Dist does: the
// gamma's Forward leaves log P for Backward). Their tests sit beside the densities': accel/ir's
// lcdf_test.go (an oracle per tail, the far tails and the shapes'
// partials against 40-digit references and central differences, the
// CDFs against the integral of the density, the closed forms they reduce
// to, the two tails summing to one), and accel/opdef's own tests of the
// incomplete functions.
//
// Keep names lets that accel/ir's Forward leaves in the op's scratch for
// Backward: Student's t keeps log1p(z²/ν), which only ∂ν reads, so that
// Backward does not take it again (the loops' cost with and without:
// bench/README.md, "Generated log densities").
//
// The loops over full vectors: for each shape a definition names in Fast
// (by default every input a full vector), accel/ir's Forward and Backward
// have a copy of their loop with the strides declared as constants and
// the inputs resliced to n, so that the compiler drops the index
// arithmetic, the memos' stride tests and the bounds checks; when the
// data of that shape are constants, cached and valid, the copy reads the
// cache's rows and skips the data conditions. With it the generated GLM
// likelihoods overtook their hand-written loops (bench/README.md, "The
// normal, bernoulli_logit and poisson_log generated", has the figures,
// accel/vec's lockstep kernels included).
//
// Cached names parameters that are often data (the normal's σ): their
// costly terms are cached once per frame when they are constants, as
// the variate's are. Shortcut names a hand-written accel/ir function
// tried first for one shape the formulas cannot say: the normal's sum
// with one σ is -Σ(y-μ)²/2σ² - n log σ, one subtraction and one
// multiply-add per element, where the generated per-element terms took
// more than twice as long (bench/README.md); TestShortcuts compares it
// with the generated loops. It is one Go function of slices (accel/ir's
// normalSumShared), which the CUDA C calls translated.
//
// Scalar asks for the formulas as Go functions of one element (package
// term, terms_gen.go: NormalValue, NormalGrad, …; log σ and 1/σ are
// arguments), which inline: the fused kernels of accel/fuse (the scale
// priors, the sum of priors, the non-centred hierarchy, the HMM's
// emissions, the gamma prior) and accel/vec's non-centred kernel call
// them instead of spelling the normal, half-normal, half-Cauchy and gamma
// (GammaValue is given log β and lgamma(α); a call on the variate, the
// gamma's log y, stays inside). What they still write themselves is
// algebra over many terms that no single term says: with one σ,
// Σ-½z_i² = -½Σ(y_i-μ_i)²/σ² (fuse's normalSquares, tested against the
// sum of NormalValue), and the regression's and the hierarchy's
// gradients summed over the elements.
//
// Terms, not expansions (cmd/genops's termForm): an op in term form has
// no loops of its own, only its element's value and partials, a fraction
// of the generated lines of a density's loops in ir and vec
// (TestTermForm holds it under 150; bench/README.md has the sizes). The densities
// keep their loops, because the figures in bench/README.md measure what
// their memos (a function of a broadcast parameter once per call), data
// caches (once per frame) and per-shape copies buy; the tails, in no
// benchmark model, run the skeletons (bench/README.md, "Terms, not
// expansions", has their figures against the loops they replaced).
//
// Not yet here: the multivariate families (categorical, Dirichlet,
// multivariate normal, LKJ), whose loops are not elementwise. accel/vec
// runs the generated normal in every shape, σ one value per chain
// included (its rows of log σ and 1/σ carry σ > 0 as NaN: vec's
// densities.go, with the figures). accel/fuse's gamma prior
// with data shape and rate still spells its formula by hand, and so do
// accel/vec's fused regression and mixture (linear.go, fused.go).
package opdef

//go:generate go run ../../cmd/genops
