package dist

import "math/rand/v2"

// SampleMixture draws each element of out from a finite mixture: component
// k (a scalar family) is chosen with probability weights[k], then drawn
// with params[k] (that component's parameters, each of length 1 or
// len(out), as in Family.Sample). The weights must sum to one.
func SampleMixture(rng *rand.Rand, weights []float64, comps []*Family, params [][][]float64, out []float64) {
	one := make([]float64, 1)
	sub := make([][]float64, 0, 4)
	for i := range out {
		u, k := rng.Float64(), 0
		for k < len(weights)-1 && u >= weights[k] {
			u -= weights[k]
			k++
		}
		sub = sub[:0]
		for _, p := range params[k] {
			j := i % len(p)
			sub = append(sub, p[j:j+1])
		}
		comps[k].Sample(rng, sub, one)
		out[i] = one[0]
	}
}
