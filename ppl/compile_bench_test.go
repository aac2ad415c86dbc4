package ppl

import (
	"math/rand/v2"
	"testing"
)

// logisticModel is a logistic regression on simulated data of n rows and
// d predictors.
func logisticModel(n, d int) *Model {
	rng := rand.New(rand.NewPCG(1, 2))
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		X[i] = make([]float64, d)
		for j := range X[i] {
			X[i][j] = rng.NormFloat64()
		}
		y[i] = rng.IntN(2)
	}
	m := NewModel("logistic")
	alpha := m.Normal("alpha", 0, 1)
	beta := m.Normal("beta", 0, 1, Size(d))
	m.BernoulliLogit("y", Add(alpha, MatVec(X, beta))).Observe(y)
	return m
}

// BenchmarkCompile measures building and compiling a model with a
// 10,000 × 50 design matrix: the latency a notebook adds before sampling.
func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		if _, err := logisticModel(10000, 50).Compile(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEightSchools measures one log density and gradient of the
// non-centred eight schools model.
func BenchmarkEightSchools(b *testing.B) {
	c, err := eightSchools().Compile()
	if err != nil {
		b.Fatal(err)
	}
	d := c.NewDensity()
	x := make([]float64, c.Dim())
	for i := range x {
		x[i] = 0.1 * float64(i)
	}
	g := make([]float64, c.Dim())
	b.ReportAllocs()
	for b.Loop() {
		d.LogDensityGrad(x, g)
	}
}
