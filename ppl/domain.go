package ppl

import (
	"fmt"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// A parameter argument that can leave its family's domain — a Poisson
// rate, a Bernoulli p or a scale built from a Normal variable — would
// sample into divergences and end with advice that does not fit. The
// check is conservative: it refuses an argument only where its range
// provably leaves the domain, that is where it moves over all the reals
// with one latent real variable (the variable itself, or sums, scalings,
// elements and quantities over it in which that variable appears once).
// Anything else — exp, softplus, logistic, a positive prior, positive
// data, a square, an expression it cannot follow — is let through.

// domainError refuses parameter i of fam (the variable name) when its
// argument n moves over all the reals; nil when it does not show.
func domainError(name string, fam *dist.Family, i int, n *graph.Node) *Error {
	if i >= len(fam.ParamSupport) {
		return nil
	}
	kind := fam.ParamSupport[i].Kind
	if kind == dist.Real {
		return nil
	}
	r := freeVar(n)
	if r == nil {
		return nil
	}
	what := "its domain"
	switch kind {
	case dist.Positive:
		what = "(0, ∞)"
	case dist.UnitInterval:
		what = "(0, 1)"
	case dist.NonNegInt:
		what = "0, 1, 2, …"
	}
	via := ""
	if s := formula(n, 3); s != r.Name {
		via = fmt.Sprintf(" %s is built from %s, which", s, r.Name)
	}
	if via == "" {
		via = " " + r.Name
	}
	return &Error{Var: name, Msg: fmt.Sprintf("%s %s:%s is a %s variable and takes every real value, but %s must lie in %s; %s",
		fam.Name, graph.ParamName(fam, i), via, r.Fam.Name, graph.ParamName(fam, i), what, domainAdvice(fam, i, kind))}
}

// domainAdvice says what to write instead of an argument that leaves the
// domain.
func domainAdvice(fam *dist.Family, i int, kind dist.SupportKind) string {
	p := graph.ParamName(fam, i)
	if len(fam.Params) == i+1 || kind == dist.UnitInterval {
		for _, link := range []struct {
			suffix, fn, inverse string
			kind                dist.SupportKind
		}{{"Log", "log", "Exp", dist.Positive}, {"Logit", "logit", "Logistic", dist.UnitInterval}} {
			if alt := dist.Lookup(fam.Name + link.suffix); alt != nil && link.kind == kind {
				return fmt.Sprintf("use %s, which takes %s(%s) and so any real value (a linear predictor), or pass the argument through a link such as %s(…)", alt.Name, link.fn, p, link.inverse)
			}
		}
	}
	switch kind {
	case dist.Positive:
		return "give it a positive prior (HalfNormal, Exponential, Gamma, LogNormal) or pass it through a link such as Exp(…) or Softplus(…)"
	case dist.UnitInterval:
		return "give it a prior on (0, 1) (Beta) or pass it through the link Logistic(…)"
	}
	return "give it a prior within that domain, or pass it through a link that maps into it"
}

// freeVar returns the latent real variable over whose values n moves
// over all the reals, or nil when there is none that shows.
func freeVar(n *graph.Node) *graph.RV {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case graph.KRV:
		r := n.RV
		if !r.Observed && r.Fam != nil && r.Mix == nil && r.Fam.Support.Kind == dist.Real && r.Lower == nil && r.Upper == nil &&
			r.Order == graph.Unordered && !r.Truncated && r.Censor == nil {
			return r
		}
		return nil
	case graph.KReshape:
		return freeVar(n.Args[0])
	case graph.KOp:
	default:
		return nil
	}
	switch n.Op {
	case ir.OpNeg, ir.OpSum, ir.OpGather, ir.OpGatherRow, ir.OpSlice:
		return freeVar(n.Args[0])
	case ir.OpConcat:
		for _, a := range n.Args {
			if r := freeVar(a); r != nil {
				return r
			}
		}
	case ir.OpAdd, ir.OpSub:
		if r := freeVar(n.Args[0]); r != nil && !reads(n.Args[1], r) {
			return r
		}
		if r := freeVar(n.Args[1]); r != nil && !reads(n.Args[0], r) {
			return r
		}
	case ir.OpMul:
		if r := freeVar(n.Args[0]); r != nil && !reads(n.Args[1], r) && nonZero(n.Args[1]) {
			return r
		}
		if r := freeVar(n.Args[1]); r != nil && !reads(n.Args[0], r) && nonZero(n.Args[0]) {
			return r
		}
	case ir.OpDiv:
		if r := freeVar(n.Args[0]); r != nil && !reads(n.Args[1], r) && nonZero(n.Args[1]) {
			return r
		}
	}
	return nil
}

// reads reports whether n reads the value of r.
func reads(n *graph.Node, r *graph.RV) bool {
	for _, u := range varsIn(n, map[*graph.Node]bool{}) {
		if u == r {
			return true
		}
	}
	return false
}

// nonZero reports whether n is never zero: data without zeros, a variable
// of positive support, an exponential.
func nonZero(n *graph.Node) bool {
	switch {
	case n.Kind == graph.KConst && n.Container == "":
		for _, v := range n.Data {
			if v == 0 {
				return false
			}
		}
		return len(n.Data) > 0
	case n.Kind == graph.KRV:
		k := n.RV.Support().Kind
		return !n.RV.Observed && (k == dist.Positive || k == dist.UnitInterval) && n.RV.Lower == nil
	case n.Kind == graph.KReshape:
		return nonZero(n.Args[0])
	case n.Kind == graph.KOp && n.Op == ir.OpExp:
		return true
	}
	return false
}

// checkDomains checks every variable's arguments (domainError) as the
// model is now: a cell run again may have redefined a variable that an
// argument is built from.
func (m *Model) checkDomains() error {
	for _, r := range m.g.RVs {
		if r.Fam == nil {
			continue
		}
		for i, p := range r.Params {
			if err := domainError(r.Name, r.Fam, i, p); err != nil {
				return err
			}
		}
	}
	return nil
}
