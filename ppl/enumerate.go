package ppl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Enumeration (NumPyro's enumerated discrete latents, Stan's
// marginalisation by hand done for you): a discrete parameter with a
// finite support — a scalar Bernoulli, Categorical(probs [K]) or
// CategoricalLogit, or Binomial with a fixed number of trials — is summed
// out when the model compiles. For each of its values k the compiler
// makes again, with k in its place, everything computed from it: the log
// densities of the variables whose parameters use it and the LogDensity
// terms that do; the model's log density then holds
//
//	log Σₖ p(s = k) · p(what depends on s | s = k)
//
// in place of those densities, and the samplers see only the continuous
// parameters. The posterior of s comes back as a deterministic quantity
// s_probs[K]: at every draw, p(s = k | the parameters, the data); its
// mean over the draws is p(s = k | data). A changepoint reads
//
//	s := m.Categorical("s", uniform)               // 0 … T-1
//	rate := late.Add(early.Sub(late).Mul(ppl.Step(s.Sub(t))))
//	m.Poisson("y", rate, ppl.Observed(counts))
//
// Not built yet: a vector of discrete variables (write a mixture with
// Mixture), a discrete variable that another enumerated one depends on,
// multivariate or censored variables that depend on it, deterministic
// quantities or a Scan computed from it, and the pointwise
// log-likelihood and predictive draws of such a model (their observations
// share the summed-out value); each says so.

// enumSupport is the support size of r when it can be enumerated, and
// the log mass of r = k as an expression of its parameters.
func enumSupport(r *graph.RV) (int, func(k int) Expr) {
	if r.Observed || r.Fam == nil || !r.Fam.Discrete || len(r.Value.Dims) != 0 {
		return 0, nil
	}
	p := r.Params
	switch r.Fam.Name {
	case "Bernoulli", "BernoulliLogit":
		return 2, func(k int) Expr { return LogPDF(r.Fam, float64(k), p[0]) }
	case "CategoricalLogit":
		if len(p[0].Dims) != 1 {
			return 0, nil
		}
		return p[0].Len(), func(k int) Expr { return At(LogSoftmax(p[0]), k) }
	case "Binomial", "BinomialLogit":
		if n := p[0]; n.IsConst() && n.Len() == 1 && n.Data[0] <= 1000 {
			return int(n.Data[0]) + 1, func(k int) Expr { return LogPDF(r.Fam, float64(k), p[0], p[1]) }
		}
	}
	return 0, nil
}

// enumerated is one summed-out variable of a compiled model.
type enumerated struct {
	name string
	deps []string // the variables whose densities moved into its term
}

// enumerate returns the graph the compiler reads: m's own when nothing
// is enumerated, else a copy with each enumerable variable summed out.
func (m *Model) enumerate() (g *graph.Model, enums []enumerated, err error) {
	defer Catch(&err)
	g = &m.g
	var targets []*graph.RV
	for _, r := range m.g.RVs {
		if k, _ := enumSupport(r); k > 0 {
			targets = append(targets, r)
		}
	}
	if len(targets) == 0 {
		return g, nil, nil
	}
	c := *g // a copy: the model itself does not change
	c.RVs = slices.Clone(g.RVs)
	c.Dets = slices.Clone(g.Dets)
	c.Terms = slices.Clone(g.Terms)
	c.Marginal = map[*graph.RV]bool{}
	for _, s := range targets {
		K, logmass := enumSupport(s)
		// What depends on s.
		dep := dependsOn(s.Value)
		var deps []*graph.RV
		for _, r := range c.RVs {
			if r == s {
				continue
			}
			uses := false
			for _, n := range append(slices.Clone(r.Params), r.Lower, r.Upper, r.Pointwise) {
				uses = uses || n != nil && dep(n)
			}
			if r.Mix != nil {
				uses = uses || dep(r.Mix.Weights)
				for _, mc := range r.Mix.Comps {
					for _, n := range mc.Params {
						uses = uses || dep(n)
					}
				}
			}
			if !uses {
				continue
			}
			switch {
			case c.Marginal[r]:
				failf(nil, r.Name, "depends on two enumerated discrete variables; enumerating them jointly is not built yet")
			case r.Lower != nil && dep(r.Lower) || r.Upper != nil && dep(r.Upper):
				failf(nil, r.Name, "its bounds use the enumerated %s; bounds that depend on a discrete variable are not built", s.Name)
			case r.Mix != nil || r.Censor != nil || r.Truncated || r.Pointwise != nil || r.Fam.EventRank != 0:
				failf(nil, r.Name, "uses the enumerated %s, and enumerating into a %s is not built yet", s.Name, r.FamName())
			}
			if k, _ := enumSupport(r); k > 0 {
				failf(nil, r.Name, "a discrete variable that uses the enumerated %s; enumerating both is not built yet", s.Name)
			}
			deps = append(deps, r)
		}
		for _, d := range c.Dets {
			if dep(d) {
				failf(nil, d.Det, "is computed from the enumerated %s, which has no single value at a draw; use %s_probs, its posterior probabilities, instead", s.Name, s.Name)
			}
		}
		var terms []graph.Term
		var depTerms []graph.Term
		for _, t := range c.Terms {
			if dep(t.Value) {
				depTerms = append(depTerms, t)
			} else {
				terms = append(terms, t)
			}
		}
		// log p(s = k) + the dependents' log densities with s = k.
		lps := make([]any, K)
		for k := 0; k < K; k++ {
			sub := substitution(s.Value, graph.Scalar(float64(k)))
			lp := logmass(k)
			for _, r := range deps {
				if r.Fam.Op == ir.OpNop {
					continue
				}
				ps := make([]any, len(r.Params))
				for i, p := range r.Params {
					ps[i] = sub(p)
				}
				lp = Add(lp, Sum(LogPDF(r.Fam, r.Value, ps...)))
			}
			for _, t := range depTerms {
				lp = Add(lp, sub(t.Value))
			}
			lps[k] = lp
		}
		all := Concat(lps...)
		name := s.Name + "_probs"
		if _, taken := m.names[name]; taken {
			failf(nil, s.Name, "its posterior probabilities would be recorded as %s, a name the model uses already", name)
		}
		probs := &graph.Node{Kind: graph.KReshape, Fn: "Deterministic", Dims: []int{K}, Args: []*graph.Node{Softmax(all).node()}, Det: name, Model: g}
		c.Dets = append(c.Dets, probs)
		c.Terms = append(terms, graph.Term{Name: "enumerate(" + s.Name + ")", Value: LogSumExp(all).node()})
		c.RVs = slices.DeleteFunc(c.RVs, func(r *graph.RV) bool { return r == s })
		e := enumerated{name: s.Name}
		for _, r := range deps {
			c.Marginal[r] = true
			e.deps = append(e.deps, r.Name)
		}
		enums = append(enums, e)
	}
	return &c, enums, nil
}

// dependsOn returns a test of whether a node is computed from v.
func dependsOn(v *graph.Node) func(*graph.Node) bool {
	memo := map[*graph.Node]bool{}
	var dep func(n *graph.Node) bool
	dep = func(n *graph.Node) bool {
		if n == nil {
			return false
		}
		if n == v {
			return true
		}
		if d, ok := memo[n]; ok {
			return d
		}
		memo[n] = false
		d := false
		for _, a := range n.Args {
			if dep(a) {
				d = true
				break
			}
		}
		memo[n] = d
		return d
	}
	return dep
}

// substitution returns a function making a node again with to in place of
// from (a scalar for a scalar, so every shape stays).
func substitution(from, to *graph.Node) func(*graph.Node) *graph.Node {
	memo := map[*graph.Node]*graph.Node{from: to}
	var sub func(n *graph.Node) *graph.Node
	sub = func(n *graph.Node) *graph.Node {
		if v, ok := memo[n]; ok {
			return v
		}
		out := n
		if n.Kind == graph.KOp || n.Kind == graph.KReshape {
			as := make([]*graph.Node, len(n.Args))
			changed := false
			for i, a := range n.Args {
				as[i] = sub(a)
				changed = changed || as[i] != a
			}
			if changed {
				if n.Kind == graph.KOp && n.Op == ir.OpScan {
					failf(nil, "Scan", "a Scan uses the enumerated %s; enumerating through a Scan is not built yet", from.RV.Name)
				}
				c := *n
				c.Args = as
				out = &c
			}
		}
		memo[n] = out
		return out
	}
	return sub
}

// enumError refuses what a model with enumerated variables cannot do yet.
func (c *Compiled) enumError(what string) error {
	if len(c.enums) == 0 {
		return nil
	}
	var names []string
	for _, e := range c.enums {
		names = append(names, e.name)
	}
	return &Error{Var: c.name, Msg: fmt.Sprintf("%s: %s is summed out (enumerated), and %s of such a model is not built yet; the posterior probabilities of its values are the deterministic quantity %s_probs", what, strings.Join(names, ", "), strings.ToLower(what), names[0])}
}
