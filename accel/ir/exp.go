package ir

import (
	"math"
	"math/big"
)

// Exp is e^x to within 1 ulp (measured: 0.51 ulp, see exp_test.go), with
// math.Exp's special cases: Exp(NaN) = NaN, Exp(+Inf) = +Inf,
// Exp(-Inf) = 0, +Inf above ln(MaxFloat64), subnormal results rounded
// once, 0 below ln(2^-1075).
//
// It is the exponential of every compiled model (bound transforms, exp,
// softplus, log-normal, poisson_log, …). It is built for latency, not
// throughput: in a log density the exponential of a scale parameter
// (σ = lb + exp(u)) is on the critical path, and math.Exp's long serial
// chain on amd64 (a degree-8 polynomial in x/16, then four squarings)
// is about three times Exp's latency per dependent call (doc.go;
// BenchmarkExpLatency, whose figures are in bench/README.md, "The scalar
// exponential"). It relies on math.FMA being an
// instruction (amd64 since Haswell and Piledriver, arm64); on an amd64
// without FMA, math.FMA is software and Exp is several times slower than
// math.Exp.
//
// The method: x = k·ln2/128 + r with k the nearest integer to
// x·128/ln2 (found by adding 1.5·2^52, which leaves k in the low bits),
// r by a two-part Cody–Waite reduction (|r| ≤ ln2/256), so
// e^x = 2^(k>>7) · 2^((k&127)/128) · e^r. The middle factor comes from a
// table built at init to 120 bits and stored as the nearest double and
// its relative error; e^r − 1 is its Taylor polynomial to r^5 (remainder
// below 2^-60) in Estrin form, so the chain after r is three
// multiply-adds and a final s + s·p. 2^(k>>7) goes into the exponent
// bits of the table entry.
func Exp(x float64) float64 {
	if !(math.Abs(x) < 708) {
		return expEdge(x)
	}
	z := math.FMA(x, expInvLn2N, expShift)
	kf := z - expShift
	r := math.FMA(-kf, expLn2NHi, x)
	r = math.FMA(-kf, expLn2NLo, r)
	zb := math.Float64bits(z)
	t := &expTab[zb&(expN-1)]
	// s = 2^(k>>7) · T[k&127]: the low bits of zb are k (two's complement
	// in the mantissa of 1.5·2^52), and (zb &^ 127) << 45 is (k>>7) << 52,
	// the bits of 1.5·2^52 all shifted out.
	s := math.Float64frombits(t.hi + (zb&^(expN-1))<<45)
	r2 := r * r
	a := math.FMA(r, 1.0/6, 0.5)
	b := math.FMA(r, 1.0/120, 1.0/24)
	p := math.FMA(r2, math.FMA(r2, b, a), r+t.c)
	return math.FMA(s, p, s)
}

const (
	expN       = 128
	expShift   = 0x1.8p52
	expInvLn2N = expN / math.Ln2
	// ln2/128 in two parts: hi its nearest double, lo the rest to double
	// precision (|k| ≤ 2^18, so k·lo carries the reduction to ~2^-100).
	// (Written as a literal: Go keeps a typed constant's exact value in
	// constant arithmetic, so float64(math.Ln2/expN) would leave lo 0.)
	expLn2NHi = 0x1.62e42fefa39efp-08
	expLn2NLo = math.Ln2/expN - 0x1.62e42fefa39efp-08
	// math.Exp's limits: above expOverflow e^x rounds to +Inf, below
	// expUnderflow to 0.
	expOverflow  = 7.09782712893383973096e+02
	expUnderflow = -7.45133219101941108420e+02
)

// expTab[j] is 2^(j/128) as hi, its nearest double (as bits), and c,
// (2^(j/128) − hi)/hi rounded to a double.
var expTab [expN]struct {
	hi uint64
	c  float64
}

func init() {
	const prec = 120
	// roots[i] = 2^(1/2^(i+1)) by repeated square roots.
	var roots [7]*big.Float
	v := new(big.Float).SetPrec(prec).SetInt64(2)
	for i := range roots {
		v = new(big.Float).SetPrec(prec).Sqrt(v)
		roots[i] = v
	}
	for j := 0; j < expN; j++ {
		// 2^(j/128) = Π over the set bits of j (bit 6−i stands for 2^-(i+1)).
		t := new(big.Float).SetPrec(prec).SetInt64(1)
		for i := range roots {
			if j>>(6-i)&1 != 0 {
				t.Mul(t, roots[i])
			}
		}
		hi, _ := t.Float64()
		d := new(big.Float).SetPrec(prec).Sub(t, new(big.Float).SetFloat64(hi))
		d.Quo(d, new(big.Float).SetFloat64(hi))
		c, _ := d.Float64()
		expTab[j].hi = math.Float64bits(hi)
		expTab[j].c = c
	}
}

// expEdge repeats Exp's reduction rather than share a helper with it, so
// that Exp's own path has no call.
//
// expEdge is Exp outside (−708, 708): NaN, infinities, overflow,
// results near the top of the range and subnormal results. It runs the
// same reduction with the scale split in two, so that the table entry
// times 2^(k>>7) stays a normal number and the last multiplication rounds
// once into the subnormal range.
func expEdge(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > expOverflow:
		return math.Inf(1)
	case x < expUnderflow:
		return 0
	}
	z := math.FMA(x, expInvLn2N, expShift)
	kf := z - expShift
	r := math.FMA(-kf, expLn2NHi, x)
	r = math.FMA(-kf, expLn2NLo, r)
	zb := math.Float64bits(z)
	t := &expTab[zb&(expN-1)]
	// k>>7 lies in [−1076, 1024]: scale the entry by 2^((k>>7)−adj) and
	// the result by 2^adj.
	e := int64(zb-math.Float64bits(expShift)) >> 7
	adj, scale := int64(1), 2.0
	if x < 0 {
		adj, scale = -64, 0x1p-64
	}
	s := math.Float64frombits(t.hi + uint64(e-adj)<<52)
	r2 := r * r
	a := math.FMA(r, 1.0/6, 0.5)
	b := math.FMA(r, 1.0/120, 1.0/24)
	p := math.FMA(r2, math.FMA(r2, b, a), r+t.c)
	y := math.FMA(s, p, s)
	if y >= 0x1p-958 || x > 0 {
		return y * scale // exact: the result is normal
	}
	// A subnormal result: y·2^-64 would round twice (to 53 bits, then to
	// the subnormal grid), up to 0.75 ulp. Instead round s + s·p once to
	// the grid of [2^-958, 2^-957), whose spacing 2^-1010 is the
	// subnormal spacing times 2^64: add 2^-958, keeping s's lost low part
	// (|s| ≤ 2^-958, so it is exact), take 2^-958 off again (exact) and
	// scale (exact).
	const big = 0x1p-958
	u := big + s
	w := (big - u) + s + s*p
	return ((u + w) - big) * scale
}
