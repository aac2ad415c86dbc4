package optim

import (
	"fmt"
	"html"
	"math"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/optimize"

	"github.com/gobayes/gobayes/ppl/infer"
)

// Options are the settings of MAP; zero values mean the defaults.
type Options struct {
	// Init is the unconstrained start; nil draws uniform(-2, 2) from Seed.
	Init []float64
	Seed uint64
	// MaxIterations bounds the L-BFGS iterations (default 2000).
	MaxIterations int
	// GradientTolerance stops when the gradient's largest component is
	// below it (default 1e-8).
	GradientTolerance float64
}

// Result is a mode found by MAP.
type Result struct {
	Model string
	// Position is the unconstrained mode, LogDensity the log density there.
	Position   []float64
	LogDensity float64
	// Values are the constrained values of every recorded variable.
	Values map[string][]float64
	// Vars are the model's variables, in order, for display.
	Vars        []infer.Var
	Iterations  int
	Evaluations int
	// Status says in words why the search stopped; Converged is false
	// only when it stopped away from a mode (the iteration limit, or a
	// line search that failed where the gradient is still large).
	Status    string
	Converged bool
	// Gradient is the largest component of the gradient at Position, on
	// the unconstrained scale (about 0 at a mode).
	Gradient float64
}

// convergedGradient is the gradient below which a stalled search is at a
// mode all the same (gonum reports a line search that cannot improve on
// an optimum as a failure).
const convergedGradient = 1e-4

// status says why the search stopped, in words, and whether at a mode.
func status(s optimize.Status, gmax float64) (string, bool) {
	switch {
	case s == optimize.GradientThreshold:
		return "converged: gradient below tolerance", true
	case s == optimize.IterationLimit:
		return fmt.Sprintf("not converged: stopped at the iteration limit with gradient %.2g; raise it or give a better start", gmax), false
	case gmax <= convergedGradient:
		return "converged: no further progress", true
	}
	return fmt.Sprintf("not converged: the search stalled (%v) with gradient %.2g; give another start (Init, Seed) or reparameterise", s, gmax), false
}

// MAP maximises the model's log density from one start.
func MAP(model infer.Model, opts Options) (*Result, error) {
	dim := model.Dim()
	if opts.MaxIterations == 0 {
		opts.MaxIterations = 2000
	}
	if opts.GradientTolerance == 0 {
		opts.GradientTolerance = 1e-8
	}
	x0 := opts.Init
	d := model.NewDensity()
	if x0 == nil {
		rng := rand.New(rand.NewPCG(opts.Seed, 0x4d4150))
		x0 = make([]float64, dim)
		g := make([]float64, dim)
		for try := 0; ; try++ {
			for i := range x0 {
				x0[i] = 4*rng.Float64() - 2
			}
			if lp := d.LogDensityGrad(x0, g); !math.IsInf(lp, 0) && !math.IsNaN(lp) {
				break
			}
			if try == 99 {
				return nil, fmt.Errorf("optim: no finite starting point in 100 tries; not finite: %s. Give a start (Options.Init)", strings.Join(d.NonFinite(x0), ", "))
			}
		}
	} else if len(x0) != dim {
		return nil, fmt.Errorf("optim: the start has %d values, the model %d unconstrained parameters", len(x0), dim)
	}
	f := func(x, g []float64) float64 {
		lp := d.LogDensityGrad(x, g)
		for i := range g {
			g[i] = -g[i]
		}
		if math.IsNaN(lp) || math.IsInf(lp, 0) {
			return math.Inf(1)
		}
		return -lp
	}
	res, err := lbfgs(f, x0, opts.MaxIterations, opts.GradientTolerance)
	if err != nil {
		return nil, err
	}
	g := make([]float64, dim)
	d.LogDensityGrad(res.X, g)
	gmax := 0.0
	for _, v := range g {
		gmax = math.Max(gmax, math.Abs(v))
	}
	out := &Result{
		Model: model.Name(), Position: res.X, LogDensity: -res.F, Vars: model.Vars(),
		Iterations: res.Stats.MajorIterations, Evaluations: res.Stats.FuncEvaluations + res.Stats.GradEvaluations,
		Gradient: gmax,
	}
	out.Status, out.Converged = status(res.Status, gmax)
	n := 0
	for _, v := range out.Vars {
		n += size(v.Shape)
	}
	flat := make([]float64, n)
	d.Constrained(res.X, flat)
	out.Values = map[string][]float64{}
	k := 0
	for _, v := range out.Vars {
		s := size(v.Shape)
		out.Values[v.Name] = flat[k : k+s : k+s]
		k += s
	}
	return out, nil
}

func size(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// rows are the mode's scalars, one per element as the summaries label
// them (beta[1], beta[2]).
func (r *Result) rows() (names []string, values []float64) {
	for _, v := range r.Vars {
		names = append(names, infer.ColumnNames(v.Name, v.Shape)...)
		values = append(values, r.Values[v.Name]...)
	}
	return names, values
}

func (r *Result) caption() string {
	return fmt.Sprintf("%s: MAP (L-BFGS, %d iterations, %s), log density %.4g", r.Model, r.Iterations, r.Status, r.LogDensity)
}

// String renders the mode as text: one scalar per line.
func (r *Result) String() string {
	var b strings.Builder
	b.WriteString(r.caption() + "\n")
	names, values := r.rows()
	for i, n := range names {
		fmt.Fprintf(&b, "  %s = %.4g\n", n, values[i])
	}
	return b.String()
}

// HTML renders the mode as a table, one scalar per row.
func (r *Result) HTML() string {
	var b strings.Builder
	style := ""
	if !r.Converged {
		style = ` style="color:#b00"`
	}
	fmt.Fprintf(&b, "<div><b>%s</b><span%s>%s</span><table>", html.EscapeString(r.Model+": "), style, html.EscapeString(strings.TrimPrefix(r.caption(), r.Model+": ")))
	names, values := r.rows()
	for i, n := range names {
		fmt.Fprintf(&b, "<tr><th style=\"text-align:left\">%s</th><td style=\"text-align:right\">%.4g</td></tr>", html.EscapeString(n), values[i])
	}
	b.WriteString("</table></div>")
	return b.String()
}
