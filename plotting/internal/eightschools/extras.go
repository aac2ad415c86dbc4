package eightschools

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/ppl/posterior"
)

// Replicates draws n replicated data sets y_rep[j] ~ Normal(theta[j],
// sigma[j]) from the posterior's theta draws (posterior predictive).
func Replicates(p *posterior.Posterior, n int, seed uint64) [][]float64 {
	src := rand.New(rand.NewPCG(seed, 0))
	out := make([][]float64, n)
	draws := p.Draws()
	for i := range out {
		c := i % len(p.Chains)
		d := (i * 37) % draws
		out[i] = make([]float64, len(Y))
		for j := range Y {
			out[i][j] = p.Chains[c].Values[2+j][d] + Sigma[j]*src.NormFloat64()
		}
	}
	return out
}

// Counts is a small count data set (SYNTHETIC: 60 Poisson(3.2) values
// from a fixed seed), for the count form of a predictive check.
func Counts() []float64 {
	pois := distuv.Poisson{Lambda: 3.2, Src: rand.New(rand.NewPCG(42, 0))}
	out := make([]float64, 60)
	for i := range out {
		out[i] = pois.Rand()
	}
	return out
}

// CountReplicates draws n replicated count data sets of 60 values with a
// rate drawn around 3.2 (SYNTHETIC posterior predictive of a Poisson).
func CountReplicates(n int, seed uint64) [][]float64 {
	src := rand.New(rand.NewPCG(seed, 0))
	out := make([][]float64, n)
	for i := range out {
		lambda := 3.2 * math.Exp(0.08*src.NormFloat64())
		pois := distuv.Poisson{Lambda: lambda, Src: src}
		out[i] = make([]float64, 60)
		for j := range out[i] {
			out[i][j] = pois.Rand()
		}
	}
	return out
}

// ELBOHistory is a SYNTHETIC ELBO trace of n iterations: a rise from
// far below towards -31 with shrinking noise, as ADVI's looks.
func ELBOHistory(n int, seed uint64) []float64 {
	src := rand.New(rand.NewPCG(seed, 0))
	out := make([]float64, n)
	for i := range out {
		t := float64(i) / float64(n)
		out[i] = -31 - 400*math.Exp(-t*25) + (0.8+6*math.Exp(-t*10))*src.NormFloat64()
	}
	return out
}

// TauPrior draws n values of tau's half-Cauchy(5) prior.
func TauPrior(n int, seed uint64) []float64 {
	src := rand.New(rand.NewPCG(seed, 0))
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Abs(5 * math.Tan(math.Pi*(src.Float64()-0.5)))
	}
	return out
}
