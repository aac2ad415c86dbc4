package ppl_test

import (
	"fmt"

	"github.com/gobayes/gobayes/ppl"
)

// A Tobit model: values recorded as 3 reached 3 or more.
func ExampleCensored() {
	y := []float64{1.2, 3, 0.4, 3, 2.1, 3, 1.7}
	m := ppl.NewModel("tobit")
	mu := m.Normal("mu", 0, 10)
	sigma := m.HalfNormal("sigma", 2)
	m.Normal("y", mu, sigma, ppl.Censored(nil, 3.0), ppl.Observed(y))
	fit := m.Sample(ppl.Seed(1), ppl.LiveProgress(false))
	fmt.Printf("mu %.1f\n", fit.Summary("mu").Rows[0].Mean)
	// Output: mu 2.7
}

// A truncated likelihood: the data can only lie in [0, 5].
func ExampleTruncated() {
	m := ppl.NewModel("truncated")
	mu := m.Normal("mu", 0, 10)
	m.Normal("y", mu, 1, ppl.Truncated(0.0, 5.0), ppl.Observed([]float64{0.2, 0.5, 1.1, 0.1}))
	c, _ := m.Compile()
	fmt.Printf("%.3f\n", c.LogDensity([]float64{0.5}))
	// Output: -5.728
}

// The log of the standard normal CDF stays finite far in the lower tail,
// where Φ itself underflows.
func ExampleLogPhi() {
	m := ppl.NewModel("probit")
	eta := m.Flat("eta")
	m.LogDensity("lp", ppl.LogPhi(eta))
	c, _ := m.Compile()
	fmt.Printf("%.4f %.4f\n", c.LogDensity([]float64{-40}), c.LogDensity([]float64{0}))
	// Output: -804.6084 -0.6931
}

// The tails of the gamma, Student's t and beta, which go through the
// incomplete gamma and beta functions, stay finite where the
// probabilities underflow: here as functions of a data point y.
func ExampleLogCDF() {
	m := ppl.NewModel("tails")
	y := m.Flat("y")
	m.LogDensity("gamma", ppl.LogCDF("Gamma", y, 2.0, 1.0))
	m2 := ppl.NewModel("t")
	z := m2.Flat("z")
	m2.LogDensity("t", ppl.LogCDF("StudentT", z, 3.0, 0.0, 1.0))
	m3 := ppl.NewModel("beta")
	u := m3.Flat("u")
	m3.LogDensity("beta", ppl.LogCCDF("Beta", u, 2.0, 30.0))
	c, _ := m.Compile()
	c2, _ := m2.Compile()
	c3, _ := m3.Compile()
	fmt.Printf("%.4f %.4f %.4f\n", c.LogDensity([]float64{1e-200}), c2.LogDensity([]float64{-1e5}), c3.LogDensity([]float64{0.99}))
	// Output: -921.7272 -34.4411 -134.7308
}
