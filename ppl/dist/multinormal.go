package dist

import (
	"math"
	"math/rand/v2"

	"github.com/gobayes/gobayes/accel/ir"
)

// MultiNormalChol is the multivariate normal with mean mu [K] and
// covariance L·Lᵀ given by its lower Cholesky factor L [K×K] (row-major;
// the upper triangle is ignored). Op: multi_normal_cholesky_lpdf(y, mu, L).
// Draws are μ + L z with z standard normal; Sample fills len(out)/K
// events, K = √len(L), with μ [K] shared or [N×K] one row per event.
var MultiNormalChol = &Family{
	Name: "MultiNormalChol", Params: []string{"mu", "L"},
	ParamSupport: []Support{on(Real), on(Real)},
	Support:      on(Real), Op: ir.OpMultiNormalCholLPDF, EventRank: 1,
	Sample: func(rng *rand.Rand, params [][]float64, out []float64) {
		mu, l := params[0], params[1]
		k := int(math.Round(math.Sqrt(float64(len(l)))))
		z := make([]float64, k)
		for e := 0; e+k <= len(out); e += k {
			m := mu
			if len(mu) != k {
				m = mu[e : e+k]
			}
			for j := range z {
				z[j] = rng.NormFloat64()
			}
			ev := out[e : e+k]
			for i := range ev {
				s := m[i]
				for j := 0; j <= i; j++ {
					s += l[i*k+j] * z[j]
				}
				ev[i] = s
			}
		}
	},
}
