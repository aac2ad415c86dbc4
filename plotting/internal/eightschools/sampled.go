package eightschools

import (
	"fmt"

	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/posterior"
	"github.com/gobayes/gobayes/ppl/vi"
)

// Model builds the eight-schools model: centred (theta ~ Normal(mu, tau))
// or non-centred (theta = mu + tau·theta_tilde, theta_tilde ~ Normal(0, 1)).
func Model(centred bool) *ppl.Model {
	if centred {
		m := ppl.NewModel("eight_schools_centered")
		mu := m.Normal("mu", 0, 5)
		tau := m.HalfCauchy("tau", 5)
		theta := m.Normal("theta", mu, tau, ppl.Size(8))
		m.Normal("y", theta, Sigma).Observe(Y)
		return m
	}
	m := ppl.NewModel("eight_schools_noncentered")
	mu := m.Normal("mu", 0, 5)
	tau := m.HalfCauchy("tau", 5)
	z := m.Normal("theta_tilde", 0, 1, ppl.Size(8))
	theta := m.Deterministic("theta", ppl.Add(mu, ppl.Mul(tau, z)))
	m.Normal("y", theta, Sigma).Observe(Y)
	return m
}

// Sample runs NUTS on the model: 4 chains of 1000 warm-up iterations and
// 1000 draws. ppl reports model errors by panicking; Sample returns them.
func Sample(m *ppl.Model, seed uint64) (fit *posterior.Posterior, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("eightschools: sampling %v", r)
		}
	}()
	return m.Sample(ppl.NUTS(), ppl.Chains(4), ppl.Seed(seed), ppl.LiveProgress(false)), nil
}

// Predictive draws the posterior predictive replications of y.
func Predictive(m *ppl.Model, fit *posterior.Posterior, seed uint64) (rep *posterior.Posterior, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("eightschools: posterior predictive %v", r)
		}
	}()
	return m.PosteriorPredictive(fit, ppl.Seed(seed)), nil
}

// ADVI fits the model by mean-field ADVI.
func ADVI(m *ppl.Model, seed uint64) (r *vi.Result, err error) {
	defer func() {
		if rec := recover(); rec != nil {
			err = fmt.Errorf("eightschools: ADVI %v", rec)
		}
	}()
	return m.ADVI(ppl.Seed(seed)), nil
}
