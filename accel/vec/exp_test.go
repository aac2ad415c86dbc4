package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps is the distance between a and b in units in the last place of b.
func ulps(a, b float64) float64 {
	if a == b {
		return 0
	}
	_, e := math.Frexp(b)
	return math.Abs(a-b) / math.Ldexp(1, e-53)
}

// The kernels against package math, whose Exp and Log are within 1 ulp
// (their documentation): ours must be within 3 ulp of them everywhere,
// over wide ranges, at the edges of the ranges, and at special values.
func TestExpLogAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var worstExp, worstLog float64
	check := func(x float64) {
		if u := ulps(ExpScalar(x), math.Exp(x)); u > worstExp {
			worstExp = u
			if u > 3 {
				t.Errorf("Exp(%v) = %v, math.Exp %v: %.1f ulp", x, ExpScalar(x), math.Exp(x), u)
			}
		}
		if x > 0 {
			if u := ulps(LogScalar(x), math.Log(x)); u > worstLog {
				worstLog = u
				if u > 3 {
					t.Errorf("Log(%v) = %v, math.Log %v: %.1f ulp", x, LogScalar(x), math.Log(x), u)
				}
			}
		}
	}
	for i := 0; i < 200000; i++ {
		check(1500 * (rng.Float64() - 0.5))           // every exponent of exp
		check(4 * (rng.Float64() - 0.5))              // where samplers live
		check(math.Exp(1400 * (rng.Float64() - 0.5))) // every exponent of log
		check(1 + 1e-6*(rng.Float64()-0.5))           // log near 1
	}
	for _, x := range []float64{0, 1, -1, 0.5, 2, math.Sqrt2, math.Nextafter(math.Sqrt2, 3), expMax, expMin, math.Nextafter(expMin, 0), 1e-300, 1e300, math.SmallestNonzeroFloat64, math.MaxFloat64} {
		check(x)
	}
	// The slice form (AVX2 on amd64) against the scalar one, lengths that
	// are and are not multiples of 4, one value out of range.
	for _, n := range []int{1, 4, 7, 64, 1003} {
		x := make([]float64, n)
		for i := range x {
			x[i] = 1400 * (rng.Float64() - 0.5)
		}
		for _, outside := range []bool{false, true} {
			if outside {
				x[n/2] = -800
			}
			dst := make([]float64, n)
			Exp(dst, x)
			for i, v := range x {
				if u := ulps(dst[i], math.Exp(v)); u > 3 {
					t.Errorf("Exp slice of %d, element %d: %v, math.Exp(%v) = %v (%.1f ulp)", n, i, dst[i], v, math.Exp(v), u)
				}
			}
		}
	}
	for _, n := range []int{1, 4, 7, 64, 1003} {
		x := make([]float64, n)
		for i := range x {
			x[i] = math.Exp(1400 * (rng.Float64() - 0.5))
		}
		for _, outside := range []bool{false, true} {
			if outside {
				x[n/2] = 0
			}
			dst := make([]float64, n)
			Log(dst, x)
			for i, v := range x {
				if u := ulps(dst[i], math.Log(v)); u > 3 {
					t.Errorf("Log slice of %d, element %d: %v, math.Log(%v) = %v (%.1f ulp)", n, i, dst[i], v, math.Log(v), u)
				}
			}
		}
	}
	special := []struct{ got, want float64 }{
		{ExpScalar(math.Inf(1)), math.Inf(1)},
		{ExpScalar(math.Inf(-1)), 0},
		{ExpScalar(800), math.Inf(1)},
		{LogScalar(0), math.Inf(-1)},
		{LogScalar(math.Inf(1)), math.Inf(1)},
	}
	for i, s := range special {
		if s.got != s.want {
			t.Errorf("special %d: %v, want %v", i, s.got, s.want)
		}
	}
	if !math.IsNaN(ExpScalar(math.NaN())) || !math.IsNaN(LogScalar(-1)) || !math.IsNaN(LogScalar(math.NaN())) {
		t.Error("NaN in or log of a negative number does not give NaN")
	}
	t.Logf("worst: exp %.2f ulp, log %.2f ulp", worstExp, worstLog)
}

func BenchmarkExp(b *testing.B) {
	x := make([]float64, 1024)
	for i := range x {
		x[i] = float64(i)/100 - 5
	}
	dst := make([]float64, len(x))
	b.Run("vec", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Exp(dst, x)
		}
	})
	b.Run("math", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for j, v := range x {
				dst[j] = math.Exp(v)
			}
		}
	})
}

func BenchmarkLog(b *testing.B) {
	x := make([]float64, 1024)
	for i := range x {
		x[i] = float64(i+1) / 100
	}
	dst := make([]float64, len(x))
	b.Run("vec", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Log(dst, x)
		}
	})
	b.Run("math", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for j, v := range x {
				dst[j] = math.Log(v)
			}
		}
	})
}

// mixSum (the assembly kernel where there is AVX2, the Go loop for the
// rest) against the same sum with math.Exp: within 8 ulp of the sum for
// one to five components, chain counts that are and are not multiples of
// 4, y near and far from the components, terms floored at −708, and y
// infinite or NaN (whose sum must be tiny or NaN, never a normal value
// that would hide them from mixtureForward's second pass).
func TestMixSum(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{1, 2, 4, 5} {
		for _, n := range []int{1, 3, 4, 7, 64, 257} {
			par := make([]float64, 0, 3*k)
			for i := 0; i < k; i++ {
				sd := 0.1 + 5*r.Float64()
				// c_k ≤ 0, as mixtureForward shifts it.
				par = append(par, -3*r.Float64(), 0.5/(sd*sd), 10*r.NormFloat64())
			}
			ys := make([]float64, n)
			for c := range ys {
				ys[c] = 15 * r.NormFloat64()
				if c%17 == 5 {
					ys[c] = 1e4 * r.NormFloat64() // every term floored
				}
			}
			got := make([]float64, n)
			mixSum(got, ys, par)
			for c, y := range ys {
				want := 0.0
				for i := 0; i < k; i++ {
					d := y - par[3*i+2]
					// The argument rounded once, as the kernel's
					// multiply-add does: e^a magnifies an ulp of a
					// into |a| ulp of the result.
					want += math.Exp(max(math.FMA(-par[3*i+1], d*d, par[3*i]), -708))
				}
				if u := ulps(got[c], want); !(u <= 8) {
					t.Errorf("%d components, %d chains, y=%g: sum %g, math.Exp gives %g (%g ulp)", k, n, y, got[c], want, u)
				}
			}
		}
	}
	par := []float64{0, 0.5, 0, -1, 0.02, 3}
	ys := []float64{math.Inf(1), math.Inf(-1), math.NaN(), 0, math.NaN()}
	got := make([]float64, len(ys))
	mixSum(got, ys, par)
	for c, y := range ys {
		if math.IsNaN(y) || math.IsInf(y, 0) {
			if got[c] > 0x1p-900 {
				t.Errorf("y=%g: sum %g, want below 2^-900 or NaN", y, got[c])
			}
		}
	}
	if want := 1 + math.Exp(-1-0.02*9); ulps(got[3], want) > 8 {
		t.Errorf("y=0: sum %g, want %g", got[3], want)
	}
}

// The scalar functions compute what one lane of the AVX2 kernels computes,
// to the bit (the same fused multiply-adds in the same order), so that a
// seed gives the same draws on a CPU with AVX2 and FMA and on one without
// (or another architecture), and the tail of a slice (its last len%4
// values) agrees with the rest.
func TestScalarIsOneLane(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 and FMA on this CPU: the scalar functions are the only ones")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 1 << 14
	x, lanes := make([]float64, n), make([]float64, n)
	// same checks scalar against the kernel's lanes at x.
	same := func(name string, scalar func(float64) float64, kernel func(dst, x []float64)) {
		kernel(lanes, x)
		bad := 0
		for i, v := range x {
			if s := scalar(v); math.Float64bits(s) != math.Float64bits(lanes[i]) {
				if bad++; bad <= 3 {
					t.Errorf("%s(%v) = %v, the AVX2 lane %v", name, v, s, lanes[i])
				}
			}
		}
		if bad > 3 {
			t.Errorf("%s differs from the AVX2 lane at %d of %d arguments", name, bad, n)
		}
	}
	for _, width := range []float64{1400, 4} { // every exponent; where samplers live
		for i := range x {
			x[i] = width * (rng.Float64() - 0.5)
		}
		same("ExpScalar", ExpScalar, expAVX2)
	}
	for _, scale := range []float64{1400, 1e-5} { // every exponent; near 1
		for i := range x {
			x[i] = math.Exp(scale * (rng.Float64() - 0.5))
		}
		same("LogScalar", LogScalar, logAVX2)
	}
	// mixSum's Go loop (the tail) against its kernel: the same chains
	// placed once in the kernel's part and once in the tail.
	par := []float64{-0.3, 0.5, 1, -1.2, 0.02, -3, -2, 3, 7}
	ys := make([]float64, 7)
	for c := range ys {
		ys[c] = 10 * rng.NormFloat64()
	}
	ys[6] = ys[0]
	got := make([]float64, len(ys))
	mixSum(got, ys, par)
	if math.Float64bits(got[0]) != math.Float64bits(got[6]) {
		t.Errorf("mixSum of y=%v: %v in the kernel, %v in the Go loop", ys[0], got[0], got[6])
	}
}

// The scalar forms, one dependent call after another (the tail of a slice,
// a CPU without AVX2).
func BenchmarkScalar(b *testing.B) {
	b.Run("exp", func(b *testing.B) {
		x := 0.5
		for i := 0; i < b.N; i++ {
			x = ExpScalar(x) - 1.1
		}
		sink = x
	})
	b.Run("log", func(b *testing.B) {
		x := 0.5
		for i := 0; i < b.N; i++ {
			x = LogScalar(x) + 2
		}
		sink = x
	})
}

var sink float64
