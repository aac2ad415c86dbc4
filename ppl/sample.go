package ppl

import (
	"context"
	"fmt"
	"html"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// SampleOption is a setting of Model.Sample.
type SampleOption func(*sampleSettings)

type sampleSettings struct {
	cfg      infer.Config
	init     map[string]any
	ctx      context.Context
	progress func([]infer.ChainProgress)
	live     *bool
}

// NUTS samples with the No-U-Turn sampler (the default).
func NUTS() SampleOption { return func(s *sampleSettings) { s.cfg.Sampler = "NUTS" } }

// HMC samples with static Hamiltonian Monte Carlo taking about steps
// leapfrog steps per draw.
func HMC(steps int) SampleOption {
	return func(s *sampleSettings) { s.cfg.Sampler, s.cfg.Steps = "HMC", steps }
}

// RWMH samples with random-walk Metropolis (target acceptance 0.234).
func RWMH() SampleOption { return func(s *sampleSettings) { s.cfg.Sampler = "RWMH" } }

// Chains sets the number of chains (default 4), run in parallel.
func Chains(n int) SampleOption { return func(s *sampleSettings) { s.cfg.Chains = n } }

// Warmup sets the warm-up iterations per chain (default 1000; 0 for none).
func Warmup(n int) SampleOption {
	return func(s *sampleSettings) { s.cfg.Warmup, s.cfg.NoWarmup = n, n == 0 }
}

// Draws sets the draws kept per chain (default 1000).
func Draws(n int) SampleOption { return func(s *sampleSettings) { s.cfg.Draws = n } }

// Seed fixes the random streams: the same seed gives the same draws on any
// number of cores.
func Seed(seed uint64) SampleOption { return func(s *sampleSettings) { s.cfg.Seed = seed } }

// TargetAccept sets the step-size adaptation's target acceptance (default
// 0.8); raise it (0.95, 0.99) to remove divergences.
func TargetAccept(a float64) SampleOption {
	return func(s *sampleSettings) { s.cfg.TargetAccept = a }
}

// MaxDepth sets the largest NUTS tree depth (default 10).
func MaxDepth(d int) SampleOption { return func(s *sampleSettings) { s.cfg.MaxDepth = d } }

// DenseMetric adapts a dense inverse metric, for strongly correlated
// posteriors.
func DenseMetric() SampleOption { return func(s *sampleSettings) { s.cfg.Dense = true } }

// Init gives initial values of parameters on their own (constrained)
// scale, by name: a number, or a slice for a vector. Parameters not named
// start at random, as usual.
func Init(values map[string]any) SampleOption { return func(s *sampleSettings) { s.init = values } }

// Context makes the run stop when ctx is cancelled, keeping the draws made
// so far.
func Context(ctx context.Context) SampleOption { return func(s *sampleSettings) { s.ctx = ctx } }

// Progress receives every chain's progress a few times a second (instead
// of the live table Sample shows in a notebook).
func Progress(f func([]infer.ChainProgress)) SampleOption {
	return func(s *sampleSettings) { s.progress = f }
}

// LiveProgress turns the notebook's live progress table on or off (on by
// default when a notebook displays the output).
func LiveProgress(on bool) SampleOption { return func(s *sampleSettings) { s.live = &on } }

// Sample compiles the model and samples it: 4 chains of 1000 warm-up
// iterations and 1000 draws with NUTS unless options say otherwise. In a
// notebook it shows a live progress table; as a cell's last expression the
// posterior shows its summary table. Errors (a model that does not compile,
// no finite starting point, bad options) panic with an *Error.
func (m *Model) Sample(opts ...SampleOption) *posterior.Posterior {
	p, err := m.sample(opts...)
	if err != nil {
		if e, ok := err.(*Error); ok {
			panic(e)
		}
		panic(&Error{Msg: strings.TrimPrefix(err.Error(), "infer: ")})
	}
	return p
}

func (m *Model) sample(opts ...SampleOption) (*posterior.Posterior, error) {
	s := sampleSettings{ctx: context.Background()}
	for _, o := range opts {
		o(&s)
	}
	c, err := m.Compile()
	if err != nil {
		return nil, err
	}
	if s.init != nil {
		inits, err := c.initialPositions(s.init, s.cfg)
		if err != nil {
			return nil, err
		}
		s.cfg.InitChains = inits
	}
	s.cfg.Progress = s.progress
	var h *display.Handle
	var table *progressTable
	live := notebookActive()
	if s.live != nil {
		live = *s.live
	}
	if s.progress == nil && live {
		h = display.NewHandle()
		table = &progressTable{model: c.Name(), start: time.Now()}
		s.cfg.Progress = func(ps []infer.ChainProgress) {
			table.rows = append(table.rows[:0], ps...)
			h.Update(table)
		}
	}
	return infer.Run(s.ctx, c, s.cfg)
}

// notebookActive reports whether display output goes to a notebook (a
// publisher is set) rather than to standard output.
func notebookActive() bool {
	prev := display.SetPublisher(nil)
	display.SetPublisher(prev)
	return prev != nil
}

// progressTable is the live display of a run: one row per chain.
type progressTable struct {
	model string
	start time.Time
	rows  []infer.ChainProgress
}

func (t *progressTable) phase(r infer.ChainProgress) string {
	switch {
	case r.Done && r.Iteration < r.Total:
		return "stopped"
	case r.Done:
		return "done"
	case r.Warmup:
		return "warm-up"
	}
	return "sampling"
}

// String renders the table as text.
func (t *progressTable) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: sampling, %.1f s\n", t.model, time.Since(t.start).Seconds())
	fmt.Fprintf(&b, "%-6s %-22s %-9s %11s %10s\n", "chain", "progress", "phase", "divergences", "step size")
	for _, r := range t.rows {
		frac := float64(r.Iteration) / math.Max(1, float64(r.Total))
		bar := strings.Repeat("█", int(frac*20)) + strings.Repeat("·", 20-int(frac*20))
		fmt.Fprintf(&b, "%-6d %s %3.0f%% %-9s %11d %10.3g\n", r.Chain+1, bar, 100*frac, t.phase(r), r.Divergences, r.StepSize)
	}
	return b.String()
}

// HTML renders the table with progress bars.
func (t *progressTable) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="gobayes-progress"><b>%s</b>: %.1f s<table><thead><tr><th>chain</th><th>progress</th><th>iteration</th><th>phase</th><th>divergences</th><th>step size</th></tr></thead><tbody>`,
		html.EscapeString(t.model), time.Since(t.start).Seconds())
	for _, r := range t.rows {
		frac := float64(r.Iteration) / math.Max(1, float64(r.Total))
		color := "#1f77b4"
		if r.Warmup {
			color = "#aaa"
		}
		div := fmt.Sprint(r.Divergences)
		if r.Divergences > 0 {
			div = `<span style="color:#b00">` + div + "</span>"
		}
		fmt.Fprintf(&b, `<tr><td>%d</td><td><div style="width:12em;background:#eee"><div style="width:%.1f%%;background:%s;height:0.8em"></div></div></td><td>%d / %d</td><td>%s</td><td style="text-align:right">%s</td><td style="text-align:right">%.3g</td></tr>`,
			r.Chain+1, 100*frac, color, r.Iteration, r.Total, t.phase(r), div, r.StepSize)
	}
	b.WriteString("</tbody></table></div>")
	return b.String()
}

// initialPositions turns constrained initial values into one unconstrained
// position per chain; parameters not given start uniformly in (-2, 2).
func (c *Compiled) initialPositions(values map[string]any, cfg infer.Config) ([][]float64, error) {
	chains := cfg.Chains
	if chains == 0 {
		chains = 4
	}
	params := c.Params()
	byName := map[string]Param{}
	for _, p := range params {
		byName[p.Name] = p
	}
	names := make([]string, 0, len(values))
	for n := range values {
		names = append(names, n)
	}
	sort.Strings(names)
	want := map[string][]float64{}
	for _, n := range names {
		p, ok := byName[n]
		if !ok {
			known := make([]string, len(params))
			for i, q := range params {
				known[i] = q.Name
			}
			return nil, &Error{Var: n, Msg: fmt.Sprintf("Init names no free parameter of the model (its parameters: %s)", strings.Join(known, ", "))}
		}
		v, err := floatsOf(values[n])
		if err != nil {
			return nil, &Error{Var: n, Msg: "Init: " + err.Error()}
		}
		size := 1
		for _, d := range p.Shape {
			size *= d
		}
		if len(v) == 1 && size > 1 {
			v = repeat(v[0], size)
		}
		if len(v) != size {
			return nil, &Error{Var: n, Msg: fmt.Sprintf("Init gives %d values; the parameter has %d", len(v), size)}
		}
		switch p.Transform {
		case "identity", "lower", "upper", "interval":
		default:
			return nil, &Error{Var: n, Msg: fmt.Sprintf("Init supports parameters with elementwise supports; this one is %s: leave it out and it starts at random", p.Transform)}
		}
		want[n] = v
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x1417))
	out := make([][]float64, chains)
	for k := range out {
		x := make([]float64, c.Dim())
		for i := range x {
			x[i] = 4*rng.Float64() - 2
		}
		if err := c.solveInit(x, want); err != nil {
			return nil, err
		}
		out[k] = x
	}
	return out, nil
}

// solveInit sets the unconstrained slots of the named parameters so that
// their constrained values match want. Elementwise transforms are monotone
// in their own slot, so each slot is found by bisection; bounds that depend
// on other parameters are settled by sweeping a few times.
func (c *Compiled) solveInit(x []float64, want map[string][]float64) error {
	start := map[string]int{}
	k := 0
	for _, v := range c.Vars() {
		start[v.Name] = k
		n := 1
		for _, d := range v.Shape {
			n *= d
		}
		k += n
	}
	out := make([]float64, c.VarLen())
	d := c.NewDensity()
	at := func(slot, col int, u float64) float64 {
		x[slot] = u
		d.Constrained(x, out)
		return out[col]
	}
	for sweep := 0; sweep < 4; sweep++ {
		for _, p := range c.Params() {
			target, ok := want[p.Name]
			if !ok {
				continue
			}
			for i, t := range target {
				slot, col := p.Offset+i, start[p.Name]+i
				lo, hi := -40.0, 40.0
				flo, fhi := at(slot, col, lo)-t, at(slot, col, hi)-t
				if math.IsNaN(flo) || math.IsNaN(fhi) || flo*fhi > 0 {
					return &Error{Var: p.Name, Msg: fmt.Sprintf("Init value %g is outside the parameter's support (%s): give a value inside it", t, p.Transform)}
				}
				for it := 0; it < 200 && hi-lo > 1e-12; it++ {
					mid := 0.5 * (lo + hi)
					fm := at(slot, col, mid) - t
					if (fm < 0) == (flo < 0) {
						lo, flo = mid, fm
					} else {
						hi = mid
					}
				}
				x[slot] = 0.5 * (lo + hi)
			}
		}
	}
	return nil
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// floatsOf reads a number or a slice of numbers.
func floatsOf(v any) ([]float64, error) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Float64, reflect.Float32:
		return []float64{rv.Float()}, nil
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Int16, reflect.Int8:
		return []float64{float64(rv.Int())}, nil
	case reflect.Uint, reflect.Uint64, reflect.Uint32, reflect.Uint16, reflect.Uint8:
		return []float64{float64(rv.Uint())}, nil
	case reflect.Slice, reflect.Array:
		out := make([]float64, rv.Len())
		for i := range out {
			e, err := floatsOf(rv.Index(i).Interface())
			if err != nil || len(e) != 1 {
				return nil, fmt.Errorf("element %d of the initial value is not a number", i)
			}
			out[i] = e[0]
		}
		return out, nil
	}
	return nil, fmt.Errorf("initial value of type %T: give a number or a slice of numbers", v)
}
