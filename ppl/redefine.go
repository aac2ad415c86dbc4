package ppl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// A notebook cell run again with a changed definition replaces what it
// made the first time, as the same kind of thing under the same name: a
// variable (another prior, other bounds, other data), a deterministic
// quantity, a log-density term, a data container (as SetData). The
// variable or quantity is changed in place, so everything built from it
// before — theta over mu, the likelihood over theta, expressions held in
// other cells — reads the new definition. Two things are refused, with
// the model left as it was: a new shape for something other expressions
// were built with (they were checked against the old shape), and a
// definition that uses what it defines, directly or through others.

// What is one cell and what is a cell run again is told by the run
// (Session.thisRun, the hooks' context): a name defined twice in one run — two
// variables meant to be two, a second batch of observations — is an
// error naming both definitions; outside a notebook every definition is
// in the one run. A redefinition says what changed, as a notice in the
// cell ("tau: HalfCauchy(5) → HalfNormal(5)").

// once refuses a second definition of name in the run that defined it:
// was and now describe the two.
func (m *Model) once(name string, was, now func() string) {
	if r, ok := m.defined[name]; ok && r == m.session().thisRun() {
		hint := "; a name is defined once (to change a definition, build the model anew with NewModel)"
		if m.session().inCells() {
			hint = " (running the cell again redefines what it defined)"
		}
		m.failf(name, "is defined twice%s: first as %s, then as %s; give each its own name%s", m.runText(), was(), now(), hint)
	}
}

// runText is " in one run of the cell" in a notebook, "" outside.
func (m *Model) runText() string {
	if m.session().inCells() {
		return " in one run of the cell"
	}
	return ""
}

// definition describes what name stands for now, as the model's listing
// does: "tau ~ HalfCauchy(5)", "theta[8] = Add(mu, …)".
func (m *Model) definition(name string) string {
	switch x := m.names[name].(type) {
	case *RV:
		l := line(&x.v)
		return lineText(l)
	case *graph.Node:
		return detText(name, x.Args[0], m.g.DetDims[name])
	case graph.Term:
		return termText(x.Value)
	case dataName:
		return dataText(name, m.dataNode(name).Dims)
	}
	return name
}

// lineText writes a variable's listing line: "y[3] ~ Normal(mu, 1)
// (observed)".
func lineText(l [4]string) string {
	s := l[0] + " ~ " + l[2]
	if l[3] != "parameter" {
		s += " (" + l[3] + ")"
	}
	return s
}

// text describes the variable the call making r would make (shape, with
// the options o), before it exists.
func (r *RV) text(shape []int, o *options) string {
	v := r.v
	v.Value = &graph.Node{Kind: graph.KRV, Dims: shape}
	v.Dims = o.dims
	v.Observed = o.hasObserved
	return lineText(line(&v))
}

func detText(name string, n *graph.Node, dims []string) string {
	return name + dimsSuffix(n.Dims, dims) + " = " + formula(n, 4)
}

func termText(n *graph.Node) string { return "target += " + formula(n, 4) }

func dataText(name string, dims []int) string {
	return name + shapeSuffix(dims) + " = data"
}

// varChange says what a redefinition changed in a variable's line:
// "tau: HalfCauchy(5) → HalfNormal(5)".
func varChange(name string, was, now [4]string) string {
	a, b := was[2], now[2]
	if was[0] != now[0] {
		a, b = was[0]+" ~ "+a, now[0]+" ~ "+b
	}
	if was[3] != now[3] {
		a, b = a+" ("+was[3]+")", b+" ("+now[3]+")"
	}
	if a == b {
		return name + ": redefined as before, new data"
	}
	return name + ": " + a + " → " + b
}

// changedNotice shows what a cell run again changed in name: "was → now",
// or now alone when was is "".
func (m *Model) changedNotice(name, was, now string) {
	if was == "" {
		m.session().notice(name + ": " + now)
		return
	}
	m.session().notice(name + ": " + strings.TrimPrefix(was, name+" ") + " → " + strings.TrimPrefix(now, name+" "))
}

// redefine makes the variable old what the call that made r (options o,
// shape) describes.
func (m *Model) redefine(old, r *RV, o *options, shape []int) *RV {
	name := old.v.Name
	if !slices.Equal(shape, old.v.Value.Dims) {
		m.shapeInUse(name, old.v.Value, shape)
	}
	saved, given, fixed, dims := old.v, old.given, old.shapeFixed, old.v.Value.Dims
	rvs := slices.Clone(m.g.RVs)
	defer func() {
		if e := recover(); e != nil {
			old.v, old.given, old.shapeFixed = saved, given, fixed
			old.v.Value.Dims = dims
			m.g.RVs = rvs
			m.changed()
			panic(e)
		}
	}()
	old.v = graph.RV{Name: name, Fam: r.v.Fam, Params: r.v.Params, Value: old.v.Value, Dims: o.dims}
	old.v.Value.Dims = shape
	old.given, old.shapeFixed = r.given, r.shapeFixed
	m.applyBounds(old, o)
	m.applyLimits(old, o)
	m.sortVars(name)
	m.changed()
	if o.hasObserved {
		old.Observe(o.observed)
	}
	return old
}

// redefineDet makes the deterministic quantity d stand for n.
func (m *Model) redefineDet(d, n *graph.Node, dims []string) {
	if !slices.Equal(d.Dims, n.Dims) {
		m.shapeInUse(d.Det, d, n.Dims)
	}
	if path := pathTo(n, d, map[*graph.Node]bool{}); path != nil {
		m.failf(d.Det, "the new expression uses %s itself (%s); a quantity cannot be defined by itself", d.Det, strings.Join(path, " ← "))
	}
	arg, shape := d.Args[0], d.Dims
	defer func() {
		if e := recover(); e != nil {
			d.Args[0], d.Dims = arg, shape
			m.changed()
			panic(e)
		}
	}()
	d.Args[0], d.Dims = n, slices.Clone(n.Dims)
	m.sortVars(d.Det)
	if dims != nil {
		if m.g.DetDims == nil {
			m.g.DetDims = map[string][]string{}
		}
		m.g.DetDims[d.Det] = dims
	} else {
		delete(m.g.DetDims, d.Det)
	}
	m.changed()
}

// shapeInUse refuses a new shape for node n of name when other parts of
// the model were built from it.
func (m *Model) shapeInUse(name string, n *graph.Node, shape []int) {
	if users := m.usersOf(n); len(users) > 0 {
		m.failf(name, "was %s and would now be %s, but %s %s built from it with the old shape; keep the shape, or start the model anew with NewModel and run its cells again",
			shapeText(n.Dims), shapeText(shape), strings.Join(users, ", "), map[bool]string{true: "was", false: "were"}[len(users) == 1])
	}
}

// shapeText says "a scalar" or "of shape [3]".
func shapeText(dims []int) string {
	if len(dims) == 0 {
		return "a scalar"
	}
	return fmt.Sprintf("of shape %v", dims)
}

// usersOf names the variables, deterministic quantities and terms whose
// definitions use node n (other than n's own variable).
func (m *Model) usersOf(n *graph.Node) []string {
	var users []string
	seen := map[*graph.Node]bool{}
	uses := func(roots ...*graph.Node) bool {
		for _, r := range roots {
			if r != nil && pathTo(r, n, seen) != nil {
				return true
			}
		}
		return false
	}
	for _, r := range m.g.RVs {
		if r.Value == n {
			continue
		}
		if uses(rvInputs(r)...) {
			users = append(users, r.Name)
		}
	}
	for _, d := range m.g.Dets {
		if d != n && uses(d.Args...) {
			users = append(users, d.Det)
		}
	}
	for _, t := range m.g.Terms {
		if uses(t.Value) {
			users = append(users, t.Name)
		}
	}
	return users
}

// rvInputs lists the nodes a variable's definition reads.
func rvInputs(r *graph.RV) []*graph.Node {
	in := append([]*graph.Node{r.Lower, r.Upper, r.DataOf, r.Pointwise}, r.Params...)
	if r.Mix != nil {
		in = append(in, r.Mix.Weights)
		for _, c := range r.Mix.Comps {
			in = append(in, c.Params...)
		}
	}
	return in
}

// pathTo finds target among the nodes n is computed from, without going
// into other variables' definitions, and returns the names on the way
// (deterministic quantities and target's own name), nil when n does not
// use target. Nodes in seen are known not to lead to target.
func pathTo(n, target *graph.Node, seen map[*graph.Node]bool) []string {
	if n == nil || seen[n] {
		return nil
	}
	if n == target {
		return []string{nodeName(n)}
	}
	if n.Kind != graph.KRV {
		for _, a := range inputs(n) {
			if p := pathTo(a, target, seen); p != nil {
				if n.Det != "" {
					p = append(p, n.Det)
				}
				return p
			}
		}
	}
	seen[n] = true
	return nil
}

// inputs lists the nodes n is computed from: its arguments, and for a
// scan the outer values and the body's results.
func inputs(n *graph.Node) []*graph.Node {
	if n.Scan == nil {
		return n.Args
	}
	in := append(slices.Clone(n.Args), n.Scan.Statics...)
	return append(append(in, n.Scan.Next...), n.Scan.Emit)
}

func nodeName(n *graph.Node) string {
	switch {
	case n.RV != nil:
		return n.RV.Name
	case n.Det != "":
		return n.Det
	}
	return n.String()
}

// sortVars puts the model's variables in an order where each comes after
// the variables its definition uses (the predictive draws them in that
// order), keeping the order they were made in wherever it allows. A
// definition that uses itself through other variables is an error naming
// the loop.
func (m *Model) sortVars(name string) {
	rvs := m.g.RVs
	index := map[*graph.RV]int{}
	for i, r := range rvs {
		index[r] = i
	}
	deps := make([][]int, len(rvs))
	for i, r := range rvs {
		seen := map[*graph.Node]bool{}
		for _, in := range rvInputs(r) {
			for _, u := range varsIn(in, seen) {
				if j, ok := index[u]; ok && j != i && !slices.Contains(deps[i], j) {
					deps[i] = append(deps[i], j)
				}
			}
		}
	}
	done := make([]bool, len(rvs))
	order := make([]*graph.RV, 0, len(rvs))
	for len(order) < len(rvs) {
		next := -1
		for i := range rvs {
			if done[i] {
				continue
			}
			ready := true
			for _, j := range deps[i] {
				ready = ready && done[j]
			}
			if ready {
				next = i
				break
			}
		}
		if next < 0 {
			m.failf(name, "the new definition makes a loop: %s; a variable cannot depend on itself", loopOf(rvs, deps, done))
		}
		done[next] = true
		order = append(order, rvs[next])
	}
	m.g.RVs = order
}

// varsIn lists the variables whose values n reads directly (not through
// their definitions).
func varsIn(n *graph.Node, seen map[*graph.Node]bool) []*graph.RV {
	if n == nil || seen[n] {
		return nil
	}
	seen[n] = true
	if n.Kind == graph.KRV {
		return []*graph.RV{n.RV}
	}
	var out []*graph.RV
	for _, a := range inputs(n) {
		out = append(out, varsIn(a, seen)...)
	}
	return out
}

// loopOf describes one loop among the variables not done: "mu → theta → mu".
func loopOf(rvs []*graph.RV, deps [][]int, done []bool) string {
	start := -1
	for i := range rvs {
		if !done[i] {
			start = i
			break
		}
	}
	var path []int
	at := map[int]int{}
	for i := start; ; {
		if k, ok := at[i]; ok {
			path = append(path[k:], i)
			break
		}
		at[i] = len(path)
		path = append(path, i)
		for _, j := range deps[i] {
			if !done[j] {
				i = j
				break
			}
		}
	}
	names := make([]string, len(path))
	for k, i := range path {
		names[k] = rvs[i].Name
	}
	return fmt.Sprintf("%s uses %s", names[0], strings.Join(names[1:], ", which uses "))
}
