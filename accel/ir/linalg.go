package ir

import (
	"fmt"
	"math"
	"sync"

	"github.com/gobayes/gobayes/accel/dense"
)

// Linear algebra over row-major matrices. Ops that take a lower-triangular
// or symmetric matrix read its lower triangle only (diagonal included); the
// upper triangle gets no adjoint.

func squareArg(name string, s []int) (int, error) {
	if len(s) != 2 || s[0] != s[1] {
		return 0, fmt.Errorf("%s: argument has shape %v, want a square matrix", name, s)
	}
	return s[0], nil
}

func init() {
	register(OpMatVec, OpDef{
		Name: "matvec", Arity: 2,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			a, v := args[0], args[1]
			if len(a) != 2 || ShapeLen(v) != a[1] {
				return nil, fmt.Errorf("matvec: shapes %v and %v do not match (want [n×k] and [k])", a, v)
			}
			return []int{a[0]}, nil
		},
		// A data matrix with short rows (a regression's design matrix) is
		// worked column by column, as a hand-written regression does, over
		// Aᵀ: the program's (Transposed), made once for all its frames. The
		// one-slot scratch marks the instruction as such.
		Scratch: func(p *Program, in *Instr) int {
			if matVecByColumn(p, in) {
				return 1
			}
			return 0
		},
		Forward: func(f *Frame, in *Instr) {
			a, v, y := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.Out)
			if in.Scratch != None {
				at := Transposed(f, in)
				clear(y)
				for l, vl := range v {
					dense.Axpy(y, vl, at[l*len(y):(l+1)*len(y)])
				}
				return
			}
			matVec(a, v, y)
		},
		Backward: func(f *Frame, in *Instr) {
			a, v, g := f.Val(in.In[0]), f.Val(in.In[1]), f.AdjOf(in.Out)
			if in.Scratch != None {
				// A is data: only v gets a gradient, gv_l = Σ_i A_il g_i.
				at := Transposed(f, in)
				gv := f.AdjOf(in.In[1])
				for l := range gv {
					gv[l] += dense.Dot(at[l*len(g):(l+1)*len(g)], g)
				}
				return
			}
			matVecReverse(a, v, g, gradOrNil(f, in.In[0]), gradOrNil(f, in.In[1]))
		},
	})
	register(OpMatMul, OpDef{
		Name: "matmul", Arity: 2,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			a, b := args[0], args[1]
			if len(a) != 2 || len(b) != 2 || a[1] != b[0] {
				return nil, fmt.Errorf("matmul: shapes %v and %v do not match (want [n×k] and [k×m])", a, b)
			}
			return []int{a[0], b[1]}, nil
		},
		Forward: func(f *Frame, in *Instr) {
			sa := f.P.Values[in.In[0]].Shape
			matMul(f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.Out), sa[0], sa[1])
		},
		Backward: func(f *Frame, in *Instr) {
			sa := f.P.Values[in.In[0]].Shape
			matMulReverse(f.Val(in.In[0]), f.Val(in.In[1]), f.AdjOf(in.Out),
				gradOrNil(f, in.In[0]), gradOrNil(f, in.In[1]), sa[0], sa[1])
		},
	})
	register(OpCholesky, OpDef{
		Name: "cholesky", Arity: 1,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			if _, err := squareArg("cholesky", args[0]); err != nil {
				return nil, err
			}
			return args[0], nil
		},
		Scratch: func(p *Program, in *Instr) int {
			n := p.Values[in.In[0]].Shape[0]
			return n * n
		},
		Forward: func(f *Frame, in *Instr) {
			a, l := f.Val(in.In[0]), f.Val(in.Out)
			n := f.P.Values[in.Out].Shape[0]
			if dense.Cholesky(a, l, n, 0) >= 0 {
				fill(l, math.NaN())
			}
		},
		Backward: func(f *Frame, in *Instr) {
			n := f.P.Values[in.Out].Shape[0]
			l, lb, ga := f.Val(in.Out), f.AdjOf(in.Out), f.AdjOf(in.In[0])
			dense.CholeskyReverse(l, lb, ga, f.Val(in.Scratch), n)
		},
	})
	register(OpTriSolve, OpDef{
		Name: "tri_solve", Arity: 2,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			n, err := squareArg("tri_solve", args[0])
			if err != nil {
				return nil, err
			}
			b := args[1]
			if !(len(b) == 1 && b[0] == n || len(b) == 2 && b[0] == n) {
				return nil, fmt.Errorf("tri_solve: right-hand side has shape %v, want [%d] or [%d×m]", b, n, n)
			}
			return b, nil
		},
		Scratch: func(p *Program, in *Instr) int { return p.Values[in.In[1]].Len },
		Forward: func(f *Frame, in *Instr) {
			b := f.Val(in.In[1])
			n := f.P.Values[in.In[0]].Shape[0]
			triSolve(f.Val(in.In[0]), b, f.Val(in.Out), n, len(b)/n)
		},
		Backward: func(f *Frame, in *Instr) {
			x := f.Val(in.Out)
			n := f.P.Values[in.In[0]].Shape[0]
			triSolveReverse(f.Val(in.In[0]), x, f.AdjOf(in.Out), f.Val(in.Scratch), gradOrNil(f, in.In[1]), gradOrNil(f, in.In[0]), n, len(x)/n)
		},
	})
	register(OpCovExpQuad, OpDef{
		Name: "cov_exp_quad", Arity: 3,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			x := args[0]
			if len(x) != 1 && len(x) != 2 {
				return nil, fmt.Errorf("cov_exp_quad: points have shape %v, want [n] or [n×d]", x)
			}
			if ShapeLen(args[1]) != 1 || ShapeLen(args[2]) != 1 {
				return nil, fmt.Errorf("cov_exp_quad: alpha and rho must be scalars, got shapes %v and %v", args[1], args[2])
			}
			return []int{x[0], x[0]}, nil
		},
		Forward: func(f *Frame, in *Instr) {
			x := f.Val(in.In[0])
			n := f.P.Values[in.In[0]].Shape[0]
			covExpQuad(x, f.Val(in.In[1])[0], f.Val(in.In[2])[0], f.Val(in.Out), n, len(x)/n)
		},
		Backward: func(f *Frame, in *Instr) {
			x := f.Val(in.In[0])
			n := f.P.Values[in.In[0]].Shape[0]
			da, dr := covExpQuadReverse(x, f.Val(in.Out), f.AdjOf(in.Out), gradOrNil(f, in.In[0]),
				f.Val(in.In[1])[0], f.Val(in.In[2])[0], n, len(x)/n)
			if f.Grad(in.In[1]) {
				f.AdjOf(in.In[1])[0] += da
			}
			if f.Grad(in.In[2]) {
				f.AdjOf(in.In[2])[0] += dr
			}
		},
	})
	register(OpAddDiag, OpDef{
		Name: "add_diag", Arity: 2,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			n, err := squareArg("add_diag", args[0])
			if err != nil {
				return nil, err
			}
			if l := ShapeLen(args[1]); l != 1 && l != n {
				return nil, fmt.Errorf("add_diag: diagonal has shape %v, want a scalar or [%d]", args[1], n)
			}
			return args[0], nil
		},
		Forward: func(f *Frame, in *Instr) {
			d, sd := bval(f, in.In[1])
			addDiag(f.Val(in.In[0]), d, f.Val(in.Out), f.P.Values[in.Out].Shape[0], sd)
		},
		Backward: func(f *Frame, in *Instr) {
			_, sd := bval(f, in.In[1])
			addDiagReverse(f.AdjOf(in.Out), gradOrNil(f, in.In[0]), gradOrNil(f, in.In[1]), f.P.Values[in.Out].Shape[0], sd)
		},
	})
	register(OpMulLowerTTr, OpDef{
		Name: "mul_lower_self_transpose", Arity: 1,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			if _, err := squareArg("mul_lower_self_transpose", args[0]); err != nil {
				return nil, err
			}
			return args[0], nil
		},
		Forward: func(f *Frame, in *Instr) {
			mulLowerSelfTranspose(f.Val(in.In[0]), f.Val(in.Out), f.P.Values[in.Out].Shape[0])
		},
		Backward: func(f *Frame, in *Instr) {
			mulLowerSelfTransposeReverse(f.Val(in.In[0]), f.AdjOf(in.Out), f.AdjOf(in.In[0]), f.P.Values[in.Out].Shape[0])
		},
	})
}

// mulLowerSelfTranspose writes y = L Lᵀ (n×n) from the lower triangle of
// L.
//
//gb:cuda gb_mul_lower_self_transpose
func mulLowerSelfTranspose(l, y []float64, n int) {
	for i := range n {
		for j := 0; j <= i; j++ {
			s := 0.0
			for k := 0; k <= j; k++ {
				s += l[i*n+k] * l[j*n+k]
			}
			y[i*n+j], y[j*n+i] = s, s
		}
	}
}

// mulLowerSelfTransposeReverse adds into gl, on the lower triangle, the
// adjoint of mulLowerSelfTranspose's L given the adjoint g of y:
// L̄ = (G + Gᵀ) L.
//
//gb:cuda gb_mul_lower_self_transpose_reverse
func mulLowerSelfTransposeReverse(l, g, gl []float64, n int) {
	for i := range n {
		for j := 0; j <= i; j++ {
			s := 0.0
			for k := j; k < n; k++ {
				s += (g[i*n+k] + g[k*n+i]) * l[k*n+j]
			}
			gl[i*n+j] += s
		}
	}
}

// covExpQuad writes the squared-exponential covariance of the n points x
// (n×d) into k (n×n): k_ij = α² exp(-|x_i - x_j|²/2ρ²).
//
//gb:cuda gb_cov_exp_quad
func covExpQuad(x []float64, alpha, rho float64, k []float64, n, d int) {
	a2, c := alpha*alpha, -0.5/(rho*rho)
	for i := range n {
		k[i*n+i] = a2
		for j := range i {
			s := 0.0
			for t := range d {
				e := x[i*d+t] - x[j*d+t]
				s += e * e
			}
			// math.Exp, not Exp: these n² independent calls gain nothing
			// from latency, and a nearly singular covariance's Cholesky
			// factor turns 1 ulp in its entries into 1e-10, past what the
			// comparisons with the hand-written models (math.Exp) allow.
			v := a2 * math.Exp(c*s)
			k[i*n+j], k[j*n+i] = v, v
		}
	}
}

// covExpQuadReverse adds into gx (nil when the points take no gradient)
// the adjoint of x given g, that of k, and returns those of α and ρ.
//
//gb:cuda gb_cov_exp_quad_reverse
func covExpQuadReverse(x, k, g, gx []float64, alpha, rho float64, n, d int) (da, dr float64) {
	ir2 := 1 / (rho * rho)
	var sa, sr float64 // Σ g·K and Σ g·K·|xi-xj|²
	for i := range n {
		sa += g[i*n+i] * k[i*n+i]
		for j := range i {
			gk := (g[i*n+j] + g[j*n+i]) * k[i*n+j]
			sa += gk
			s := 0.0
			for t := range d {
				e := x[i*d+t] - x[j*d+t]
				s += e * e
				if gx != nil {
					gx[i*d+t] -= gk * e * ir2
					gx[j*d+t] += gk * e * ir2
				}
			}
			sr += gk * s
		}
	}
	return 2 * sa / alpha, sr * ir2 / rho
}

// triSolve writes x = L⁻¹b for l lower-triangular (n×n) and b of m
// columns (n×m), by forward substitution column by column.
//
//gb:cuda gb_tri_solve
func triSolve(l, b, x []float64, n, m int) {
	for c := range m {
		for i := range n {
			s := b[i*m+c]
			row := l[i*n : i*n+i]
			for k, lik := range row {
				s -= lik * x[k*m+c]
			}
			x[i*m+c] = s / l[i*n+i]
		}
	}
}

// triSolveReverse is tri_solve's reverse: bb = L⁻ᵀ xb by back
// substitution, added into gb, and -bb xᵀ into the lower triangle of gl
// (gb and gl nil when they take no gradient).
//
//gb:cuda gb_tri_solve_reverse
func triSolveReverse(l, x, xb, bb, gb, gl []float64, n, m int) {
	for c := range m {
		for i := n - 1; i >= 0; i-- {
			s := xb[i*m+c]
			for k := i + 1; k < n; k++ {
				s -= l[k*n+i] * bb[k*m+c]
			}
			bb[i*m+c] = s / l[i*n+i]
		}
	}
	if gb != nil {
		for i, v := range bb {
			gb[i] += v
		}
	}
	if gl != nil {
		for i := range n {
			for k := 0; k <= i; k++ {
				s := 0.0
				for c := range m {
					s += bb[i*m+c] * x[k*m+c]
				}
				gl[i*n+k] -= s
			}
		}
	}
}

func logMatMulExpDims(f *Frame, in *Instr) (n, k, m int) {
	sa, sb := f.P.Values[in.In[0]].Shape, f.P.Values[in.In[1]].Shape
	k, m = sb[0], sb[1]
	n = 1
	if len(sa) == 2 {
		n = sa[0]
	}
	return n, k, m
}

func init() {
	register(OpLogMatMulExp, OpDef{
		Name: "log_mat_mul_exp", Arity: 2,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			a, b := args[0], args[1]
			if len(b) != 2 || len(a) < 1 || len(a) > 2 || a[len(a)-1] != b[0] {
				return nil, fmt.Errorf("log_mat_mul_exp: shapes %v and %v do not match (want [k] or [n×k], and [k×m])", a, b)
			}
			if len(a) == 1 {
				return []int{b[1]}, nil
			}
			return []int{a[0], b[1]}, nil
		},
		// The scratch keeps the weights exp(A_il + B_lj - out_ij) for the
		// reverse sweep, at ((i·m)+j)·k + l.
		Scratch: func(p *Program, in *Instr) int {
			return p.Values[in.Out].Len * p.Values[in.In[1]].Shape[0]
		},
		Forward: func(f *Frame, in *Instr) {
			n, k, m := logMatMulExpDims(f, in)
			logMatMulExp(f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.Out), f.Val(in.Scratch), n, k, m)
		},
		Backward: func(f *Frame, in *Instr) {
			n, k, m := logMatMulExpDims(f, in)
			logMatMulExpReverse(f.AdjOf(in.Out), f.Val(in.Scratch), gradOrNil(f, in.In[0]), gradOrNil(f, in.In[1]), n, k, m)
		},
	})
}

// logMatMulExp writes y = log(exp(a)·exp(b)) for a [n×k] and b [k×m],
// and into w the weights exp(a_il + b_lj - y_ij) at ((i·m)+j)·k + l.
//
//gb:cuda gb_log_mat_mul_exp
func logMatMulExp(a, b, y, w []float64, n, k, m int) {
	for i := range n {
		ai := a[i*k : (i+1)*k]
		for j := range m {
			wij := w[(i*m+j)*k : (i*m+j+1)*k]
			mx, im := math.Inf(-1), -1
			for l, v := range ai {
				if t := v + b[l*m+j]; t > mx || math.IsNaN(t) {
					mx, im = t, l
				}
			}
			if math.IsInf(mx, 0) || math.IsNaN(mx) {
				clear(wij)
				y[i*m+j] = mx
				continue
			}
			s := 0.0
			for l, v := range ai {
				if l == im {
					wij[l] = 1
					continue
				}
				wij[l] = Exp(v + b[l*m+j] - mx)
				s += wij[l]
			}
			y[i*m+j] = mx + log1p(s)
			r := 1 / (1 + s)
			for l := range wij {
				wij[l] *= r
			}
		}
	}
}

// logMatMulExpReverse adds into ga and gb (each nil when it takes no
// gradient) the adjoints of log_mat_mul_exp's inputs, given that of its
// output, g, and logMatMulExp's weights w.
//
//gb:cuda gb_log_mat_mul_exp_reverse
func logMatMulExpReverse(g, w, ga, gb []float64, n, k, m int) {
	for i := range n {
		for j := range m {
			gij := g[i*m+j]
			if gij == 0 {
				continue
			}
			wij := w[(i*m+j)*k : (i*m+j+1)*k]
			for l, v := range wij {
				d := gij * v
				if ga != nil {
					ga[i*k+l] += d
				}
				if gb != nil {
					gb[l*m+j] += d
				}
			}
		}
	}
}

// matVecByColumn reports whether matvec works on columns: a constant
// matrix whose rows are too short for the vector kernels while its columns
// are long enough.
func matVecByColumn(p *Program, in *Instr) bool {
	a := p.Values[in.In[0]]
	return a.Kind == Const && a.Shape[1] < dense.KernelMin && a.Shape[0] >= dense.KernelMin
}

// transposed is the Aᵀ of a matvec worked by columns, made on first use
// by whichever frame gets there first, then read by all.
type transposed struct {
	once sync.Once
	at   []float64
}

// transposedOf prepares the Aᵀ of every matvec of p worked by columns
// (derive calls it): a constant's transpose is a constant too, held once
// by the program rather than once per frame.
func transposedOf(p *Program) map[*Instr]*transposed {
	var m map[*Instr]*transposed
	for i := range p.Instrs {
		if in := &p.Instrs[i]; in.Op == OpMatVec && in.Scratch != None {
			if m == nil {
				m = map[*Instr]*transposed{}
			}
			m[in] = &transposed{}
		}
	}
	return m
}

// Transposed returns Aᵀ (k×n) of matvec instruction in, worked by columns
// (its scratch is not None): made from the constant A on the first call
// of any frame of the program, then shared by all (it never changes).
func Transposed(f *Frame, in *Instr) []float64 {
	p := f.P
	t := p.transposed[in]
	t.once.Do(func() {
		a, s := p.ConstData(in.In[0]), p.Values[in.In[0]].Shape
		n, k := s[0], s[1]
		at := make([]float64, n*k)
		for i := range n {
			for l := range k {
				at[l*n+i] = a[i*k+l]
			}
		}
		t.at = at
	})
	return t.at
}

// The bodies of matvec, matmul and add_diag over slices, which cgen's C
// calls through their translations (cmd/genops). Their inner products
// are dense.Dot and dense.Axpy: gonum's assembly on the CPU for long
// rows, the plain loop on the device. An empty adjoint is one not wanted.

// matVec is y = A·v, A of len(y) rows of len(v).
//
//gb:cuda gb_matvec
func matVec(a, v, y []float64) {
	k := len(v)
	for i := range y {
		y[i] = dense.Dot(a[i*k:(i+1)*k], v)
	}
}

//gb:cuda gb_matvec_reverse
func matVecReverse(a, v, g, ga, gv []float64) {
	k := len(v)
	if len(ga) > 0 {
		for i, gi := range g {
			dense.Axpy(ga[i*k:(i+1)*k], gi, v)
		}
	}
	if len(gv) > 0 {
		for i, gi := range g {
			dense.Axpy(gv, gi, a[i*k:(i+1)*k])
		}
	}
}

// matMul is y = A·B, A [n×k], B [k×m].
//
//gb:cuda gb_matmul
func matMul(a, b, y []float64, n, k int) {
	m := len(b) / k
	clear(y[:n*m])
	for i := range n {
		yr := y[i*m : (i+1)*m]
		for l := range k {
			dense.Axpy(yr, a[i*k+l], b[l*m:(l+1)*m])
		}
	}
}

//gb:cuda gb_matmul_reverse
func matMulReverse(a, b, g, ga, gb []float64, n, k int) {
	m := len(b) / k
	for i := range n {
		gr := g[i*m : (i+1)*m]
		for l := range k {
			br := b[l*m : (l+1)*m]
			if len(ga) > 0 {
				ga[i*k+l] += dense.Dot(gr, br)
			}
			if len(gb) > 0 {
				dense.Axpy(gb[l*m:(l+1)*m], a[i*k+l], gr)
			}
		}
	}
}

// addDiag is y = A + diag(d), A [n×n], d read at stride sd.
//
//gb:cuda gb_add_diag
func addDiag(a, d, y []float64, n, sd int) {
	copy(y[:n*n], a)
	for i := range n {
		y[i*n+i] += d[i*sd]
	}
}

//gb:cuda gb_add_diag_reverse
func addDiagReverse(g, ga, gd []float64, n, sd int) {
	if len(ga) > 0 {
		for i, v := range g {
			ga[i] += v
		}
	}
	if len(gd) > 0 {
		for i := range n {
			gd[i*sd] += g[i*n+i]
		}
	}
}
