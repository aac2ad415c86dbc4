package philox

import "math"

// The ziggurat of Marsaglia and Tsang ("The ziggurat method for generating
// random variables", J. Stat. Softw. 5(8), 2000) with 128 layers of
// equal area, over 32-bit words: one word gives a normal 97.2% of the
// time, with no transcendental function. The tables are built once here
// from the constants of the paper (r, the rightmost layer edge, and v, the
// layer area); a GPU backend copies them rather than rebuilding them, so
// both sides use the same tables.
const (
	zigR = 3.442619855899
	zigV = 9.91256303526217e-3
)

var (
	zigK [128]uint32  // acceptance thresholds on |j|
	zigW [128]float64 // scale of j into x
	zigF [128]float64 // density at the layer edges
)

func init() {
	const m = 1 << 31
	d, t := zigR, zigR
	q := zigV / math.Exp(-0.5*d*d)
	zigK[0] = uint32(d / q * m)
	zigK[1] = 0
	zigW[0] = q / m
	zigW[127] = d / m
	zigF[0] = 1
	zigF[127] = math.Exp(-0.5 * d * d)
	for i := 126; i >= 1; i-- {
		d = math.Sqrt(-2 * math.Log(zigV/d+math.Exp(-0.5*d*d)))
		zigK[i+1] = uint32(d / t * m)
		t = d
		zigF[i] = math.Exp(-0.5 * d * d)
		zigW[i] = d / m
	}
}

// Normal returns a standard normal variate.
func (s *Stream) Normal() float64 {
	return NormalFrom(s.Uint32(), s)
}

// NormalFrom returns a standard normal variate from the word w, drawing
// from s only in the 2.8% of cases where the ziggurat rejects w: callers
// that lay out their own blocks (one block for two steps of a chain) pay
// for s only then.
func NormalFrom(w uint32, s *Stream) float64 {
	if j := int32(w); absInt32(j) < zigK[j&127] {
		return float64(j) * zigW[j&127]
	}
	return normalSlow(w, s)
}

// Ziggurat returns the normal variate of word w and true when the
// ziggurat accepts it outright (97.2% of words); otherwise false, and the
// caller continues with NormalFrom(w, stream).
func Ziggurat(w uint32) (float64, bool) {
	j := int32(w)
	return float64(j) * zigW[j&127], absInt32(j) < zigK[j&127]
}

func normalSlow(w uint32, s *Stream) float64 {
	for first := true; ; first = false {
		if !first {
			w = s.Uint32()
		}
		j := int32(w)
		i := j & 127
		x := float64(j) * zigW[i]
		if absInt32(j) < zigK[i] {
			return x
		}
		if i == 0 {
			// The tail beyond r, by Marsaglia's 1964 method.
			for {
				x = -math.Log(s.Uniform()) / zigR
				y := -math.Log(s.Uniform())
				if y+y >= x*x {
					break
				}
			}
			if j > 0 {
				return zigR + x
			}
			return -zigR - x
		}
		// The wedge between layers i and i-1.
		if zigF[i]+s.Uniform()*(zigF[i-1]-zigF[i]) < math.Exp(-0.5*x*x) {
			return x
		}
	}
}

func absInt32(j int32) uint32 {
	if j < 0 {
		return uint32(-int64(j))
	}
	return uint32(j)
}
