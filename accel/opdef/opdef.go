package opdef

import (
	"math/rand/v2"
	"slices"
	"strings"
)

// Dist is one scalar log density (or mass) function of the instruction
// set: an elementwise op whose inputs broadcast (each has the batch length
// or length 1) and whose output is the sum of the terms, or the terms
// themselves in pointwise mode (see accel/ir's op conventions).
type Dist struct {
	// Family is the name modellers use: "BetaBinomial" (dist.BetaBinomial,
	// m.BetaBinomial).
	Family string
	// Op names the instruction: ir.Op<Op> ("BetaBinomialLPMF"); Name is
	// its printed name ("beta_binomial_lpmf"); the CUDA device functions
	// are gb_<CName>_lpdf and gb_<CName>_grad.
	Op, Name, CName string
	// Doc is the family's documentation, a sentence or more: it becomes
	// the doc comment of dist.<Family> and of Model.<Family>.
	Doc string
	// Args are the variate, then the parameters, in op order.
	Args []Arg
	// Support is the variate's support, as dist.SupportKind names it:
	// "Real", "Positive", "UnitInterval", "NonNegInt", "Binary",
	// "BoundedInt:<param index of the upper bound>", or
	// "Bounded:<lower param index>,<upper param index>".
	Support string
	// Discrete marks a mass function (observed only).
	Discrete bool
	// Valid is where the term is defined: outside it the term is -Inf and
	// adds nothing to any gradient. It covers the variate's support and
	// the parameters' valid values.
	Valid string
	// GradIf, when set, is where the partials are taken, beside Valid:
	// an element whose term overflowed to -Inf (the Weibull's (y/λ)^k)
	// adds nothing to any gradient. It may read the lets.
	GradIf string
	// Let names per-element subexpressions, in order; each may use the
	// arguments and the lets before it.
	Let []Let
	// Keep names lets that accel/ir's Forward leaves in the op's scratch,
	// one per element, for Backward to read instead of computing them
	// again (Student's t's log1p(z²/ν), which only ∂ν reads).
	Keep []string
	// Cached names parameters that are often data (the normal's σ, a
	// measurement error per observation): when such an argument is a
	// constant, the costly functions of it alone (log σ, 1/σ) are
	// computed once per frame and its conditions in Valid tested once,
	// as for the variate and the counts.
	Cached []string
	// Fast lists the shapes of the inputs that accel/ir's loops have a
	// copy for with constant strides and no bounds checks: each names the
	// arguments that are full vectors, separated by spaces, the others
	// being one value ("y mu": a regression's observations and means, one
	// σ). Empty: the one shape where every argument is a full vector.
	Fast []string
	// Shortcut names hand-written functions of accel/ir, <Shortcut>Forward
	// and <Shortcut>Backward, each func(*Frame, *Instr) bool, that the
	// generated loops call first: an algebraic shortcut for one shape that
	// the formulas cannot say (the normal's -Σ(y-μ)²/2σ² - n log σ with
	// one σ, one pass of a subtraction and a multiply-add per element),
	// reporting whether it applied. accel/ir's TestShortcuts checks each
	// against the generated loops on the same inputs, valid and not.
	Shortcut string
	// Scalar asks for <Family>Value and <Family>Grad in accel/opdef/term
	// (terms_gen.go): the value and the partials of one element as
	// small Go functions that inline, with the costly calls on parameters
	// alone (log σ, 1/σ) as arguments, for the hand-fused kernels of
	// accel/fuse and accel/vec, which then do not spell the formulas.
	Scalar bool
	// Value is the log density.
	Value string
	// Draw is one draw given the parameters (not the variate); Mean and
	// Var its moments, nil where they do not exist.
	Draw      func(rng *rand.Rand, p []float64) float64
	Mean, Var func(p []float64) float64
	// LCDF and LCCDF, when set, are the family's log CDF, log P(Y ≤ y),
	// and log CCDF, log P(Y > y): each becomes an op of its own over the
	// same arguments (see Ops), for censored and truncated variables.
	// Families without them have no CDF (ppl's LogCDF says so).
	LCDF, LCCDF *Tail
	// Of is set on the definitions Ops derives from a family's LCDF and
	// LCCDF: the family they belong to.
	Of *Dist
}

// Tail is a log CDF or log CCDF of a family: the formulas of an op over
// the family's arguments, the bound first, with no family of its own.
// It is defined on the whole real line: Valid says where it is finite
// (the parameters' conditions, and the bound above the support's lower
// end for a log CDF); a bound past the support's ends takes the value
// its formula gives there (log 1 = 0).
type Tail struct {
	Valid  string
	GradIf string
	Let    []Let
	// Keep is as Dist.Keep: the gamma's log P, costly (a series or a
	// continued fraction), is left by Forward for Backward's partials.
	Keep  []string
	Value string
	// Grads are the partials by each argument, in the family's Args
	// order ("" for an argument without a gradient).
	Grads []string
}

// Arg is one input of the op.
type Arg struct {
	Name string
	// Support is what a parameter accepts, as in Dist.Support ("" for the
	// variate): data arguments are checked against it when a model is
	// built.
	Support string
	// Grad is the partial derivative of Value by this argument; "" for an
	// argument that takes no gradient (counts, which are data).
	Grad string
}

// Let is a named per-element subexpression.
type Let struct{ Name, Expr string }

var defined []*Dist

// define registers d (each definition file's variable is define(&Dist{…}),
// so that adding a family touches no list) and returns it.
func define(d *Dist) *Dist {
	defined = append(defined, d)
	return d
}

// All is every family's definition, ordered by family name: the order of
// the families the generated code adds.
func All() []*Dist {
	out := slices.Clone(defined)
	slices.SortFunc(out, func(a, b *Dist) int { return strings.Compare(a.Family, b.Family) })
	return out
}

// Ops is every op's definition: the families' log densities (All), then
// their log CDFs and log CCDFs in the same order, so that adding a tail
// leaves the numbers of the density ops as they were. A tail's Dist has
// Family "<Family>LCDF" or "<Family>LCCDF", Op likewise, Name
// "<name>_lcdf" or "<name>_lccdf" (normal_lcdf), CName "<cname>_lcdf",
// the family's Args with the tail's partials, and Of the family.
func Ops() []*Dist {
	all := All()
	out := slices.Clone(all)
	for _, d := range all {
		for _, t := range []struct {
			suffix string
			tail   *Tail
		}{{"LCDF", d.LCDF}, {"LCCDF", d.LCCDF}} {
			if t.tail != nil {
				out = append(out, tailDist(d, t.suffix, t.tail))
			}
		}
	}
	return out
}

// tailDist is the op definition of tail t of family d.
func tailDist(d *Dist, suffix string, t *Tail) *Dist {
	lower := strings.ToLower(suffix)
	base, _, _ := strings.Cut(d.Name, "_lp")
	args := make([]Arg, len(d.Args))
	for i, a := range d.Args {
		args[i] = Arg{Name: a.Name, Support: a.Support}
		if i < len(t.Grads) {
			args[i].Grad = t.Grads[i]
		}
	}
	return &Dist{
		Family: d.Family + suffix, Op: d.Family + suffix, Name: base + "_" + lower, CName: d.CName + "_" + lower,
		Doc:  "is the " + suffix + " of " + d.Family + ".",
		Args: args, Support: d.Support, Valid: t.Valid, GradIf: t.GradIf, Let: t.Let, Keep: t.Keep, Value: t.Value, Of: d,
	}
}
