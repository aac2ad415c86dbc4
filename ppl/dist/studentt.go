package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// StudentT is Student's t with nu > 0 degrees of freedom, location mu and
// scale sigma > 0. Op: student_t_lpdf(y, nu, mu, sigma). The mean exists
// for ν > 1, the variance σ²ν/(ν-2) for ν > 2.
var StudentT = &Family{
	Name: "StudentT", Params: []string{"nu", "mu", "sigma"},
	ParamSupport: []Support{on(Positive), on(Real), on(Positive)},
	Support:      on(Real), Op: ir.OpStudentTLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return distuv.StudentsT{Nu: p[0], Mu: p[1], Sigma: p[2], Src: rng}.Rand()
	}),
	Mean: func(p []float64) float64 {
		if p[0] <= 1 {
			return math.NaN()
		}
		return p[1]
	},
	Var: func(p []float64) float64 { return studentTVar(p[0], p[2]) },
}

// studentTVar is the variance of a t with ν degrees of freedom and scale σ.
func studentTVar(nu, sigma float64) float64 {
	switch {
	case nu <= 1:
		return math.NaN()
	case nu <= 2:
		return math.Inf(1)
	}
	return sigma * sigma * nu / (nu - 2)
}
