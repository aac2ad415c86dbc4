package dist

import (
	"math"
	"math/rand/v2"

	"github.com/gobayes/gobayes/accel/ir"
)

// CategoricalLogit draws a category 0…K-1 with probabilities
// softmax(logits). Op: categorical_logit_lpmf(y, logits) with logits [K]
// or [N×K]. Sample takes one logit vector [K] for every draw.
var CategoricalLogit = &Family{
	Name: "CategoricalLogit", Params: []string{"logits"},
	ParamSupport: []Support{on(Real)},
	Support:      on(NonNegInt), Op: ir.OpCategoricalLogitLPMF, Discrete: true,
	EventRank: 1,
	Sample: func(rng *rand.Rand, params [][]float64, out []float64) {
		lg := params[0]
		m := math.Inf(-1)
		for _, v := range lg {
			m = math.Max(m, v)
		}
		total := 0.0
		for _, v := range lg {
			total += math.Exp(v - m)
		}
		for i := range out {
			u := rng.Float64() * total
			c := 0
			for ; c < len(lg)-1; c++ {
				u -= math.Exp(lg[c] - m)
				if u < 0 {
					break
				}
			}
			out[i] = float64(c)
		}
	},
}
