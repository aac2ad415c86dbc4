package ppl

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/dist"
)

// Model is a graph of random variables, deterministic quantities and
// explicit log-density terms. Build it with the methods named after the
// distributions (m.Normal, m.HalfCauchy, …), then Compile it (Sample
// compiles it for you).
type Model struct {
	name  string
	rvs   []*RV
	dets  []*node
	terms []term
	// names maps every name in use to what it names, for duplicate checks
	// and Lookup.
	names    map[string]any
	err      *Error
	compiled *Compiled
	cerr     error
	version  int // counts changes, so a stale Compiled can tell
	shards   int // 0: automatic; see Shards
}

// term is an explicit log-density term (Stan's target +=).
type term struct {
	name string
	n    *node
}

// NewModel starts an empty model. The name labels summaries and files;
// options (Shards) set how it compiles.
func NewModel(name string, opts ...ModelOption) *Model {
	m := &Model{name: name, names: map[string]any{}}
	for _, o := range opts {
		o(m)
	}
	return m
}

// Name is the model's name.
func (m *Model) Name() string { return m.name }

// Err returns the first mistake met while building the model (an *Error),
// or nil.
func (m *Model) Err() error {
	if m.err == nil {
		return nil
	}
	return m.err
}

// changed drops a cached compilation: the model grew.
func (m *Model) changed() { m.compiled, m.cerr, m.version = nil, nil, m.version+1 }

// claim reserves name for v, failing when it is empty, malformed or taken.
func (m *Model) claim(name string, v any) {
	if name == "" {
		m.failf(name, "a variable needs a name")
	}
	if strings.ContainsAny(name, "[], \t\n:") {
		m.failf(name, "the name may not contain brackets, commas, colons or spaces (they are used for elements, as in %s[1])", name)
	}
	if old, ok := m.names[name]; ok {
		m.failf(name, "the name is already used by %s; give every variable, deterministic and log-density term its own name", describeNamed(old))
	}
	m.names[name] = v
	m.changed()
}

func describeNamed(v any) string {
	switch x := v.(type) {
	case *RV:
		if x.observed {
			return "an observed variable"
		}
		return "a random variable"
	case *node:
		return "a deterministic quantity"
	}
	return "a log-density term"
}

// Lookup returns the random variable or deterministic quantity of the
// given name; an unknown name is an error listing the names there are.
func (m *Model) Lookup(name string) Expr {
	switch x := m.names[name].(type) {
	case *RV:
		return x
	case *node:
		return x
	}
	known := make([]string, 0, len(m.names))
	for k, v := range m.names {
		if _, ok := v.(term); !ok {
			known = append(known, k)
		}
	}
	slices.Sort(known)
	m.failf(name, "no variable of this name in model %q (it has: %s)", m.name, strings.Join(known, ", "))
	return nil
}

// Deterministic records expr under name: its value is part of every draw
// (Stan's generated quantities, PyMC's Deterministic). It returns the
// expression, to use further.
func (m *Model) Deterministic(name string, expr any) Expr {
	n, err := asNode(expr)
	if err != nil {
		m.failf(name, "%v", err)
	}
	if n.model != nil && n.model != m {
		m.failf(name, "the expression uses variables of model %q; it belongs to %q", n.model.name, m.name)
	}
	d := &node{kind: kReshape, fn: "Deterministic", shape: slices.Clone(n.shape), args: []*node{n}, det: name, model: m}
	m.claim(name, d)
	m.dets = append(m.dets, d)
	return d
}

// LogDensity adds expr to the model's log density (Stan's target +=): a
// custom likelihood, a marginalised sum, a Jacobian correction. A
// non-scalar expression adds the sum of its elements. The name labels the
// term in errors.
func (m *Model) LogDensity(name string, expr any) {
	n, err := asNode(expr)
	if err != nil {
		m.failf(name, "%v", err)
	}
	if n.model != nil && n.model != m {
		m.failf(name, "the expression uses variables of model %q; it belongs to %q", n.model.name, m.name)
	}
	if n.Len() != 1 {
		n = Sum(n).node()
	}
	m.claim(name, term{name, n})
	m.terms = append(m.terms, term{name, n})
}

// Option configures a random variable: its shape (Size, Shape), bounds
// (Lower, Upper, Bounds), an ordering (Ordered, PositiveOrdered) or its
// data (Observed).
type Option func(*options)

type options struct {
	shape        []int
	lower, upper any
	order        order
	observed     any
	hasObserved  bool
}

type order uint8

const (
	unordered order = iota
	ordered
	positiveOrdered
)

// Size makes a vector of n independent draws (parameters broadcast).
func Size(n int) Option { return func(o *options) { o.shape = []int{n} } }

// Shape gives the variable any shape, for example Shape(r, c) for a
// matrix of r rows and c columns.
func Shape(dims ...int) Option { return func(o *options) { o.shape = slices.Clone(dims) } }

// Lower bounds a continuous variable below by lb: a number or an
// expression of other parameters.
func Lower(lb any) Option { return func(o *options) { o.lower = lb } }

// Upper bounds a continuous variable above by ub: a number or an
// expression of other parameters (garch's beta1 < 1 - alpha1).
func Upper(ub any) Option { return func(o *options) { o.upper = ub } }

// Bounds confines a continuous variable to (lb, ub).
func Bounds(lb, ub any) Option {
	return func(o *options) { o.lower, o.upper = lb, ub }
}

// Ordered makes a vector increasing: x[0] < x[1] < … (identifies the
// components of a mixture).
func Ordered() Option { return func(o *options) { o.order = ordered } }

// PositiveOrdered makes a vector positive and increasing.
func PositiveOrdered() Option { return func(o *options) { o.order = positiveOrdered } }

// Observed gives the variable's data at once, like calling Observe.
func Observed(data any) Option {
	return func(o *options) { o.observed, o.hasObserved = data, true }
}

// RV is a random variable: a parameter to infer, or, once observed, data
// whose log density is part of the model. It is an Expr, usable wherever a
// value is.
type RV struct {
	m      *Model
	name   string
	fam    *dist.Family // nil for a mixture
	params []*node
	mix    *mixture
	n      *node
	// shapeFixed says the shape was given (Size, Shape) or follows from
	// non-scalar parameters; otherwise Observe may widen it to the data's.
	shapeFixed bool
	observed   bool
	data       []float64
	lower      *node
	upper      *node
	order      order
	used       bool
}

// Name is the variable's name.
func (r *RV) Name() string { return r.name }

// Shape is the variable's shape (nil for a scalar).
func (r *RV) Shape() []int { return slices.Clone(r.n.shape) }

// IsObserved reports whether the variable carries data.
func (r *RV) IsObserved() bool { return r.observed }

// Family is the variable's distribution (nil for a mixture).
func (r *RV) Family() *dist.Family { return r.fam }

func (r *RV) node() *node {
	if r == nil {
		return nil
	}
	r.used = true
	return r.n
}

// String describes the variable as its model's listing does:
// "theta_tilde[8] ~ Normal(0, 1)".
func (r *RV) String() string {
	l := r.m.line(r)
	return l[0] + " " + l[1] + " " + l[2]
}

// Var adds a random variable of any distribution family: fam's parameters
// in the order fam.Params lists them. The methods named after the
// distributions call it.
func (m *Model) Var(name string, fam *dist.Family, params []any, opts ...Option) *RV {
	if fam == nil {
		m.failf(name, "no distribution given")
	}
	if len(params) != len(fam.Params) {
		m.failf(name, "%s takes %d parameters (%s), got %d", fam.Name, len(fam.Params), strings.Join(fam.Params, ", "), len(params))
	}
	var o options
	for _, f := range opts {
		f(&o)
	}
	r := &RV{m: m, name: name, fam: fam}
	r.params = make([]*node, len(params))
	for i, p := range params {
		n := m.paramNode(name, fam, i, p)
		r.params[i] = n
	}
	shape := r.eventShape(o.shape)
	m.claim(name, r)
	r.n = &node{kind: kRV, rv: r, shape: shape, model: m}
	m.applyBounds(r, &o)
	m.rvs = append(m.rvs, r)
	if o.hasObserved {
		r.Observe(o.observed)
	}
	return r
}

// paramName is parameter i of fam, for messages.
func paramName(fam *dist.Family, i int) string {
	if i < len(fam.Params) {
		return fam.Params[i]
	}
	return fmt.Sprintf("parameter %d", i+1)
}

// paramNode converts parameter i of a variable and checks data against
// the parameter's support.
func (m *Model) paramNode(name string, fam *dist.Family, i int, p any) *node {
	n, err := asNode(p)
	if err != nil {
		m.failf(name, "%s %s: %v", fam.Name, paramName(fam, i), err)
	}
	if n.model != nil && n.model != m {
		m.failf(name, "%s %s uses variables of model %q", fam.Name, paramName(fam, i), n.model.name)
	}
	if n.kind == kConst {
		var sup dist.Support
		if i < len(fam.ParamSupport) {
			sup = fam.ParamSupport[i]
		}
		if msg := checkSupport(n.data, sup.Kind, math.Inf(-1), math.Inf(1)); msg != "" {
			m.failf(name, "%s %s %s", fam.Name, paramName(fam, i), msg)
		}
	}
	return n
}

// checkSupport says what is wrong with data for a support, "" when
// nothing is. lo and hi bound Bounded supports.
func checkSupport(d []float64, k dist.SupportKind, lo, hi float64) string {
	for i, v := range d {
		at := ""
		if len(d) > 1 {
			at = fmt.Sprintf(" at index %d", i)
		}
		if math.IsNaN(v) {
			return fmt.Sprintf("is NaN%s; data must be numbers (remove or impute missing values)", at)
		}
		switch k {
		case dist.Real:
			if math.IsInf(v, 0) {
				return fmt.Sprintf("is %v%s; want a finite number", v, at)
			}
		case dist.Positive:
			if !(v > 0) || math.IsInf(v, 0) {
				return fmt.Sprintf("is %v%s; it must be positive", v, at)
			}
		case dist.UnitInterval:
			if !(v >= 0 && v <= 1) {
				return fmt.Sprintf("is %v%s; it must lie in [0, 1]", v, at)
			}
		case dist.Bounded:
			if !(v >= lo && v <= hi) {
				return fmt.Sprintf("is %v%s; it must lie in [%v, %v]", v, at, lo, hi)
			}
		case dist.NonNegInt:
			if v < 0 || v != math.Trunc(v) || math.IsInf(v, 0) {
				return fmt.Sprintf("is %v%s; want a whole number ≥ 0", v, at)
			}
		case dist.Binary:
			if v != 0 && v != 1 {
				return fmt.Sprintf("is %v%s; want 0 or 1", v, at)
			}
		case dist.BoundedInt:
			if v < lo || v > hi || v != math.Trunc(v) {
				return fmt.Sprintf("is %v%s; want a whole number in [%v, %v]", v, at, lo, hi)
			}
		}
	}
	if k == dist.Simplex {
		s := 0.0
		for _, v := range d {
			if v < 0 {
				return fmt.Sprintf("has a negative entry %v; a simplex has entries ≥ 0 that sum to 1", v)
			}
			s += v
		}
		if math.Abs(s-1) > 1e-8 {
			return fmt.Sprintf("sums to %v; a simplex sums to 1", s)
		}
	}
	return ""
}

// eventShape works out the variable's shape from its parameters and the
// Size/Shape option, failing on a mismatch.
func (r *RV) eventShape(given []int) []int {
	m, fam := r.m, r.fam
	for _, d := range given {
		if d <= 0 {
			m.failf(r.name, "shape %v has a dimension that is not positive", given)
		}
	}
	if fam.EventRank == 0 {
		var ps []int
		for i, p := range r.params {
			if p.Len() == 1 {
				continue
			}
			if ps == nil {
				ps = p.shape
			} else if !slices.Equal(ps, p.shape) {
				m.failf(r.name, "%s parameters have shapes %v and %v (%s); they must have equal shapes or be scalars", fam.Name, ps, p.shape, paramName(fam, i))
			}
		}
		if given != nil {
			if ps != nil && !slices.Equal(ps, given) {
				m.failf(r.name, "the parameters have shape %v but the variable was given shape %v; make them agree", ps, given)
			}
			r.shapeFixed = true
			return slices.Clone(given)
		}
		if ps != nil {
			r.shapeFixed = true
		}
		return slices.Clone(ps)
	}
	// Multivariate families: the event shape comes from a parameter.
	var event, batch []int
	switch fam.Name {
	case "Dirichlet":
		a := r.params[0]
		if len(a.shape) != 1 || a.Len() < 2 {
			m.failf(r.name, "Dirichlet alpha has shape %v; want a vector of at least 2 concentrations", a.shape)
		}
		event = a.shape
	case "MultiNormalChol", "MultivariateNormal", "MultiNormal":
		mu, L := r.params[0], r.params[1]
		k := mu.Len()
		if len(mu.shape) > 1 {
			m.failf(r.name, "mu has shape %v; want a vector", mu.shape)
		}
		if len(L.shape) != 2 || L.shape[0] != L.shape[1] || (k > 1 && L.shape[0] != k) {
			m.failf(r.name, "L has shape %v; want a square Cholesky factor [%d %d] matching mu", L.shape, k, k)
		}
		event = []int{L.shape[0]}
	case "CategoricalLogit", "Categorical":
		lg := r.params[0]
		switch len(lg.shape) {
		case 1:
			event = nil
		case 2:
			batch = []int{lg.shape[0]}
		default:
			m.failf(r.name, "logits have shape %v; want [K] or [N K]", lg.shape)
		}
		if given != nil && batch != nil && !slices.Equal(given, batch) {
			m.failf(r.name, "logits give %v variates but the variable was given shape %v", batch, given)
		}
		if given != nil {
			r.shapeFixed = true
			return slices.Clone(given)
		}
		r.shapeFixed = batch != nil
		return batch
	case "LKJCorrChol", "LKJCholesky":
		if given == nil {
			m.failf(r.name, "give the dimension K of the correlation matrix")
		}
		r.shapeFixed = true
		return slices.Clone(given)
	default:
		if given == nil {
			m.failf(r.name, "%s is multivariate; give the variable's shape with Shape(...)", fam.Name)
		}
		r.shapeFixed = true
		return slices.Clone(given)
	}
	r.shapeFixed = true
	if given != nil {
		// Size(n) stacks n events.
		if len(given) == len(event) && slices.Equal(given, event) {
			return slices.Clone(event)
		}
		return append(slices.Clone(given), event...)
	}
	return slices.Clone(event)
}

// applyBounds records the Lower/Upper/Bounds and ordering options.
func (m *Model) applyBounds(r *RV, o *options) {
	cont := r.fam != nil && !r.fam.Discrete
	if o.lower != nil || o.upper != nil {
		if !cont || r.fam.EventRank != 0 {
			m.failf(r.name, "bounds apply to continuous scalar families only, not %s", famName(r))
		}
		if o.lower != nil {
			r.lower = m.boundNode(r, "lower bound", o.lower)
		}
		if o.upper != nil {
			r.upper = m.boundNode(r, "upper bound", o.upper)
		}
		if r.lower != nil && r.upper != nil && r.lower.isConst() && r.upper.isConst() {
			for i := range max(r.lower.Len(), r.upper.Len()) {
				lo, hi := r.lower.data[i%r.lower.Len()], r.upper.data[i%r.upper.Len()]
				if !(lo < hi) {
					m.failf(r.name, "lower bound %v is not below upper bound %v", lo, hi)
				}
			}
		}
	}
	if o.order != unordered {
		if !cont || r.fam.EventRank != 0 || len(r.n.shape) != 1 || r.n.shape[0] < 2 {
			m.failf(r.name, "Ordered and PositiveOrdered apply to continuous vectors of 2 or more elements (use Size(n)); this one is %s of shape %v", famName(r), r.n.shape)
		}
		if r.lower != nil || r.upper != nil {
			m.failf(r.name, "an ordered vector cannot also have bounds")
		}
		r.order = o.order
	}
}

func famName(r *RV) string {
	if r.fam == nil {
		return "a mixture"
	}
	return r.fam.Name
}

func (m *Model) boundNode(r *RV, what string, v any) *node {
	n, err := asNode(v)
	if err != nil {
		m.failf(r.name, "%s: %v", what, err)
	}
	if n.model != nil && n.model != m {
		m.failf(r.name, "%s uses variables of model %q", what, n.model.name)
	}
	if n.Len() != 1 && !slices.Equal(n.shape, r.n.shape) {
		m.failf(r.name, "%s has shape %v; want a scalar or the variable's shape %v", what, n.shape, r.n.shape)
	}
	if n.kind == kConst {
		if i := firstNonFinite(n.data); i >= 0 && !math.IsInf(n.data[i], 0) {
			m.failf(r.name, "%s is NaN", what)
		}
	}
	return n
}

// Observe gives the variable data: its log density at the data becomes
// part of the model's, and it is no longer a parameter. data is a float64,
// int, []float64, []int, []bool, [][]float64 or [][]int (or an expression
// of data alone, such as Log(y)), of the variable's shape;
// a variable whose parameters are all scalars takes the data's shape.
// Discrete families need whole numbers in their support.
func (r *RV) Observe(data any) *RV {
	m := r.m
	if r.observed {
		m.failf(r.name, "already observed; call Observe once")
	}
	if r.lower != nil || r.upper != nil || r.order != unordered {
		m.failf(r.name, "bounds and orderings apply to parameters; an observed variable's density is not truncated by them (for a truncated likelihood write it with LogPDF in a LogDensity term)")
	}
	n, err := asNode(data)
	if err != nil {
		m.failf(r.name, "observed data: %v", err)
	}
	if n.kind != kConst {
		n = m.evalData(r.name, n)
	}
	r.checkData(n.data)
	want := r.n.shape
	switch {
	case slices.Equal(n.shape, want) || n.Len() == 1 && ir.ShapeLen(want) == 1:
	case !r.shapeFixed && r.fam != nil && r.fam.EventRank == 0 || !r.shapeFixed && r.mix != nil:
		if r.used {
			m.failf(r.name, "the data have shape %v but the variable (shape %v) was already used in an expression; observe it before using it, or give its shape with Size", n.shape, want)
		}
		r.n.shape = slices.Clone(n.shape)
	case r.fam != nil && r.fam.EventRank == 1 && len(n.shape) == 2 && len(want) == 1 && n.shape[1] == want[0] && !r.used:
		// Many multivariate events: [N K] data for a [K] variable.
		r.n.shape = slices.Clone(n.shape)
	case r.fam != nil && (r.fam.Name == "CategoricalLogit" || r.fam.Name == "Categorical") && len(want) == 0 && len(n.shape) == 1 && !r.used:
		r.n.shape = slices.Clone(n.shape)
	default:
		m.failf(r.name, "the data have shape %v but the variable has shape %v; make them agree (Size(n) sets a variable's length)", n.shape, want)
	}
	r.observed = true
	r.data = n.data
	m.changed()
	return r
}

// checkData checks observed data against the variable's support.
func (r *RV) checkData(d []float64) {
	m := r.m
	if i := firstNonFinite(d); i >= 0 {
		m.failf(r.name, "the data hold %v at index %d; remove or impute missing values", d[i], i)
	}
	sup := r.support()
	lo, hi := math.Inf(-1), math.Inf(1)
	kind := sup.Kind
	switch kind {
	case dist.Positive:
		lo, kind = 0, dist.Bounded // a density may be finite at 0
	case dist.Bounded:
		lo, hi = r.constParam(sup.Lower, lo), r.constParam(sup.Upper, hi)
	case dist.BoundedInt:
		lo = 0
		hi = r.constParam(sup.Upper, hi)
	case dist.CholeskyCorr, dist.Simplex:
		kind = dist.Real
	}
	if r.fam != nil && (r.fam.Name == "CategoricalLogit" || r.fam.Name == "Categorical") {
		k := r.params[0].shape[len(r.params[0].shape)-1]
		kind, lo, hi = dist.BoundedInt, 0, float64(k-1)
	}
	if r.lower != nil && r.lower.isConst() && r.lower.Len() == 1 {
		lo = math.Max(lo, r.lower.data[0])
		if kind == dist.Real || kind == dist.Positive {
			kind = dist.Bounded
		}
	}
	if r.upper != nil && r.upper.isConst() && r.upper.Len() == 1 {
		hi = math.Min(hi, r.upper.data[0])
		if kind == dist.Real || kind == dist.Positive {
			kind = dist.Bounded
		}
	}
	if msg := checkSupport(d, kind, lo, hi); msg != "" {
		m.failf(r.name, "observed value %s", msg)
	}
	// Counts against per-element trials (Binomial's n given as data).
	if sup.Kind == dist.BoundedInt && sup.Upper >= 0 && r.fam != nil {
		if n := r.params[sup.Upper]; n.isConst() && n.Len() == len(d) && len(d) > 1 {
			for i, v := range d {
				if v > n.data[i] {
					m.failf(r.name, "observed value %v at index %d exceeds its %s = %v", v, i, paramName(r.fam, sup.Upper), n.data[i])
				}
			}
		}
	}
}

// constParam is the value of parameter i when it is a constant scalar,
// def otherwise.
func (r *RV) constParam(i int, def float64) float64 {
	if i < 0 || i >= len(r.params) || !r.params[i].isConst() || r.params[i].Len() != 1 {
		return def
	}
	return r.params[i].data[0]
}

// support is the variable's support (for a mixture, its first
// component's).
func (r *RV) support() dist.Support {
	if r.fam != nil {
		return r.fam.Support
	}
	return r.mix.comps[0].fam.Support
}

// evalData computes an expression of data alone (Log(y), say) now, for
// use as observed data; an expression of parameters is an error.
func (m *Model) evalData(name string, n *node) *node {
	e := &emitter{c: &Compiled{m: m}, ids: map[*node]ir.ID{}, ctx: name}
	if !e.constTree(n) || n.model != nil && n.model != m {
		m.failf(name, "observed data must be data (Go values, or expressions of data alone), not an expression of the model's parameters")
	}
	d := e.fold(n)
	return constNode(d, slices.Clone(n.shape))
}
