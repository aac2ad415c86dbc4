package dist

import (
	"math/rand/v2"

	"github.com/gobayes/gobayes/accel/ir"
)

// SupportKind is the set of values a distribution puts mass on; the model
// compiler picks the bijector from it.
type SupportKind int

const (
	Real         SupportKind = iota
	Positive                 // (0, ∞)
	UnitInterval             // (0, 1)
	Bounded                  // (lower, upper), bounds given by parameters (Support.Lower/Upper)
	Simplex                  // last axis sums to one
	CholeskyCorr             // lower Cholesky factor of a correlation matrix
	NonNegInt                // 0, 1, 2, … (observed only)
	Binary                   // 0 or 1 (observed only)
	BoundedInt               // 0 … n, n from a parameter or the event size (observed only)
)

// Support is a family's support. Lower and Upper index Family.Params for
// Bounded (and Upper for BoundedInt); -1 when unused.
type Support struct {
	Kind         SupportKind
	Lower, Upper int
}

// Family describes one distribution to the model compiler: its parameters,
// its support, the ir op computing its log density, and a sampler.
type Family struct {
	Name   string   // "Normal"
	Params []string // parameter names in op order, after the variate: "mu", "sigma"
	// ParamSupport says what each parameter accepts, so data arguments are
	// checked when the model is built (a negative sigma is an error naming
	// the variable).
	ParamSupport []Support
	Support      Support
	Op           ir.Op // log density (or mass) op; ir.OpNop for improper families
	// LCDF and LCCDF are the ops of the log CDF, log P(Y ≤ y), and the
	// log CCDF, log P(Y > y), with the density's arguments (the bound in
	// place of the variate); ir.OpNop where the family has none yet.
	// Censored observations and truncated variables need them.
	LCDF, LCCDF ir.Op
	Discrete    bool
	// EventRank is the number of trailing axes of one draw: 0 for scalar
	// families, 1 for Dirichlet, MultiNormal, Categorical (over its
	// logits), 2 for LKJ Cholesky.
	EventRank int
	// Sample writes draws into out, one per element (per event for
	// multivariate families, see the package doc). params[i] holds the
	// values of parameter i, of length 1 (broadcast) or the batch length.
	// Nil for improper families.
	Sample func(rng *rand.Rand, params [][]float64, out []float64)
	// Mean and Var give the moments for scalar parameters (nil where they
	// do not exist), used by the moment tests. Where existence depends on
	// the parameters (Student's t with ν ≤ 2) they return +Inf or NaN.
	Mean, Var func(params []float64) float64
}

// Families lists every family of the package, in a fixed order: those
// written here, then those defined in accel/opdef (families_gen.go).
func Families() []*Family {
	return append([]*Family{
		Flat, HalfFlat,
		CategoricalLogit, Dirichlet, MultiNormalChol, LKJCorrChol,
	}, generatedFamilies()...)
}

// Lookup returns the family called name ("Normal", "HalfCauchy", …), or
// nil.
func Lookup(name string) *Family {
	for _, f := range Families() {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// on is a support of the given kind with no parameter bounds.
func on(k SupportKind) Support { return Support{Kind: k, Lower: -1, Upper: -1} }

// scalarSampler makes a Sample function for a scalar family from a draw of
// one element given its parameters (broadcast as the Family doc says).
func scalarSampler(draw func(rng *rand.Rand, p []float64) float64) func(*rand.Rand, [][]float64, []float64) {
	return func(rng *rand.Rand, params [][]float64, out []float64) {
		var buf [4]float64
		p := buf[:len(params)]
		for i := range out {
			for j, v := range params {
				p[j] = v[i%len(v)]
			}
			out[i] = draw(rng, p)
		}
	}
}
