package infer

import "math"

// gaussModel is a hand-written Model: Normal(0, Σ) in d dimensions with a
// dense precision matrix, recording x and, as a deterministic quantity,
// exp(x[0]).
type gaussModel struct {
	d    int
	prec []float64 // row-major d×d
}

func (m *gaussModel) Name() string { return "gauss" }
func (m *gaussModel) Dim() int     { return m.d }
func (m *gaussModel) Vars() []Var {
	return []Var{{Name: "x", Shape: []int{m.d}}, {Name: "ex0", Deterministic: true}}
}
func (m *gaussModel) NewDensity() Density { return &gaussDensity{m} }

type gaussDensity struct{ m *gaussModel }

func (g *gaussDensity) LogDensityGrad(x, grad []float64) float64 {
	d := g.m.d
	lp := 0.0
	for i := 0; i < d; i++ {
		s := 0.0
		for j := 0; j < d; j++ {
			s += g.m.prec[i*d+j] * x[j]
		}
		grad[i] = -s
		lp -= 0.5 * x[i] * s
	}
	return lp
}

func (g *gaussDensity) Constrained(x, out []float64) {
	copy(out, x)
	out[len(x)] = math.Exp(x[0])
}

func (g *gaussDensity) NonFinite(x []float64) []string { return nil }

func stdNormalModel(d int) *gaussModel {
	p := make([]float64, d*d)
	for i := 0; i < d; i++ {
		p[i*d+i] = 1
	}
	return &gaussModel{d: d, prec: p}
}

// correlatedModel has sds 1 and 3 and correlation 0.9: covariance
// [[1, 2.7], [2.7, 9]].
func correlatedModel() *gaussModel {
	det := 9 - 2.7*2.7
	return &gaussModel{d: 2, prec: []float64{9 / det, -2.7 / det, -2.7 / det, 1 / det}}
}

// halfModel has no finite start: its log density is finite only where
// x > 10, out of reach of uniform(-2, 2).
type halfModel struct{}

func (halfModel) Name() string        { return "half" }
func (halfModel) Dim() int            { return 1 }
func (halfModel) Vars() []Var         { return []Var{{Name: "x"}} }
func (halfModel) NewDensity() Density { return halfDensity{} }

type halfDensity struct{}

func (halfDensity) LogDensityGrad(x, g []float64) float64 {
	if x[0] <= 10 {
		return math.Inf(-1)
	}
	g[0] = -1
	return -x[0]
}
func (halfDensity) Constrained(x, out []float64) { out[0] = x[0] }
func (halfDensity) NonFinite(x []float64) []string {
	if x[0] <= 10 {
		return []string{"x (prior)"}
	}
	return nil
}

// constModel has no parameters, only a deterministic constant.
type constModel struct{}

func (constModel) Name() string                          { return "const" }
func (constModel) Dim() int                              { return 0 }
func (constModel) Vars() []Var                           { return []Var{{Name: "c", Deterministic: true}} }
func (constModel) NewDensity() Density                   { return constModel{} }
func (constModel) LogDensityGrad(x, g []float64) float64 { return 0 }
func (constModel) Constrained(x, out []float64)          { out[0] = 42 }
func (constModel) NonFinite([]float64) []string          { return nil }
