package opdef

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Draws shared with the families written by hand in ppl/dist (their
// logit and log parameterisations).

// DrawBernoulli is 1 with probability p, else 0.
func DrawBernoulli(rng *rand.Rand, p float64) float64 {
	if rng.Float64() < p {
		return 1
	}
	return 0
}

// DrawBinomial is the number of successes in n trials of probability p.
func DrawBinomial(rng *rand.Rand, n, p float64) float64 {
	// gonum's sampler divides by p and 1-p; the edges are certain.
	switch {
	case n == 0 || p <= 0:
		return 0
	case p >= 1:
		return n
	}
	return distuv.Binomial{N: n, P: p, Src: rng}.Rand()
}

// DrawPoisson is a Poisson count of the given rate (0 for a rate ≤ 0).
func DrawPoisson(rng *rand.Rand, rate float64) float64 {
	if rate <= 0 {
		return 0
	}
	return distuv.Poisson{Lambda: rate, Src: rng}.Rand()
}
