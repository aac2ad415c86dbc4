package vi

import (
	"context"
	"fmt"
	"html"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// Method is the family of the approximation.
type Method string

// The two families.
const (
	MeanField Method = "meanfield" // independent normals
	FullRank  Method = "fullrank"  // a normal with dense covariance
)

// Options are the settings of ADVI; zero values mean Stan's defaults.
type Options struct {
	Method Method // default MeanField
	Seed   uint64
	// MaxIterations bounds the optimisation (default 10000).
	MaxIterations int
	// GradSamples draws per gradient (default 1); ELBOSamples draws per
	// ELBO estimate (default 100); EvalEvery iterations between ELBO
	// estimates (default 100).
	GradSamples, ELBOSamples, EvalEvery int
	// TolRelObj stops when the mean or median relative ELBO change over
	// the last max(0.1·MaxIterations/EvalEvery, 2) evaluations falls below
	// it (default 0.01), tested once that many evaluations were made.
	TolRelObj float64
	// Eta is the step-size scale; 0 chooses it among 100, 10, 1, 0.1, 0.01
	// by a short trial of AdaptIterations (default 50) each.
	Eta             float64
	AdaptIterations int
	// Draws is the number of draws from the approximation (default 1000).
	Draws int
	// Batch, when set, makes the fit stochastic-gradient ADVI over
	// minibatches: each gradient, and each draw of an ELBO estimate, uses
	// the density Batch returns, an unbiased estimate of the model's log
	// density from a block of rows (the prior whole, the block's
	// log-likelihood scaled by N over its rows). The model's own density
	// serves only the start and the draws' constrained values.
	Batch func(r *rand.Rand) infer.Density
	// Progress, when set, is called after every iteration with the
	// iterations done and MaxIterations.
	Progress func(done, total int)
}

// Result is a fitted approximation.
type Result struct {
	Model  string
	Method Method
	// Mean is the approximation's mean on the unconstrained scale; Chol
	// the lower Cholesky factor of its covariance, row-major (diagonal
	// only, off-diagonals zero, for mean-field).
	Mean, Chol []float64
	// ELBO is the history of ELBO estimates (ELBOSamples draws each), at
	// iterations ELBOIter, every EvalEvery iterations: what the convergence
	// test reads.
	ELBO     []float64
	ELBOIter []int
	// ELBOTrace is the ELBO at every iteration k (ELBOTrace[k-1]), each
	// estimated from that iteration's GradSamples draws: noisy, but the
	// whole course of the optimisation at no extra cost.
	ELBOTrace []float64
	Eta       float64
	// Converged is false when MaxIterations ran out first.
	Converged bool
	// Posterior holds Options.Draws draws from the approximation, as one
	// chain, on the constrained scale.
	Posterior *posterior.Posterior
}

type fitter struct {
	d      infer.Density
	dim    int
	full   bool
	rng    *rand.Rand
	opts   Options
	eta    []float64 // standard normal draw
	zeta   []float64 // its image
	g      []float64 // gradient of log p at zeta
	mu     []float64
	omega  []float64 // mean-field: log sd
	l      []float64 // full-rank: lower Cholesky factor, row-major
	gradMu []float64
	gradS  []float64 // gradient for omega or l
	sMu    []float64 // step-size accumulators
	sS     []float64
}

func (f *fitter) transform() {
	d := f.dim
	if !f.full {
		for i := range f.zeta {
			f.zeta[i] = f.mu[i] + math.Exp(f.omega[i])*f.eta[i]
		}
		return
	}
	for i := 0; i < d; i++ {
		s := f.mu[i]
		for k := 0; k <= i; k++ {
			s += f.l[i*d+k] * f.eta[k]
		}
		f.zeta[i] = s
	}
}

func (f *fitter) draw() {
	for i := range f.eta {
		f.eta[i] = f.rng.NormFloat64()
	}
	f.transform()
}

// entropy of the approximation, up to a constant.
func (f *fitter) entropy() float64 {
	s := 0.0
	if !f.full {
		for _, o := range f.omega {
			s += o
		}
		return s
	}
	for i := 0; i < f.dim; i++ {
		s += math.Log(math.Abs(f.l[i*f.dim+i]))
	}
	return s
}

// elbo estimates the ELBO with ELBOSamples draws.
func (f *fitter) elbo() float64 {
	s := 0.0
	n := 0
	for k := 0; k < f.opts.ELBOSamples; k++ {
		f.draw()
		lp := f.density().LogDensityGrad(f.zeta, f.g)
		if math.IsNaN(lp) || math.IsInf(lp, 0) {
			return math.Inf(-1)
		}
		s += lp
		n++
	}
	return s/float64(n) + f.entropy()
}

// gradient estimates the ELBO's gradient into gradMu and gradS, and
// returns the ELBO estimated from the same draws.
func (f *fitter) gradient() (float64, error) {
	for i := range f.gradMu {
		f.gradMu[i] = 0
	}
	for i := range f.gradS {
		f.gradS[i] = 0
	}
	d := f.dim
	sumLP := 0.0
	dens := f.density()
	for k := 0; k < f.opts.GradSamples; k++ {
		ok := false
		for try := 0; try < 20; try++ {
			f.draw()
			lp := dens.LogDensityGrad(f.zeta, f.g)
			if !math.IsNaN(lp) && !math.IsInf(lp, 0) && finite(f.g) {
				sumLP += lp
				ok = true
				break
			}
		}
		if !ok {
			return math.NaN(), fmt.Errorf("vi: the log density or its gradient is not finite at 20 draws in a row from the approximation")
		}
		for i := 0; i < d; i++ {
			f.gradMu[i] += f.g[i]
			if !f.full {
				f.gradS[i] += f.g[i] * f.eta[i] * math.Exp(f.omega[i])
				continue
			}
			for j := 0; j <= i; j++ {
				f.gradS[i*d+j] += f.g[i] * f.eta[j]
			}
		}
	}
	n := float64(f.opts.GradSamples)
	elbo := sumLP/n + f.entropy()
	for i := range f.gradMu {
		f.gradMu[i] /= n
	}
	for i := range f.gradS {
		f.gradS[i] /= n
	}
	// Entropy's gradient.
	for i := 0; i < d; i++ {
		if f.full {
			f.gradS[i*d+i] += 1 / f.l[i*d+i]
		} else {
			f.gradS[i]++
		}
	}
	return elbo, nil
}

// density is the log density of the next estimate: a fresh minibatch's
// under Options.Batch, the model's otherwise.
func (f *fitter) density() infer.Density {
	if f.opts.Batch != nil {
		return f.opts.Batch(f.rng)
	}
	return f.d
}

func finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

func (f *fitter) reset(x0 []float64) {
	copy(f.mu, x0)
	for i := range f.omega {
		f.omega[i] = 0
	}
	for i := range f.l {
		f.l[i] = 0
	}
	if f.full {
		for i := 0; i < f.dim; i++ {
			f.l[i*f.dim+i] = 1
		}
	}
	for i := range f.sMu {
		f.sMu[i] = 0
	}
	for i := range f.sS {
		f.sS[i] = 0
	}
}

// step takes iteration k (1-based) of Stan's adaptive sequence:
// s_k = α g² + (1-α) s_{k-1} (s_1 = g²), ρ_k = η k^(-1/2+ε) / (τ + sqrt(s_k)).
func (f *fitter) step(k int, eta float64) {
	const alpha, tau = 0.1, 1.0
	scale := eta * math.Pow(float64(k), -0.5+1e-16)
	upd := func(p, g, s []float64) {
		for i := range p {
			if k == 1 {
				s[i] = g[i] * g[i]
			} else {
				s[i] = alpha*g[i]*g[i] + (1-alpha)*s[i]
			}
			p[i] += scale * g[i] / (tau + math.Sqrt(s[i]))
		}
	}
	upd(f.mu, f.gradMu, f.sMu)
	if f.full {
		upd(f.l, f.gradS, f.sS)
	} else {
		upd(f.omega, f.gradS, f.sS)
	}
}

// ADVI fits the approximation to model.
func ADVI(ctx context.Context, model infer.Model, opts Options) (*Result, error) {
	if opts.Method == "" {
		opts.Method = MeanField
	}
	if opts.Method != MeanField && opts.Method != FullRank {
		return nil, fmt.Errorf("vi: unknown method %q: use %q or %q", opts.Method, MeanField, FullRank)
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&opts.MaxIterations, 10000)
	def(&opts.GradSamples, 1)
	def(&opts.ELBOSamples, 100)
	def(&opts.EvalEvery, 100)
	def(&opts.AdaptIterations, 50)
	def(&opts.Draws, 1000)
	if opts.TolRelObj == 0 {
		opts.TolRelObj = 0.01
	}
	dim := model.Dim()
	full := opts.Method == FullRank
	f := &fitter{
		d: model.NewDensity(), dim: dim, full: full, opts: opts,
		rng: rand.New(rand.NewPCG(opts.Seed, 0xad71)),
		eta: make([]float64, dim), zeta: make([]float64, dim), g: make([]float64, dim),
		mu: make([]float64, dim), gradMu: make([]float64, dim), sMu: make([]float64, dim),
	}
	if full {
		f.l, f.gradS, f.sS = make([]float64, dim*dim), make([]float64, dim*dim), make([]float64, dim*dim)
	} else {
		f.omega, f.gradS, f.sS = make([]float64, dim), make([]float64, dim), make([]float64, dim)
	}
	// Start: a uniform(-2, 2) point with a finite density.
	x0 := make([]float64, dim)
	for try := 0; ; try++ {
		for i := range x0 {
			x0[i] = 4*f.rng.Float64() - 2
		}
		if lp := f.d.LogDensityGrad(x0, f.g); !math.IsNaN(lp) && !math.IsInf(lp, 0) {
			break
		}
		if try == 99 {
			return nil, fmt.Errorf("vi: no finite starting point in 100 tries; not finite: %s", strings.Join(f.d.NonFinite(x0), ", "))
		}
	}
	start := time.Now()
	eta := opts.Eta
	if eta == 0 {
		var err error
		if eta, err = f.adaptEta(ctx, x0); err != nil {
			return nil, err
		}
	}
	f.reset(x0)
	res := &Result{Model: model.Name(), Method: opts.Method, Eta: eta}
	// Stan's convergence test (advi::stochastic_gradient_ascent): the
	// relative ELBO changes of the last `window` evaluations — the first
	// one against 0, so 1 — and a stop when their mean or median falls
	// below TolRelObj. Stan tests from the first evaluation on, so that
	// the median of {1, r₂, r₃} stops most fits at iteration 300 whatever
	// the ELBO does next; here the test waits until the window is full
	// (1000 iterations at the defaults), so that one lucky small change
	// cannot end the fit.
	window := max(int(0.1*float64(opts.MaxIterations)/float64(opts.EvalEvery)), 2)
	var rel []float64
	prev := 0.0
	res.ELBOTrace = make([]float64, 0, min(opts.MaxIterations, 1<<16))
	for k := 1; k <= opts.MaxIterations; k++ {
		if ctx.Err() != nil {
			break
		}
		e, err := f.gradient()
		if err != nil {
			return nil, err
		}
		res.ELBOTrace = append(res.ELBOTrace, e)
		f.step(k, eta)
		if opts.Progress != nil {
			opts.Progress(k, opts.MaxIterations)
		}
		if k%opts.EvalEvery != 0 {
			continue
		}
		e = f.elbo()
		res.ELBO = append(res.ELBO, e)
		res.ELBOIter = append(res.ELBOIter, k)
		rel = append(rel, relativeChange(e, prev))
		if len(rel) > window {
			rel = rel[1:]
		}
		if converged(rel, window, opts.TolRelObj) {
			res.Converged = true
			break
		}
		prev = e
	}
	res.Mean = append([]float64(nil), f.mu...)
	res.Chol = make([]float64, dim*dim)
	if full {
		copy(res.Chol, f.l)
	} else {
		for i, o := range f.omega {
			res.Chol[i*dim+i] = math.Exp(o)
		}
	}
	res.Posterior = f.draws(model, res, time.Since(start).Seconds())
	return res, nil
}

// adaptEta tries Stan's sequence of step-size scales and keeps the one
// whose short run reaches the best ELBO.
func (f *fitter) adaptEta(ctx context.Context, x0 []float64) (float64, error) {
	best, bestELBO := 0.0, math.Inf(-1)
	for _, eta := range []float64{100, 10, 1, 0.1, 0.01} {
		if ctx.Err() != nil {
			break
		}
		f.reset(x0)
		ok := true
		for k := 1; k <= f.opts.AdaptIterations; k++ {
			if _, err := f.gradient(); err != nil {
				ok = false
				break
			}
			f.step(k, eta)
		}
		if !ok {
			continue
		}
		e := f.elbo()
		if !math.IsNaN(e) && e > bestELBO {
			best, bestELBO = eta, e
		} else if best != 0 {
			break // the ELBO got worse: smaller scales will not help more
		}
	}
	if best == 0 {
		return 0, fmt.Errorf("vi: every step-size scale diverged (100 … 0.01): give Options.Eta, smaller")
	}
	return best, nil
}

func (f *fitter) draws(model infer.Model, res *Result, seconds float64) *posterior.Posterior {
	vars := model.Vars()
	p := &posterior.Posterior{Model: model.Name(), Sampler: "ADVI " + string(res.Method), Seconds: []float64{seconds}, Approximation: true}
	for _, v := range vars {
		p.Vars = append(p.Vars, posterior.Var{Name: v.Name, Shape: v.Shape, Deterministic: v.Deterministic, Start: len(p.Columns)})
		p.Columns = append(p.Columns, infer.ColumnNames(v.Name, v.Shape)...)
	}
	n := f.opts.Draws
	ch := posterior.Chain{Values: make([][]float64, len(p.Columns))}
	for j := range ch.Values {
		ch.Values[j] = make([]float64, n)
	}
	ch.Stats.LP = make([]float64, n)
	row := make([]float64, len(p.Columns))
	for i := 0; i < n; i++ {
		f.draw()
		ch.Stats.LP[i] = f.d.LogDensityGrad(f.zeta, f.g)
		f.d.Constrained(f.zeta, row)
		for j, v := range row {
			ch.Values[j][i] = v
		}
	}
	p.Chains = []posterior.Chain{ch}
	return p
}

// relativeChange is Stan's rel_difference: |(e - prev) / e|.
func relativeChange(e, prev float64) float64 {
	return math.Abs((e - prev) / e)
}

// converged is the stopping rule on the window of relative ELBO changes:
// a full window whose mean or median is below tol.
func converged(rel []float64, window int, tol float64) bool {
	return len(rel) >= window && (mean(rel) < tol || median(rel) < tol)
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func median(x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// String renders the fit: method, convergence, the last ELBO, and the
// summary of the approximation's draws.
func (r *Result) String() string {
	return r.header() + "\n" + r.Posterior.Summary().String()
}

// HTML renders the same as an HTML fragment.
func (r *Result) HTML() string {
	return "<div><p>" + html.EscapeString(r.header()) + "</p>" + r.Posterior.Summary().HTML() + "</div>"
}

func (r *Result) header() string {
	state := "converged"
	if !r.Converged {
		state = "not converged (iteration limit)"
	}
	last := math.NaN()
	if len(r.ELBO) > 0 {
		last = r.ELBO[len(r.ELBO)-1]
	}
	return fmt.Sprintf("%s: ADVI %s, %s after %d iterations (%d ELBO evaluations), ELBO %.4g, eta %g", r.Model, r.Method, state, len(r.ELBOTrace), len(r.ELBO), last, r.Eta)
}
