package ppl

import (
	"fmt"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/dist"
)

// LogCDF is log P(Y ≤ y) for Y of a continuous scalar family, elementwise
// (Stan's normal_lcdf before the sum): family is a name ("Normal",
// "Weibull", …) or a *dist.Family, params its parameters in order, as
// for LogPDF. It is accurate far into both tails (log Φ(-40) is
// -804.6, not -Inf) and so is its gradient, in every argument. The
// normal, lognormal, half-normal, exponential, Weibull, logistic,
// Laplace, Cauchy, half-Cauchy and uniform have it in closed form; the
// gamma, inverse gamma, beta, Student's t and half-t through the
// incomplete gamma and beta functions, with the gradient in their shapes
// (α, β, ν) too. A discrete, multivariate or improper (Flat) family is an
// error naming it.
func LogCDF(family any, y any, params ...any) Expr {
	return tail("LogCDF", family, y, params, false)
}

// LogCCDF is log P(Y > y) = log(1 - F(y)), elementwise, accurate where
// F(y) is close to 1 (see LogCDF).
func LogCCDF(family any, y any, params ...any) Expr {
	return tail("LogCCDF", family, y, params, true)
}

// LogPhi is log Φ(x), the log of the standard normal CDF, elementwise:
// the log-likelihood of a probit model is LogPhi(η) for the ones and
// LogPhi(-η) for the zeros, finite however far out η goes.
func LogPhi(x any) Expr { return LogCDF(dist.Normal, x, 0.0, 1.0) }

// Phi is Φ(x), the standard normal CDF, elementwise: the inverse link of
// probit regression (p = Phi(η)). It is exp(LogPhi(x)), so its gradient
// φ(x) stays accurate in the lower tail.
func Phi(x any) Expr { return Exp(LogPhi(x)) }

// tail is the log CDF (upper false) or log CCDF of fn's family at y.
func tail(fn string, family any, y any, params []any, upper bool) Expr {
	fam := tailFamily(fn, family)
	ns := args(fn, append([]any{y}, params...)...)
	if len(params) != len(fam.Params) {
		failf(modelOf(fn, ns...), exprLabel(fn, ns...), "%s takes %d parameters (%v), got %d", fam.Name, len(fam.Params), fam.Params, len(params))
	}
	op := fam.LCDF
	if upper {
		op = fam.LCCDF
	}
	return asExpr(opNode(fn, op, broadcast(fn, ns), ns, []int{1}, nil))
}

// tailFamily resolves family for fn, failing unless it is a continuous
// scalar family with a CDF.
func tailFamily(fn string, family any) *dist.Family {
	var fam *dist.Family
	switch x := family.(type) {
	case string:
		fam = dist.Lookup(x)
	case *dist.Family:
		fam = x
	}
	if fam == nil {
		panic(&Error{Var: fn, Msg: fmt.Sprintf("family %v: want a family name such as \"Normal\" or a *dist.Family", family)})
	}
	if msg := noCDF(fam); msg != "" {
		panic(&Error{Var: fn, Msg: msg})
	}
	return fam
}

// noCDF says why fam has no log CDF, "" when it has one.
func noCDF(fam *dist.Family) string {
	switch {
	case fam.Discrete:
		return fmt.Sprintf("%s is discrete; CDFs, censoring and truncation are for continuous scalar families", fam.Name)
	case fam.EventRank != 0:
		return fmt.Sprintf("%s is multivariate; CDFs, censoring and truncation are for continuous scalar families", fam.Name)
	case fam.Op == ir.OpNop:
		return fmt.Sprintf("%s is improper (its density does not integrate to one), so it has no CDF; censoring and truncation need a proper continuous family", fam.Name)
	case fam.LCDF == ir.OpNop || fam.LCCDF == ir.OpNop:
		return fmt.Sprintf("no CDF for %s yet; the continuous scalar families of ppl/dist have one (normal, Student's t, gamma, beta, …)", fam.Name)
	}
	return ""
}
