package cgen_test

import (
	"os/exec"
	"testing"

	"github.com/gobayes/gobayes/accel/conformance"
	"github.com/gobayes/gobayes/accel/cuda/cgen"
	"github.com/gobayes/gobayes/accel/ir"
)

// TestConformanceGCC runs the accel conformance suite on the generated
// CUDA C compiled as plain C by gcc: every posteriordb model, values and
// gradients against the ir reference to 1e-12 relative.
func TestConformanceGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not on PATH: the generated CUDA C cannot be checked on the CPU (install gcc)")
	}
	conformance.Run(t, cgen.NewGCC(), conformance.Options{
		// gp_pois_regr factors a GP covariance whose condition number at
		// uniform(-2, 2) points is large: moving the position by one ulp
		// in every other coordinate moves the reference gradient by
		// 8.5e-12 relative (measured with ir.Frame at the suite's points),
		// and glibc's exp differs from Go's by an ulp. 1e-12 cannot hold;
		// the generated code agrees to 1e-9.
		CaseTol: map[string]float64{"gp_pois_regr-gp_pois_regr": 1e-9},
		Skip: func(name string, p *ir.Program) string {
			if u := cgen.Unsupported(p); len(u) > 0 {
				return "the CUDA generator does not cover " + u[0] + " yet"
			}
			return ""
		},
	})
}
