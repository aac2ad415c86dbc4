package handwritten

import (
	"fmt"
	"math"

	"github.com/gobayes/gobayes/internal/posteriordb"
)

// HMM is the two-state hidden Markov model of hmm_example at
// x = [theta1 (1 slot), theta2 (1 slot), mu (positive-ordered, 2 slots)]:
// theta1, theta2 are the rows of the transition matrix (2-simplexes by
// stick-breaking, flat Dirichlet priors), mu[1] ~ Normal(3, 1),
// mu[2] ~ Normal(10, 1), and y[t] ~ Normal(mu[state t], 1) with the states
// summed out by the forward algorithm:
//
//	g[1,k] = log Normal(y[1] | mu[k], 1)
//	g[t,k] = logsumexp_j(g[t-1,j] + log theta_j[k]) + log Normal(y[t] | mu[k], 1)
//	log p = logsumexp_k g[N,k].
//
// The gradient runs the recursion backwards with the weights of each
// log-sum-exp, kept from the forward pass.
type HMM struct {
	y []float64
	// scratch: g[t][k] and the weights w[t][k][j] of g[t-1,j] in g[t,k].
	g [][2]float64
	w [][2][2]float64
}

// NewHMM returns the model of observations y.
func NewHMM(y []float64) *HMM {
	return &HMM{y: y, g: make([][2]float64, len(y)), w: make([][2][2]float64, len(y))}
}

func newHMM(c *posteriordb.Case) (*Model, error) {
	y, err := c.Floats("y")
	if err != nil {
		return nil, err
	}
	if K, err := c.Int("K"); err != nil || K != 2 {
		return nil, fmt.Errorf("K = %d (%v): model.md's priors on mu are for two states", K, err)
	}
	if len(y) == 0 {
		return nil, fmt.Errorf("no observations")
	}
	return withGrad(NewHMM(y), spec("theta1", 1, Simplex), spec("theta2", 1, Simplex), spec("mu", 2, PositiveOrdered)), nil
}

// LogDensityGrad returns the log density at x and writes its gradient.
func (m *HMM) LogDensityGrad(x, grad []float64) float64 {
	y, g, w := m.y, m.g, m.w
	N := len(y)

	// Transition rows by stick-breaking with K = 2: theta_j = (z, 1-z),
	// z = logistic(u_j); log z = -log1pExp(-u), log(1-z) = -log1pExp(u).
	var logA [2][2]float64 // logA[j][k] = log theta_j[k]
	var z [2]float64
	lp := 0.0
	for j := 0; j < 2; j++ {
		u := x[j]
		z[j] = 1 / (1 + math.Exp(-u))
		logA[j][0] = -log1pExp(-u)
		logA[j][1] = -log1pExp(u)
		lp += logA[j][0] + logA[j][1] // log-Jacobian
	}
	// mu positive-ordered: mu1 = exp(v1), mu2 = mu1 + exp(v2).
	ev2 := math.Exp(x[3])
	mu := [2]float64{math.Exp(x[2]), 0}
	mu[1] = mu[0] + ev2
	lp += x[2] + x[3]
	d0, d1 := mu[0]-3, mu[1]-10
	lp -= 0.5*(d0*d0+d1*d1) + 2*logSqrt2Pi

	// Forward.
	for k := 0; k < 2; k++ {
		r := y[0] - mu[k]
		g[0][k] = -0.5*r*r - logSqrt2Pi
	}
	for t := 1; t < N; t++ {
		for k := 0; k < 2; k++ {
			a0 := g[t-1][0] + logA[0][k]
			a1 := g[t-1][1] + logA[1][k]
			// logsumexp(a0, a1) with the weights of a0 and a1.
			var lse, w0 float64
			if a0 >= a1 {
				e := math.Exp(a1 - a0)
				lse, w0 = a0+math.Log1p(e), 1/(1+e)
			} else {
				e := math.Exp(a0 - a1)
				lse, w0 = a1+math.Log1p(e), e/(1+e)
			}
			w[t][k] = [2]float64{w0, 1 - w0}
			r := y[t] - mu[k]
			g[t][k] = lse - 0.5*r*r - logSqrt2Pi
		}
	}
	a0, a1 := g[N-1][0], g[N-1][1]
	var gb [2]float64 // adjoint of g[t]
	if a0 >= a1 {
		e := math.Exp(a1 - a0)
		lp += a0 + math.Log1p(e)
		gb = [2]float64{1 / (1 + e), e / (1 + e)}
	} else {
		e := math.Exp(a0 - a1)
		lp += a1 + math.Log1p(e)
		gb = [2]float64{e / (1 + e), 1 / (1 + e)}
	}

	// Backward: the emission term of g[t,k] sends gb[k]·(y[t]-mu[k]) to
	// mu[k]; the log-sum-exp sends gb[k]·w[t][k][j] to g[t-1,j] and to
	// log theta_j[k].
	var muBar [2]float64
	var logABar [2][2]float64
	for t := N - 1; t >= 0; t-- {
		muBar[0] += gb[0] * (y[t] - mu[0])
		muBar[1] += gb[1] * (y[t] - mu[1])
		if t == 0 {
			break
		}
		var prev [2]float64
		for k := 0; k < 2; k++ {
			for j := 0; j < 2; j++ {
				c := gb[k] * w[t][k][j]
				prev[j] += c
				logABar[j][k] += c
			}
		}
		gb = prev
	}

	// Through the bijectors: d log z/du = 1-z, d log(1-z)/du = -z.
	for j := 0; j < 2; j++ {
		grad[j] = logABar[j][0]*(1-z[j]) - logABar[j][1]*z[j] + 1 - 2*z[j]
	}
	muBar[0] -= d0
	muBar[1] -= d1
	grad[2] = (muBar[0]+muBar[1])*mu[0] + 1
	grad[3] = muBar[1]*ev2 + 1
	return lp
}
