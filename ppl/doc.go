// Package ppl builds Bayesian models out of random variables and compiles
// them into a fast log density with exact gradients.
//
// A model is built in plain Go (or in a notebook cell) and only describes;
// compiled code computes:
//
//	m := ppl.NewModel("eight_schools")
//	mu := m.Normal("mu", 0, 5)
//	tau := m.HalfCauchy("tau", 5)
//	z := m.Normal("theta_tilde", 0, 1, ppl.Size(8))
//	theta := m.Deterministic("theta", mu.Add(tau.Mul(z)))
//	m.Normal("y", theta, sigma).Observe(y)
//	c, err := m.Compile()
//
// Expressions have their arithmetic as methods, read left to right
// (mu.Add(tau.Mul(z)) is ppl.Add(mu, ppl.Mul(tau, z))).
//
// # The graph
//
// Every value of a model is an Expr: a random variable (*RV), a
// deterministic quantity, or an expression made by this package's
// functions (Add, Mul, Exp, MatVec, Index, Scan, …). Arguments accept an
// Expr or plain Go data (float64, int, []float64, []int, [][]float64,
// gonum's *mat.Dense), so data enters as it is. A random variable is added by the Model method
// named after its distribution (m.Normal, m.Dirichlet, …; Model.Var takes
// any dist.Family), with options for its shape (Size, Shape), bounds
// (Lower, Upper, Bounds — a bound may be an expression of other
// parameters), orderings (Ordered, PositiveOrdered) and data (Observed, or
// RV.Observe). Model.Deterministic records a quantity in every draw;
// Model.LogDensity adds a term to the log density (Stan's target +=).
//
// One indexing convention, everywhere: an element is named by its
// coordinates where its dimensions have labels (Dims, Model.Coords:
// theta[Choate]), else by its 0-based index, as Go and ArviZ count
// (theta[0] is the first) — in code (Index, At, Array.Element), formulas,
// the listing, LaTeX, errors, summaries and Posterior.Column, which
// accepts either name. Stan counts from 1: a Stan CSV file written or
// read, and posteriordb's reference names, are mapped at that boundary.
//
// A builder call is a transaction: one that fails leaves the model as it
// was (see Error). A notebook cell run again returns what it made the
// first time; run again changed (another prior, other bounds or data, a
// new expression for a deterministic quantity or term, new data for a
// container), it replaces it in place, so what was built from it reads
// the new definition — the model is the one the changed cells would build
// from scratch, and says what changed in the cell's output ("tau:
// HalfCauchy(5) → HalfNormal(5)"). A new shape for something others were
// built from, a definition that uses itself, and a name of another kind
// are refused; so is a name defined twice in one run of a cell (or
// outside a notebook), or a variable observed twice there: the two
// definitions would silently be one. A run of a cell is told by the
// hooks' Context (see Hooks), which the kernel makes anew for each.
//
// Arguments are checked against their family's domain where that can be
// shown when the model is built: data against the parameter's support,
// and an expression that moves over all the reals with a latent Normal
// (or other unbounded) variable, given as a rate, a probability or a
// scale, is an error that says what to use (PoissonLog, BernoulliLogit, a
// positive prior, a link such as Exp or Logistic).
//
// Formulas. Model.Let and Model.Formula read an expression written as on
// paper, "alpha[county] + beta * x^2", over the model's names and values
// given with Using. Its grammar: numbers and the constant pi; names;
// + - * / and ^ (a power: binds tightest, groups from the right, and
// -x^2 is -(x^2)); parentheses; indexing from 0 (x[2] one element,
// x[ids] a gather by whole-number ids given with Using or as an integer
// data container); calls of exp, log, log1p, expm1, sqrt, square, abs,
// tanh, logistic (inv_logit), logit, softplus, lgamma, digamma, inv,
// neg, step, sum, mean, logsumexp, softmax, logsoftmax, cumsum, dot,
// pow, min, max, matvec, add, sub, mul, div, log_diff_exp, clip(x, lo,
// hi); and log densities as Stan names them (normal_lpdf(y, mu, sigma),
// any family in snake case with _lpdf or _lpmf). A mistake quotes the
// formula with a caret under its column.
//
// Regression formulas. GLM builds a whole model from an R-style formula
// over a table's columns (package table), as bambi and brms do:
// GLM("y ~ x1 + x2 + (1 + x1 | county)", t, Family("poisson"),
// Offset("log_exposure")). Numeric columns get a coefficient each,
// label columns are treatment-coded (x[level]), (terms | g) gives
// varying intercepts and slopes (non-centred) with g's labels as
// coordinates; families gaussian, bernoulli, binomial (logit), poisson
// and negativebinomial (log). The priors are weakly informative and
// scaled to the data by a rule GLM's documentation states; the listing
// shows them, Prior and Model.SetPrior replace one by name, and
// Model.SetRows gives the model a new table's rows to predict at
// (Predictions, PosteriorPredictive). The result is an ordinary Model.
//
// Finite mixtures are Model.Mixture with Comp/NormalComp components; LogPDF
// gives a family's pointwise log density as an expression for hand-written
// likelihoods. A Model prints itself (String, HTML) one variable per line.
//
// Censoring and truncation: Censored(lower, upper) on an observed
// continuous scalar variable counts a value at or below lower as log
// F(lower) and one at or above upper as log(1 - F(upper)) (Tobit models,
// detection limits); Truncated(lower, upper) normalises a variable's
// density over its bounds, p(y)/(F(upper) - F(lower)), observed or latent
// (a latent one gets the bijector of Bounds too). Both are read by the
// compiler with the variable's log density, so sampling, LogLik (one term
// per element) and the predictive draws (censored draws clipped to the
// bounds, truncated ones redrawn inside them) agree. LogCDF and LogCCDF
// give a family's log CDF and log CCDF as expressions, accurate far into
// the tails with their gradients; Phi and LogPhi are the standard normal
// CDF and its log, for probit models. Every proper continuous scalar
// family has CDFs: the gamma, inverse gamma, beta, Student's t and half-t
// through the incomplete gamma and beta functions, with gradients in
// their shapes too (a censored gamma or Weibull survival model, a
// truncated beta); a discrete, multivariate or improper family is an
// error naming it.
//
// Recurrences (AR, GARCH, the forward algorithm of a hidden Markov model)
// are written with Scan: its step function is called once, with
// placeholders, to trace the body into a sub-program that the compiled
// code runs at every step. A recurrence whose one scalar carry is updated
// affinely, next = A + B·carry with A and B free of the carry (AR, the
// ARMA error, the GARCH variance σ²), is compiled without a per-step
// body: elementwise ops over the sequences and one linear recurrence
// (what each path costs: bench/README.md, "Linear recurrences"). Write GARCH with the variance carried (next = α₀ +
// α₁(y-μ)² + β₁·carry, emitting Sqrt(next)); the form next =
// Sqrt(A + B·carry²) is recognised too. LinearRecurrence writes
// x[t] = a[t] + b[t]·x[t-1] explicitly.
//
// # Errors
//
// A mistake — a shape mismatch, a negative scale or NaN given as data, a
// duplicate or unknown name, non-integer data for a discrete family — is
// found when the model is built. The method that finds it panics with an
// *Error naming the variable and saying what to do (in a notebook the
// panic is the cell's error at that line), and the model records it:
// Model.Err returns it and Compile refuses to compile. Library code can
// turn the panic back into an error with `defer ppl.Catch(&err)`.
//
// Some data pass the build's checks and still fit no parameter value the
// sampler could start from: a proportion of exactly 0 under a Beta, a
// duration of 0 under a Gamma, on the edge of the support. When no
// finite starting point is found, Sample, MAP and ADVI look for observed
// values whose density is zero at every one of a few random starts while
// the variable's other values are not, and name the first (its index,
// its label, how many more there are) with what to do (start_data.go).
//
// # Compilation
//
// Compile lays out the unconstrained position: each free parameter gets
// slots and a bijector chosen from its family's support or its bound
// options (log for positive values, scaled logit for intervals, ordered,
// stick-breaking simplex, Cholesky factor of a correlation matrix). It
// then emits an accel/ir program computing the constrained values, the
// log-Jacobians, every variable's log density (observed and latent) and
// the explicit terms, summed into the target, with the constrained values
// and deterministic quantities as outputs; a second, forward-only program
// gives those outputs without the log density. Expressions of data alone
// (observed variables included) are folded into constants at compile
// time, and an instruction written twice over the same inputs is emitted
// once, so the programs recompute only what depends on the position. A
// Scan's step is traced into a body program whose inputs are its carries,
// the current rows of its sequences, and the outer values it uses; when
// the step is an affine update of one scalar carry (the compiler
// recognises it from the traced graph), the scan is emitted instead as
// the step's elementwise ops applied to the whole sequences plus one
// OpLinearRecurrence, and the emitted value as elementwise ops over the
// stacked carries.
//
// A Compiled model implements infer.Model: its Density evaluates the
// program with its own ir.Frame, without allocating, one position at a
// time or a batch (Density.Batch). Program exposes the log-density program
// to the backends. Model.Sample and its relatives (sample.go) compile the
// model and run the samplers of package infer on it.
//
// # Data
//
// A model holds one copy of its data, which every program it compiles and
// every chain's frame reads in place (accel/ir's shared constants). A
// []float64 and a *mat.Dense whose rows are contiguous (mat.NewDense)
// are that copy themselves: ppl reads your memory, so do not write into
// a slice after handing it to a model; give new data with SetData. A
// [][]float64 or [][]int is copied once, into one row-major slice.
//
// # Data sharding
//
// A large observed variable's log-likelihood is split by rows into shards
// evaluated in parallel and summed, gradients included: Compile slices the
// data and every per-observation expression of the variable's parameters
// (X·β, μ[group], elementwise arithmetic) into one program per block of
// rows, and keeps priors, Jacobians and what cannot be split in a main
// program. Density.LogDensityGrad hands the shards to a pool of
// GOMAXPROCS-1 helper goroutines shared by every Density of the process
// and works through them itself, so chains that already fill the cores
// just compute their shards alone; nothing is allocated per call. By
// default a model is sharded only when its data are large
// (AutoShardVolume values per shard, at most GOMAXPROCS shards);
// NewModel(name, Shards(n)) or Model.SetShards forces n shards, Shards(1)
// turns sharding off. Compiled.ShardPlan says which variables are split
// and why the others are not (a mean computed by a Scan or a Cholesky
// solve mixes rows); Compiled.ShardPrograms gives the programs to a
// backend that places shards on devices of its own. A LogDensity term
// Sum(x) (a hand-written likelihood, Sum(LogPDF(…))) is split over x's
// rows the same way.
//
// Forward sampling (PriorPredictive, PosteriorPredictive) and pointwise
// log-likelihoods (PointwiseLogLik, for LOO) compile further programs over
// the constrained values of every variable, lazily on first use. A
// posterior carries its model's fingerprint (fingerprint.go): those of
// another model, or of the model before a cell changed it, are refused
// unless OtherModel is passed.
//
// # Backends and run hooks
//
// Every sampler evaluates the model through the accel contract (package
// accel): a Density's log density and gradient are a batch of one position
// on accel/cpu (the planned ir.Frame, on the caller's goroutine) or on the
// backend Backend chose; the lockstep samplers take accel.Batch per block
// of chains. A sharded model evaluates its shards itself, or places them
// on a backend that holds blocks of rows of its own (accel.ShardedBackend:
// the ranks of an MPI job, Backend("mpi")): there the model is compiled
// with one shard per rank (compileOnRanks), the blocks are sent once per
// Sample and shared by the chains (placeShards), and the job ends with the
// run.
//
// Programs are compiled with accel/fuse's Plan passed to the builder
// (compileModel): ppl states that its programs run the fused kernels of
// model structure; nothing is installed by importing a package. MPI is
// reached by name (accel.StartJob("mpi")), as the GPU is ("cuda"): ppl
// does not import accel/mpi, the program that runs it links it.
//
// # Sessions
//
// ppl knows nothing of notebooks: a run asks its model's Session's Hooks
// for the context it watches (an interrupt stops it) and for where its
// live progress goes, and keeps its posterior as the session's LastRun.
// The kernel's interpreter (package interp) makes one Session per kernel
// session, with hooks that give the running cell's context and a progress
// table in the cell's output (package display/progress), and binds the
// cells' model constructors (NewModel, GLM) and LastRun to it; two
// sessions in one process see neither each other's hooks nor their runs.
// A model made outside any session (a Go program's NewModel) belongs to
// the program's own session, which has no hooks: its runs watch
// context.Background() and show nothing.
//
// LastRun stays a function rather than becoming a method a cell must
// reach through a value: an interrupted cell never assigns its fit, and
// fit := ppl.LastRun() is what the interrupt's message tells the user to
// write. In a notebook the name is the session's (the interpreter binds
// it); in a Go program it reads the program's session. Neither is state
// set by an import or shared between sessions.
//
// The distributions' families and their Model methods (families_gen.go)
// are generated from accel/opdef.
//
// # Package layout
//
// This package is the modelling API and its glue to the samplers; the
// graph it builds, the compiler and the parallel evaluation of shards are
// internal packages below it:
//
//	ppl                   Model, RV, Expr and the functions, options, Error,
//	                      Compiled and Density, Sample and its relatives, Session and Hooks
//	ppl/internal/graph    the expression graph: nodes, random variables, the
//	                      model's lists (data only)
//	ppl/internal/compile  graph → accel/ir programs: layout and bijectors,
//	                      folding, CSE, scans and recurrences, the sharding
//	                      plan and its block programs
//	ppl/internal/shard    the parallel evaluation of a sharded log density
//
// Imports point one way: ppl imports the three, compile imports graph,
// graph and shard import neither. The cut is at the graph: the API checks
// what users give and builds it, the compiler reads it, so neither side
// exports its internals to the other. Compiled and Density stay here (their
// methods are what users call, and the notebook's symbol tables and %doc
// read this package), wrapping the compiler's Programs.
package ppl
