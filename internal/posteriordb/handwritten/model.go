package handwritten

import (
	"fmt"
	"math"

	"github.com/gobayes/gobayes/internal/posteriordb"
)

// Block is one parameter's slots in the unconstrained position,
// x[Off : Off+Len], and the bijector that maps them to its value.
type Block struct {
	Name      string
	Off, Len  int
	Transform Transform
}

// Transform is a block's bijector.
type Transform int

const (
	Identity        Transform = iota
	Positive                  // exp
	UnitInterval              // logistic
	Ordered                   // y1 = x1, yk = y(k-1) + exp(xk)
	PositiveOrdered           // y1 = exp(x1), yk = y(k-1) + exp(xk)
	Simplex                   // stick-breaking, K-1 slots → K values
	Dependent                 // a bound depending on other parameters: Derive sets it
)

// spec describes a block before layout.
func spec(name string, n int, tr Transform) Block { return Block{Name: name, Len: n, Transform: tr} }

// Model is a log density on the unconstrained scale.
type Model struct {
	Name   string
	Dim    int
	Blocks []Block
	// LogDensity is the log density (log-Jacobians included) at x, up to
	// a constant; -Inf or NaN where it is not finite.
	LogDensity func(x []float64) float64
	// LogDensityGrad is LogDensity that also writes the gradient into
	// grad; nil for the models without a hand-written gradient.
	LogDensityGrad func(x, grad []float64) float64
	// derive adds the derived quantities (and Dependent parameters) to
	// the values of Values; nil when there are none.
	derive func(x []float64, v map[string][]float64)
}

// Values maps the unconstrained position x to the value of every
// parameter and derived quantity, by name (what a draw records).
func (m *Model) Values(x []float64) map[string][]float64 {
	v := map[string][]float64{}
	for _, b := range m.Blocks {
		u := x[b.Off : b.Off+b.Len]
		var out []float64
		switch b.Transform {
		case Identity:
			out = append(out, u...)
		case Positive:
			for _, ui := range u {
				out = append(out, math.Exp(ui))
			}
		case UnitInterval:
			for _, ui := range u {
				y, _ := interval(ui, 0, 1)
				out = append(out, y)
			}
		case Ordered:
			out = make([]float64, len(u))
			ordered(u, out)
		case PositiveOrdered:
			out = make([]float64, len(u))
			positiveOrdered(u, out)
		case Simplex:
			out = make([]float64, len(u)+1)
			simplex(u, out)
		case Dependent:
			continue
		}
		v[b.Name] = out
	}
	if m.derive != nil {
		m.derive(x, v)
	}
	return v
}

// Block returns the block called name.
func (m *Model) Block(name string) (Block, bool) {
	for _, b := range m.Blocks {
		if b.Name == name {
			return b, true
		}
	}
	return Block{}, false
}

// gradModel is a model with an analytic gradient.
type gradModel interface {
	LogDensityGrad(x, grad []float64) float64
}

// layout lays the blocks out one after the other.
func layout(specs ...Block) ([]Block, int) {
	off := 0
	for i := range specs {
		specs[i].Off = off
		off += specs[i].Len
	}
	return specs, off
}

// New returns the hand-written model of case c (a posteriordb case or
// posteriordb.SimulatedLogistic).
func New(c *posteriordb.Case) (*Model, error) {
	build, ok := builders[c.Name]
	if !ok {
		return nil, fmt.Errorf("handwritten: no model for case %q", c.Name)
	}
	m, err := build(c)
	if err != nil {
		return nil, fmt.Errorf("handwritten: %s: %w", c.Name, err)
	}
	m.Name = c.Name
	return m, nil
}

var builders = map[string]func(c *posteriordb.Case) (*Model, error){
	"eight_schools-eight_schools_noncentered": newEightSchoolsNoncentered,
	"eight_schools-eight_schools_centered":    newEightSchoolsCentered,
	"sblrc-blr":                               newBLR,
	"kidiq-kidscore_momhs":                    newKidscoreMomhs,
	"kidiq-kidscore_interaction":              newKidscoreInteraction,
	"earnings-earn_height":                    newEarnHeight,
	"earnings-logearn_interaction":            newLogearnInteraction,
	"mesquite-logmesquite":                    newLogmesquite,
	"nes2000-nes":                             newNES,
	"kilpisjarvi_mod-kilpisjarvi":             newKilpisjarvi,
	"arK-arK":                                 newArK,
	"arma-arma11":                             newArma11,
	"garch-garch11":                           newGarch11,
	"gp_pois_regr-gp_regr":                    newGPRegr,
	"gp_pois_regr-gp_pois_regr":               newGPPoisRegr,
	"low_dim_gauss_mix-low_dim_gauss_mix":     newGaussMix,
	"hmm_example-hmm_example":                 newHMM,
	posteriordb.LogisticName:                  newLogistic,
}

// withGrad wraps a model with a gradient into a Model.
func withGrad(g gradModel, specs ...Block) *Model {
	bs, dim := layout(specs...)
	grad := make([]float64, dim)
	return &Model{
		Dim:            dim,
		Blocks:         bs,
		LogDensityGrad: g.LogDensityGrad,
		// LogDensity reuses the gradient code; the scratch gradient makes
		// it unsafe for concurrent use, like the models themselves.
		LogDensity: func(x []float64) float64 { return g.LogDensityGrad(x, grad) },
	}
}

// Log densities, normalised, written from their textbook formulas.

const logSqrt2Pi = 0.91893853320467274178 // log(sqrt(2π))

func normalLPDF(y, mu, sigma float64) float64 {
	z := (y - mu) / sigma
	return -0.5*z*z - math.Log(sigma) - logSqrt2Pi
}

// halfNormalLPDF is the density of |Normal(0, sigma)| at y >= 0.
func halfNormalLPDF(y, sigma float64) float64 {
	return normalLPDF(y, 0, sigma) + math.Ln2
}

// halfCauchyLPDF is the density of |Cauchy(0, s)| at y >= 0.
func halfCauchyLPDF(y, s float64) float64 {
	z := y / s
	return math.Log(2/(math.Pi*s)) - math.Log1p(z*z)
}

// gammaLPDF has shape a and rate b.
func gammaLPDF(y, a, b float64) float64 {
	lg, _ := math.Lgamma(a)
	return a*math.Log(b) - lg + (a-1)*math.Log(y) - b*y
}

func betaLPDF(y, a, b float64) float64 {
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	return lab - la - lb + (a-1)*math.Log(y) + (b-1)*math.Log1p(-y)
}

func logSumExp2(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(a, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// log1pExp is log(1 + exp(x)) without overflow.
func log1pExp(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// Bijectors: each maps an unconstrained value to the constrained one and
// returns the log absolute Jacobian determinant.

// positive maps u to exp(u) (lower bound 0).
func positive(u float64) (v, logJ float64) { return math.Exp(u), u }

// interval maps u to lo + (hi-lo)·logistic(u).
func interval(u, lo, hi float64) (v, logJ float64) {
	// log logistic(u) = -log1pExp(-u), log(1-logistic(u)) = -log1pExp(u).
	return lo + (hi-lo)/(1+math.Exp(-u)), math.Log(hi-lo) - log1pExp(-u) - log1pExp(u)
}

// ordered maps u to y1 = u1, yk = y(k-1) + exp(uk).
func ordered(u, y []float64) (logJ float64) {
	y[0] = u[0]
	for k := 1; k < len(u); k++ {
		y[k] = y[k-1] + math.Exp(u[k])
		logJ += u[k]
	}
	return logJ
}

// positiveOrdered maps u to y1 = exp(u1), yk = y(k-1) + exp(uk).
func positiveOrdered(u, y []float64) (logJ float64) {
	y[0] = math.Exp(u[0])
	logJ = u[0]
	for k := 1; k < len(u); k++ {
		y[k] = y[k-1] + math.Exp(u[k])
		logJ += u[k]
	}
	return logJ
}

// simplex maps u (K-1 values) to a K-simplex y by Stan's stick-breaking:
// z_k = logistic(u_k - log(K-k)) (k 1-based), y_k = z_k·(stick left),
// and the last element takes what is left.
func simplex(u, y []float64) (logJ float64) {
	K := len(y)
	stick := 1.0
	for k := 0; k < K-1; k++ {
		a := u[k] - math.Log(float64(K-k-1))
		z := 1 / (1 + math.Exp(-a))
		y[k] = stick * z
		logJ += math.Log(stick) - log1pExp(-a) - log1pExp(a)
		stick -= y[k]
	}
	y[K-1] = stick
	return logJ
}
