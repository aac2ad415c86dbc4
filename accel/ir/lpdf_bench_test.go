package ir_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// The benchmarks time one log density and gradient of a likelihood term
// over N = 10,000 observations through the op, beside the same term
// written by hand in plain Go (the speed to match).

const benchN = 10000

func benchOp(b *testing.B, op ir.Op, args ...irtest.Arg) {
	p, err := irtest.OpProgram(op, nil, nil, args...)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	x := irtest.Point(rng, args...)
	f := ir.NewFrame(p)
	g := make([]float64, p.Dim)
	b.ReportAllocs()
	// cpu-ns/op is the thread's own CPU time: on a loaded machine the
	// wall time (ns/op) counts the time others ran.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var t int64
	for b.Loop() {
		t0 := threadCPU()
		f.Gradient(x, g)
		t += threadCPU() - t0
	}
	b.ReportMetric(float64(t)/float64(b.N), "cpu-ns/op")
}

// threadCPU is the calling thread's CPU time in nanoseconds.
func threadCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil { // RUSAGE_THREAD
		return 0
	}
	return (ru.Utime.Sec+ru.Stime.Sec)*1e9 + (ru.Utime.Usec+ru.Stime.Usec)*1e3
}

func benchData(lo, hi float64) []float64 {
	rng := rand.New(rand.NewPCG(2, 2))
	y := make([]float64, benchN)
	for i := range y {
		y[i] = lo + (hi-lo)*rng.Float64()
	}
	return y
}

var benchSink float64

// Normal likelihood y ~ normal(mu[i], sigma): data y, parameters mu (a
// vector) and sigma (a scalar).
func BenchmarkNormalOp(b *testing.B) {
	benchOp(b, ir.OpNormalLPDF, irtest.Const([]int{benchN}, benchData(-2, 2)...),
		irtest.Param(-1, 1, benchN), irtest.Param(0.5, 2))
}

func BenchmarkNormalHand(b *testing.B) {
	y, mu := benchData(-2, 2), benchData(-1, 1)
	g := make([]float64, benchN+1)
	sigma := 1.3
	for b.Loop() {
		inv := 1 / sigma
		lp, gs := 0.0, 0.0
		for i, yi := range y {
			z := (yi - mu[i]) * inv
			lp += -0.5 * z * z
			g[i] = z * inv
			gs += (z*z - 1) * inv
		}
		lp -= float64(benchN) * (math.Log(sigma) + 0.5*math.Log(2*math.Pi))
		g[benchN] = gs
		benchSink += lp
	}
}

// Logistic regression likelihood y ~ bernoulli_logit(eta[i]).
func BenchmarkBernoulliLogitOp(b *testing.B) {
	y := benchData(0, 1)
	for i := range y {
		y[i] = math.Round(y[i])
	}
	benchOp(b, ir.OpBernoulliLogitLPMF, irtest.Const([]int{benchN}, y...), irtest.Param(-3, 3, benchN))
}

func BenchmarkBernoulliLogitHand(b *testing.B) {
	y, eta := benchData(0, 1), benchData(-3, 3)
	for i := range y {
		y[i] = math.Round(y[i])
	}
	g := make([]float64, benchN)
	for b.Loop() {
		lp := 0.0
		for i, yi := range y {
			x := eta[i]
			e := math.Exp(-math.Abs(x))
			lp -= math.Log1p(e) + math.Max((1-2*yi)*x, 0)
			p := 1 / (1 + e)
			if x < 0 {
				p = e * p
			}
			g[i] = yi - p
		}
		benchSink += lp
	}
}

// Poisson regression y ~ poisson_log(eta[i]).
func BenchmarkPoissonLogOp(b *testing.B) {
	y := benchData(0, 10)
	for i := range y {
		y[i] = math.Floor(y[i])
	}
	benchOp(b, ir.OpPoissonLogLPMF, irtest.Const([]int{benchN}, y...), irtest.Param(-1, 2, benchN))
}

func BenchmarkPoissonLogHand(b *testing.B) {
	y, eta := benchData(0, 10), benchData(-1, 2)
	for i := range y {
		y[i] = math.Floor(y[i])
	}
	g := make([]float64, benchN)
	for b.Loop() {
		lp := 0.0
		for i, yi := range y {
			l := math.Exp(eta[i])
			lp += yi*eta[i] - l // lgamma(y+1) is a constant a hand-written density drops
			g[i] = yi - l
		}
		benchSink += lp
	}
}

// Normal likelihood with one sigma per observation (eight schools' form),
// all three inputs vectors; y data.
func BenchmarkNormalVecSigmaOp(b *testing.B) {
	benchOp(b, ir.OpNormalLPDF, irtest.Const([]int{benchN}, benchData(-2, 2)...),
		irtest.Param(-1, 1, benchN), irtest.Const([]int{benchN}, benchData(0.5, 2)...))
}

func BenchmarkNormalVecSigmaHand(b *testing.B) {
	y, mu, sigma := benchData(-2, 2), benchData(-1, 1), benchData(0.5, 2)
	g := make([]float64, benchN)
	for b.Loop() {
		lp := 0.0
		for i, yi := range y {
			z := (yi - mu[i]) / sigma[i]
			lp += -0.5*z*z - math.Log(sigma[i])
			g[i] = z / sigma[i]
		}
		benchSink += lp
	}
}

// Student-t likelihood with shared nu and sigma, vector mu.
func BenchmarkStudentTOp(b *testing.B) {
	benchOp(b, ir.OpStudentTLPDF, irtest.Const([]int{benchN}, benchData(-2, 2)...),
		irtest.Param(3, 5), irtest.Param(-1, 1, benchN), irtest.Param(0.5, 2))
}

func BenchmarkStudentTHand(b *testing.B) {
	y, mu := benchData(-2, 2), benchData(-1, 1)
	nu, sigma := 4.0, 1.3
	g := make([]float64, benchN+2)
	for b.Loop() {
		lp, gs, gn := 0.0, 0.0, 0.0
		for i, yi := range y {
			z := (yi - mu[i]) / sigma
			q := nu + z*z
			lp -= 0.5 * (nu + 1) * math.Log1p(z*z/nu)
			g[i] = (nu + 1) * z / (sigma * q)
			gs += ((nu+1)*z*z/q - 1) / sigma
			gn += -0.5*math.Log1p(z*z/nu) + 0.5*(nu+1)*z*z/(nu*q)
		}
		g[benchN], g[benchN+1] = gs, gn
		benchSink += lp
	}
}
