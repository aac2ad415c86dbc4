package cgen_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobayes/gobayes/accel/cuda/cgen"
	"github.com/gobayes/gobayes/accel/ir"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// smallModel is y ~ normal(mu, sigma) for three observations, with
// sigma = exp(s) through the lower-bound bijector and its Jacobian.
func smallModel(t *testing.T) *ir.Program {
	b := ir.NewBuilder(2)
	mu, s := b.ParamSlice(0, nil), b.ParamSlice(1, nil)
	sigma := emit(b, ir.OpLowerFwd, nil, s, b.Scalar(0))
	y := b.Const([]float64{-0.5, 0.25, 1.5}, []int{3})
	lp := emit(b, ir.OpAddN, nil,
		emit(b, ir.OpNormalLPDF, nil, y, mu, sigma),
		emit(b, ir.OpHalfNormalLPDF, nil, sigma, b.Scalar(2)),
		emit(b, ir.OpLowerLogJ, nil, s, b.Scalar(0)))
	p, err := b.Finalize(lp)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGolden compares the CUDA C generated for a small model with
// testdata/small_model.cu (refresh with go test -run Golden -update).
func TestGolden(t *testing.T) {
	src, err := cgen.Generate(smallModel(t))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "small_model.cu")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src.Code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if src.Code != string(want) {
		t.Errorf("generated source differs from %s; if the change is intended, run go test ./accel/cuda/cgen -run Golden -update and review the diff", path)
	}
	if src.Dim != 2 {
		t.Errorf("Dim = %d, want 2", src.Dim)
	}
}

// TestUnsupported: a program with an op the generator lacks is refused
// with ErrUnsupported naming it.
func TestUnsupported(t *testing.T) {
	b := ir.NewBuilder(1)
	x := b.ParamSlice(0, nil)
	p, err := b.Finalize(emit(b, ir.OpDigamma, nil, x))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cgen.Generate(p); err == nil {
		t.Fatal("digamma (reverse needs trigamma): no error")
	}
	if u := cgen.Unsupported(p); len(u) != 1 || u[0] != "digamma" {
		t.Errorf("Unsupported = %v, want [digamma]", u)
	}
}
