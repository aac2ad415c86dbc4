package ppl

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/ppl/internal/compile"
	"github.com/gobayes/gobayes/ppl/internal/graph"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// Model is a graph of random variables, deterministic quantities and
// explicit log-density terms. Build it with the methods named after the
// distributions (m.Normal, m.HalfCauchy, …), then Compile it (Sample
// compiles it for you).
type Model struct {
	// g is the graph the compiler reads: the variables, deterministic
	// quantities and terms, and the first mistake (its Err).
	g graph.Model
	// names maps every name in use to what it names, for duplicate checks
	// and Lookup.
	names map[string]any
	// claimed lists the names in the order they were claimed, so that a
	// failed builder call can give its own back (see undo).
	claimed  []string
	compiled *Compiled
	cerr     error
	version  int // counts changes, so a stale Compiled can tell
	shards   int // 0: automatic; see Shards
	// onRanks is the model compiled with its rows split over the ranks
	// of an MPI job (Backend("mpi")), when its own setting is automatic.
	onRanks *Compiled
	// print is the fingerprint (fingerprint.go) at version printAt;
	// printed lists the fingerprints of the posteriors this model made.
	print   string
	printAt int
	printed map[string]bool
	// newData maps the fingerprint after a SetData to the one before:
	// a posterior of the model before new data is one of this model.
	newData map[string]string
	// probs maps a Categorical variable given probabilities by an
	// expression to its logits' node, Log(p) (see checkProbSums).
	probs map[*graph.RV]*graph.Node
	// defined maps every name to the run (Session.thisRun) that last defined it:
	// defining it again in the same run is a mistake, in a later one a
	// cell run again (redefine.go).
	defined map[string]any
	// sess is the session the model belongs to (Session.Adopt); nil: the
	// program's.
	sess *Session
	// files lists the data containers read from files (table_data.go).
	files []fileData
	// glm is what GLM made, for SetRows; nil for a model written by hand.
	glm *glmSpec
}

// NewModel starts an empty model. The name labels summaries and files;
// options (Shards) set how it compiles.
func NewModel(name string, opts ...ModelOption) *Model {
	m := &Model{g: graph.Model{Name: name}, names: map[string]any{}, defined: map[string]any{}}
	for _, o := range opts {
		o(m)
	}
	return m
}

// Name is the model's name.
func (m *Model) Name() string { return m.g.Name }

// Err returns the mistake met compiling the model as it is now (an
// *Error naming the variable at fault, or another error), or nil. A
// failed builder call is not the model's mistake: it left the model as it
// was (see Error).
func (m *Model) Err() error {
	_, err := m.Compile()
	return err
}

// changed drops a cached compilation: the model grew.
func (m *Model) changed() { m.compiled, m.cerr, m.onRanks, m.version = nil, nil, nil, m.version+1 }

// claim reserves name for v, failing when it is empty, malformed or taken.
func (m *Model) claim(name string, v any) {
	if name == "" {
		m.failf(name, "a variable needs a name")
	}
	if strings.ContainsAny(name, "[], \t\n:") {
		m.failf(name, "the name may not contain brackets, commas, colons or spaces (they are used for elements, as in %s[1])", name)
	}
	if old, ok := m.names[name]; ok {
		m.failf(name, "the name is already used by %s, %s; give every variable, deterministic quantity, log-density term and data container its own name (a cell run again may define it anew as the same kind of thing; to make it another kind, start the model anew with NewModel)", describeNamed(old), m.definition(name))
	}
	m.names[name] = v
	m.defined[name] = m.session().thisRun()
	m.claimed = append(m.claimed, name)
	m.changed()
}

func describeNamed(v any) string {
	switch x := v.(type) {
	case *RV:
		if x.v.Observed {
			return "an observed variable"
		}
		return "a random variable"
	case *graph.Node:
		return "a deterministic quantity"
	case dataName:
		return "a data container"
	}
	return "a log-density term"
}

// Lookup returns the random variable or deterministic quantity of the
// given name; an unknown name is an error listing the names there are.
func (m *Model) Lookup(name string) Expr {
	switch x := m.names[name].(type) {
	case *RV:
		return x
	case *graph.Node:
		return asExpr(x)
	case dataName:
		return asExpr(m.dataNode(name))
	}
	m.failf(name, "no variable of this name in model %q (it has: %s)", m.g.Name, strings.Join(m.knownNames(nil), ", "))
	return nil
}

// knownNames lists, sorted, the names an expression may use: the
// variables, deterministic quantities and data containers (not the terms),
// and extra's.
func (m *Model) knownNames(extra map[string]any) []string {
	known := make([]string, 0, len(m.names)+len(extra))
	for k, v := range m.names {
		if _, ok := v.(graph.Term); !ok {
			known = append(known, k)
		}
	}
	for k := range extra {
		known = append(known, k)
	}
	slices.Sort(known)
	return known
}

// Deterministic records expr under name: its value is part of every draw
// (Stan's generated quantities, PyMC's Deterministic). It returns the
// expression, to use further.
//
// Of the options it takes Dims only.
func (m *Model) Deterministic(name string, expr any, opts ...Option) Expr {
	defer m.undo(m.mark())
	var o options
	for _, f := range opts {
		f(&o)
	}
	if o.shape != nil || o.lower != nil || o.upper != nil || o.order != graph.Unordered || o.hasObserved || o.using != nil || o.censor != nil || o.trunc != nil {
		m.failf(name, "a deterministic quantity takes the option Dims only (its shape is its expression's)")
	}
	n, err := asNode(expr)
	if err != nil {
		m.failf(name, "%v", err)
	}
	if n.Model != nil && n.Model != &m.g {
		m.failf(name, "the expression uses variables of model %q; it belongs to %q", n.Model.Name, m.g.Name)
	}
	if old, ok := m.names[name].(*graph.Node); ok {
		m.once(name, func() string { return m.definition(name) }, func() string { return detText(name, n, o.dims) })
		if !graph.Same(old.Args[0], n) || !slices.Equal(m.g.DetDims[name], o.dims) {
			was := m.definition(name)
			m.redefineDet(old, n, o.dims) // the cell changed, run again
			m.changedNotice(name, was, m.definition(name))
		}
		m.defined[name] = m.session().thisRun()
		return asExpr(old)
	}
	if err := m.dimsError(name, o.dims, n.Dims); err != nil {
		m.fail(err)
	}
	d := &graph.Node{Kind: graph.KReshape, Fn: "Deterministic", Dims: slices.Clone(n.Dims), Args: []*graph.Node{n}, Det: name, Model: &m.g}
	m.claim(name, d)
	if o.dims != nil {
		if m.g.DetDims == nil {
			m.g.DetDims = map[string][]string{}
		}
		m.g.DetDims[name] = o.dims
	}
	m.g.Dets = append(m.g.Dets, d)
	return asExpr(d)
}

// LogDensity adds expr to the model's log density (Stan's target +=): a
// custom likelihood, a marginalised sum, a Jacobian correction. A
// non-scalar expression adds the sum of its elements. The name labels the
// term in errors.
func (m *Model) LogDensity(name string, expr any) {
	defer m.undo(m.mark())
	n, err := asNode(expr)
	if err != nil {
		m.failf(name, "%v", err)
	}
	if n.Model != nil && n.Model != &m.g {
		m.failf(name, "the expression uses variables of model %q; it belongs to %q", n.Model.Name, m.g.Name)
	}
	if n.Len() != 1 {
		n = Sum(n).node()
	}
	if old, ok := m.names[name].(graph.Term); ok {
		m.once(name, func() string { return m.definition(name) }, func() string { return termText(n) })
		m.defined[name] = m.session().thisRun()
		if graph.Same(old.Value, n) {
			return // the cell that made it, run again
		}
		m.changedNotice(name, termText(old.Value), termText(n))
		for i := range m.g.Terms { // the cell changed, run again
			if m.g.Terms[i].Name == name {
				m.g.Terms[i].Value = n
			}
		}
		m.names[name] = graph.Term{Name: name, Value: n}
		m.changed()
		return
	}
	t := graph.Term{Name: name, Value: n}
	m.claim(name, t)
	m.g.Terms = append(m.g.Terms, t)
}

// Option configures a random variable: its shape (Size, Shape), bounds
// (Lower, Upper, Bounds), an ordering (Ordered, PositiveOrdered) or its
// data (Observed).
type Option func(*options)

type options struct {
	shape        []int
	lower, upper any
	order        graph.Order
	observed     any
	dims         []string
	hasObserved  bool
	using        map[string]any // Using's values, for formulas
	// censor and trunc are the Censored and Truncated options (censored.go).
	censor, trunc *limits
}

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
func Ordered() Option { return func(o *options) { o.order = graph.Ordered } }

// PositiveOrdered makes a vector positive and increasing.
func PositiveOrdered() Option { return func(o *options) { o.order = graph.PositiveOrdered } }

// Observed gives the variable's data at once, like calling Observe.
func Observed(data any) Option {
	return func(o *options) { o.observed, o.hasObserved = data, true }
}

// Dims names the variable's dimensions, one name per dimension of its
// shape, as PyMC's dims: theta := m.Normal("theta", mu, tau,
// ppl.Dims("school")). Where every dimension has labels (Model.Coords)
// and the parameters do not give the shape, the labels do: no Size
// needed. Summaries, plots and exports label elements by coordinate
// (theta[Choate]); without, by 0-based position (theta[0]), as code
// indexes them.
func Dims(names ...string) Option { return func(o *options) { o.dims = slices.Clone(names) } }

// RV is a random variable: a parameter to infer, or, once observed, data
// whose log density is part of the model. It is an Expr, usable wherever a
// value is.
type RV struct {
	m *Model
	v graph.RV // what the compiler reads; its Value is the node of the variable
	// shapeFixed says the shape was given (Size, Shape) or follows from
	// non-scalar parameters; otherwise Observe may widen it to the data's.
	shapeFixed bool
	// used says the variable is in an expression already: its shape can no
	// longer change.
	used bool
	// given is the shape option (Size, Shape), nil when none: new data
	// (SetData) work the shape out again from it.
	given []int
	// dimsShape says given came from the coordinates of the variable's
	// Dims, and follows them.
	dimsShape bool
	// observedIn is the run (thisRun) that last gave the data, when
	// observedOnce: observing again in the same run is a mistake.
	observedIn   any
	observedOnce bool
}

// Name is the variable's name.
func (r *RV) Name() string { return r.v.Name }

// Shape is the variable's shape (nil for a scalar).
func (r *RV) Shape() []int { return slices.Clone(r.v.Value.Dims) }

// IsObserved reports whether the variable carries data.
func (r *RV) IsObserved() bool { return r.v.Observed }

// Family is the variable's distribution (nil for a mixture).
func (r *RV) Family() *dist.Family { return r.v.Fam }

func (r *RV) node() *graph.Node {
	if r == nil {
		return nil
	}
	r.used = true
	return r.v.Value
}

// String describes the variable as its model's listing does:
// "theta_tilde[8] ~ Normal(0, 1)".
func (r *RV) String() string {
	l := line(&r.v)
	return l[0] + " " + l[1] + " " + l[2]
}

// Var adds a random variable of any distribution family: fam's parameters
// in the order fam.Params lists them. The methods named after the
// distributions call it.
func (m *Model) Var(name string, fam *dist.Family, params []any, opts ...Option) *RV {
	defer m.undo(m.mark())
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
	if o.using != nil {
		m.failf(name, "Using names values for formulas (Formula, Let), not for a variable")
	}
	r := &RV{m: m, v: graph.RV{Name: name, Fam: fam}, given: slices.Clone(o.shape)}
	r.v.Params = make([]*graph.Node, len(params))
	for i, p := range params {
		n := m.paramNode(name, fam, i, p)
		r.v.Params[i] = n
	}
	if o.shape == nil && o.dims != nil && m.paramsScalar(r) {
		// PyMC's dims: the coordinates give the shape.
		o.shape = m.shapeFromDims(o.dims, fam.EventRank)
		r.given, r.dimsShape = slices.Clone(o.shape), o.shape != nil
	}
	shape := r.eventShape(o.shape)
	if old, ok := m.names[name].(*RV); ok && old.v.Mix == nil {
		m.once(name, func() string { return m.definition(name) }, func() string { return r.text(shape, &o) })
		if m.sameVar(old, r, &o, shape) {
			m.defined[name] = m.session().thisRun()
			if o.hasObserved {
				old.observedIn, old.observedOnce = m.session().thisRun(), true
			}
			return old // the cell that made it, run again
		}
		was := line(&old.v)
		m.redefine(old, r, &o, shape) // the cell changed, run again
		m.defined[name] = m.session().thisRun()
		m.session().notice(varChange(name, was, line(&old.v)))
		return old
	}
	m.claim(name, r)
	r.v.Value = &graph.Node{Kind: graph.KRV, RV: &r.v, Dims: shape, Model: &m.g}
	r.v.Dims = o.dims
	m.applyBounds(r, &o)
	m.applyLimits(r, &o)
	m.g.RVs = append(m.g.RVs, &r.v)
	if o.hasObserved {
		r.Observe(o.observed)
	}
	m.checkVarDims(r)
	return r
}

// sameVar reports whether old is what the call making r (options o, shape
// before any data) would make: a notebook cell run again. Same family,
// parameters, bounds, ordering and shape, and the same data when
// observed; anything else is a different variable under a used name.
func (m *Model) sameVar(old, r *RV, o *options, shape []int) bool {
	v := &old.v
	if v.Fam != r.v.Fam || v.Mix != nil || len(v.Params) != len(r.v.Params) || v.Order != o.order || !slices.Equal(v.Dims, o.dims) {
		return false
	}
	for i, p := range r.v.Params {
		if !graph.Same(v.Params[i], p) {
			return false
		}
	}
	sameBound := func(b *graph.Node, x any) bool {
		if b == nil || x == nil {
			return b == nil && x == nil
		}
		n, err := asNode(x)
		return err == nil && graph.Same(b, n)
	}
	lower, upper := o.boundOptions()
	if !sameBound(v.Lower, lower) || !sameBound(v.Upper, upper) || !sameLimits(v, o) || o.hasObserved && !v.Observed {
		return false
	}
	if !o.hasObserved {
		// m.Normal("y", mu, 1).Observe(y) run again: Observe, next,
		// checks the data; the shape may have come from them.
		return slices.Equal(v.Value.Dims, shape) || v.Observed && !old.shapeFixed && o.shape == nil
	}
	return sameData(v, o.observed)
}

// sameData reports whether data are the observed variable v's own: the
// same values in the same shape (a scalar for a one-element variable).
func sameData(v *graph.RV, data any) bool {
	n, err := asNode(data)
	return err == nil && n.Kind == graph.KConst && slices.Equal(n.Data, v.Data) &&
		(slices.Equal(n.Dims, v.Value.Dims) || n.Len() == 1 && ir.ShapeLen(v.Value.Dims) == 1)
}

// paramNode converts parameter i of a variable and checks data against
// the parameter's support.
func (m *Model) paramNode(name string, fam *dist.Family, i int, p any) *graph.Node {
	n, err := asNode(p)
	if err != nil {
		m.failf(name, "%s %s: %v", fam.Name, graph.ParamName(fam, i), err)
	}
	if n.Model != nil && n.Model != &m.g {
		m.failf(name, "%s %s uses variables of model %q", fam.Name, graph.ParamName(fam, i), n.Model.Name)
	}
	if n.Kind == graph.KConst {
		var sup dist.Support
		if i < len(fam.ParamSupport) {
			sup = fam.ParamSupport[i]
		}
		if msg := checkSupport(n.Data, sup.Kind, math.Inf(-1), math.Inf(1)); msg != "" {
			m.failf(name, "%s %s %s", fam.Name, graph.ParamName(fam, i), msg)
		}
	} else if e := domainError(name, fam, i, n); e != nil {
		m.fail(e)
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
	m, fam := r.m, r.v.Fam
	for _, d := range given {
		if d <= 0 {
			m.failf(r.v.Name, "shape %v has a dimension that is not positive", given)
		}
	}
	if fam.EventRank == 0 {
		var ps []int
		for i, p := range r.v.Params {
			if p.Len() == 1 {
				continue
			}
			if ps == nil {
				ps = p.Dims
			} else if !slices.Equal(ps, p.Dims) {
				m.failf(r.v.Name, "%s parameters have shapes %v and %v (%s); they must have equal shapes or be scalars", fam.Name, ps, p.Dims, graph.ParamName(fam, i))
			}
		}
		if given != nil {
			if ps != nil && !slices.Equal(ps, given) {
				m.failf(r.v.Name, "the parameters have shape %v but the variable was given shape %v; make them agree", ps, given)
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
		a := r.v.Params[0]
		if len(a.Dims) != 1 || a.Len() < 2 {
			m.failf(r.v.Name, "Dirichlet alpha has shape %v; want a vector of at least 2 concentrations", a.Dims)
		}
		event = a.Dims
	case "MultiNormalChol", "MultivariateNormal", "MultiNormal":
		mu, L := r.v.Params[0], r.v.Params[1]
		k := mu.Len()
		if len(mu.Dims) > 1 {
			m.failf(r.v.Name, "mu has shape %v; want a vector", mu.Dims)
		}
		if len(L.Dims) != 2 || L.Dims[0] != L.Dims[1] || (k > 1 && L.Dims[0] != k) {
			m.failf(r.v.Name, "L has shape %v; want a square Cholesky factor [%d %d] matching mu", L.Dims, k, k)
		}
		event = []int{L.Dims[0]}
	case "CategoricalLogit", "Categorical":
		lg := r.v.Params[0]
		switch len(lg.Dims) {
		case 1:
			event = nil
		case 2:
			batch = []int{lg.Dims[0]}
		default:
			m.failf(r.v.Name, "logits have shape %v; want [K] or [N K]", lg.Dims)
		}
		if given != nil && batch != nil && !slices.Equal(given, batch) {
			m.failf(r.v.Name, "logits give %v variates but the variable was given shape %v", batch, given)
		}
		if given != nil {
			r.shapeFixed = true
			return slices.Clone(given)
		}
		r.shapeFixed = batch != nil
		return batch
	case "LKJCorrChol", "LKJCholesky":
		if given == nil {
			m.failf(r.v.Name, "give the dimension K of the correlation matrix")
		}
		r.shapeFixed = true
		return slices.Clone(given)
	default:
		if given == nil {
			m.failf(r.v.Name, "%s is multivariate; give the variable's shape with Shape(...)", fam.Name)
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
	cont := r.v.Fam != nil && !r.v.Fam.Discrete
	if o.lower != nil || o.upper != nil {
		if !cont || r.v.Fam.EventRank != 0 {
			m.failf(r.v.Name, "bounds apply to continuous scalar families only, not %s", r.v.FamName())
		}
		if o.lower != nil {
			r.v.Lower = m.boundNode(r, "lower bound", o.lower)
		}
		if o.upper != nil {
			r.v.Upper = m.boundNode(r, "upper bound", o.upper)
		}
		if r.v.Lower != nil && r.v.Upper != nil && r.v.Lower.IsConst() && r.v.Upper.IsConst() {
			for i := range max(r.v.Lower.Len(), r.v.Upper.Len()) {
				lo, hi := r.v.Lower.Data[i%r.v.Lower.Len()], r.v.Upper.Data[i%r.v.Upper.Len()]
				if !(lo < hi) {
					m.failf(r.v.Name, "lower bound %v is not below upper bound %v", lo, hi)
				}
			}
		}
	}
	if o.order != graph.Unordered {
		if !cont || r.v.Fam.EventRank != 0 || len(r.v.Value.Dims) != 1 || r.v.Value.Dims[0] < 2 {
			m.failf(r.v.Name, "Ordered and PositiveOrdered apply to continuous vectors of 2 or more elements (use Size(n)); this one is %s of shape %v", r.v.FamName(), r.v.Value.Dims)
		}
		if r.v.Lower != nil || r.v.Upper != nil {
			m.failf(r.v.Name, "an ordered vector cannot also have bounds")
		}
		r.v.Order = o.order
	}
}

func (m *Model) boundNode(r *RV, what string, v any) *graph.Node {
	n, err := asNode(v)
	if err != nil {
		m.failf(r.v.Name, "%s: %v", what, err)
	}
	if n.Model != nil && n.Model != &m.g {
		m.failf(r.v.Name, "%s uses variables of model %q", what, n.Model.Name)
	}
	if n.Len() != 1 && !slices.Equal(n.Dims, r.v.Value.Dims) {
		m.failf(r.v.Name, "%s has shape %v; want a scalar or the variable's shape %v", what, n.Dims, r.v.Value.Dims)
	}
	if n.Kind == graph.KConst {
		if i := firstNonFinite(n.Data); i >= 0 && !math.IsInf(n.Data[i], 0) {
			m.failf(r.v.Name, "%s is NaN", what)
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
	defer m.undo(m.mark())
	run := m.session().thisRun()
	if r.observedOnce && r.observedIn == run {
		n := "the data"
		if d, err := asNode(data); err == nil {
			n = diag.Plural(d.Len(), "value")
		}
		m.failf(r.v.Name, "is observed twice%s: first %s, then %s; observe all the data at once (concatenate the batches), or give the other data a variable of their own", m.runText(), diag.Plural(len(r.v.Data), "value"), n)
	}
	if r.v.Observed && sameData(&r.v, data) {
		r.observedIn, r.observedOnce = run, true
		return r // the cell that observed it, run again
	}
	before := -1
	if r.v.Observed {
		before = len(r.v.Data)
	}
	// On a failure the shape and any data observed before go back with
	// the rest.
	dims, saved := r.v.Value.Dims, r.v
	defer func() {
		if e := recover(); e != nil {
			r.v.Value.Dims = dims
			r.v.Observed, r.v.Data, r.v.DataOf, r.v.NoData = saved.Observed, saved.Data, saved.DataOf, saved.NoData
			panic(e)
		}
	}()
	if r.v.Observed {
		// The cell that observed it, run again with other data: they
		// replace the old.
		if r.v.Pointwise != nil {
			m.failf(r.v.Name, "the observations of %s shaped how its log density was built; to observe other data, run the cell that defines it again with them (Observed)", r.v.Name)
		}
		r.v.Observed, r.v.Data, r.v.DataOf, r.v.NoData = false, nil, nil, false
	}
	if (r.v.Lower != nil || r.v.Upper != nil) && !r.v.Truncated || r.v.Order != graph.Unordered {
		m.failf(r.v.Name, "bounds and orderings apply to parameters; an observed variable's density is not truncated by them (for a truncated likelihood use the option Truncated)")
	}
	n, err := asNode(data)
	if err != nil {
		m.failf(r.v.Name, "observed data: %v", err)
	}
	if n.Kind != graph.KConst {
		if c := containerIn(n); c != "" {
			m.failf(r.v.Name, "observed data are an expression of data container %q, which new data (SetData) could not follow; observe a container itself (make one of the transformed data with m.Data)", c)
		}
		n = m.evalData(r.v.Name, n)
	}
	r.checkData(n.Data)
	r.checkLimits(n.Data)
	want := r.v.Value.Dims
	switch {
	case slices.Equal(n.Dims, want) || n.Len() == 1 && ir.ShapeLen(want) == 1:
	case !r.shapeFixed && r.v.Fam != nil && r.v.Fam.EventRank == 0 || !r.shapeFixed && r.v.Mix != nil:
		if r.used {
			m.failf(r.v.Name, "the data have shape %v but the variable (shape %v) was already used in an expression; observe it before using it, or give its shape with Size", n.Dims, want)
		}
		r.v.Value.Dims = slices.Clone(n.Dims)
	case r.v.Fam != nil && r.v.Fam.EventRank == 1 && len(n.Dims) == 2 && len(want) == 1 && n.Dims[1] == want[0] && !r.used:
		// Many multivariate events: [N K] data for a [K] variable.
		r.v.Value.Dims = slices.Clone(n.Dims)
	case r.v.Fam != nil && (r.v.Fam.Name == "CategoricalLogit" || r.v.Fam.Name == "Categorical") && len(want) == 0 && len(n.Dims) == 1 && !r.used:
		r.v.Value.Dims = slices.Clone(n.Dims)
	default:
		m.failf(r.v.Name, "the data have shape %v but the variable has shape %v; make them agree (Size(n) sets a variable's length)", n.Dims, want)
	}
	if r.v.Dims != nil {
		if err := m.dimsError(r.v.Name, r.v.Dims, r.v.Value.Dims); err != nil {
			m.fail(err)
		}
	}
	r.v.Observed = true
	r.v.Data = n.Data
	if n.Container != "" {
		r.v.DataOf = n
	}
	m.changed()
	r.observedIn, r.observedOnce = run, true
	if before >= 0 {
		m.changedNotice(r.v.Name, "", fmt.Sprintf("new data, %s (were %s)", diag.Plural(len(n.Data), "value"), diag.Plural(before, "value")))
	}
	return r
}

// at describes element i (0-based) of the variable's data for a
// message: "index 3", and its coordinate when a named dimension has
// labels: "index 3 (school=Phillips Exeter)".
func (r *RV) at(i int) string {
	s := fmt.Sprintf("index %d", i)
	if len(r.v.Dims) == 1 {
		if c := r.m.g.Coords[r.v.Dims[0]]; i < len(c) {
			s += fmt.Sprintf(" (%s=%s)", r.v.Dims[0], c[i])
		}
	}
	return s
}

// atIndex finds "at index N" in a message, for at.
var atIndex = regexp.MustCompile(`at index (\d+)`)

// withCoords labels the element a message names by its coordinate.
func (r *RV) withCoords(msg string) string {
	return atIndex.ReplaceAllStringFunc(msg, func(s string) string {
		i, _ := strconv.Atoi(atIndex.FindStringSubmatch(s)[1])
		return "at " + r.at(i)
	})
}

// checkData checks observed data against the variable's support.
func (r *RV) checkData(d []float64) {
	m := r.m
	if i := firstNonFinite(d); i >= 0 {
		m.failf(r.v.Name, "the data hold %v at %s; remove or impute missing values", d[i], r.at(i))
	}
	sup := r.v.Support()
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
	if r.v.Fam != nil && (r.v.Fam.Name == "CategoricalLogit" || r.v.Fam.Name == "Categorical") {
		k := r.v.Params[0].Dims[len(r.v.Params[0].Dims)-1]
		kind, lo, hi = dist.BoundedInt, 0, float64(k-1)
	}
	if r.v.Lower != nil && r.v.Lower.IsConst() && r.v.Lower.Len() == 1 {
		lo = math.Max(lo, r.v.Lower.Data[0])
		if kind == dist.Real || kind == dist.Positive {
			kind = dist.Bounded
		}
	}
	if r.v.Upper != nil && r.v.Upper.IsConst() && r.v.Upper.Len() == 1 {
		hi = math.Min(hi, r.v.Upper.Data[0])
		if kind == dist.Real || kind == dist.Positive {
			kind = dist.Bounded
		}
	}
	if msg := checkSupport(d, kind, lo, hi); msg != "" {
		m.failf(r.v.Name, "observed value %s", r.withCoords(msg))
	}
	// Counts against per-element trials (Binomial's n given as data).
	if sup.Kind == dist.BoundedInt && sup.Upper >= 0 && r.v.Fam != nil {
		if n := r.v.Params[sup.Upper]; n.IsConst() && n.Len() == len(d) && len(d) > 1 {
			for i, v := range d {
				if v > n.Data[i] {
					m.failf(r.v.Name, "observed value %v at %s exceeds its %s = %v", v, r.at(i), graph.ParamName(r.v.Fam, sup.Upper), n.Data[i])
				}
			}
		}
	}
}

// constParam is the value of parameter i when it is a constant scalar,
// def otherwise.
func (r *RV) constParam(i int, def float64) float64 {
	if i < 0 || i >= len(r.v.Params) || !r.v.Params[i].IsConst() || r.v.Params[i].Len() != 1 {
		return def
	}
	return r.v.Params[i].Data[0]
}

// evalData computes an expression of data alone (Log(y), say) now, for
// use as observed data; an expression of parameters is an error.
func (m *Model) evalData(name string, n *graph.Node) *graph.Node {
	d, ok, err := compile.Fold(name, n)
	if err != nil {
		m.fail(fromCompile(err).(*Error))
	}
	if !ok || n.Model != nil && n.Model != &m.g {
		m.failf(name, "observed data must be data (Go values, or expressions of data alone), not an expression of the model's parameters")
	}
	return graph.Const(d, slices.Clone(n.Dims))
}

// annotate gives a posterior of this model its dims and coordinates (by
// variable name).
func (m *Model) annotate(p *posterior.Posterior) *posterior.Posterior {
	if p == nil {
		return p
	}
	p.Fingerprint = m.fingerprint()
	p.Structure, p.Centred = true, m.centred()
	if m.printed == nil {
		m.printed = map[string]bool{}
	}
	m.printed[p.Fingerprint] = true
	dims := map[string][]string{}
	for _, r := range m.g.RVs {
		if r.Dims != nil {
			dims[r.Name] = r.Dims
		}
	}
	for name, d := range m.g.DetDims {
		dims[name] = d
	}
	for _, r := range m.g.RVs {
		// An enumerated variable's probabilities (enumerate.go): its rows
		// along its own dimensions, then one column per value, along a
		// dimension named after the variable (labelled by m.Coords of
		// that name, where given).
		i := slices.IndexFunc(p.Vars, func(v posterior.Var) bool { return v.Name == r.Name+"_probs" })
		if i >= 0 && !r.Observed && len(p.Vars[i].Shape) == len(r.Value.Dims)+1 {
			v := &p.Vars[i]
			rows := slices.Clone(r.Dims)
			if len(rows) != len(r.Value.Dims) {
				rows = nil
				for k := range r.Value.Dims {
					rows = append(rows, fmt.Sprintf("%s_probs_dim_%d", r.Name, k))
				}
			}
			dims[v.Name] = append(rows, r.Name)
		}
	}
	for i := range p.Vars {
		if d, ok := dims[p.Vars[i].Name]; ok && len(d) == len(p.Vars[i].Shape) {
			p.Vars[i].Dims = d
			for _, dim := range d {
				if c, ok := m.g.Coords[dim]; ok {
					if p.Coords == nil {
						p.Coords = map[string][]string{}
					}
					p.Coords[dim] = c
				}
			}
		}
	}
	return p
}
