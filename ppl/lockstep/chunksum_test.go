package lockstep

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel"
)

// chunkSum adds in runs of accel.SumChunk values, each in order, then the
// runs in order (the device's order: accel/cuda/cgen's TestChunkSums
// checks the device against the same definition), at lengths around the
// run's edges; up to one run it is the plain sum.
func TestChunkSum(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 7, accel.SumChunk - 1, accel.SumChunk, accel.SumChunk + 1, 3*accel.SumChunk + 5} {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(12)))
		}
		var s chunkSum
		total, plain := 0.0, 0.0
		for k := 0; k < n; k += accel.SumChunk {
			part := 0.0
			for _, x := range v[k:min(n, k+accel.SumChunk)] {
				part += x
			}
			total += part
		}
		for _, x := range v {
			s.add(x)
			plain += x
		}
		if s.sum() != total {
			t.Errorf("%d values: %v, runs in order %v", n, s.sum(), total)
		}
		if n <= accel.SumChunk && s.sum() != plain {
			t.Errorf("%d values: %v, plain sum %v", n, s.sum(), plain)
		}
	}
}
