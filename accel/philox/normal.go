package philox

import "math"

// The ziggurat of Marsaglia and Tsang ("The ziggurat method for generating
// random variables", J. Stat. Softw. 5(8), 2000) with 256 layers of
// equal area, over 32-bit words (the low eight bits pick the layer): one
// word gives a normal 98.5% of the time, with no transcendental function
// (128 layers gave 97.2%, and each miss costs a Philox block and an
// exponential, which bench/rwmh's draws per second show). The tables are
// built once here
// from the constants of the paper (r, the rightmost layer edge, and v, the
// layer area); a GPU backend copies them rather than rebuilding them, so
// both sides use the same tables.
const (
	zigR = 3.6541528853610088
	zigV = 4.92867323399e-3
)

var (
	zigK [256]uint32  // acceptance thresholds on |j|
	zigW [256]float64 // scale of j into x
	zigF [256]float64 // density at the layer edges
)

func init() {
	const m = 1 << 31
	d, t := zigR, zigR
	q := zigV / math.Exp(-0.5*d*d)
	zigK[0] = uint32(d / q * m)
	zigK[1] = 0
	zigW[0] = q / m
	zigW[255] = d / m
	zigF[0] = 1
	zigF[255] = math.Exp(-0.5 * d * d)
	for i := 254; i >= 1; i-- {
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
// from s only in the 1.5% of cases where the ziggurat rejects w: callers
// that lay out their own blocks (one block for two steps of a chain) pay
// for s only then.
func NormalFrom(w uint32, s *Stream) float64 {
	if j := int32(w); absInt32(j) < zigK[j&255] {
		return float64(j) * zigW[j&255]
	}
	return normalSlow(w, s)
}

// Ziggurat returns the normal variate of word w and true when the
// ziggurat accepts it outright (98.5% of words); otherwise false, and the
// caller continues with NormalFrom(w, stream).
func Ziggurat(w uint32) (float64, bool) {
	j := int32(w)
	return float64(j) * zigW[j&255], absInt32(j) < zigK[j&255]
}

func normalSlow(w uint32, s *Stream) float64 {
	for first := true; ; first = false {
		if !first {
			w = s.Uint32()
		}
		j := int32(w)
		i := j & 255
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
	// Without a branch: the sign is random, a branch would miss half the
	// time. −MinInt32 wraps to itself, which as a uint32 is 2^31.
	m := j >> 31
	return uint32((j ^ m) - m)
}

// Tables are the ziggurats' tables as a device copies them (accel.Walk's
// backends): K holds the normal's thresholds then the exponential's
// (256 each), F the normal's scales and edge densities, then the
// exponential's (256 each). The slow paths also need zigR and expR,
// which the device code writes as the same literals.
func Tables() (k []uint32, f []float64) {
	k = make([]uint32, 0, 512)
	k = append(append(k, zigK[:]...), expK[:]...)
	f = make([]float64, 0, 1024)
	f = append(append(append(append(f, zigW[:]...), zigF[:]...), expW[:]...), expF[:]...)
	return k, f
}
