package vec

import (
	"math"

	"golang.org/x/sys/cpu"
)

// expAVX2 writes e^x for the first len(x) rounded down to a multiple of 4
// elements, four at a time with AVX2 and FMA, by the algorithm of
// ExpScalar; x must lie in (expMin, expMax). Implemented in exp_amd64.s.
//
//go:noescape
func expAVX2(dst, x []float64)

// useAVX2 is whether the CPU has AVX, AVX2 and FMA and the operating
// system saves the YMM registers (x/sys/cpu's HasAVX and HasAVX2 include
// that).
var useAVX2 = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasFMA

// expConsts are the constants expAVX2 broadcasts, as bits.
var expConsts [17]uint64

func init() {
	c := []float64{log2e, round, ln2Hi, ln2Lo, 1,
		1.0 / 6227020800, 1.0 / 479001600, 1.0 / 39916800, 1.0 / 3628800, 1.0 / 362880,
		1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5}
	for i, v := range c {
		expConsts[i] = math.Float64bits(v)
	}
}

// expBiasBits is 1023 − bits(round): added to the bits of x·log2e+round
// it gives k+1023, the biased exponent of 2^k.
const expBiasBits = 1023 - 0x4338000000000000

var expBias = int64(expBiasBits)

// logAVX2 writes log x for the first len(x) rounded down to a multiple of
// 4 elements, four at a time, by the algorithm of LogScalar; x must be
// normal and positive. Implemented in exp_amd64.s.
//
//go:noescape
func logAVX2(dst, x []float64)

// logConsts are the constants logAVX2 broadcasts, as bits.
var logConsts [22]uint64

func init() {
	logConsts[0] = 1<<52 - 1
	logConsts[1] = math.Float64bits(1)
	logConsts[2] = math.Float64bits(1 << 52)
	f := []float64{1<<52 + 1023, math.Sqrt2, 0.5, 1, 2,
		1.0 / 25, 1.0 / 23, 1.0 / 21, 1.0 / 19, 1.0 / 17, 1.0 / 15, 1.0 / 13, 1.0 / 11, 1.0 / 9, 1.0 / 7, 1.0 / 5, 1.0 / 3,
		ln2Hi, ln2Lo}
	for i, v := range f {
		logConsts[3+i] = math.Float64bits(v)
	}
}

// mixSumAVX2 writes Σ_k exp(max(c_k − h_k·(y − m_k)², −708)) for each y
// of the first len(ys) rounded down to a multiple of 4, par holding
// (c_k, h_k, m_k) per component: the sum of a normal mixture's shifted
// terms in one pass. Implemented in exp_amd64.s.
//
//go:noescape
func mixSumAVX2(dst, ys, par []float64)

// mixConsts are mixSumAVX2's constants, each four times (one vector):
// log2e, round, ln2Hi, ln2Lo, 1, the exponent bias 1023 − bits(round) as
// an integer, the floor −708 of the arguments, and the Taylor
// coefficients 1/13! … 1/2.
var mixConsts [19][4]uint64

func init() {
	c := []float64{log2e, round, ln2Hi, ln2Lo, 1, 0, -708,
		1.0 / 6227020800, 1.0 / 479001600, 1.0 / 39916800, 1.0 / 3628800, 1.0 / 362880,
		1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5}
	for i, v := range c {
		b := math.Float64bits(v)
		if i == 5 {
			b = uint64(expBias)
		}
		mixConsts[i] = [4]uint64{b, b, b, b}
	}
}
