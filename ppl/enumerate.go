package ppl

import (
	"math"
	"slices"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/internal/compile"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Enumeration (NumPyro's enumerated discrete latents, Stan's
// marginalisation by hand done for you): a discrete parameter with a
// finite support — Bernoulli, BernoulliLogit, Categorical (probabilities
// [K], or a row [N K] per element), CategoricalLogit, or Binomial with a
// fixed number of trials (at most 1000) — is summed out when the model
// compiles. For each of its values k the compiler makes again, with k in
// its place, everything computed from it: the log densities of the
// variables whose parameters use it and the LogDensity terms that do; the
// model's log density then holds
//
//	log Σₖ p(s = k) · p(what depends on s | s = k)
//
// in place of those densities, and the samplers see only the continuous
// parameters. A changepoint reads
//
//	s := m.Categorical("s", uniform)               // 0 … T-1
//	rate := late.Add(early.Sub(late).Mul(ppl.Step(s.Sub(t))))
//	m.Poisson("y", rate, ppl.Observed(counts))
//
// A vector of labels, one per observation (a plate), is summed out element
// by element — Σᵢ log Σₖ p(zᵢ = k) p(yᵢ | zᵢ = k) — as a mixture written
// with its labels:
//
//	z := m.Bernoulli("z", w, ppl.Size(n))           // or m.Categorical("z", w, ppl.Size(n))
//	m.Normal("y", mu.Take(z), sd.Take(z), ppl.Observed(y))
//
// (Take picks each observation's component, Where(z, a, b) picks between
// two; arithmetic on z works too.) Each value computed from z must use
// one element of z — elementwise functions, gathers (Index(z, group):
// the observations of a group share its label), Take, Where — and the
// compiler checks it: a value using two elements at once (z.Sum(), or y[i]
// on z[i] and z[i+1]) is refused, naming the variable, since summing those
// out needs their joint values.
//
// The posterior of s comes back as a deterministic quantity s_probs: at
// every draw, p(s = k | the parameters, the data), of shape [K] for a
// scalar and [shape of s, K] for a vector; its mean over the draws is
// p(s = k | data).
//
// Predictive draws (PosteriorPredictive) draw s at each posterior draw
// from its s_probs, with the chain's random stream (the same seed, the
// same draws), then the observations given that value; s's draws come
// back beside them. The prior predictive draws s from its prior.
//
// The pointwise log-likelihood (LogLik, for LOO) of an observation yⱼ
// whose density uses s is log p(yⱼ | y₋ⱼ, θ): s summed out, given the
// parameters θ and the other observations. For one observation per label
// it is the marginal log Σₖ p(sⱼ = k) p(yⱼ | k), what Mixture gives. When
// observations share a label (a changepoint's day, a group's label) they
// are not independent given θ, and there is no per-observation marginal
// whose sum is the likelihood; the conditional is what leave-one-out
// needs, as for any non-factorised model (Bürkner, Gabry and Vehtari
// 2021): p(θ | y₋ⱼ) ∝ p(θ | y) / p(yⱼ | y₋ⱼ, θ), so PSIS-LOO's importance
// ratios from these values estimate log p(yⱼ | y₋ⱼ) itself. It is log p(y
// | θ) - log p(y₋ⱼ | θ), for shared labels computed by subtracting yⱼ's
// term from its label's total. (WAIC reads the same values, but WAIC
// assumes a factorised likelihood.)
//
// Not built yet, each refused with its reason: a discrete variable that
// another enumerated one depends on (a hidden Markov chain: write its
// forward algorithm with Scan), a variable using two enumerated ones,
// multivariate, censored, truncated or mixture variables that depend on
// one, bounds that do, deterministic quantities or a Scan computed from
// one, a value using two elements of a vector of labels, and families
// without a finite support (Poisson). The observed variables whose
// densities move into an enumeration term are not split into shards.

// enumSupport is the number of values of r when it can be enumerated, and
// the log mass of r = k as an expression of its parameters: a scalar, or
// one value per element of r (flat, row-major).
func enumSupport(r *graph.RV) (int, func(k int) *graph.Node) {
	if r.Observed || r.Fam == nil || !r.Fam.Discrete || r.Lower != nil || r.Upper != nil || r.Truncated || r.Censor != nil {
		return 0, nil
	}
	n := r.Value.Len()
	flat := func(e Expr) *graph.Node {
		if x := e.node(); x.Len() == 1 {
			return Reshape(x).node()
		}
		return Reshape(e, n).node()
	}
	p := r.Params
	switch r.Fam.Name {
	case "Bernoulli", "BernoulliLogit":
		return 2, func(k int) *graph.Node { return flat(LogPDF(r.Fam, float64(k), p[0])) }
	case "CategoricalLogit":
		switch lg := p[0]; len(lg.Dims) {
		case 1:
			return lg.Len(), func(k int) *graph.Node { return At(LogSoftmax(lg), k).node() }
		case 2:
			// A row of logits per element.
			if lg.Dims[0] == n && len(r.Value.Dims) > 0 {
				return lg.Dims[1], func(k int) *graph.Node {
					return opNode("LogPDF", r.Fam.Op, []int{n}, []*graph.Node{graph.Scalar(float64(k)), lg}, []int{1}, nil)
				}
			}
		}
	case "Binomial", "BinomialLogit":
		if t := p[0]; t.IsConst() && t.Len() == 1 && t.Data[0] <= 1000 {
			return int(t.Data[0]) + 1, func(k int) *graph.Node { return flat(LogPDF(r.Fam, float64(k), p[0], p[1])) }
		}
	}
	return 0, nil
}

// enumerated is one summed-out variable of a compiled model.
type enumerated struct {
	rv      *graph.RV // the variable, as the model has it
	k       int       // its number of values
	probs   string    // the deterministic quantity of its posterior probabilities
	probsAt int       // where probs starts in a draw (set by compileModel)
	deps    []string  // the variables whose densities moved into its term
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
	c.MarginalLogLik = map[*graph.RV]*graph.Node{}
	c.ValuesOnly = map[*graph.Node]bool{}
	c.Source = g
	for _, s := range targets {
		name := s.Name + "_probs"
		if _, taken := m.names[name]; taken {
			failf(nil, s.Name, "its posterior probabilities would be recorded as %s, a name the model uses already", name)
		}
		enums = append(enums, sumOut(&c, g, s, name))
	}
	return &c, enums, nil
}

// part is one log-density term that an enumerated variable s enters: a
// variable's density or a LogDensity term, as pointwise terms.
type part struct {
	rv *graph.RV // nil for a LogDensity term
	// at is the element of s each term depends on (-1: none).
	at []int
	// terms are the pointwise terms (flat) with a value in place of s.
	terms func(sub func(*graph.Node) *graph.Node) *graph.Node
}

// sumOut sums s out of c (a copy of the model g): the densities and
// terms that use s move into one term, log Σₖ p(s = k) p(… | s = k), per
// element of s; its posterior probabilities become the deterministic
// quantity probs; the observed variables that use it get their pointwise
// log-likelihood (c.MarginalLogLik).
func sumOut(c, g *graph.Model, s *graph.RV, probs string) enumerated {
	K, logmass := enumSupport(s)
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
			failf(nil, d.Det, "is computed from the enumerated %s, which has no single value at a draw; use %s, its posterior probabilities, instead", s.Name, probs)
		}
	}
	var terms, depTerms []graph.Term
	for _, t := range c.Terms {
		if dep(t.Value) {
			depTerms = append(depTerms, t)
		} else {
			terms = append(terms, t)
		}
	}

	// What depends on s, term by term, and on which of its elements.
	lab := &labeler{s: s.Value, name: s.Name, dep: dep, memo: map[*graph.Node][]int{}}
	var parts []part
	for _, r := range deps {
		if r.Fam.Op == ir.OpNop {
			continue
		}
		lab.ctx = r.Name
		ps := make([]any, len(r.Params))
		for i, p := range r.Params {
			ps[i] = p
		}
		at := lab.of(LogPDF(r.Fam, r.Value, ps...).node())
		parts = append(parts, part{rv: r, at: at, terms: func(sub func(*graph.Node) *graph.Node) *graph.Node {
			for i, p := range r.Params {
				ps[i] = sub(p)
			}
			return Reshape(LogPDF(r.Fam, r.Value, ps...), r.Value.Len()).node()
		}})
	}
	for _, t := range depTerms {
		x := t.Value
		if x.Kind == graph.KOp && x.Op == ir.OpSum {
			x = x.Args[0] // a sum of terms: each term on its own
		}
		lab.ctx = t.Name
		parts = append(parts, part{at: lab.of(x), terms: func(sub func(*graph.Node) *graph.Node) *graph.Node {
			return Reshape(whole(sub(x), x), x.Len()).node()
		}})
	}

	// For each value k: log p(s = k) + the parts with k in place of s,
	// per element of s (a vector [N], or a scalar for a scalar s).
	n := s.Value.Len()
	vector := len(s.Value.Dims) > 0
	lms := make([]*graph.Node, K)     // log p(s = k)
	lps := make([]*graph.Node, K)     // log p(s = k, what depends on it)
	pts := make([][]*graph.Node, K)   // each part's pointwise terms
	byLab := make([][]*graph.Node, K) // each part's terms gathered per element of s
	var free []*graph.Node            // the parts' terms that use no element of s
	for k := range K {
		sub := substitution(s.Value, graph.Scalar(float64(k)))
		lms[k] = logmass(k)
		for _, p := range parts {
			t := p.terms(sub)
			pts[k] = append(pts[k], t)
			byLab[k] = append(byLab[k], perLabel(t, p.at, n, vector))
			if k == 0 {
				if f := unlabelled(t, p.at); f != nil {
					free = append(free, f)
				}
			}
		}
		lps[k] = addAll(n, vector, append([]*graph.Node{lms[k]}, byLab[k]...))
	}
	var marg, all, pr *graph.Node
	if vector {
		marg = logSumExps(lps)
		// p(s_i = k | …) = exp(lps[k]_i - marg_i), laid out [N K].
		ps := make([]any, K)
		for k := range K {
			ps[k] = Exp(Sub(lps[k], marg))
		}
		tr := make([]int, n*K)
		for i := range n {
			for k := range K {
				tr[i*K+k] = k*n + i
			}
		}
		pr = Index(Concat(ps...), tr).node()
	} else {
		cat := make([]any, K)
		for k := range K {
			cat[k] = lps[k]
		}
		all = Concat(cat...).node()
		marg = LogSumExp(all).node()
		pr = Softmax(all).node()
	}
	term := Sum(marg)
	for _, f := range free {
		term = Add(term, f)
	}
	dims := append(slices.Clone(s.Value.Dims), K)
	det := &graph.Node{Kind: graph.KReshape, Fn: "Deterministic", Dims: dims, Args: []*graph.Node{pr}, Det: probs, Model: g}
	c.Dets = append(c.Dets, det)
	c.ValuesOnly[det] = true
	c.Terms = append(terms, graph.Term{Name: "enumerate(" + s.Name + ")", Value: term.node()})
	c.RVs = slices.DeleteFunc(c.RVs, func(r *graph.RV) bool { return r == s })

	// The pointwise log-likelihood of each observed variable that uses s.
	for j, p := range parts {
		if p.rv == nil || !p.rv.Observed {
			continue
		}
		m := len(p.at)
		lab := make([]int, m)  // a label for every term (0 for those with none)
		pick := make([]int, m) // the labelled terms from the first m, the others from their own
		hasFree := false
		for t, i := range p.at {
			lab[t], pick[t] = max(i, 0), t
			if i < 0 {
				pick[t], hasFree = m+t, true
			}
		}
		gather := func(x *graph.Node) *graph.Node {
			if !vector {
				return x
			}
			return Index(x, lab).node()
		}
		var ll *graph.Node
		if injective(p.at) {
			// No other term of p shares an element of s: its log-likelihood
			// is the marginal with and without it, the latter summed exactly.
			rest := make([]*graph.Node, K)
			for k := range K {
				others := []*graph.Node{lms[k]}
				for q := range parts {
					if q != j {
						others = append(others, byLab[k][q])
					}
				}
				rest[k] = addAll(n, vector, others)
			}
			ll = gather(Sub(marg, logSumExps(rest)).node())
		} else {
			// Terms of p share an element of s: each term's value is
			// conditional on the others', the marginal with all of them
			// less the marginal without this one.
			without := make([]*graph.Node, K)
			for k := range K {
				without[k] = Sub(gather(lps[k]), pts[k][j]).node()
			}
			ll = Sub(gather(marg), logSumExps(without)).node()
		}
		ll = toVec(ll, m)
		if hasFree {
			ll = Index(Concat(ll, pts[0][j]), pick).node()
		}
		c.MarginalLogLik[p.rv] = ll
	}
	e := enumerated{rv: s, k: K, probs: probs}
	for _, r := range deps {
		c.Marginal[r] = true
		e.deps = append(e.deps, r.Name)
	}
	return e
}

// perLabel gathers the terms t, each using element at[j] of s (or none),
// into one value per element of s (n of them; a scalar when s is one).
func perLabel(t *graph.Node, at []int, n int, vector bool) *graph.Node {
	groups := make([][]int, n)
	var used []int
	for j, i := range at {
		if i >= 0 {
			groups[i] = append(groups[i], j)
			used = append(used, j)
		}
	}
	if !vector {
		if len(used) == len(at) {
			return Sum(t).node()
		}
		if len(used) == 0 {
			return graph.Scalar(0)
		}
		return Sum(Index(t, used)).node()
	}
	identity := len(at) == n
	width := 0
	for i, g := range groups {
		identity = identity && len(g) == 1 && g[0] == i
		width = max(width, len(g))
	}
	if identity {
		return t
	}
	// width gathers, the c-th of each element's terms (or a zero).
	padded := Concat(t, 0.0)
	var out Expr
	for c := range width {
		idx := make([]int, n)
		for i, g := range groups {
			idx[i] = len(at)
			if c < len(g) {
				idx[i] = g[c]
			}
		}
		x := Index(padded, idx)
		if out == nil {
			out = x
		} else {
			out = Add(out, x)
		}
	}
	if out == nil {
		return Fill(0.0, n).node()
	}
	return out.node()
}

// unlabelled is the sum of the terms t that use no element of s, nil when
// there are none.
func unlabelled(t *graph.Node, at []int) *graph.Node {
	var js []int
	for j, i := range at {
		if i < 0 {
			js = append(js, j)
		}
	}
	if js == nil {
		return nil
	}
	return Sum(Index(t, js)).node()
}

// injective reports whether no two of the labels at (of those ≥ 0) are
// equal.
func injective(at []int) bool {
	seen := map[int]bool{}
	for _, i := range at {
		if i >= 0 {
			if seen[i] {
				return false
			}
			seen[i] = true
		}
	}
	return true
}

// addAll is the sum of xs (scalars or vectors [n]), a vector [n] when
// vector is set.
func addAll(n int, vector bool, xs []*graph.Node) *graph.Node {
	var sum Expr
	for _, x := range xs {
		if sum == nil {
			sum = asExpr(x)
		} else {
			sum = Add(sum, x)
		}
	}
	if !vector {
		return sum.node()
	}
	return toVec(sum.node(), n)
}

// toVec is x as a vector [n]: itself, a view, or a scalar filled.
func toVec(x *graph.Node, n int) *graph.Node {
	switch {
	case len(x.Dims) == 1 && x.Dims[0] == n:
		return x
	case x.Len() == 1 && n != 1:
		return Fill(Reshape(x), n).node()
	}
	return Reshape(x, n).node()
}

// logSumExps is log Σₖ exp(xs[k]) elementwise, pairwise: log(eᵃ + eᵇ) =
// log_mix(½, a, b) + log 2.
func logSumExps(xs []*graph.Node) *graph.Node {
	acc := asExpr(xs[0])
	for _, x := range xs[1:] {
		acc = Add(LogMix(0.5, acc, x), math.Ln2)
	}
	return acc.node()
}

// labeler finds, for each element of a value computed from the
// enumerated variable s, the one element of s it depends on: what lets
// a vector of labels be summed out label by label. A value that depends
// on two elements of s at once fails, naming ctx.
type labeler struct {
	s    *graph.Node
	name string // s's
	ctx  string // what is analysed, for errors
	dep  func(*graph.Node) bool
	memo map[*graph.Node][]int
}

// of is, for each element of n, the element of s it depends on (-1 for
// none); nil when n does not depend on s.
func (l *labeler) of(n *graph.Node) []int {
	if !l.dep(n) {
		return nil
	}
	if at, ok := l.memo[n]; ok {
		return at
	}
	at := make([]int, n.Len())
	for j := range at {
		at[j] = -1
	}
	set := func(j, i int) {
		switch {
		case i < 0 || at[j] == i:
		case at[j] < 0:
			at[j] = i
		default:
			l.fail(n, at[j], i)
		}
	}
	// every is the one element of s that all of xs depend on (-1: none).
	every := func(xs ...*graph.Node) int {
		u := -1
		for _, x := range xs {
			for _, i := range l.of(x) {
				if i >= 0 && u >= 0 && i != u {
					l.fail(n, u, i)
				}
				if i >= 0 {
					u = i
				}
			}
		}
		return u
	}
	switch {
	case n == l.s:
		for j := range at {
			at[j] = j
		}
	case n.Kind == graph.KReshape:
		copy(at, l.of(n.Args[0]))
	case n.Kind == graph.KOp && elementwiseNode(n):
		for _, a := range n.Args {
			src := l.of(a)
			for j := range at {
				switch len(src) {
				case 0:
				case 1:
					set(j, src[0])
				default:
					set(j, src[j])
				}
			}
		}
	case n.Kind == graph.KOp && n.Op == ir.OpGather:
		src := l.of(n.Args[0])
		for j, t := range n.Table {
			set(j, src[t])
		}
	case n.Kind == graph.KOp && n.Op == ir.OpGatherRow:
		src, w := l.of(n.Args[0]), n.Args[0].Dims[1]
		for j, t := range n.Table {
			for c := range w {
				set(j*w+c, src[t*w+c])
			}
		}
	case n.Kind == graph.KOp && n.Op == ir.OpSlice:
		src := l.of(n.Args[0])
		for j := range at {
			set(j, src[n.Ints[0]+j])
		}
	case n.Kind == graph.KOp && n.Op == ir.OpConcat:
		o := 0
		for _, a := range n.Args {
			for j, i := range l.of(a) {
				set(o+j, i)
			}
			o += a.Len()
		}
	case n.Kind == graph.KOp && n.Op == ir.OpFill:
		u := every(n.Args[0])
		for j := range at {
			set(j, u)
		}
	case n.Kind == graph.KOp && n.Op == ir.OpMatVec:
		// Row j of A, and all of v (Take's one-hot rows).
		A, v := n.Args[0], n.Args[1]
		w := A.Dims[1]
		if src := l.of(A); src != nil {
			for j := range at {
				for c := range w {
					set(j, src[j*w+c])
				}
			}
		}
		u := every(v)
		for j := range at {
			set(j, u)
		}
	default:
		// Sums, products, scans: each element from every input's.
		u := every(n.Args...)
		for j := range at {
			set(j, u)
		}
	}
	l.memo[n] = at
	return at
}

func (l *labeler) fail(n *graph.Node, i, j int) {
	failf(nil, l.ctx, "uses elements %d and %d of the enumerated %s in one value (through %s); enumeration sums out each element of %s on its own, so each value may use one element (as y[i] uses %s[i], a label per observation); write the variable elementwise in %s, or sum the labels out by hand (Mixture, or LogSumExp in a LogDensity term)",
		i, j, l.name, exprLabel(n.FnName(), n.Args...), l.name, l.name, l.name)
}

// elementwiseNode reports whether each element of n is computed from the
// same element of each argument (or the one element of a scalar).
func elementwiseNode(n *graph.Node) bool {
	if n.Op >= ir.OpNeg && n.Op <= ir.OpLogMix {
		return true
	}
	switch n.Fn {
	case "LogPDF", "LogCDF", "LogCCDF":
		return len(n.Ints) > 0 && n.Ints[0] == 1
	}
	return false
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
// from. to may be one value where from has many (a vector of labels, each
// taking the value k): a function of it elementwise is then made again
// as one value too, broadcast where it is used, and any other function
// gets it filled back to its shape (whole). So the densities of a
// mixture's observations see their component's parameters as scalars,
// as Mixture's do, not as vectors of one repeated value.
func substitution(from, to *graph.Node) func(*graph.Node) *graph.Node {
	memo := map[*graph.Node]*graph.Node{from: to}
	var sub func(n *graph.Node) *graph.Node
	sub = func(n *graph.Node) *graph.Node {
		if v, ok := memo[n]; ok {
			return v
		}
		out := n
		if x, idx, ok := takeArgs(n); ok {
			// Take and Where over a discrete variable, made again over the
			// value put in its place: a gather, or the one element taken.
			if d := dataOf(sub(idx)); d != nil && sub(idx) != idx {
				if k, one := uniform(d); one {
					if k < 0 || k >= float64(x.Len()) || k != math.Trunc(k) {
						failf(nil, exprLabel("Take", x, idx), "%s takes the value %v, not an index of %s's %d elements", from.RV.Name, k, x, x.Len())
					}
					out = At(sub(x), int(k)).node()
				} else {
					out = Take(sub(x), d).node()
				}
				memo[n] = out
				return out
			}
		}
		if c, a, b, ok := whereVarArgs(n); ok {
			if d := dataOf(sub(c)); d != nil && sub(c) != c {
				if k, one := uniform(d); one && k != 0 {
					out = sub(a)
				} else if one {
					out = sub(b)
				} else {
					out = Where(d, sub(a), sub(b)).node()
				}
				memo[n] = out
				return out
			}
		}
		if n.Kind == graph.KOp || n.Kind == graph.KReshape {
			as := make([]*graph.Node, len(n.Args))
			changed, fewer := false, false
			for i, a := range n.Args {
				as[i] = sub(a)
				changed = changed || as[i] != a
				fewer = fewer || as[i].Len() != a.Len()
			}
			if changed {
				if n.Kind == graph.KOp && n.Op == ir.OpScan {
					failf(nil, "Scan", "a Scan uses the enumerated %s; enumerating through a Scan is not built yet", from.RV.Name)
				}
				c := *n
				c.Args = as
				out = &c
				switch {
				case !fewer:
				case n.Kind == graph.KReshape:
					out = as[0] // a view of one value throughout is that value
				case elementwiseNode(n):
					c.Dims = nil
					for _, a := range as {
						if a.Len() > 1 {
							c.Dims = slices.Clone(a.Dims)
						}
					}
				default:
					for i, a := range n.Args {
						as[i] = whole(as[i], a)
					}
				}
			}
		}
		memo[n] = out
		return out
	}
	return sub
}

// whole is s (what substitution made of n) in n's shape: filled when it
// is one value for many.
func whole(s, n *graph.Node) *graph.Node {
	switch {
	case s.Len() == n.Len():
		return s
	case s.IsConst():
		d := make([]float64, n.Len())
		for i := range d {
			d[i] = s.Data[0]
		}
		return graph.Const(d, slices.Clone(n.Dims))
	}
	return Fill(Reshape(s), n.Dims...).node()
}

// uniform reports whether the data d hold one value throughout, and it.
func uniform(d *graph.Node) (float64, bool) {
	for _, v := range d.Data[1:] {
		if v != d.Data[0] {
			return 0, false
		}
	}
	return d.Data[0], true
}

// dataOf is n computed, when it uses no variable (a value put in place of
// one, Index(z, group) with z's value): nil otherwise.
func dataOf(n *graph.Node) *graph.Node {
	if n.IsConst() {
		return n
	}
	if dependsOnAny(n, func(m *graph.Node) bool {
		return m.Kind == graph.KRV || m.Kind == graph.KInput || m.Kind == graph.KSlots
	}) {
		return nil
	}
	d, ok, err := compile.Fold("", n)
	if !ok || err != nil {
		return nil
	}
	return graph.Const(d, slices.Clone(n.Dims))
}

// dependsOnAny reports whether n or a node it is computed from is leaf.
func dependsOnAny(n *graph.Node, leaf func(*graph.Node) bool) bool {
	seen := map[*graph.Node]bool{}
	var walk func(n *graph.Node) bool
	walk = func(n *graph.Node) bool {
		if seen[n] {
			return false
		}
		seen[n] = true
		if leaf(n) {
			return true
		}
		for _, a := range n.Args {
			if walk(a) {
				return true
			}
		}
		return false
	}
	return walk(n)
}
