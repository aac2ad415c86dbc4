package accel

import (
	"math"

	"github.com/gobayes/gobayes/accel/ir"
)

// ShardedBackend is a backend that places the blocks of a sharded log
// density on processes or machines of its own (accel/mpi's ranks): main
// and blocks are programs over the same position whose targets sum to the
// log density (ppl's Compiled.ShardPrograms). Each block's data is sent
// once, at compile time; the Compiled then evaluates whole positions, and
// unlike other backends' it is safe for concurrent use (the chains of a
// run share it).
type ShardedBackend interface {
	Backend
	CompileSharded(main *ir.Program, blocks []*ir.Program) (Compiled, error)
}

// LeapfrogBy runs t's trajectories (see Trajectories) through c's
// LogDensityGrad, one batch of every running chain per step: for a
// backend whose positions are cheap to ship but whose every evaluation
// is a collective (a sharded model on accel/mpi's ranks). A chain whose
// log density becomes non-finite stops there, as in every backend.
func LeapfrogBy(c Compiled, t *Trajectories) error {
	d := c.Dim()
	if err := t.Check(d); err != nil {
		return err
	}
	b := len(t.LogDensity)
	shared := len(t.InvMetric) == d
	running := make([]bool, b)
	for i := range running {
		running[i], t.Steps[i] = true, 0
	}
	lps, grads := make([]float64, b), make([]float64, b*d)
	for range t.N {
		any := false
		for i := range b {
			if !running[i] {
				continue
			}
			any = true
			eps, h := t.StepSize[i], t.StepSize[i]/2
			q, p, g := t.Q[i*d:(i+1)*d], t.P[i*d:(i+1)*d], t.Grad[i*d:(i+1)*d]
			m := t.InvMetric
			if !shared {
				m = m[i*d : (i+1)*d]
			}
			for j := range p {
				p[j] += h * g[j]
			}
			for j := range q {
				q[j] += eps * m[j] * p[j]
			}
		}
		if !any {
			break
		}
		// Stopped chains are evaluated again where they stand (their
		// values are kept), so that the batch stays whole.
		if err := c.LogDensityGrad(t.Q, lps, grads); err != nil {
			return err
		}
		for i := range b {
			if !running[i] {
				continue
			}
			copy(t.Grad[i*d:(i+1)*d], grads[i*d:(i+1)*d])
			t.LogDensity[i] = Finite(lps[i])
			t.Steps[i]++
			if math.IsInf(t.LogDensity[i], -1) {
				running[i] = false
				continue
			}
			p, g := t.P[i*d:(i+1)*d], t.Grad[i*d:(i+1)*d]
			h := t.StepSize[i] / 2
			for j := range p {
				p[j] += h * g[j]
			}
		}
	}
	return nil
}
