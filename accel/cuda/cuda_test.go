//go:build cuda

package cuda_test

import (
	"runtime"
	"testing"

	"github.com/gobayes/gobayes/accel/conformance"
	"github.com/gobayes/gobayes/accel/cuda"
)

// TestConformance runs the suite on the GPU (needs a CUDA device).
func TestConformance(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b, err := cuda.New(0)
	if err != nil {
		t.Skipf("no CUDA device: %v", err)
	}
	t.Logf("device: %s", b.Info())
	conformance.Run(t, b, conformance.Options{
		// As for the gcc build: CUDA's exp differs from Go's by an ulp and
		// this model's Cholesky amplifies it (see accel/cuda/cgen).
		CaseTol: map[string]float64{"gp_pois_regr-gp_pois_regr": 1e-9},
	})
}

// TestConformanceDataParallel forces the data-parallel kernel for every
// model and batch.
func TestConformanceDataParallel(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b, err := cuda.New(0)
	if err != nil {
		t.Skipf("no CUDA device: %v", err)
	}
	old := cuda.DataParallelMinFrame
	cuda.DataParallelMinFrame = 0
	defer func() { cuda.DataParallelMinFrame = old }()
	conformance.Run(t, b, conformance.Options{
		CaseTol: map[string]float64{"gp_pois_regr-gp_pois_regr": 1e-9},
		Batches: []int{1, 7, 64},
	})
}
