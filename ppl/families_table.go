package ppl

import (
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/dist"
)

// families maps the names the methods use to the families of package dist.
var families = map[string]*dist.Family{}

func init() {
	real := dist.Support{Kind: dist.Real, Lower: -1, Upper: -1}
	pos := dist.Support{Kind: dist.Positive, Lower: -1, Upper: -1}
	unit := dist.Support{Kind: dist.UnitInterval, Lower: -1, Upper: -1}
	add := func(name string, op ir.Op, sup dist.Support, params []string, ps ...dist.Support) {
		families[name] = &dist.Family{Name: name, Op: op, Support: sup, Params: params, ParamSupport: ps}
	}
	add("Normal", ir.OpNormalLPDF, real, []string{"mu", "sigma"}, real, pos)
	add("HalfNormal", ir.OpHalfNormalLPDF, pos, []string{"sigma"}, pos)
	add("Cauchy", ir.OpCauchyLPDF, real, []string{"mu", "sigma"}, real, pos)
	add("HalfCauchy", ir.OpHalfCauchyLPDF, pos, []string{"sigma"}, pos)
	add("StudentT", ir.OpStudentTLPDF, real, []string{"nu", "mu", "sigma"}, pos, real, pos)
	add("Exponential", ir.OpExponentialLPDF, pos, []string{"rate"}, pos)
	add("Gamma", ir.OpGammaLPDF, pos, []string{"alpha", "beta"}, pos, pos)
	add("Beta", ir.OpBetaLPDF, unit, []string{"alpha", "beta"}, pos, pos)
	add("Flat", ir.OpNop, real, nil)
	add("HalfFlat", ir.OpNop, pos, nil)
	add("PoissonLog", ir.OpPoissonLogLPMF, dist.Support{Kind: dist.NonNegInt, Lower: -1, Upper: -1}, []string{"log_rate"}, real)
	families["PoissonLog"].Discrete = true
}
