package ppl

import (
	"math"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/ppl/posterior"
)

// correlatedGaussian is a 20-dimensional Gaussian with AR(1) correlation
// 0.98 and scales from 0.2 to 4: hard for a diagonal metric.
func correlatedGaussian() *Model {
	d, rho := 20, 0.98
	cov := make([][]float64, d)
	for i := range cov {
		cov[i] = make([]float64, d)
		for j := range cov[i] {
			cov[i][j] = math.Pow(rho, math.Abs(float64(i-j))) * float64((i+1)*(j+1)) / 25
		}
	}
	l := make([][]float64, d)
	for i := range l {
		l[i] = make([]float64, d)
		for j := 0; j <= i; j++ {
			s := cov[i][j]
			for k := 0; k < j; k++ {
				s -= l[i][k] * l[j][k]
			}
			if i == j {
				l[i][i] = math.Sqrt(s)
			} else {
				l[i][j] = s / l[j][j]
			}
		}
	}
	m := NewModel("correlated")
	m.MultiNormalChol("x", make([]float64, d), l)
	return m
}

func worstRhat(fit *posterior.Posterior) float64 {
	w := 0.0
	for _, r := range fit.Summary().Rows {
		w = math.Max(w, r.Rhat)
	}
	return w
}

// TestDefaultMetricTurnsDense: with the defaults the warm-up sees the
// correlation and samples with a dense metric (the summary says so), and
// every seed converges; with the metric kept diagonal, the warnings that
// follow point to DenseMetric.
func TestDefaultMetricTurnsDense(t *testing.T) {
	if testing.Short() {
		t.Skip("ten runs")
	}
	advised := 0
	for seed := uint64(1); seed <= 5; seed++ {
		fit := correlatedGaussian().Sample(Seed(seed), LiveProgress(false))
		if r := worstRhat(fit); r > 1.01 {
			t.Errorf("seed %d: R-hat %.4f with the default metric", seed, r)
		}
		if s := fit.Summary().String(); !strings.Contains(s, "dense metric") {
			t.Errorf("seed %d: the caption does not say the metric turned dense:\n%s", seed, s[:strings.Index(s, "\n")])
		}
		diag := correlatedGaussian().Sample(Seed(seed), LiveProgress(false), DiagMetric())
		warned, pointed := false, false
		for _, w := range diag.Warnings() {
			warned = warned || strings.Contains(w, "R-hat") || strings.Contains(w, "effective sample size")
			pointed = pointed || strings.Contains(w, "ppl.DenseMetric()") && strings.Contains(w, "strongly correlated")
		}
		if warned && !pointed {
			t.Errorf("seed %d: a diagonal run's warnings do not point to the dense metric: %q", seed, diag.Warnings())
		}
		if warned {
			advised++
		}
	}
	if advised == 0 {
		t.Errorf("no diagonal run had a convergence warning; the test model is too easy to tell")
	}
}
