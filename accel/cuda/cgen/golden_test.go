package cgen_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel"
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

// smallModelGCC is smallModel compiled by gcc as host code (the test is
// skipped without gcc), closed when the test ends.
func smallModelGCC(t *testing.T) accel.Compiled {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not on PATH")
	}
	comp, err := cgen.NewGCC().Compile(smallModel(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { comp.Close() })
	return comp
}

// TestGolden compares the CUDA C generated for a small model with
// testdata/small_model.cu (refresh with go test -run Golden -update).
func TestGolden(t *testing.T) {
	src, err := cgen.Generate(smallModel(t))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "small_model.cu")
	// The device library and the kernels are kept once, in device.cu,
	// device_gen.cu, lpdf_gen.cu and kernels.cu: the golden file holds
	// what the generator writes for this model.
	const marker = "/* the device library: device.cu, device_gen.cu, then lpdf_gen.cu */\n"
	if !strings.Contains(src.Code, cgen.Library()) {
		t.Fatal("generated source does not contain the device library")
	}
	code := strings.Replace(src.Code, cgen.Library(), marker, 1)
	if !strings.Contains(code, cgen.Kernels()) {
		t.Fatal("generated source does not contain the kernels of kernels.cu")
	}
	code = strings.Replace(code, cgen.Kernels(), "/* the kernels: kernels.cu */\n", 1)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if code != string(want) {
		t.Errorf("generated source differs from %s; if the change is intended, run go test ./accel/cuda/cgen -run Golden -update and review the diff", path)
	}
	if src.Dim != 2 {
		t.Errorf("Dim = %d, want 2", src.Dim)
	}
}

// TestEveryOpSupported: the generator covers the whole instruction set
// (a new ir op fails this test until cgen learns it).
func TestEveryOpSupported(t *testing.T) {
	have := map[string]bool{}
	for _, name := range cgen.Supported() {
		have[name] = true
	}
	for op := ir.Op(1); op < ir.NumOps; op++ {
		if ir.Def(op).Forward != nil && !have[op.String()] {
			t.Errorf("op %s is not supported by the CUDA generator", op)
		}
	}
}
