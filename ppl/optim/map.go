package optim

import (
	"fmt"
	"html"
	"math"
	"math/rand/v2"
	"strings"

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
	// Status says why the search stopped: "gradient below tolerance",
	// "no further progress" or "iteration limit".
	Status string
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
	out := &Result{
		Model: model.Name(), Position: res.X, LogDensity: -res.F, Vars: model.Vars(),
		Iterations: res.Stats.MajorIterations, Evaluations: res.Stats.FuncEvaluations + res.Stats.GradEvaluations,
		Status: res.Status.String(),
	}
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

// String renders the mode as text: one variable per line.
func (r *Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: MAP (L-BFGS, %d iterations, %s), log density %.4g\n", r.Model, r.Iterations, r.Status, r.LogDensity)
	for _, v := range r.Vars {
		fmt.Fprintf(&b, "  %s = %s\n", v.Name, nums(r.Values[v.Name]))
	}
	return b.String()
}

// HTML renders the mode as a table.
func (r *Result) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<div><b>%s</b>: MAP (L-BFGS, %d iterations, %s), log density %.4g<table>", html.EscapeString(r.Model), r.Iterations, html.EscapeString(r.Status), r.LogDensity)
	for _, v := range r.Vars {
		fmt.Fprintf(&b, "<tr><th style=\"text-align:left\">%s</th><td>%s</td></tr>", html.EscapeString(v.Name), nums(r.Values[v.Name]))
	}
	b.WriteString("</table></div>")
	return b.String()
}

func nums(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprintf("%.4g", x)
	}
	if len(s) == 1 {
		return s[0]
	}
	return "[" + strings.Join(s, " ") + "]"
}
