package datasets_test

import (
	"math"
	"testing"

	"github.com/gobayes/gobayes/ppl/datasets"
)

// TestLogistic: the shapes, a seed that repeats, and outcomes whose rate
// follows the linear predictor (the mean of y where X·beta > 2 is high,
// where it is below -2 low).
func TestLogistic(t *testing.T) {
	X, y, beta := datasets.Logistic(20000, 5, 3)
	if len(X) != 20000 || len(X[0]) != 5 || len(y) != 20000 || len(beta) != 5 {
		t.Fatalf("shapes %d×%d, %d, %d", len(X), len(X[0]), len(y), len(beta))
	}
	X2, y2, _ := datasets.Logistic(20000, 5, 3)
	if X2[123][4] != X[123][4] || y2[999] != y[999] {
		t.Error("the same seed gave other data")
	}
	var hi, nhi, lo, nlo float64
	for i, row := range X {
		eta := 0.0
		for j, x := range row {
			eta += x * beta[j]
		}
		switch {
		case eta > 2:
			hi += y[i]
			nhi++
		case eta < -2:
			lo += y[i]
			nlo++
		}
	}
	if nhi < 100 || nlo < 100 || hi/nhi < 0.85 || lo/nlo > 0.15 || math.IsNaN(hi/nhi) {
		t.Errorf("rate of y=1 where X·beta > 2: %v (of %v); below -2: %v (of %v)", hi/nhi, nhi, lo/nlo, nlo)
	}
}
