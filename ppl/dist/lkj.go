package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// LKJCorrChol is the LKJ distribution with shape eta > 0 over correlation
// matrices, expressed on their lower Cholesky factor L [K×K]. η = 1 is
// uniform over correlation matrices; larger η concentrates towards the
// identity. Each off-diagonal correlation has mean 0 and variance
// 1/(2η+K-1). Op: lkj_corr_cholesky_lpdf(L, eta).
//
// Sample writes one factor (K = √len(out)) by the onion method
// (Lewandowski, Kurowicka and Joe 2009, §3.2) written for the Cholesky
// factor: row i (0-based, i ≥ 1) is (√y·u, √(1-y)) with u uniform on the
// unit sphere in i dimensions and y ~ Beta(i/2, η + (K-2)/2 - (i-1)/2).
var LKJCorrChol = &Family{
	Name: "LKJCorrChol", Params: []string{"eta"},
	ParamSupport: []Support{on(Positive)},
	Support:      on(CholeskyCorr), Op: ir.OpLKJCorrCholLPDF, EventRank: 2,
	Sample: func(rng *rand.Rand, params [][]float64, out []float64) {
		eta := params[0][0]
		k := int(math.Round(math.Sqrt(float64(len(out)))))
		clear(out)
		if k == 0 {
			return
		}
		out[0] = 1
		beta := eta + float64(k-2)/2
		for i := 1; i < k; i++ {
			y := distuv.Beta{Alpha: float64(i) / 2, Beta: beta - float64(i-1)/2, Src: rng}.Rand()
			row := out[i*k : i*k+i]
			norm := 0.0
			for j := range row {
				row[j] = rng.NormFloat64()
				norm += row[j] * row[j]
			}
			scale := math.Sqrt(y / norm)
			for j := range row {
				row[j] *= scale
			}
			out[i*k+i] = math.Sqrt(1 - y)
		}
	},
}
