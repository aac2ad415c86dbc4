package lockstep

import (
	"fmt"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/vec"
)

// evaluator evaluates the log density of one block's chains at once,
// positions struct-of-arrays (slot j of chain c at j·n+c). The CPU's is
// accel/vec's Batch; on a backend of the accel contract (Config.Backend)
// it is devBatch, which lays the positions out row by row for the
// contract and back.
type evaluator interface {
	// X is the positions to evaluate at, written by the caller.
	X() []float64
	// Forward computes LPs; Gradient computes LPs and Grad.
	Forward()
	Gradient()
	// LPs is the log density of each chain after an evaluation; Grad the
	// gradients, struct-of-arrays.
	LPs() []float64
	Grad() []float64
	// DensityForm reports whether the whole log density is a normal
	// mixture in one dimension (vec.Batch.DensityForm): the RWMH path
	// without logarithms. ForwardDensity and LogFromDensity serve it.
	DensityForm() bool
	ForwardDensity(dens []float64)
	LogFromDensity(s, x float64) float64
}

// cpuBatch is accel/vec's Batch as an evaluator.
type cpuBatch struct{ *vec.Batch }

func (b cpuBatch) LPs() []float64 { return b.LP }

// deviceError is a backend's failure inside an evaluation; parallel
// returns it as the run's error.
type deviceError struct{ err error }

func (e deviceError) Error() string { return e.err.Error() }

// devBatch evaluates n chains through a compiled program of the accel
// contract.
type devBatch struct {
	c          accel.Compiled
	n, d       int
	x, g, lp   []float64 // struct-of-arrays, as the samplers keep them
	rows, grow []float64 // row by row, as the contract takes them
}

func newDevBatch(c accel.Compiled, n, d int) *devBatch {
	return &devBatch{c: c, n: n, d: d, x: make([]float64, n*d), g: make([]float64, n*d), lp: make([]float64, n),
		rows: make([]float64, n*d), grow: make([]float64, n*d)}
}

func (b *devBatch) X() []float64    { return b.x }
func (b *devBatch) LPs() []float64  { return b.lp }
func (b *devBatch) Grad() []float64 { return b.g }
func (b *devBatch) Forward()        { b.eval(false) }
func (b *devBatch) Gradient()       { b.eval(true) }

func (b *devBatch) eval(grad bool) {
	toRows(b.rows, b.x, b.n, b.d)
	var g []float64
	if grad {
		g = b.grow
	}
	if err := b.c.LogDensityGrad(b.rows, b.lp, g); err != nil {
		panic(deviceError{err})
	}
	if grad {
		toColumns(b.g, b.grow, b.n, b.d)
	}
}

func (b *devBatch) DensityForm() bool { return false }
func (b *devBatch) ForwardDensity([]float64) {
	panic("lockstep: ForwardDensity on a backend (DensityForm is false)")
}
func (b *devBatch) LogFromDensity(float64, float64) float64 {
	panic("lockstep: LogFromDensity on a backend (DensityForm is false)")
}

// transpose writes the r×c row-major matrix src as its c×r transpose
// into dst. The samplers keep chains struct-of-arrays (slot j of chain c
// at j·n+c, a d×n matrix) and the contract takes them row by row (c·d+j,
// n×d): toRows and toColumns are its two directions.
func transpose(dst, src []float64, r, c int) {
	if r == 1 || c == 1 {
		copy(dst, src)
		return
	}
	for i := 0; i < r; i++ {
		for j, v := range src[i*c : (i+1)*c] {
			dst[j*r+i] = v
		}
	}
}

// toRows lays out n chains' d values from struct-of-arrays src to rows dst.
func toRows(dst, src []float64, n, d int) { transpose(dst, src, d, n) }

// toColumns is toRows's inverse.
func toColumns(dst, src []float64, n, d int) { transpose(dst, src, n, d) }

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
	toRows(t.Q, b.x, n, d)
	toRows(t.P, b.p, n, d)
	toRows(t.Grad, b.g, n, d)
	copy(t.LogDensity, b.lp)
	for c := range t.StepSize {
		t.StepSize[c] = h.eps
	}
	t.InvMetric = h.invM
	t.N = h.steps
	if err := e.dev.Leapfrog(t); err != nil {
		panic(deviceError{err})
	}
	toColumns(b.xp, t.Q, n, d)
	toColumns(b.pp, t.P, n, d)
	toColumns(b.gp, t.Grad, n, d)
	copy(b.lpp, t.LogDensity)
}

// openBackend compiles m's program on cfg.Backend for the run.
func openBackend(m Model, cfg Config) (accel.Compiled, error) {
	c, err := cfg.Backend.Compile(m.Program())
	if err != nil {
		return nil, fmt.Errorf("lockstep: compiling %s for the %s backend: %w", m.Name(), cfg.Backend.Name(), err)
	}
	if c.Dim() != m.Dim() {
		c.Close()
		return nil, fmt.Errorf("lockstep: the %s backend compiled %d parameters, the model has %d", cfg.Backend.Name(), c.Dim(), m.Dim())
	}
	return c, nil
}

// asDeviceError returns the backend's error carried by a recovered panic.
func asDeviceError(r any) (error, bool) {
	de, ok := r.(deviceError)
	return de.err, ok
}
