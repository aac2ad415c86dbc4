package adapt

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Options are the warm-up settings; zero values mean Stan's defaults.
type Options struct {
	// TargetAccept is the dual-averaging target (default 0.8).
	TargetAccept float64
	// Dense estimates a dense inverse metric instead of a diagonal one.
	Dense bool
	// InitBuffer, TermBuffer and BaseWindow shape the schedule (75, 50, 25).
	InitBuffer, TermBuffer, BaseWindow int
	// NoMetric keeps the metric fixed and adapts only the step size.
	NoMetric bool
	// Auto starts with a diagonal metric and tries a dense one for the
	// next window when a window's draws show strong correlation
	// (DenseWorthIt), keeping it only if that window's transitions cost
	// at most 0.8 of the diagonal window's leapfrog steps without many
	// more divergences (a funnel's correlations are not what a dense
	// metric fixes); the caller reports each transition's cost with Cost. The
	// estimate is kept dense throughout. The last slow window cannot try,
	// so it does not switch.
	Auto bool
}

// Update is what one warm-up iteration tells the chain loop.
type Update struct {
	// StepSize is the step size for the next transition.
	StepSize float64
	// MetricUpdated is true when a slow window just ended: the caller
	// copies Var or Cov (Cov when Dense) into its metric, reruns the
	// step-size heuristic and calls Restart with the step size it found.
	MetricUpdated bool
	// Dense says the metric is now dense (Options.Dense, or Auto's choice).
	Dense bool
}

// Warmup adapts the step size and the inverse metric of one chain.
type Warmup struct {
	dim     int
	opts    Options
	step    *StepSize
	windows *Windows
	est     *Covariance
	v       []float64 // regularised variances (diagonal)
	c       []float64 // regularised covariance (dense, row-major)
	dense   bool      // the metric is dense (from the start, or Auto chose it)
	// Auto's trial: the current window tries dense; the diagonal window
	// before it cost diagCost leapfrog steps and diagDiv divergences per
	// transition; a rejected trial is not repeated.
	trial, rejected   bool
	diagCost, diagDiv float64
	steps, divs, its  int // the current window's transitions
}

// New returns the warm-up of numWarmup iterations in dim dimensions.
func New(dim, numWarmup int, opts Options) *Warmup {
	if opts.TargetAccept == 0 {
		opts.TargetAccept = 0.8
	}
	if opts.InitBuffer == 0 && opts.TermBuffer == 0 && opts.BaseWindow == 0 {
		opts.InitBuffer, opts.TermBuffer, opts.BaseWindow = StanInitBuffer, StanTermBuffer, StanBaseWindow
	}
	w := &Warmup{
		dim:     dim,
		opts:    opts,
		step:    NewStepSize(opts.TargetAccept),
		windows: NewWindows(numWarmup, opts.InitBuffer, opts.TermBuffer, opts.BaseWindow),
		est:     NewCovariance(dim, opts.Dense || opts.Auto),
		v:       make([]float64, dim),
		dense:   opts.Dense,
	}
	if opts.Dense || opts.Auto {
		w.c = make([]float64, dim*dim)
	}
	return w
}

// Init starts the step-size adaptation from eps (the heuristic's result).
func (w *Warmup) Init(eps float64) { w.step.Restart(eps) }

// Restart recentres the step-size adaptation after a metric update.
func (w *Warmup) Restart(eps float64) { w.step.Restart(eps) }

// Update takes the chain's position and acceptance statistic after one
// warm-up transition.
func (w *Warmup) Update(position []float64, acceptStat float64) Update {
	u := Update{StepSize: w.step.Learn(acceptStat), Dense: w.dense}
	if w.opts.NoMetric || !w.windows.Enabled() {
		return u
	}
	if w.windows.InWindow() {
		w.est.Add(position)
	}
	if w.windows.EndOfWindow() {
		last := w.windows.nextWindow == w.windows.NumWarmup-w.windows.TermBuffer-1
		w.windows.computeNextWindow()
		n := w.est.N()
		w.regularise()
		if w.opts.Auto {
			w.choose(n, last)
		}
		w.steps, w.divs, w.its = 0, 0, 0
		w.est.Restart()
		u.MetricUpdated, u.Dense = true, w.dense
	}
	w.windows.advance()
	return u
}

// regularise shrinks the window's estimate towards 1e-3·I by n/(n+5), as
// Stan does, so that short windows cannot produce a singular metric.
func (w *Warmup) regularise() {
	w.est.Var(w.v)
	RegulariseVar(w.v, w.est.N())
	if w.opts.Dense || w.opts.Auto {
		w.est.Cov(w.c)
		RegulariseCov(w.c, w.dim, w.est.N())
	}
}

// RegulariseVar shrinks variances estimated from n draws towards 1e-3 by
// n/(n+5), as Stan does, so that short windows cannot produce a singular
// metric.
func RegulariseVar(v []float64, n int) {
	a, b := float64(n)/float64(n+5), 1e-3*5/float64(n+5)
	for i, x := range v {
		v[i] = a*x + b
	}
}

// RegulariseCov shrinks a d×d covariance (row-major) estimated from n
// draws towards 1e-3·I as RegulariseVar does its diagonal.
func RegulariseCov(c []float64, d, n int) {
	a, b := float64(n)/float64(n+5), 1e-3*5/float64(n+5)
	for i := range c {
		c[i] *= a
	}
	for i := 0; i < d; i++ {
		c[i*d+i] += b
	}
}

// Var is the latest diagonal inverse metric.
func (w *Warmup) Var() []float64 { return w.v }

// Cov is the latest dense inverse metric (row-major), nil when diagonal.
func (w *Warmup) Cov() []float64 { return w.c }

// Final ends the warm-up and returns the step size to sample with.
func (w *Warmup) Final() float64 {
	eps := w.step.Final()
	if math.IsNaN(eps) || eps <= 0 {
		return 1
	}
	return eps
}

// Covariance is Welford's running estimate of the variance (or covariance
// matrix) of a stream of vectors.
type Covariance struct {
	dim   int
	dense bool
	n     int
	mean  []float64
	m2    []float64 // sums of squared deviations: dim (diagonal) or dim² (dense)
	delta []float64
}

// NewCovariance returns an empty estimator.
func NewCovariance(dim int, dense bool) *Covariance {
	c := &Covariance{dim: dim, dense: dense, mean: make([]float64, dim), delta: make([]float64, dim)}
	if dense {
		c.m2 = make([]float64, dim*dim)
	} else {
		c.m2 = make([]float64, dim)
	}
	return c
}

// Restart forgets every sample.
func (c *Covariance) Restart() {
	c.n = 0
	for i := range c.mean {
		c.mean[i] = 0
	}
	for i := range c.m2 {
		c.m2[i] = 0
	}
}

// N is the number of samples added.
func (c *Covariance) N() int { return c.n }

// Add adds one sample.
func (c *Covariance) Add(x []float64) {
	c.n++
	for i, v := range x {
		c.delta[i] = v - c.mean[i]
		c.mean[i] += c.delta[i] / float64(c.n)
	}
	if c.dense {
		d := c.dim
		for i := 0; i < d; i++ {
			ri := x[i] - c.mean[i]
			for j := 0; j < d; j++ {
				c.m2[i*d+j] += c.delta[j] * ri
			}
		}
		return
	}
	for i, v := range x {
		c.m2[i] += c.delta[i] * (v - c.mean[i])
	}
}

// Var writes the sample variances (denominator n-1) into out.
func (c *Covariance) Var(out []float64) {
	d := c.dim
	for i := range out {
		if c.dense {
			out[i] = c.m2[i*d+i] / float64(c.n-1)
		} else {
			out[i] = c.m2[i] / float64(c.n-1)
		}
	}
}

// Cov writes the sample covariance matrix (denominator n-1) into out; the
// estimator must be dense.
func (c *Covariance) Cov(out []float64) {
	for i, v := range c.m2 {
		out[i] = v / float64(c.n-1)
	}
}

// Cost records one warm-up transition's leapfrog steps and whether it
// diverged, for Auto's trial of a dense metric. Call it before Update.
func (w *Warmup) Cost(leapfrogs int, divergent bool) {
	if w.windows.InWindow() {
		w.steps += leapfrogs
		w.its++
		if divergent {
			w.divs++
		}
	}
}

// choose is Auto's decision at the end of a window of n draws.
func (w *Warmup) choose(n int, last bool) {
	if w.its == 0 {
		return
	}
	cost, div := float64(w.steps)/float64(w.its), float64(w.divs)/float64(w.its)
	switch {
	case w.trial:
		w.trial = false
		// A new metric's first transitions diverge now and then while the
		// step size settles: a few more divergences are allowed.
		if !(cost <= 0.8*w.diagCost && div <= math.Max(2*w.diagDiv, w.diagDiv+0.05)) {
			w.dense, w.rejected = false, true
		}
	case !w.dense && !w.rejected && !last && DenseWorthIt(w.c, w.dim, n):
		w.dense, w.trial = true, true
		w.diagCost, w.diagDiv = cost, div
	}
}

// Dense reports whether the metric is dense: Options.Dense, or Auto's
// choice so far.
func (w *Warmup) Dense() bool { return w.dense }

// AutoMaxDim is the largest dimension Auto considers a dense metric for:
// beyond it a dense metric's d² work per leapfrog step and its estimate's
// need for many draws outweigh what it saves.
const AutoMaxDim = 100

// DenseWorthIt reports whether a window's regularised covariance cov
// (row-major d×d, estimated from n draws) shows correlation strong enough
// for a dense metric to pay: the condition number of its correlation
// matrix — what a diagonal metric leaves of the posterior's shape — is
// above 10 and three times what n independent draws of d uncorrelated
// coordinates would show by chance, ((1+√(d/n))/(1−√(d/n)))² (the
// Marchenko–Pastur edges). Windows of fewer than 5d draws, or d above
// AutoMaxDim, are too short to tell.
func DenseWorthIt(cov []float64, d, n int) bool {
	if d < 2 || d > AutoMaxDim || n < 5*d {
		return false
	}
	r := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			r[i*d+j] = cov[i*d+j] / math.Sqrt(cov[i*d+i]*cov[j*d+j])
		}
	}
	lo, hi := symEigenRange(r, d)
	if !(lo > 0) {
		return true // numerically singular: as correlated as it gets
	}
	q := math.Sqrt(float64(d) / float64(n))
	chance := math.Pow((1+q)/(1-q), 2)
	return hi/lo > math.Max(10, 3*chance)
}

// symEigenRange returns the smallest and largest eigenvalues of the
// symmetric d×d matrix a (row-major); NaN when they cannot be computed.
func symEigenRange(a []float64, d int) (lo, hi float64) {
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(d, append([]float64(nil), a...)), false) {
		return math.NaN(), math.NaN()
	}
	v := eig.Values(nil) // ascending
	return v[0], v[d-1]
}
