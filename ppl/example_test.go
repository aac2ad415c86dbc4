package ppl_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gobayes/gobayes/ppl"
)

// Eight schools, non-centred: the model of DESIGN.md §1.
func ExampleNewModel() {
	y := []float64{28, 8, -3, 7, -1, 1, 18, 12}
	sigma := []float64{15, 10, 16, 11, 9, 11, 10, 18}

	m := ppl.NewModel("eight_schools")
	mu := m.Normal("mu", 0, 5)
	tau := m.HalfCauchy("tau", 5)
	z := m.Normal("theta_tilde", 0, 1, ppl.Size(8))
	theta := m.Deterministic("theta", ppl.Add(mu, ppl.Mul(tau, z)))
	m.Normal("y", theta, sigma).Observe(y)

	c, err := m.Compile()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("unconstrained dimension:", c.Dim())
	for _, p := range c.Params() {
		fmt.Println(p.Name, p.Shape, p.Transform)
	}
	for _, v := range c.Vars() {
		if v.Deterministic {
			fmt.Println("deterministic:", v.Name, v.Shape)
		}
	}
	// Output:
	// unconstrained dimension: 10
	// mu [] identity
	// tau [] lower
	// theta_tilde [8] identity
	// deterministic: theta [8]
}

// The log density of a tiny model at a point of the unconstrained scale.
func ExampleModel_Compile() {
	m := ppl.NewModel("coin")
	p := m.Beta("p", 2, 2)
	m.Bernoulli("y", p).Observe([]int{1, 0, 1, 1})
	c, err := m.Compile()
	if err != nil {
		fmt.Println(err)
		return
	}
	// At x = 0, p = logistic(0) = 0.5: log Beta(0.5 | 2, 2) = log 1.5,
	// the Jacobian p(1-p) gives log 0.25, and four flips 4·log 0.5.
	x := []float64{0}
	grad := make([]float64, 1)
	lp := c.LogDensityGrad(x, grad)
	fmt.Printf("log density %.6f, gradient %.6f\n", lp, grad[0])
	// Output:
	// log density -3.753418, gradient 1.000000
}

// A mistake is reported when the model is built, naming the variable.
func ExampleError() {
	build := func() (err error) {
		defer ppl.Catch(&err)
		m := ppl.NewModel("oops")
		m.Normal("y", 0, -1)
		return nil
	}
	fmt.Println(build())
	// Output:
	// ppl: y: Normal sigma is -1; it must be positive
}

// A recurrence traced once into compiled code: an AR(1) process's means.
func ExampleScan() {
	y := []float64{0.5, 0.9, 0.2, -0.3}
	m := ppl.NewModel("ar1")
	phi := m.Uniform("phi", -1, 1)
	means := ppl.Scan(len(y)-1, []any{y[0]}, []any{y[:len(y)-1]}, func(c, x []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		next := ppl.Mul(phi, x[0])
		return []ppl.Expr{next}, next
	})
	m.Normal("y", means, 0.1).Observe(y[1:])
	c, err := m.Compile()
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := c.Constrain([]float64{0})
	fmt.Println("phi at x=0:", v["phi"][0], "means:", means.Shape())
	// Output:
	// phi at x=0: 0 means: [3]
}

// Initial values on the constrained scale, mapped to the sampler's
// unconstrained position.
func ExampleCompiled_Unconstrain() {
	m := ppl.NewModel("scale")
	m.HalfNormal("sigma", 1)
	m.Uniform("p", 0, 2)
	c, _ := m.Compile()
	x, err := c.Unconstrain(map[string]any{"sigma": 1.0, "p": 1.0})
	fmt.Println(x, err)
	// Output:
	// [0 0] <nil>
}

// Prior predictive draws, ancestral and seeded.
func ExampleCompiled_PriorPredictive() {
	m := ppl.NewModel("prior")
	mu := m.Normal("mu", 0, 1)
	m.Normal("y", mu, 0.5, ppl.Size(3))
	c, _ := m.Compile()
	draws, err := c.PriorPredictive(rand.New(rand.NewPCG(1, 2)), 1000)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(draws["mu"]), len(draws["y"]), len(draws["y"][0]))
	// Output:
	// 1000 1000 3
}

// A model describes itself, one variable per line.
func ExampleModel_String() {
	m := ppl.NewModel("eight_schools")
	mu := m.Normal("mu", 0, 5)
	tau := m.HalfCauchy("tau", 5)
	z := m.Normal("theta_tilde", 0, 1, ppl.Size(8))
	theta := m.Deterministic("theta", ppl.Add(mu, ppl.Mul(tau, z)))
	m.Normal("y", theta, []float64{15, 10, 16, 11, 9, 11, 10, 18}).Observe([]float64{28, 8, -3, 7, -1, 1, 18, 12})
	fmt.Print(m)
	// Output:
	// model eight_schools
	//   mu ~ Normal(0, 5)  (parameter)
	//   tau ~ HalfCauchy(5)  (parameter)
	//   theta_tilde[8] ~ Normal(0, 1)  (parameter)
	//   y[8] ~ Normal(theta, data[8])  (observed)
	//   theta[8] = Add(mu, Mul(tau, theta_tilde))  (deterministic)
}

// A two-component normal mixture with ordered means (which identifies
// the components).
func ExampleModel_Mixture() {
	y := []float64{-1.9, -2.3, 2.1, 1.7, 2.4}
	m := ppl.NewModel("mixture")
	mu := m.Normal("mu", 0, 3, ppl.Size(2), ppl.Ordered())
	theta := m.Beta("theta", 2, 2)
	m.Mixture("y", theta, []ppl.Component{
		ppl.NormalComp(ppl.At(mu, 0), 1),
		ppl.NormalComp(ppl.At(mu, 1), 1),
	}).Observe(y)
	fmt.Print(m)
	c, _ := m.Compile()
	for _, p := range c.Params() {
		fmt.Println(p.Name, p.Transform)
	}
	// Output:
	// model mixture
	//   mu[2] ~ Normal(0, 3)  (parameter, ordered)
	//   theta ~ Beta(2, 2)  (parameter)
	//   y[5] ~ Mixture(theta; Normal(mu[0], 1), Normal(mu[1], 1))  (observed)
	// mu ordered
	// theta interval
}

// A hand-written likelihood: a Student-t regression's terms summed into
// the log density (Stan's target += student_t_lpdf(...)).
func ExampleLogPDF() {
	x := []float64{0, 1, 2, 3}
	y := []float64{0.1, 1.2, 1.9, 3.2}
	m := ppl.NewModel("robust")
	b := m.Normal("b", 0, 1)
	m.LogDensity("lik", ppl.Sum(ppl.LogPDF("StudentT", y, 4, ppl.Mul(b, x), 0.5)))
	c, _ := m.Compile()
	// At b = 1: log N(1 | 0, 1) + Σ log t₄(y | x, 0.5), as gonum's distuv
	// computes it.
	fmt.Printf("%.4f\n", c.LogDensity([]float64{1}))
	// Output:
	// -2.8155
}
