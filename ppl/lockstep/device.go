package lockstep

import (
	"fmt"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cpu"
)

// evaluator evaluates the log density of one block's chains at once
// through the accel contract: an accel.Batch (struct-of-arrays, slot j of
// chain c at j·n+c) — accel/vec's on the CPU, through accel/cpu, the
// contract's row adapter on another backend — with the density form of
// accel.DensityBatch, false where the batch has none.
type evaluator interface {
	accel.DensityBatch
}

// newEvaluator is a batch of n chains on c.
func newEvaluator(c accel.Compiled, n int) evaluator {
	b := accel.NewBatch(c, n)
	if db, ok := b.(accel.DensityBatch); ok {
		return db
	}
	return noDensity{b}
}

// noDensity is a batch without the density form.
type noDensity struct{ accel.Batch }

func (noDensity) DensityForm() bool { return false }
func (noDensity) ForwardDensity([]float64) {
	panic("lockstep: ForwardDensity on a batch without the density form")
}
func (noDensity) LogFromDensity(float64, float64) float64 {
	panic("lockstep: LogFromDensity on a batch without the density form")
}
func (noDensity) DensityFloor() float64 { return 0 }

// newTrajectories makes the contract's Trajectories for a ChEES run of n
// chains of dimension d on a backend.
func newTrajectories(n, d int) *accel.Trajectories {
	return &accel.Trajectories{
		Q: make([]float64, n*d), P: make([]float64, n*d), Grad: make([]float64, n*d),
		LogDensity: make([]float64, n), StepSize: make([]float64, n), Steps: make([]int, n),
	}
}

// leapfrogDevice runs steps leapfrog steps of every chain of b on the
// backend, from (x, p, g, lp) of b, leaving the end points in xp, pp, gp
// and lpp, as propose does on the CPU. A chain whose log density becomes
// non-finite stops there with lpp -Inf, and is rejected.
func (e *ensemble) leapfrogDevice(b *block, h *hmcParams) {
	n, d := b.n, e.dim
	t := e.traj
	accel.ToRows(t.Q, b.x, n, d)
	accel.ToRows(t.P, b.p, n, d)
	accel.ToRows(t.Grad, b.g, n, d)
	copy(t.LogDensity, b.lp)
	for c := range t.StepSize {
		t.StepSize[c] = h.eps
	}
	t.InvMetric = h.invM
	t.N = h.steps
	if err := e.dev.Leapfrog(t); err != nil {
		panic(&accel.BatchError{Err: err})
	}
	accel.ToColumns(b.xp, t.Q, n, d)
	accel.ToColumns(b.pp, t.P, n, d)
	accel.ToColumns(b.gp, t.Grad, n, d)
	copy(b.lpp, t.LogDensity)
}

// oneCPU compiles for the lockstep samplers on the CPU: batches on the
// calling goroutine, the samplers' own workers running one block each.
var oneCPU = cpu.New(1)

// openBackend compiles m's program for the run: on cfg.Backend, or on the
// CPU (accel/cpu, whose batches are accel/vec's).
func openBackend(m Model, cfg Config) (accel.Compiled, error) {
	b := cfg.Backend
	if b == nil {
		b = oneCPU
	}
	c, err := b.Compile(m.Program())
	if err != nil {
		return nil, fmt.Errorf("lockstep: compiling %s for the %s backend: %w", m.Name(), b.Name(), err)
	}
	if c.Dim() != m.Dim() {
		c.Close()
		return nil, fmt.Errorf("lockstep: the %s backend compiled %d parameters, the model has %d", b.Name(), c.Dim(), m.Dim())
	}
	return c, nil
}

// asDeviceError returns the backend's error carried by a recovered panic.
func asDeviceError(r any) (error, bool) {
	if be, ok := r.(*accel.BatchError); ok {
		return be.Err, true
	}
	return nil, false
}
