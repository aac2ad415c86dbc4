package ppl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Data containers (PyMC's pm.Data): data with a name that a model can be
// given anew without being built again.
//
//	x := m.Data("x", X)                 // [N] or [N K]
//	y := m.Data("y", Y)
//	mu := a.Add(b.Mul(x))
//	m.Normal("obs", mu, sigma, ppl.Observed(y))
//	fit := m.Sample()
//	m.SetData("x", Xnew)                // [M]: obs is now [M] too
//	pred := m.PosteriorPredictive(fit)  // obs drawn at the new x
//
// or, leaving the model as it was, in one call:
//
//	pred := m.PosteriorPredictive(fit, ppl.WithData("x", Xnew))
//
// How it works: the graph is immutable, so SetData makes every node that
// depends on the container again over the new data, by the function that
// made it (Add, MatVec, Index, …, with its checks), and records old→new in
// the model (graph.Model.Forward); an expression held from before the
// change is read through it, so cells written before SetData go on
// meaning the model as it is now. A random variable's shape follows its
// parameters' (an observed variable's may follow its data): a parameter's
// shape may not change, since the posterior is over it. An observed
// variable whose data no longer fit its new shape keeps zeros as data and
// is drawn by PosteriorPredictive; Sample, MAP, ADVI and LogLik refuse it
// until its own container is given data of the new shape.
//
// A few things cannot follow new data and say so rather than give a
// wrong answer: a Scan over data, Reshape to a fixed shape, Where's
// condition, and an observed variable's data given as an expression of a
// container (observe the container itself). Constants a cell computes
// from the data's length (float64(len(X))) are the cell's own: they do not
// change; ppl.Mean does.

// dataName marks a container's name in Model.names.
type dataName string

// Data adds a data container: named data (a number, []float64, []int,
// []bool, [][]float64 or [][]int, or a column or matrix view of a
// package table, whose memory it uses as it is) usable wherever a value is, whose
// values and shape SetData can change later without building the model
// again. Of the options it takes Dims, which name its dimensions for the
// export (constant_data) and for coordinates. Observe a container
// (ppl.Observed(y)) to swap observations too.
func (m *Model) Data(name string, value any, opts ...Option) Expr {
	defer m.undo(m.mark())
	var o options
	for _, f := range opts {
		f(&o)
	}
	if o.shape != nil || o.lower != nil || o.upper != nil || o.order != graph.Unordered || o.hasObserved {
		m.failf(name, "a data container takes the option Dims only (its shape is its data's)")
	}
	n := m.goData(name, value)
	if err := m.dimsError(name, o.dims, n.Dims); err != nil {
		m.fail(err)
	}
	if _, ok := m.names[name].(dataName); ok {
		m.once(name, func() string { return m.definition(name) }, func() string { return dataText(name, n.Dims) })
		cur := m.dataNode(name)
		if slices.Equal(cur.Data, n.Data) && slices.Equal(cur.Dims, n.Dims) && slices.Equal(m.g.DataDims[name], o.dims) {
			m.defined[name] = m.session().thisRun()
			return asExpr(cur) // the cell that made it, run again
		}
		// The cell changed, run again: new data, as SetData gives them.
		m.setData([]namedData{{name: name, value: value}})
		m.defined[name] = m.session().thisRun()
		m.changedNotice(name, "", fmt.Sprintf("new data, %s (were %s)", diag.Plural(n.Len(), "value"), diag.Plural(cur.Len(), "value")))
		if o.dims != nil {
			if m.g.DataDims == nil {
				m.g.DataDims = map[string][]string{}
			}
			m.g.DataDims[name] = o.dims
		}
		return asExpr(m.dataNode(name))
	}
	m.claim(name, dataName(name))
	c := &graph.Node{Kind: graph.KConst, Data: n.Data, Dims: n.Dims, Container: name, Model: &m.g}
	m.g.Data = append(m.g.Data, c)
	if o.dims != nil {
		if m.g.DataDims == nil {
			m.g.DataDims = map[string][]string{}
		}
		m.g.DataDims[name] = o.dims
	}
	return asExpr(c)
}

// goData converts a container's value: Go data, finite.
func (m *Model) goData(name string, value any) *graph.Node {
	if _, ok := value.(Expr); ok {
		m.failf(name, "a data container holds Go values ([]float64, [][]float64, …), not an expression")
	}
	n, ok := m.tableData(name, value) // a table's column, its memory shared (table_data.go)
	if !ok {
		var err error
		if n, err = asNode(value); err != nil {
			m.failf(name, "%v", err)
		}
	}
	if i := firstNonFinite(n.Data); i >= 0 {
		m.failf(name, "the data hold %v at index %d; data must be finite (remove or impute missing values)", n.Data[i], i)
	}
	return n
}

// dataNode is the container's current node, nil when there is none.
func (m *Model) dataNode(name string) *graph.Node {
	for _, d := range m.g.Data {
		if d.Container == name {
			return d
		}
	}
	return nil
}

// DataNames lists the model's data containers, in declaration order.
func (m *Model) DataNames() []string {
	out := make([]string, len(m.g.Data))
	for i, d := range m.g.Data {
		out[i] = d.Container
	}
	return out
}

// SetData gives the container name new values, of the same shape or
// another (a new number of rows, to predict at new points): every
// expression, deterministic quantity and observed variable over it
// follows (see the package's data containers). Containers whose shapes
// change together are given in one call, in pairs:
// m.SetData("X", Xnew, "trials", nNew). The model compiles again at its
// next use; a posterior sampled before stays valid for
// PosteriorPredictive. New labels for the dimensions whose length
// changes go with them, as NewCoords (anywhere among the arguments):
// m.SetData("county_idx", idxNew, ppl.NewCoords("obs", labels…)). A
// mistake (an unknown name, NaN, a shape that something over the
// container cannot take, labels as many as the elements of nothing)
// leaves the model as it was.
func (m *Model) SetData(name string, value any, more ...any) {
	more, coords := splitCoords(more)
	sets := []namedData{{name, value}}
	if len(more)%2 != 0 {
		m.failf(name, "SetData takes names and values in pairs; %d values follow the first pair", len(more))
	}
	for i := 0; i < len(more); i += 2 {
		n, ok := more[i].(string)
		if !ok {
			m.failf(name, "SetData takes names and values in pairs; argument %d is a %T, not a container's name", i+3, more[i])
		}
		sets = append(sets, namedData{n, more[i+1]})
	}
	m.setDataCoords(sets, coords)
}

// setData gives several containers new values at once.
func (m *Model) setData(sets []namedData) {
	defer m.undo(m.mark())
	var names []string
	memo := map[*graph.Node]*graph.Node{}
	for _, d := range sets {
		old := m.dataNode(d.name)
		if old == nil {
			m.failf(d.name, "no data container of this name in model %q (it has: %s); make one with m.Data", m.g.Name, strings.Join(m.DataNames(), ", "))
		}
		if _, dup := memo[old]; dup {
			m.failf(d.name, "given twice in one SetData")
		}
		n := m.goData(d.name, d.value)
		if slices.Equal(old.Data, n.Data) && slices.Equal(old.Dims, n.Dims) {
			continue
		}
		if dn := m.g.DataDims[d.name]; dn != nil && len(dn) != len(n.Dims) {
			m.failf(d.name, "the new data have shape %v but the container's Dims name %d dimensions", n.Dims, len(dn))
		}
		memo[old] = &graph.Node{Kind: graph.KConst, Data: n.Data, Dims: n.Dims, Container: d.name, Model: &m.g}
		names = append(names, fmt.Sprintf("%q", d.name))
	}
	if len(memo) == 0 {
		return
	}
	b := &rebuild{m: m, what: "SetData(" + strings.Join(names, ", ") + ")", memo: memo, rvs: map[*graph.RV]*rvChange{}}
	b.run()
	m.changed()
}

// WithData gives data containers new values for one call of
// PosteriorPredictive (or LogLik), and puts the old ones back after it:
// m.PosteriorPredictive(fit, ppl.WithData("x", Xnew)). Give it once per
// container.
func WithData(name string, value any) SampleOption {
	return func(s *sampleSettings) {
		s.data = append(s.data, namedData{name, value})
	}
}

type namedData struct {
	name  string
	value any
}

// withData sets the containers of s for the duration of a call: the
// returned function puts the old values back.
func (m *Model) withData(s *sampleSettings) (restore func()) {
	if len(s.data) == 0 {
		return func() {}
	}
	var olds []namedData
	for _, d := range s.data {
		if old := m.dataNode(d.name); old != nil {
			var v any = matrixOf(old.Data, old.Dims)
			if len(old.Dims) == 0 {
				v = old.Data[0]
			}
			olds = append(olds, namedData{d.name, v})
		}
	}
	m.setData(s.data)
	return func() { m.setData(olds) }
}

// matrixOf gives data of shape dims back as a value SetData takes.
func matrixOf(d []float64, dims []int) any {
	if len(dims) != 2 {
		return d
	}
	out := make([][]float64, dims[0])
	for i := range out {
		out[i] = d[i*dims[1] : (i+1)*dims[1]]
	}
	return out
}

// containerIn names a data container n is computed from, "" for none.
func containerIn(n *graph.Node) string {
	seen := map[*graph.Node]bool{}
	var walk func(n *graph.Node) string
	walk = func(n *graph.Node) string {
		if n == nil || seen[n] {
			return ""
		}
		seen[n] = true
		if n.Container != "" {
			return n.Container
		}
		if n.TableOf != nil {
			return n.TableOf.Container
		}
		for _, a := range n.Args {
			if c := walk(a); c != "" {
				return c
			}
		}
		return ""
	}
	return walk(n)
}

// needData refuses to fit a model whose observed variables lost their
// data to a SetData that changed their shape, and a WithData option where
// it does not apply.
func (m *Model) needData(what string, s *sampleSettings) error {
	if len(s.data) > 0 {
		return &Error{Msg: fmt.Sprintf("%s: WithData applies to PosteriorPredictive and LogLik; to fit the model to new data, give them with m.SetData first", what)}
	}
	for _, r := range m.g.RVs {
		if r.Observed && r.NoData {
			src := "were given as Go values"
			if r.DataOf != nil {
				src = fmt.Sprintf("come from container %q, of shape %v", r.DataOf.Container, r.DataOf.Dims)
			}
			return &Error{Var: r.Name, Msg: fmt.Sprintf("%s: the variable now has shape %v after new data, but its observations %s; give it observations of the new shape (m.SetData) before %s, or use PosteriorPredictive to draw them", what, r.Value.Dims, src, what)}
		}
	}
	return nil
}

// rebuild makes the graph again after containers changed: memo maps each
// node to its new self (the changed containers are in it from the start).
type rebuild struct {
	m    *Model
	what string
	memo map[*graph.Node]*graph.Node
	rvs  map[*graph.RV]*rvChange
}

// rvChange is a random variable as it is to become.
type rvChange struct {
	changed      bool
	pointwise    *graph.Node
	params       []*graph.Node
	lower, upper *graph.Node
	weights      *graph.Node
	comps        [][]*graph.Node
	value        *graph.Node
	dataOf       *graph.Node
	data         []float64
	noData       bool
}

// run makes everything again, then commits it all at once: a failure on
// the way (a panic with *Error) changes nothing.
func (b *rebuild) run() {
	m := b.m
	defer func() {
		if e := recover(); e != nil {
			if pe, ok := e.(*Error); ok && !strings.HasPrefix(pe.Msg, b.what) {
				panic(&Error{Var: pe.Var, Msg: b.what + ": " + pe.Msg})
			}
			panic(e)
		}
	}()
	for _, r := range m.g.RVs {
		b.rv(r)
	}
	dets := make([]*graph.Node, len(m.g.Dets))
	for i, d := range m.g.Dets {
		dets[i] = b.node(d)
	}
	terms := make([]*graph.Node, len(m.g.Terms))
	for i, t := range m.g.Terms {
		terms[i] = b.node(t.Value)
	}
	// Commit.
	for _, r := range m.g.RVs {
		c := b.rvs[r]
		if !c.changed {
			continue
		}
		r.Params, r.Lower, r.Upper, r.Value = c.params, c.lower, c.upper, c.value
		if r.Pointwise != nil {
			r.Pointwise = c.pointwise
		}
		if r.Mix != nil {
			r.Mix = &graph.Mixture{Weights: c.weights, Comps: slices.Clone(r.Mix.Comps)}
			for k := range r.Mix.Comps {
				r.Mix.Comps[k].Params = c.comps[k]
			}
		}
		if r.Observed {
			r.DataOf, r.Data, r.NoData = c.dataOf, c.data, c.noData
		}
	}
	for i, d := range dets {
		m.g.Dets[i] = d
		m.names[d.Det] = d
	}
	for i, t := range terms {
		m.g.Terms[i].Value = t
		m.names[m.g.Terms[i].Name] = m.g.Terms[i]
	}
	for i, d := range m.g.Data {
		m.g.Data[i] = b.node(d)
	}
	if m.g.Forward == nil {
		m.g.Forward = map[*graph.Node]*graph.Node{}
	}
	for old, nw := range b.memo {
		if old != nw {
			m.g.Forward[old] = nw
		}
	}
}

// node is n made again over the new data (n itself when nothing under it
// changed).
func (b *rebuild) node(n *graph.Node) *graph.Node {
	if n == nil {
		return nil
	}
	if v, ok := b.memo[n]; ok {
		return v
	}
	out := n
	switch n.Kind {
	case graph.KRV:
		out = b.rv(n.RV).value
	case graph.KOp, graph.KReshape:
		as := make([]*graph.Node, len(n.Args))
		changed := false
		for i, a := range n.Args {
			as[i] = b.node(a)
			changed = changed || as[i] != a
		}
		if n.TableOf != nil && b.node(n.TableOf) != n.TableOf {
			// Index over a container of indices given new ones.
			out = Index(as[0], asExpr(b.node(n.TableOf))).node()
			b.memo[n] = out
			return out
		}
		if changed {
			out = b.remake(n, as)
		}
	}
	b.memo[n] = out
	return out
}

// rv works out what variable r becomes.
func (b *rebuild) rv(r *graph.RV) *rvChange {
	if c, ok := b.rvs[r]; ok {
		return c
	}
	c := &rvChange{value: r.Value, dataOf: r.DataOf, data: r.Data, noData: r.NoData}
	mark := func(old, nw *graph.Node) *graph.Node {
		if old != nw {
			c.changed = true
		}
		return nw
	}
	for _, p := range r.Params {
		c.params = append(c.params, mark(p, b.node(p)))
	}
	c.lower, c.upper = mark(r.Lower, b.node(r.Lower)), mark(r.Upper, b.node(r.Upper))
	if r.Mix != nil {
		c.weights = mark(r.Mix.Weights, b.node(r.Mix.Weights))
		for _, mc := range r.Mix.Comps {
			var ps []*graph.Node
			for _, p := range mc.Params {
				ps = append(ps, mark(p, b.node(p)))
			}
			c.comps = append(c.comps, ps)
		}
	}
	if r.DataOf != nil {
		c.dataOf = mark(r.DataOf, b.node(r.DataOf))
	}
	if r.Pointwise != nil {
		if c.dataOf != r.DataOf {
			b.m.failf(r.Name, "%s: the observations of %s shaped how its log density was built; new observations cannot follow yet (start anew with NewModel)", b.what, r.Name)
		}
		c.pointwise = mark(r.Pointwise, b.node(r.Pointwise))
	}
	b.rvs[r] = c
	if !c.changed {
		return c
	}
	shape := b.shape(r, c)
	if !slices.Equal(shape, r.Value.Dims) {
		if r.Censor != nil {
			b.m.failf(r.Name, "%s would change the shape of censored variable %s from %v to %v; its censoring bounds cannot follow new data yet (start anew with NewModel)", b.what, r.Name, r.Value.Dims, shape)
		}
		if !r.Observed {
			b.m.failf(r.Name, "%s would change the shape of parameter %s from %v to %v; a parameter's shape cannot follow the data (give it a shape of its own with Size, or start anew with NewModel)", b.what, r.Name, r.Value.Dims, shape)
		}
		c.value = &graph.Node{Kind: graph.KRV, RV: r, Dims: shape, Model: r.Value.Model}
	}
	if r.Observed {
		fits := func(d *graph.Node) bool {
			return slices.Equal(d.Dims, shape) || d.Len() == 1 && ir.ShapeLen(shape) == 1
		}
		switch {
		case c.dataOf != nil && fits(c.dataOf):
			t := &RV{m: b.m, v: *r}
			t.v.Params = c.params
			t.checkData(c.dataOf.Data)
			c.data, c.noData = c.dataOf.Data, false
		case !slices.Equal(shape, r.Value.Dims) || c.dataOf != nil:
			c.data, c.noData = make([]float64, ir.ShapeLen(shape)), true
		}
	}
	return c
}

// shape is the shape r takes with its new parameters (and data): as Var
// and Observe work it out.
func (b *rebuild) shape(r *graph.RV, c *rvChange) []int {
	pr, _ := b.m.names[r.Name].(*RV)
	if r.Mix != nil {
		same := true
		for k, mc := range r.Mix.Comps {
			for i, p := range mc.Params {
				same = same && slices.Equal(p.Dims, c.comps[k][i].Dims)
			}
		}
		if !same || c.dataOf != nil && !slices.Equal(c.dataOf.Dims, r.Value.Dims) {
			b.m.failf(r.Name, "%s would change the shape of mixture %s; a mixture cannot change shape with new data yet (start anew with NewModel)", b.what, r.Name)
		}
		return r.Value.Dims
	}
	for i, p := range c.params {
		if p != r.Params[i] {
			b.m.paramNode(r.Name, r.Fam, i, p) // data checks against the support
		}
	}
	before := &RV{m: b.m, v: *r}
	fromParams := before.eventShape(pr.given)
	t := &RV{m: b.m, v: *r}
	t.v.Params = c.params
	given := pr.given
	if pr.dimsShape {
		given = b.m.shapeFromDims(r.Dims, r.Fam.EventRank) // new coordinates
	}
	shape := t.eventShape(given)
	if r.Observed && !slices.Equal(fromParams, r.Value.Dims) {
		// The shape came from the data (Observe widened it).
		if c.dataOf != nil {
			return slices.Clone(c.dataOf.Dims)
		}
		return r.Value.Dims
	}
	return shape
}

// remake makes n again over new arguments as: by the function that made
// it when the arguments' shapes changed, a copy otherwise. A mistake
// panics with an *Error, which run prefixes with the call.
func (b *rebuild) remake(n *graph.Node, as []*graph.Node) *graph.Node {
	label := exprLabel(n.FnName(), n.Args...)
	if n.Kind == graph.KOp && n.Op == ir.OpScan {
		failf(nil, label, "a Scan over data cannot be made again with new data yet; start anew with NewModel")
	}
	if n.Fn == "Mean" {
		return Mean(as[0].Args[0]).node()
	}
	same := true
	for i, a := range as {
		same = same && slices.Equal(a.Dims, n.Args[i].Dims)
	}
	if same {
		c := *n
		c.Args = as
		return &c
	}
	anys := make([]any, len(as))
	for i, a := range as {
		anys[i] = a
	}
	if n.Kind == graph.KReshape {
		switch n.Fn {
		case "Deterministic":
			c := *n
			c.Args, c.Dims = as, slices.Clone(as[0].Dims)
			return &c
		case "Col":
			c := *n
			c.Args, c.Dims = as, []int{as[0].Len()}
			return &c
		}
		failf(nil, label, "views its argument with the fixed shape %v, which the new data of shape %v do not fit; start anew with NewModel", n.Dims, as[0].Dims)
	}
	switch n.Fn {
	case "Add", "Sub", "Mul", "Div", "Pow", "Min", "Max", "LogMix", "LogDiffExp":
		return elementwise(n.Fn, n.Op, anys...).node()
	case "LogPDF", "LogCDF", "LogCCDF":
		return opNode(n.Fn, n.Op, broadcast(n.Fn, as), as, n.Ints, nil)
	case "Sum", "LogSumExp":
		c := *n
		c.Args = as
		return &c
	case "Dot":
		return Dot(anys[0], anys[1]).node()
	case "Index":
		if n.TableOf != nil {
			return Index(anys[0], asExpr(n.TableOf)).node()
		}
		return Index(anys[0], n.Table).node()
	case "Col":
		return Col(as[0].Args[0], n.Table[0]).node()
	case "Row":
		return Row(anys[0], n.Ints[0]/n.Ints[1]).node()
	case "Slice", "At":
		if n.Ints[0]+n.Ints[1] > as[0].Len() {
			failf(nil, label, "takes elements [%d, %d), outside the new data's %d", n.Ints[0], n.Ints[0]+n.Ints[1], as[0].Len())
		}
		c := *n
		c.Args = as
		return &c
	case "Concat":
		return Concat(anys...).node()
	case "Stack":
		return Stack(anys...).node()
	case "MatVec":
		return MatVec(anys[0], anys[1]).node()
	case "MatMul":
		return MatMul(anys[0], anys[1]).node()
	case "TriSolve":
		return TriSolve(anys[0], anys[1]).node()
	case "AddDiag":
		return AddDiag(anys[0], anys[1]).node()
	case "CovExpQuad":
		return CovExpQuad(anys[0], anys[1], anys[2]).node()
	case "Where":
		failf(nil, label, "Where's condition was fixed when the model was built, for data of shape %v; start anew with NewModel", n.Args[0].Dims)
	}
	if len(as) == 1 && n.Ints == nil && n.Table == nil && slices.Equal(n.Dims, n.Args[0].Dims) {
		// An op that keeps its argument's shape (the unary functions,
		// Cholesky, LowerMulT).
		c := *n
		c.Args, c.Dims = as, slices.Clone(as[0].Dims)
		return &c
	}
	failf(nil, label, "cannot be made again for data of another shape (%v); keep the data's shape, or start anew with NewModel", as[0].Dims)
	return nil
}

// dataDets are the deterministic quantities computed from data
// containers, which PosteriorPredictive reports beside the observed
// variables.
func (m *Model) dataDets() []infer.Var {
	var out []infer.Var
	for _, d := range m.g.Dets {
		if containerIn(d) != "" {
			out = append(out, infer.Var{Name: d.Det, Shape: slices.Clone(d.Dims), Deterministic: true})
		}
	}
	return out
}
