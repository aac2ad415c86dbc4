package cpu_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/conformance"
	"github.com/gobayes/gobayes/accel/cpu"
)

func TestConformance(t *testing.T) {
	for _, workers := range []int{1, 3} {
		// 600 positions split into blocks for the workers even for the
		// smallest model (see minBlockSlots).
		conformance.Run(t, cpu.New(workers), conformance.Options{Batches: []int{1, 7, 64, 600}})
	}
}

// TestNoAllocation: after the first call, batches and trajectories run
// without allocating (DESIGN §4: no allocation per gradient).
func TestNoAllocation(t *testing.T) {
	p := conformance.Program(t, "eight_schools-eight_schools_noncentered")
	c, err := cpu.New(2).Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const b = 64
	d := p.Dim
	xs := conformance.Points(b, d, 5)
	lps, grads := make([]float64, b), make([]float64, b*d)
	if err := c.LogDensityGrad(xs, lps, grads); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() { c.LogDensityGrad(xs, lps, grads) }); n != 0 {
		t.Errorf("LogDensityGrad of %d positions: %v allocations per call, want 0", b, n)
	}
	m := make([]float64, d)
	for i := range m {
		m[i] = 1
	}
	eps := make([]float64, b)
	for i := range eps {
		eps[i] = 0.01
	}
	tr := &accel.Trajectories{Q: xs, P: make([]float64, b*d), Grad: grads, LogDensity: lps,
		StepSize: eps, InvMetric: m, N: 3, Steps: make([]int, b)}
	if n := testing.AllocsPerRun(20, func() { c.Leapfrog(tr) }); n != 0 {
		t.Errorf("Leapfrog of %d chains: %v allocations per call, want 0", b, n)
	}
}

// TestForgottenClose: a Compiled dropped without Close stops its workers
// (the goroutine count returns to where it was).
func TestForgottenClose(t *testing.T) {
	p := conformance.Program(t, "eight_schools-eight_schools_noncentered")
	before := runtime.NumGoroutine()
	for range 5 {
		if _, err := cpu.New(4).Compile(p); err != nil {
			t.Fatal(err)
		}
	}
	for range 100 {
		runtime.GC()
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d goroutines after dropping 5 programs of 4 workers, %d before", runtime.NumGoroutine(), before)
}
