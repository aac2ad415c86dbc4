package ir_test

import (
	"math"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"gonum.org/v1/gonum/mat"
)

func structureCases() []opCase {
	return []opCase{
		{name: "gather", op: ir.OpGather, table: []int{2, 0, 2, 1, 3}, args: []irtest.Arg{P(-3, 3, 4)},
			want: func(v [][]float64) []float64 {
				return []float64{v[0][2], v[0][0], v[0][2], v[0][1], v[0][3]}
			}},
		{name: "gather_rows", op: ir.OpGatherRow, table: []int{1, 1, 0}, args: []irtest.Arg{P(-3, 3, 2, 3)},
			want: func(v [][]float64) []float64 {
				x := v[0]
				return []float64{x[3], x[4], x[5], x[3], x[4], x[5], x[0], x[1], x[2]}
			}},
		{name: "concat", op: ir.OpConcat, ints: []int{2, 3}, args: []irtest.Arg{P(-3, 3, 2), C(nil, 7), P(-3, 3, 3)},
			want: func(v [][]float64) []float64 {
				return append(append(append([]float64{}, v[0]...), v[1]...), v[2]...)
			}},
		{name: "slice", op: ir.OpSlice, ints: []int{1, 3}, args: []irtest.Arg{P(-3, 3, 5)},
			want: func(v [][]float64) []float64 { return v[0][1:4] }},
		{name: "fill", op: ir.OpFill, ints: []int{2, 2}, args: []irtest.Arg{P(-3, 3)},
			want: func(v [][]float64) []float64 { x := v[0][0]; return []float64{x, x, x, x} }},
	}
}

// spd is the symmetric matrix whose lower triangle is x plus d on the
// diagonal (what the cholesky cases below factor).
func spd(x []float64, n int, d float64) *mat.SymDense {
	a := mat.NewSymDense(n, nil)
	for i := range n {
		for j := 0; j <= i; j++ {
			v := x[i*n+j]
			if i == j {
				v += d
			}
			a.SetSym(i, j, v)
		}
	}
	return a
}

// lower is the lower triangle of x plus d on the diagonal, as a dense
// matrix.
func lower(x []float64, n int, d float64) *mat.Dense {
	l := mat.NewDense(n, n, nil)
	for i := range n {
		for j := 0; j <= i; j++ {
			v := x[i*n+j]
			if i == j {
				v += d
			}
			l.Set(i, j, v)
		}
	}
	return l
}

func linalgCases() []opCase {
	emit := func(b *ir.Builder, op ir.Op, in ...ir.ID) (ir.ID, error) { return b.Emit(op, in, nil, -1) }
	return []opCase{
		{name: "matvec", op: ir.OpMatVec, args: []irtest.Arg{P(-2, 2, 3, 4), P(-2, 2, 4)},
			want: func(v [][]float64) []float64 {
				var y mat.VecDense
				y.MulVec(mat.NewDense(3, 4, v[0]), mat.NewVecDense(4, v[1]))
				return y.RawVector().Data
			}},
		// A data matrix with short rows: worked by columns.
		{name: "matvec data by column", op: ir.OpMatVec, args: []irtest.Arg{C([]int{20, 3}, seq(60, 0.37)...), P(-2, 2, 3)},
			want: func(v [][]float64) []float64 {
				var y mat.VecDense
				y.MulVec(mat.NewDense(20, 3, v[0]), mat.NewVecDense(3, v[1]))
				return y.RawVector().Data
			}},
		{name: "matvec long rows", op: ir.OpMatVec, args: []irtest.Arg{P(-2, 2, 3, 20), P(-2, 2, 20)},
			want: func(v [][]float64) []float64 {
				var y mat.VecDense
				y.MulVec(mat.NewDense(3, 20, v[0]), mat.NewVecDense(20, v[1]))
				return y.RawVector().Data
			}},
		{name: "matmul wide", op: ir.OpMatMul, args: []irtest.Arg{P(-2, 2, 2, 3), P(-2, 2, 3, 17)},
			want: func(v [][]float64) []float64 {
				var y mat.Dense
				y.Mul(mat.NewDense(2, 3, v[0]), mat.NewDense(3, 17, v[1]))
				return y.RawMatrix().Data
			}},
		{name: "matmul", op: ir.OpMatMul, args: []irtest.Arg{P(-2, 2, 3, 4), P(-2, 2, 4, 2)},
			want: func(v [][]float64) []float64 {
				var y mat.Dense
				y.Mul(mat.NewDense(3, 4, v[0]), mat.NewDense(4, 2, v[1]))
				return y.RawMatrix().Data
			}},
		// Lower triangle in [-1, 1] plus 5 on the diagonal: diagonally
		// dominant, hence positive definite; gonum's mat.Cholesky is the
		// oracle.
		{name: "cholesky", covers: []ir.Op{ir.OpCholesky}, args: []irtest.Arg{P(-1, 1, 4, 4)}, tol: 1e-10,
			build: func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				a, _ := b.Emit(ir.OpAddDiag, []ir.ID{in[0], b.Scalar(5)}, nil, -1)
				return emit(b, ir.OpCholesky, a)
			},
			want: func(v [][]float64) []float64 {
				var c mat.Cholesky
				if !c.Factorize(spd(v[0], 4, 5)) {
					panic("not positive definite")
				}
				var l mat.TriDense
				c.LTo(&l)
				return mat.DenseCopyOf(&l).RawMatrix().Data
			}},
		{name: "tri_solve vector", covers: []ir.Op{ir.OpTriSolve}, args: []irtest.Arg{P(-1, 1, 4, 4), P(-2, 2, 4)}, tol: 1e-10,
			build: func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				l, _ := b.Emit(ir.OpAddDiag, []ir.ID{in[0], b.Scalar(3)}, nil, -1)
				return emit(b, ir.OpTriSolve, l, in[1])
			},
			want: func(v [][]float64) []float64 {
				var x mat.VecDense
				if err := x.SolveVec(lower(v[0], 4, 3), mat.NewVecDense(4, v[1])); err != nil {
					panic(err)
				}
				return x.RawVector().Data
			}},
		{name: "tri_solve matrix", args: []irtest.Arg{P(-1, 1, 3, 3), P(-2, 2, 3, 2)}, tol: 1e-10,
			build: func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				l, _ := b.Emit(ir.OpAddDiag, []ir.ID{in[0], b.Scalar(3)}, nil, -1)
				return emit(b, ir.OpTriSolve, l, in[1])
			},
			want: func(v [][]float64) []float64 {
				var x mat.Dense
				if err := x.Solve(lower(v[0], 3, 3), mat.NewDense(3, 2, v[1])); err != nil {
					panic(err)
				}
				return x.RawMatrix().Data
			}},
		// Closed form: K_ij = α² exp(-|xi-xj|²/(2ρ²)) (Stan's
		// gp_exp_quad_cov).
		{name: "cov_exp_quad 1-D", op: ir.OpCovExpQuad, args: []irtest.Arg{P(-2, 2, 4), P(0.5, 2), P(0.5, 2)},
			want: func(v [][]float64) []float64 { return covExpQuad(v[0], 1, v[1][0], v[2][0]) }},
		{name: "cov_exp_quad 2-D", op: ir.OpCovExpQuad, args: []irtest.Arg{P(-2, 2, 3, 2), P(0.5, 2), P(0.5, 2)},
			want: func(v [][]float64) []float64 { return covExpQuad(v[0], 2, v[1][0], v[2][0]) }},
		// Oracle: the definition log Σ_l exp(A_il + B_lj), summed naively.
		{name: "log_mat_mul_exp vector", op: ir.OpLogMatMulExp, args: []irtest.Arg{P(-3, 3, 3), P(-3, 3, 3, 2)},
			want: func(v [][]float64) []float64 { return logMatMulExp(v[0], v[1], 1, 3, 2) }},
		{name: "log_mat_mul_exp matrix", op: ir.OpLogMatMulExp, args: []irtest.Arg{P(-3, 3, 2, 3), P(-3, 3, 3, 4)},
			want: func(v [][]float64) []float64 { return logMatMulExp(v[0], v[1], 2, 3, 4) }},
		{name: "log_mat_mul_exp far apart", op: ir.OpLogMatMulExp, args: []irtest.Arg{P(-900, -890, 2), C([]int{2, 2}, 0, -1, 900, 901)}, tol: 1e-11,
			want: func(v [][]float64) []float64 {
				a, b := v[0], v[1]
				// Each sum is dominated by the l = 1 term; add the other
				// exactly through log1p.
				out := make([]float64, 2)
				for j := range 2 {
					hi, lo := a[1]+b[2+j], a[0]+b[j]
					out[j] = hi + math.Log1p(math.Exp(lo-hi))
				}
				return out
			}},
		{name: "add_diag scalar", op: ir.OpAddDiag, args: []irtest.Arg{P(-2, 2, 3, 3), P(-2, 2)},
			want: func(v [][]float64) []float64 {
				y := append([]float64(nil), v[0]...)
				for i := range 3 {
					y[4*i] += v[1][0]
				}
				return y
			}},
		{name: "add_diag vector", op: ir.OpAddDiag, args: []irtest.Arg{P(-2, 2, 3, 3), P(-2, 2, 3)},
			want: func(v [][]float64) []float64 {
				y := append([]float64(nil), v[0]...)
				for i := range 3 {
					y[4*i] += v[1][i]
				}
				return y
			}},
		{name: "mul_lower_self_transpose", op: ir.OpMulLowerTTr, args: []irtest.Arg{P(-2, 2, 3, 3)},
			want: func(v [][]float64) []float64 {
				l := lower(v[0], 3, 0)
				var y mat.Dense
				y.Mul(l, l.T())
				return y.RawMatrix().Data
			}},
		// A Gaussian-process-like chain: cholesky of a covariance built from
		// parameters, then a solve; checks the reverse sweep through all three.
		{name: "gp chain", args: []irtest.Arg{P(-2, 2, 4), P(0.5, 2), P(0.5, 2), C([]int{4}, 1, -1, 0.5, 2)}, tol: 1e-10,
			build: func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				k, _ := emit(b, ir.OpCovExpQuad, in[0], in[1], in[2])
				k, _ = b.Emit(ir.OpAddDiag, []ir.ID{k, b.Scalar(0.5)}, nil, -1)
				l, _ := emit(b, ir.OpCholesky, k)
				return emit(b, ir.OpTriSolve, l, in[3])
			},
			want: func(v [][]float64) []float64 {
				k := covExpQuad(v[0], 1, v[1][0], v[2][0])
				for i := range 4 {
					k[5*i] += 0.5
				}
				var c mat.Cholesky
				c.Factorize(mat.NewSymDense(4, k))
				var l mat.TriDense
				c.LTo(&l)
				var x mat.VecDense
				if err := x.SolveVec(mat.DenseCopyOf(&l), mat.NewVecDense(4, v[3])); err != nil {
					panic(err)
				}
				return x.RawVector().Data
			}},
	}
}

func covExpQuad(x []float64, d int, alpha, rho float64) []float64 {
	n := len(x) / d
	k := make([]float64, n*n)
	for i := range n {
		for j := range n {
			s := 0.0
			for t := range d {
				s += math.Pow(x[i*d+t]-x[j*d+t], 2)
			}
			k[i*n+j] = alpha * alpha * math.Exp(-s/(2*rho*rho))
		}
	}
	return k
}

func logMatMulExp(a, b []float64, n, k, m int) []float64 {
	out := make([]float64, n*m)
	for i := range n {
		for j := range m {
			s := 0.0
			for l := range k {
				s += math.Exp(a[i*k+l] + b[l*m+j])
			}
			out[i*m+j] = math.Log(s)
		}
	}
	return out
}

// seq is n deterministic values in [-1, 1): sin of multiples of step.
func seq(n int, step float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = math.Sin(float64(i+1) * step)
	}
	return x
}
