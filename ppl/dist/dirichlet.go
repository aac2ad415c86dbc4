package dist

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Dirichlet is the Dirichlet distribution on the simplex of K elements
// with concentrations alpha > 0 ([K]). Op: dirichlet_lpdf(y, alpha). Draws
// are independent gamma(α_k, 1) variates divided by their sum; Sample
// fills len(out)/K events from one α.
var Dirichlet = &Family{
	Name: "Dirichlet", Params: []string{"alpha"},
	ParamSupport: []Support{on(Positive)},
	Support:      on(Simplex), Op: ir.OpDirichletLPDF, EventRank: 1,
	Sample: func(rng *rand.Rand, params [][]float64, out []float64) {
		alpha := params[0]
		k := len(alpha)
		for e := 0; e+k <= len(out); e += k {
			ev, s := out[e:e+k], 0.0
			for j, a := range alpha {
				ev[j] = distuv.Gamma{Alpha: a, Beta: 1, Src: rng}.Rand()
				s += ev[j]
			}
			for j := range ev {
				ev[j] /= s
			}
		}
	},
}
