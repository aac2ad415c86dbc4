package philox

import "math"

// The exponential ziggurat of the same paper (Marsaglia and Tsang 2000),
// with 256 layers of equal area over unsigned 32-bit words: the low eight
// bits pick the layer. One word gives a standard exponential 97.8% of the
// time (the mean of the thresholds). Samplers use it to accept a proposal without a logarithm or an
// exponential: u < exp(Δ) for a uniform u is E > −Δ for E = −log u, a
// standard exponential, so the test is Δ + E > 0.
const (
	expR = 7.69711747013104972
	expV = 3.949659822581572e-3
)

var (
	expK [256]uint32  // acceptance thresholds on the word
	expW [256]float64 // scale of the word into x
	expF [256]float64 // density at the layer edges
)

func init() {
	const m = 1 << 32
	d, t := expR, expR
	q := expV / math.Exp(-d)
	expK[0] = uint32(d / q * m)
	expK[1] = 0
	expW[0] = q / m
	expW[255] = d / m
	expF[0] = 1
	expF[255] = math.Exp(-d)
	for i := 254; i >= 1; i-- {
		d = -math.Log(expV/d + math.Exp(-d))
		expK[i+1] = uint32(d / t * m)
		t = d
		expF[i] = math.Exp(-d)
		expW[i] = d / m
	}
}

// Exponential returns a standard exponential variate.
func (s *Stream) Exponential() float64 {
	return ExponentialFrom(s.Uint32(), s)
}

// ExpZiggurat returns the exponential variate of word w and true when
// the ziggurat accepts it outright; otherwise false, and the caller
// continues with ExponentialFrom(w, stream).
func ExpZiggurat(w uint32) (float64, bool) {
	i := w & 255
	return float64(w) * expW[i], w < expK[i]
}

// ExponentialFrom returns a standard exponential variate from the word
// w, drawing from s only when the ziggurat rejects w.
func ExponentialFrom(w uint32, s *Stream) float64 {
	if i := w & 255; w < expK[i] {
		return float64(w) * expW[i]
	}
	for first := true; ; first = false {
		if !first {
			w = s.Uint32()
		}
		i := w & 255
		x := float64(w) * expW[i]
		if w < expK[i] {
			return x
		}
		if i == 0 {
			// Memorylessness: beyond r the excess is exponential again.
			return expR - math.Log(s.Uniform())
		}
		// The wedge between layers i and i-1.
		if expF[i]+s.Uniform()*(expF[i-1]-expF[i]) < math.Exp(-x) {
			return x
		}
	}
}
