package accel

// Batch is B positions of one program evaluated together, laid out
// struct-of-arrays — slot j of chain c at j·B+c — the layout the lockstep
// samplers keep their chains in (package ppl/lockstep). It is the second
// form of the one contract: NewBatch makes one on any Compiled, natively
// where the backend evaluates that layout itself (accel/cpu, through
// accel/vec), else over LogDensityGrad with the positions laid out row by
// row and back. Not safe for concurrent use.
//
// A backend's failure (a GPU worker that died) panics with a *BatchError
// carrying it: the samplers recover it and end the run with that error.
type Batch interface {
	// X is the positions to evaluate at [Dim×B], written by the caller.
	X() []float64
	// Forward computes LPs; Gradient computes LPs and Grad.
	Forward()
	Gradient()
	// LPs [B] is the log density of each position after an evaluation
	// (-Inf where not finite); Grad [Dim×B] the gradients, laid out as X.
	LPs() []float64
	Grad() []float64
}

// Batcher is a Compiled that evaluates struct-of-arrays batches natively.
type Batcher interface {
	NewBatch(b int) Batch
}

// DensityBatch is a Batch that can also give densities instead of log
// densities, for a one-dimensional normal mixture (accel/vec's
// DensityForm): random-walk Metropolis then compares densities and takes
// no logarithm per proposal.
type DensityBatch interface {
	Batch
	// DensityForm reports whether the program is such a mixture; the
	// other methods may be called only when it is.
	DensityForm() bool
	// ForwardDensity writes each position's density, shifted by a
	// constant factor, into dens [B].
	ForwardDensity(dens []float64)
	// LogFromDensity is the log density at position x whose shifted
	// density is s.
	LogFromDensity(s, x float64) float64
	// DensityFloor is the least s for which LogFromDensity takes the
	// logarithm of s rather than recomputing.
	DensityFloor() float64
}

// BatchError is a backend's failure inside a Batch evaluation.
type BatchError struct{ Err error }

func (e *BatchError) Error() string { return e.Err.Error() }
func (e *BatchError) Unwrap() error { return e.Err }

// NewBatch is a batch of b positions on c: c's own when c is a Batcher,
// else an adapter over c.LogDensityGrad.
func NewBatch(c Compiled, b int) Batch {
	if bc, ok := c.(Batcher); ok {
		return bc.NewBatch(b)
	}
	d := c.Dim()
	return &rowBatch{c: c, n: b, d: d, x: make([]float64, b*d), g: make([]float64, b*d), lp: make([]float64, b),
		rows: make([]float64, b*d), grow: make([]float64, b*d)}
}

// rowBatch evaluates a struct-of-arrays batch through LogDensityGrad,
// which takes positions row by row.
type rowBatch struct {
	c          Compiled
	n, d       int
	x, g, lp   []float64 // struct-of-arrays
	rows, grow []float64 // row by row
}

func (b *rowBatch) X() []float64    { return b.x }
func (b *rowBatch) LPs() []float64  { return b.lp }
func (b *rowBatch) Grad() []float64 { return b.g }
func (b *rowBatch) Forward()        { b.eval(false) }
func (b *rowBatch) Gradient()       { b.eval(true) }

func (b *rowBatch) eval(grad bool) {
	ToRows(b.rows, b.x, b.n, b.d)
	var g []float64
	if grad {
		g = b.grow
	}
	if err := b.c.LogDensityGrad(b.rows, b.lp, g); err != nil {
		panic(&BatchError{err})
	}
	if grad {
		ToColumns(b.g, b.grow, b.n, b.d)
	}
}

// transpose writes the r×c row-major matrix src as its c×r transpose
// into dst.
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

// ToRows lays out n positions of d values from struct-of-arrays src (slot
// j of position c at j·n+c) row by row into dst (c·d+j).
func ToRows(dst, src []float64, n, d int) { transpose(dst, src, d, n) }

// ToColumns is ToRows's inverse.
func ToColumns(dst, src []float64, n, d int) { transpose(dst, src, n, d) }
