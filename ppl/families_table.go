package ppl

import (
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/dist"
)

// families maps the names the methods use to distribution families.
//
// Until package dist publishes its families (with samplers and moments),
// this table describes each one to the compiler from its ir op alone.
var families = map[string]*dist.Family{}

func init() {
	sup := func(k dist.SupportKind) dist.Support { return dist.Support{Kind: k, Lower: -1, Upper: -1} }
	real, pos, unit := sup(dist.Real), sup(dist.Positive), sup(dist.UnitInterval)
	nonneg, binary := sup(dist.NonNegInt), sup(dist.Binary)
	add := func(name string, op ir.Op, s dist.Support, params []string, ps ...dist.Support) *dist.Family {
		f := &dist.Family{Name: name, Op: op, Support: s, Params: params, ParamSupport: ps}
		f.Discrete = s.Kind == dist.NonNegInt || s.Kind == dist.Binary || s.Kind == dist.BoundedInt
		families[name] = f
		return f
	}
	add("Normal", ir.OpNormalLPDF, real, []string{"mu", "sigma"}, real, pos)
	add("HalfNormal", ir.OpHalfNormalLPDF, pos, []string{"sigma"}, pos)
	add("StudentT", ir.OpStudentTLPDF, real, []string{"nu", "mu", "sigma"}, pos, real, pos)
	add("HalfStudentT", ir.OpHalfStudentTLPDF, pos, []string{"nu", "sigma"}, pos, pos)
	add("Cauchy", ir.OpCauchyLPDF, real, []string{"mu", "sigma"}, real, pos)
	add("HalfCauchy", ir.OpHalfCauchyLPDF, pos, []string{"sigma"}, pos)
	add("Laplace", ir.OpLaplaceLPDF, real, []string{"mu", "b"}, real, pos)
	add("Logistic", ir.OpLogisticLPDF, real, []string{"mu", "s"}, real, pos)
	add("LogNormal", ir.OpLogNormalLPDF, pos, []string{"mu", "sigma"}, real, pos)
	add("Exponential", ir.OpExponentialLPDF, pos, []string{"rate"}, pos)
	add("Gamma", ir.OpGammaLPDF, pos, []string{"alpha", "beta"}, pos, pos)
	add("InverseGamma", ir.OpInvGammaLPDF, pos, []string{"alpha", "beta"}, pos, pos)
	add("Weibull", ir.OpWeibullLPDF, pos, []string{"k", "lambda"}, pos, pos)
	add("Beta", ir.OpBetaLPDF, unit, []string{"alpha", "beta"}, pos, pos)
	add("Uniform", ir.OpUniformLPDF, dist.Support{Kind: dist.Bounded, Lower: 0, Upper: 1}, []string{"lower", "upper"}, real, real)
	add("Flat", ir.OpNop, real, nil)
	add("HalfFlat", ir.OpNop, pos, nil)
	add("Bernoulli", ir.OpBernoulliLPMF, binary, []string{"p"}, unit)
	add("BernoulliLogit", ir.OpBernoulliLogitLPMF, binary, []string{"logit"}, real)
	add("Binomial", ir.OpBinomialLPMF, dist.Support{Kind: dist.BoundedInt, Lower: -1, Upper: 0}, []string{"n", "p"}, nonneg, unit)
	add("BinomialLogit", ir.OpBinomialLogitLPMF, dist.Support{Kind: dist.BoundedInt, Lower: -1, Upper: 0}, []string{"n", "logit"}, nonneg, real)
	add("Poisson", ir.OpPoissonLPMF, nonneg, []string{"rate"}, pos)
	add("PoissonLog", ir.OpPoissonLogLPMF, nonneg, []string{"log_rate"}, real)
	add("NegativeBinomial", ir.OpNegBinomialLPMF, nonneg, []string{"mu", "phi"}, pos, pos)
	add("CategoricalLogit", ir.OpCategoricalLogitLPMF, nonneg, []string{"logits"}, real).EventRank = 1
	add("Dirichlet", ir.OpDirichletLPDF, sup(dist.Simplex), []string{"alpha"}, pos).EventRank = 1
	add("MultiNormalChol", ir.OpMultiNormalCholLPDF, real, []string{"mu", "L"}, real, real).EventRank = 1
	add("LKJCorrChol", ir.OpLKJCorrCholLPDF, sup(dist.CholeskyCorr), []string{"eta"}, pos).EventRank = 2
}
