package diag

import (
	"fmt"
	"math"
	"sort"
)

// ModelCheck is an estimate of a model's expected log pointwise predictive
// density for new data (elpd), by PSIS-LOO or WAIC.
type ModelCheck struct {
	Method string // "PSIS-LOO" or "WAIC"
	// ELPD is the estimate, SE its standard error, P the effective number
	// of parameters; Pointwise holds each observation's elpd.
	ELPD, SE, P float64
	Pointwise   []float64
	// ParetoK is PSIS's shape estimate per observation (LOO only): above
	// 0.7 the estimate for that observation is unreliable.
	ParetoK []float64
}

// String summarises the estimate in a line, with the count of unreliable
// observations for LOO.
func (m *ModelCheck) String() string {
	s := fmt.Sprintf("%s: elpd %.2f (SE %.2f), p %.2f", m.Method, m.ELPD, m.SE, m.P)
	if m.ParetoK != nil {
		bad := 0
		for _, k := range m.ParetoK {
			if k > 0.7 {
				bad++
			}
		}
		s += fmt.Sprintf(", %d of %s with Pareto k > 0.7", bad, Plural(len(m.ParetoK), "observation"))
	}
	return s
}

// WAIC computes the widely applicable information criterion's elpd from
// the pointwise log-likelihood loglik[draw][observation] (Watanabe 2010;
// Vehtari, Gelman and Gabry 2017, eq. 11-12): lppd minus the variance of
// the log-likelihood, per observation.
func WAIC(loglik [][]float64) *ModelCheck {
	s, n := len(loglik), len(loglik[0])
	m := &ModelCheck{Method: "WAIC", Pointwise: make([]float64, n)}
	col := make([]float64, s)
	for i := 0; i < n; i++ {
		for k := range col {
			col[k] = loglik[k][i]
		}
		lppd := logSumExp(col) - math.Log(float64(s))
		_, v := meanVar(col)
		m.Pointwise[i] = lppd - v
		m.P += v
	}
	m.ELPD, m.SE = sumSE(m.Pointwise)
	return m
}

// LOO computes leave-one-out cross-validation's elpd by Pareto-smoothed
// importance sampling (Vehtari, Gelman and Gabry 2017; Vehtari et al.
// 2024), as R's loo package does with r_eff = 1: the largest
// min(0.2·S, 3·sqrt(S)) importance ratios of each observation are replaced
// by quantiles of a generalized Pareto fitted to them (Zhang and Stephens
// 2009, with loo's weakly informative prior on k), then truncated.
func LOO(loglik [][]float64) *ModelCheck {
	s, n := len(loglik), len(loglik[0])
	m := &ModelCheck{Method: "PSIS-LOO", Pointwise: make([]float64, n), ParetoK: make([]float64, n)}
	ll := make([]float64, s)
	lw := make([]float64, s)
	tail := int(math.Ceil(math.Min(0.2*float64(s), 3*math.Sqrt(float64(s)))))
	lppdSum := 0.0
	for i := 0; i < n; i++ {
		for k := range ll {
			ll[k] = loglik[k][i]
			lw[k] = -ll[k]
		}
		m.ParetoK[i] = psis(lw, tail)
		norm := logSumExp(lw)
		acc := make([]float64, s)
		for k := range acc {
			acc[k] = lw[k] - norm + ll[k]
		}
		m.Pointwise[i] = logSumExp(acc)
		lppdSum += logSumExp(ll) - math.Log(float64(s))
	}
	m.ELPD, m.SE = sumSE(m.Pointwise)
	m.P = lppdSum - m.ELPD
	return m
}

// psis smooths the log weights lw in place and returns the Pareto k.
func psis(lw []float64, tail int) float64 {
	s := len(lw)
	mx := math.Inf(-1)
	for _, v := range lw {
		mx = math.Max(mx, v)
	}
	for k := range lw {
		lw[k] -= mx
	}
	if tail < 5 || tail >= s {
		return math.NaN()
	}
	idx := make([]int, s)
	for k := range idx {
		idx[k] = k
	}
	sort.SliceStable(idx, func(a, b int) bool { return lw[idx[a]] < lw[idx[b]] })
	cutoff := lw[idx[s-tail-1]]
	expCut := math.Exp(cutoff)
	x := make([]float64, tail)
	for j := 0; j < tail; j++ {
		x[j] = math.Exp(lw[idx[s-tail+j]]) - expCut
	}
	k, sigma := gpdFit(x)
	if !math.IsInf(k, 0) && !math.IsNaN(k) && sigma > 0 {
		for j := 0; j < tail; j++ {
			p := (float64(j) + 0.5) / float64(tail)
			q := sigma*math.Expm1(-k*math.Log1p(-p))/k + expCut
			lw[idx[s-tail+j]] = math.Log(q)
		}
	}
	// Truncate at the largest raw weight (0 after the shift).
	for i, v := range lw {
		if v > 0 {
			lw[i] = 0
		}
	}
	return k
}

// gpdFit estimates the generalized Pareto's shape k and scale sigma from
// sorted exceedances x by Zhang and Stephens' (2009) profile method with
// loo's grid of 30 + sqrt(n) points, prior 3 and weakly informative
// adjustment of k towards 0.5.
func gpdFit(x []float64) (k, sigma float64) {
	n := len(x)
	const prior = 3.0
	m := 30 + int(math.Floor(math.Sqrt(float64(n))))
	xstar := x[int(math.Floor(float64(n)/4+0.5))-1]
	theta := make([]float64, m)
	lt := make([]float64, m)
	for j := 0; j < m; j++ {
		theta[j] = 1/x[n-1] + (1-math.Sqrt(float64(m)/(float64(j+1)-0.5)))/prior/xstar
		a := -theta[j]
		kk := 0.0
		for _, v := range x {
			kk += math.Log1p(a*v) / float64(n)
		}
		lt[j] = float64(n) * (math.Log(a/kk) - kk - 1)
	}
	norm := logSumExp(lt)
	thetaHat := 0.0
	for j := range theta {
		thetaHat += theta[j] * math.Exp(lt[j]-norm)
	}
	for _, v := range x {
		k += math.Log1p(-thetaHat*v) / float64(n)
	}
	sigma = -k / thetaHat
	const a = 10.0
	k = k*float64(n)/(float64(n)+a) + a*0.5/(float64(n)+a)
	return k, sigma
}

func logSumExp(x []float64) float64 {
	mx := math.Inf(-1)
	for _, v := range x {
		mx = math.Max(mx, v)
	}
	if math.IsInf(mx, -1) {
		return mx
	}
	s := 0.0
	for _, v := range x {
		s += math.Exp(v - mx)
	}
	return mx + math.Log(s)
}

// sumSE returns the sum of the pointwise values and its standard error
// sqrt(n·var).
func sumSE(p []float64) (sum, se float64) {
	for _, v := range p {
		sum += v
	}
	_, v := meanVar(p)
	return sum, math.Sqrt(float64(len(p)) * v)
}
