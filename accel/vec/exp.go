package vec

import "math"

// Exp and Log are written for loops over many values: no table lookups, no
// calls, one well-predicted branch for the range, so the compiler keeps
// everything in registers and the loop runs at the speed of its
// multiply-adds. Exp has an AVX2 assembly kernel on amd64 (four lanes,
// the same polynomial), with this pure Go as the fallback.

const (
	ln2Hi  = 6.93147180369123816490e-01 // ln 2 to 32 bits: k·ln2Hi is exact for |k| < 2^20
	ln2Lo  = 1.90821492927058770002e-10 // ln 2 − ln2Hi
	log2e  = 1.44269504088896338700e+00
	round  = 6755399441055744.0     // 1.5·2^52: adding it rounds to an integer in the low bits
	expMax = 709.782712893383973096 // ln(MaxFloat64)
	expMin = -708.39641853226410622 // ln(2^-1022): below, results are subnormal
)

// ExpScalar is e^x to within 2 ulp. Outside the normal range it defers to
// math.Exp (overflow, subnormal results, NaN). It computes what one lane
// of the AVX2 kernel computes, to the bit: the same multiply-adds, each
// fused (math.FMA) as the kernel's are, in the same order. So the tail of
// a slice agrees with the rest, and a seed gives the same draws on a CPU
// without AVX2 or on another architecture (TestScalarIsOneLane).
func ExpScalar(x float64) float64 {
	if !(x > expMin && x < expMax) {
		return math.Exp(x)
	}
	// x = k·ln2 + r, |r| ≤ ln2/2.
	t := math.FMA(x, log2e, round)
	k := int64(math.Float64bits(t)) << 13 >> 13 // the low bits of t hold k, sign-extended
	kf := t - round
	r := math.FMA(-kf, ln2Hi, x)
	r = math.FMA(-kf, ln2Lo, r)
	// e^r by its Taylor series to r^13 (the remainder is below 2^-56 for
	// |r| ≤ ln2/2), Horner.
	p := 1.0 / 6227020800
	p = math.FMA(p, r, 1.0/479001600)
	p = math.FMA(p, r, 1.0/39916800)
	p = math.FMA(p, r, 1.0/3628800)
	p = math.FMA(p, r, 1.0/362880)
	p = math.FMA(p, r, 1.0/40320)
	p = math.FMA(p, r, 1.0/5040)
	p = math.FMA(p, r, 1.0/720)
	p = math.FMA(p, r, 1.0/120)
	p = math.FMA(p, r, 1.0/24)
	p = math.FMA(p, r, 1.0/6)
	p = math.FMA(p, r, 0.5)
	p = math.FMA(r*r, p, r)
	return (1 + p) * math.Float64frombits(uint64(k+1023)<<52)
}

// Exp writes e^x[i] into dst[i] (dst and x of equal length; they may be
// the same slice). On amd64 with AVX2 and FMA it runs four at a time in
// assembly (exp_amd64.s) where every x[i] is in the normal range.
func Exp(dst, x []float64) {
	if len(x) >= 4 && allIn(x, expMin, expMax) {
		ExpInRange(dst, x)
		return
	}
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = ExpScalar(v)
	}
}

// ExpInRange is Exp for arguments known to lie in (-708.39, 709.78), the
// range where e^x is a normal number: no checks, so the assembly kernel
// runs on the whole slice. Outside the range the results are wrong.
func ExpInRange(dst, x []float64) {
	dst = dst[:len(x)]
	for i := lanes(dst, x, expAVX2); i < len(x); i++ {
		dst[i] = ExpScalar(x[i])
	}
}

// logInRange is Log for arguments known to be positive normal numbers.
func logInRange(dst, x []float64) {
	dst = dst[:len(x)]
	for i := lanes(dst, x, logAVX2); i < len(x); i++ {
		dst[i] = LogScalar(x[i])
	}
}

// lanes is the one AVX2 wrapper: with AVX2 and FMA it runs kernel, four
// lanes at a time, on the multiple of 4 at the front of x and returns
// where the caller's scalar loop (one lane of the kernel, to the bit)
// takes over; without, it returns 0.
func lanes(dst, x []float64, kernel func(dst, x []float64)) int {
	if !useAVX2 {
		return 0
	}
	kernel(dst, x)
	return len(x) &^ 3
}

// allIn reports whether every x[i] lies in (lo, hi) (NaN does not).
func allIn(x []float64, lo, hi float64) bool {
	in := true
	for _, v := range x {
		in = in && v > lo && v < hi
	}
	return in
}

// LogScalar is the natural logarithm to within 2 ulp. Zero, negative,
// subnormal, infinite and NaN arguments defer to math.Log. Like ExpScalar
// it is one lane of the AVX2 kernel, to the bit.
func LogScalar(x float64) float64 {
	b := math.Float64bits(x)
	if !(x >= 0x1p-1022 && x <= math.MaxFloat64) {
		return math.Log(x)
	}
	// x = 2^e·m with m in [√½, √2).
	e := int64(b>>52) - 1023
	m := math.Float64frombits(b&(1<<52-1) | 1023<<52) // [1, 2)
	if m > math.Sqrt2 {
		m *= 0.5
		e++
	}
	// log m = 2 atanh(s), s = (m−1)/(m+1), |s| ≤ 0.1716: the odd series
	// 2(s + s³/3 + s⁵/5 + …) to s^25 leaves a remainder below 2^-60.
	f := m - 1
	s := f / (2 + f)
	z := s * s
	p := 1.0 / 25
	p = math.FMA(p, z, 1.0/23)
	p = math.FMA(p, z, 1.0/21)
	p = math.FMA(p, z, 1.0/19)
	p = math.FMA(p, z, 1.0/17)
	p = math.FMA(p, z, 1.0/15)
	p = math.FMA(p, z, 1.0/13)
	p = math.FMA(p, z, 1.0/11)
	p = math.FMA(p, z, 1.0/9)
	p = math.FMA(p, z, 1.0/7)
	p = math.FMA(p, z, 1.0/5)
	p = math.FMA(p, z, 1.0/3)
	ef := float64(e)
	s2 := s + s
	l := math.FMA(s2*z, p, s2)
	l = math.FMA(ef, ln2Lo, l)
	return math.FMA(ef, ln2Hi, l)
}

// Log writes log x[i] into dst[i] (dst and x of equal length; they may be
// the same slice), four at a time in assembly on amd64 as Exp.
func Log(dst, x []float64) {
	if len(x) >= 4 && allNormal(x) {
		logInRange(dst, x)
		return
	}
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = LogScalar(v)
	}
}

// allNormal reports whether every x[i] is a positive normal number.
func allNormal(x []float64) bool {
	in := true
	for _, v := range x {
		in = in && v >= 0x1p-1022 && v <= math.MaxFloat64
	}
	return in
}
