package dense

import (
	"math"
	"math/rand/v2"
	"testing"
)

// spd returns a random symmetric positive-definite n×n matrix.
func spd(rng *rand.Rand, n int) []float64 {
	b := make([]float64, n*n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	a := make([]float64, n*n)
	for i := range n {
		for j := range n {
			for k := range n {
				a[i*n+j] += b[i*n+k] * b[j*n+k]
			}
		}
		a[i*n+i] += 0.5
	}
	return a
}

func TestCholeskyReconstructs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 3, 17, 70} { // 70: past the stack-held inverse diagonal
		a := spd(rng, n)
		l := make([]float64, n*n)
		for i := range l {
			l[i] = math.NaN() // the upper triangle must be written too
		}
		if j := Cholesky(a, l, n, 0); j >= 0 {
			t.Fatalf("n=%d: pivot %d reported on a positive-definite matrix", n, j)
		}
		for i := range n {
			for j := range n {
				s := 0.0
				for k := range n {
					s += l[i*n+k] * l[j*n+k]
				}
				if math.Abs(s-a[i*n+j]) > 1e-9*(1+math.Abs(a[i*n+j])) {
					t.Fatalf("n=%d: (LLᵀ)[%d,%d] = %g, want %g", n, i, j, s, a[i*n+j])
				}
				if j > i && l[i*n+j] != 0 {
					t.Fatalf("n=%d: upper entry [%d,%d] = %g, want 0", n, i, j, l[i*n+j])
				}
			}
		}
	}
}

func TestCholeskyReportsPivot(t *testing.T) {
	// Rank one in its first two rows: the second pivot is 0.
	a := []float64{
		1, 1, 0,
		1, 1, 0,
		0, 0, 1,
	}
	if j := Cholesky(a, make([]float64, 9), 3, 0); j != 1 {
		t.Fatalf("pivot = %d, want 1", j)
	}
	// A pivot of 1e-14 relative to its diagonal passes rel 0, fails 1e-12.
	b := []float64{1, 1, 1, 1 + 1e-14}
	if j := Cholesky(b, make([]float64, 4), 2, 0); j != -1 {
		t.Fatalf("rel 0: pivot = %d, want -1", j)
	}
	if j := Cholesky(b, make([]float64, 4), 2, 1e-12); j != 1 {
		t.Fatalf("rel 1e-12: pivot = %d, want 1", j)
	}
}

// TestCholeskyReverse compares the adjoint of A with central finite
// differences of f(A) = Σ W∘L(A) for a random weight W.
func TestCholeskyReverse(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 4, 9} {
		a := spd(rng, n)
		w := make([]float64, n*n)
		for i := range n {
			for j := 0; j <= i; j++ {
				w[i*n+j] = rng.NormFloat64()
			}
		}
		f := func(a []float64) float64 {
			l := make([]float64, n*n)
			if Cholesky(a, l, n, 0) >= 0 {
				t.Fatal("not positive definite")
			}
			s := 0.0
			for i, v := range l {
				s += w[i] * v
			}
			return s
		}
		l := make([]float64, n*n)
		Cholesky(a, l, n, 0)
		ga := make([]float64, n*n)
		CholeskyReverse(l, w, ga, make([]float64, n*n), n)
		for i := range n {
			for j := 0; j <= i; j++ { // only the lower triangle is read
				h := 1e-6
				ap, am := append([]float64(nil), a...), append([]float64(nil), a...)
				ap[i*n+j] += h
				am[i*n+j] -= h
				fd := (f(ap) - f(am)) / (2 * h)
				if math.Abs(fd-ga[i*n+j]) > 1e-5*(1+math.Abs(fd)) {
					t.Fatalf("n=%d: ∂/∂A[%d,%d] = %g, finite differences %g", n, i, j, ga[i*n+j], fd)
				}
			}
		}
	}
}

func TestDotAxpy(t *testing.T) {
	for _, n := range []int{3, KernelMin, 40} { // both sides of KernelMin
		a, b := make([]float64, n), make([]float64, n+2)
		want := 0.0
		for i := range a {
			a[i], b[i] = float64(i)+0.5, float64(2*i)-1
			want += a[i] * b[i]
		}
		if got := Dot(a, b); math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Fatalf("n=%d: Dot = %g, want %g", n, got, want)
		}
		y := append([]float64(nil), b...)
		Axpy(y, -2, a)
		for i := range a {
			if y[i] != b[i]-2*a[i] {
				t.Fatalf("n=%d: Axpy y[%d] = %g, want %g", n, i, y[i], b[i]-2*a[i])
			}
		}
		if y[n] != b[n] {
			t.Fatalf("n=%d: Axpy wrote past len(x)", n)
		}
	}
}
