package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// HalfStudentT is |X| for X Student's t with nu > 0 degrees of freedom,
// location 0 and scale sigma > 0. Op: half_student_t_lpdf(y, nu, sigma).
var HalfStudentT = &Family{
	Name: "HalfStudentT", Params: []string{"nu", "sigma"},
	ParamSupport: []Support{on(Positive), on(Positive)},
	Support:      on(Positive), Op: ir.OpHalfStudentTLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return math.Abs(distuv.StudentsT{Nu: p[0], Sigma: p[1], Src: rng}.Rand())
	}),
	Mean: func(p []float64) float64 { return halfStudentTMean(p[0], p[1]) },
	Var: func(p []float64) float64 {
		m := halfStudentTMean(p[0], p[1])
		return studentTVar(p[0], p[1]) - m*m
	},
}

// halfStudentTMean is E|X| = 2σ √ν Γ((ν+1)/2) / (√π Γ(ν/2) (ν-1)), ν > 1.
func halfStudentTMean(nu, sigma float64) float64 {
	if nu <= 1 {
		return math.Inf(1)
	}
	a, _ := math.Lgamma((nu + 1) / 2)
	b, _ := math.Lgamma(nu / 2)
	return 2 * sigma * math.Sqrt(nu/math.Pi) * math.Exp(a-b) / (nu - 1)
}
