package adapt

import "math"

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
}

// Update is what one warm-up iteration tells the chain loop.
type Update struct {
	// StepSize is the step size for the next transition.
	StepSize float64
	// MetricUpdated is true when a slow window just ended: the caller
	// copies Var or Cov into its metric, reruns the step-size heuristic and
	// calls Restart with the step size it found.
	MetricUpdated bool
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
}

// New returns the warm-up of numWarmup iterations in dim dimensions.
func New(dim, numWarmup int, opts Options) *Warmup {
	if opts.TargetAccept == 0 {
		opts.TargetAccept = 0.8
	}
	if opts.InitBuffer == 0 && opts.TermBuffer == 0 && opts.BaseWindow == 0 {
		opts.InitBuffer, opts.TermBuffer, opts.BaseWindow = 75, 50, 25
	}
	w := &Warmup{
		dim:     dim,
		opts:    opts,
		step:    NewStepSize(opts.TargetAccept),
		windows: NewWindows(numWarmup, opts.InitBuffer, opts.TermBuffer, opts.BaseWindow),
		est:     NewCovariance(dim, opts.Dense),
		v:       make([]float64, dim),
	}
	if opts.Dense {
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
	u := Update{StepSize: w.step.Learn(acceptStat)}
	if w.opts.NoMetric || !w.windows.Enabled() {
		return u
	}
	if w.windows.InWindow() {
		w.est.Add(position)
	}
	if w.windows.EndOfWindow() {
		w.windows.computeNextWindow()
		w.regularise()
		w.est.Restart()
		u.MetricUpdated = true
	}
	w.windows.advance()
	return u
}

// regularise shrinks the window's estimate towards 1e-3·I by n/(n+5), as
// Stan does, so that short windows cannot produce a singular metric.
func (w *Warmup) regularise() {
	n := float64(w.est.N())
	a, b := n/(n+5), 1e-3*5/(n+5)
	if w.opts.Dense {
		w.est.Cov(w.c)
		for i := range w.c {
			w.c[i] *= a
		}
		for i := 0; i < w.dim; i++ {
			w.c[i*w.dim+i] += b
		}
		return
	}
	w.est.Var(w.v)
	for i, x := range w.v {
		w.v[i] = a*x + b
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
