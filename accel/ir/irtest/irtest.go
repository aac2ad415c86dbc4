package irtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/fuse"
	"github.com/gobayes/gobayes/accel/ir"
)

// Arg is one input of a one-op program: constant data, or a slice of the
// position (a parameter) whose random values are drawn from [Lo, Hi].
type Arg struct {
	Shape  []int
	Data   []float64 // constant contents; nil for a parameter
	Lo, Hi float64   // range of random parameter values
}

// Const is a constant input of the given shape (nil: a scalar).
func Const(shape []int, data ...float64) Arg {
	if len(data) != ir.ShapeLen(shape) {
		panic(fmt.Sprintf("irtest: Const of shape %v with %d values", shape, len(data)))
	}
	return Arg{Shape: shape, Data: data}
}

// Param is a parameter input of the given shape (no dims: a scalar) whose
// random values lie in [lo, hi].
func Param(lo, hi float64, shape ...int) Arg {
	return Arg{Shape: shape, Lo: lo, Hi: hi}
}

// IsParam reports whether a is a parameter.
func (a Arg) IsParam() bool { return a.Data == nil }

// Dim is the number of position slots the parameters of args take.
func Dim(args ...Arg) int {
	n := 0
	for _, a := range args {
		if a.IsParam() {
			n += ir.ShapeLen(a.Shape)
		}
	}
	return n
}

// Point draws a random position for the parameters of args, in order.
func Point(rng *rand.Rand, args ...Arg) []float64 {
	x := make([]float64, 0, Dim(args...))
	for _, a := range args {
		if a.IsParam() {
			for range ir.ShapeLen(a.Shape) {
				x = append(x, a.Lo+(a.Hi-a.Lo)*rng.Float64())
			}
		}
	}
	return x
}

// OutputName is the name under which OpProgram exposes the op's result.
const OutputName = "out"

// OpProgram builds a program that applies op to args. Parameters take
// consecutive position slots in the order of args. The op's result is the
// output OutputName; the target is the result itself when it is a scalar,
// otherwise its dot product with fixed pseudo-random weights in [0.5, 1.5],
// so that a gradient check covers every element of the result. table (nil
// for none) becomes the instruction's Table.
func OpProgram(op ir.Op, ints, table []int, args ...Arg) (*ir.Program, error) {
	return OpProgramBody(op, ints, table, nil, args...)
}

// OpProgramBody is OpProgram for ops with a sub-program (ir.OpScan).
func OpProgramBody(op ir.Op, ints, table []int, body *ir.Program, args ...Arg) (*ir.Program, error) {
	return BuildProgram(func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
		tab := -1
		if table != nil {
			tab = b.Table(table)
		}
		return b.EmitBody(op, in, ints, tab, body)
	}, args...)
}

// BuildProgram is OpProgram for a small graph: build gets the builder and
// the IDs of args (parameters in consecutive position slots, in order) and
// returns the result, which becomes the output OutputName and, weighted as
// in OpProgram, the target.
func BuildProgram(build func(b *ir.Builder, in []ir.ID) (ir.ID, error), args ...Arg) (*ir.Program, error) {
	b := ir.NewBuilder(Dim(args...))
	b.SetPlanner(fuse.Plan)
	ids := make([]ir.ID, len(args))
	off := 0
	for i, a := range args {
		if a.IsParam() {
			ids[i] = b.ParamSlice(off, a.Shape)
			off += ir.ShapeLen(a.Shape)
		} else {
			ids[i] = b.Const(a.Data, a.Shape)
		}
	}
	out, err := build(b, ids)
	if err != nil {
		return nil, err
	}
	b.AddOutput(OutputName, out)
	return b.Finalize(weighted(b, out))
}

// weighted returns out when it is a scalar, else dot(out, w) for fixed
// weights w.
func weighted(b *ir.Builder, out ir.ID) ir.ID {
	n := ir.ShapeLen(b.Shape(out))
	if n == 1 {
		return out
	}
	rng := rand.New(rand.NewPCG(1, 2))
	w := make([]float64, n)
	for i := range w {
		w[i] = 0.5 + rng.Float64()
	}
	t, err := b.Emit(ir.OpDot, []ir.ID{out, b.Const(w, b.Shape(out))}, nil, -1)
	if err != nil {
		panic(err) // dot of equal lengths cannot fail
	}
	return t
}

// Output runs a forward pass of p at x and returns a copy of the named
// output.
func Output(p *ir.Program, x []float64, name string) []float64 {
	id := p.Output(name)
	if id == ir.None {
		panic(fmt.Sprintf("irtest: program has no output %q", name))
	}
	f := ir.NewFrame(p)
	f.Forward(x)
	return append([]float64(nil), f.Val(id)...)
}

// FDGradient is the gradient of fn at x by central differences refined
// with one Richardson step (error O(h⁴)); the step is 1e-4·max(1, |x[i]|).
// It also returns an estimate of the rounding noise in each coordinate.
func FDGradient(fn func([]float64) float64, x []float64) (grad, noise []float64) {
	grad = make([]float64, len(x))
	noise = make([]float64, len(x))
	xx := append([]float64(nil), x...)
	at := func(i int, v float64) float64 {
		xx[i] = v
		r := fn(xx)
		xx[i] = x[i]
		return r
	}
	f0 := math.Abs(fn(x))
	for i, xi := range x {
		h := 1e-4 * math.Max(1, math.Abs(xi))
		d1 := (at(i, xi+h) - at(i, xi-h)) / (2 * h)
		d2 := (at(i, xi+h/2) - at(i, xi-h/2)) / h
		grad[i] = (4*d2 - d1) / 3
		noise[i] = 64 * 0x1p-52 * math.Max(f0, 1) / h
	}
	return grad, noise
}

// FDJacobian is the Jacobian J[i][j] = ∂y_i/∂x_j of fn at x (m outputs)
// by Richardson-refined central differences.
func FDJacobian(fn func(x, y []float64), x []float64, m int) [][]float64 {
	jac := make([][]float64, m)
	for i := range jac {
		jac[i] = make([]float64, len(x))
	}
	xx := append([]float64(nil), x...)
	yp, ym, yp2, ym2 := make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)
	for j, xj := range x {
		h := 1e-4 * math.Max(1, math.Abs(xj))
		for _, s := range []struct {
			d float64
			y []float64
		}{{h, yp}, {-h, ym}, {h / 2, yp2}, {-h / 2, ym2}} {
			xx[j] = xj + s.d
			fn(xx, s.y)
		}
		xx[j] = xj
		for i := range m {
			d1 := (yp[i] - ym[i]) / (2 * h)
			d2 := (yp2[i] - ym2[i]) / h
			jac[i][j] = (4*d2 - d1) / 3
		}
	}
	return jac
}

// CheckGradient compares p's reverse-mode gradient at x with central finite
// differences of its forward pass. A coordinate fails when
// |g - fd| > relTol·max(|g|, |fd|, 1) + rounding noise; each failure is
// reported with its coordinate. It also checks that Gradient returns the
// same log density as Forward and that it is finite.
func CheckGradient(t testing.TB, p *ir.Program, x []float64, relTol float64) {
	t.Helper()
	if len(x) != p.Dim {
		t.Fatalf("CheckGradient: point has %d coordinates, program %d", len(x), p.Dim)
	}
	f := ir.NewFrame(p)
	g := make([]float64, p.Dim)
	lp := f.Gradient(x, g)
	if math.IsInf(lp, 0) || math.IsNaN(lp) {
		t.Errorf("log density at %v is %v, want finite", x, lp)
		return
	}
	if lp2 := ir.NewFrame(p).Forward(x); lp2 != lp {
		t.Errorf("Gradient gives %v, Forward %v", lp, lp2)
	}
	fd, noise := FDGradient(func(y []float64) float64 { return f.Forward(y) }, x)
	bad := 0
	for i := range g {
		scale := math.Max(1, math.Max(math.Abs(g[i]), math.Abs(fd[i])))
		if d := math.Abs(g[i] - fd[i]); !(d <= relTol*scale+noise[i]) {
			bad++
			if bad <= 10 {
				t.Errorf("gradient[%d] = %.12g, finite differences %.12g (relative error %.3g) at x = %v",
					i, g[i], fd[i], d/scale, x)
			}
		}
	}
	if bad > 10 {
		t.Errorf("… and %d more gradient coordinates fail", bad-10)
	}
}

// CheckNoAllocs fails when a Gradient evaluation of p allocates.
func CheckNoAllocs(t testing.TB, p *ir.Program, x []float64) {
	t.Helper()
	f := ir.NewFrame(p)
	g := make([]float64, p.Dim)
	if n := testing.AllocsPerRun(20, func() { f.Gradient(x, g) }); n != 0 {
		t.Errorf("Gradient allocates %v times per call, want 0", n)
	}
}

// Values splits a position drawn for args (see Point) back into one slice
// per argument, constants included, for oracles to compute from.
func Values(x []float64, args ...Arg) [][]float64 {
	out := make([][]float64, len(args))
	off := 0
	for i, a := range args {
		if a.IsParam() {
			n := ir.ShapeLen(a.Shape)
			out[i] = x[off : off+n]
			off += n
		} else {
			out[i] = a.Data
		}
	}
	return out
}
