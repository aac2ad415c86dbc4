package ir

import (
	"fmt"
	"math"

	"github.com/gobayes/gobayes/accel/opdef"
)

// dirichlet_lpdf(y, alpha): y is one simplex [K] or N of them [N×K];
// alpha is [K] (shared) or [N×K]. Each event's term is
// lgamma(Σα) - Σ lgamma(α_k) + Σ (α_k - 1) log y_k. Partials:
// ∂y_k = (α_k - 1)/y_k, ∂α_k = ψ(Σα) - ψ(α_k) + log y_k.
//
// The op checks α_k > 0 and 0 < y_k ≤ 1 (-Inf otherwise) but not that y
// sums to one: the simplex bijector guarantees it for parameters and the
// model compiler checks data, and the density's gradient with respect to y
// is then the unconstrained one (as in Stan).
func init() {
	register(OpDirichletLPDF, OpDef{Name: "dirichlet_lpdf", Arity: 2,
		Shape: eventShape("dirichlet", 2), Forward: dirichletForward, Backward: dirichletBackward})
}

// eventShape is the shape rule of a multivariate density whose first
// nEvent arguments are [K] (one event) or [N×K] (N events): every such
// argument has the same K and 1 or N rows. Pointwise mode gives [N].
func eventShape(name string, nEvent int) func(p *Program, in *Instr, args [][]int) ([]int, error) {
	return func(p *Program, in *Instr, args [][]int) ([]int, error) {
		if err := checkLPDFInts(in); err != nil {
			return nil, err
		}
		k, rows := -1, 1
		for i, a := range args[:nEvent] {
			var r, c int
			switch len(a) {
			case 1:
				r, c = 1, a[0]
			case 2:
				r, c = a[0], a[1]
			default:
				return nil, fmt.Errorf("%s: argument %d has shape %v, want [K] or [N×K]", name, i, a)
			}
			if k >= 0 && c != k {
				return nil, fmt.Errorf("%s: argument %d has %d columns, argument 0 has %d", name, i, c, k)
			}
			k = c
			if r != 1 {
				if rows != 1 && r != rows {
					return nil, fmt.Errorf("%s: argument %d has %d rows, another has %d: give one row per event or a single [K] vector", name, i, r, rows)
				}
				rows = r
			}
		}
		if !Pointwise(in) {
			return nil, nil
		}
		return []int{rows}, nil
	}
}

// eventRows returns the number of rows of a [K] or [N×K] value and its
// row stride (0 for a single row).
func eventRows(f *Frame, id ID) (rows, rs int) {
	sh := f.P.Values[id].Shape
	if len(sh) == 2 && sh[0] != 1 {
		return sh[0], sh[1]
	}
	return 1, 0
}

// dirichletConst is lgamma(Σα) - Σ lgamma(α_k), NaN when some α_k ≤ 0.
//
//gb:cuda gb_dirichlet_const
func dirichletConst(a []float64) float64 {
	s, c := 0.0, 0.0
	for _, v := range a {
		if !(v > 0) {
			return math.NaN()
		}
		s += v
		c -= lgamma(v)
	}
	return c + lgamma(s)
}

func dirichletForward(f *Frame, in *Instr) {
	ny, yrs := eventRows(f, in.In[0])
	na, ars := eventRows(f, in.In[1])
	sh := f.P.Values[in.In[0]].Shape
	out, pw := f.Val(in.Out), Pointwise(in)
	t := dirichletLPDF(f.Val(in.In[0]), yrs, f.Val(in.In[1]), ars, max(ny, na), sh[len(sh)-1], out, pw)
	if !pw {
		out[0] = t
	}
}

// dirichletLPDF is the sum of dirichlet_lpdf's terms over n events of k
// values: row i of y at y[i*yrs:], of α at al[i*ars:] (a stride 0: one
// shared row). With pw it writes each term into out[i] too.
//
//gb:cuda gb_dirichlet_lpdf
func dirichletLPDF(y []float64, yrs int, al []float64, ars, n, k int, out []float64, pw bool) float64 {
	c := 0.0
	if ars == 0 {
		c = dirichletConst(al[:k])
	}
	t := 0.0
	for i := 0; i < n; i++ {
		yr, ar := y[i*yrs:i*yrs+k], al[i*ars:i*ars+k]
		if ars != 0 {
			c = dirichletConst(ar)
		}
		e := c
		for j, v := range yr {
			if !(v > 0 && v <= 1) {
				e = math.Inf(-1)
				break
			}
			e += (ar[j] - 1) * math.Log(v)
		}
		if e != e { // NaN from infinite inputs or α ≤ 0
			e = math.Inf(-1)
		}
		if pw {
			out[i] = e
		}
		t += e
	}
	return t
}

func dirichletBackward(f *Frame, in *Instr) {
	ny, yrs := eventRows(f, in.In[0])
	na, ars := eventRows(f, in.In[1])
	sh := f.P.Values[in.In[0]].Shape
	gy, ga := f.Grad(in.In[0]), f.Grad(in.In[1])
	var ay, aa []float64
	if gy {
		ay = f.AdjOf(in.In[0])
	}
	if ga {
		aa = f.AdjOf(in.In[1])
	}
	dirichletReverse(f.Val(in.In[0]), yrs, f.Val(in.In[1]), ars, max(ny, na), sh[len(sh)-1],
		f.AdjOf(in.Out), outStride(in), ay, aa, gy, ga)
}

// dirichletReverse adds into ay (when gy) and aa (when ga) the partials
// of dirichletLPDF's terms, term i weighted by g[i*gs].
//
//gb:cuda gb_dirichlet_reverse
func dirichletReverse(y []float64, yrs int, al []float64, ars, n, k int, g []float64, gs int, ay, aa []float64, gy, ga bool) {
	gsum := 0.0 // Σ g_i over the events inside the support (shared α)
	for i := 0; i < n; i++ {
		yr, ar := y[i*yrs:i*yrs+k], al[i*ars:i*ars+k]
		if !dirichletInside(yr, ar) {
			continue
		}
		gi := g[i*gs]
		gsum += gi
		if gy {
			dy := ay[i*yrs : i*yrs+k]
			for j, v := range yr {
				dy[j] += gi * (ar[j] - 1) / v
			}
		}
		if ga {
			da := aa[i*ars : i*ars+k]
			for j, v := range yr {
				da[j] += gi * math.Log(v)
			}
			if ars != 0 {
				dirichletAddPsi(da, ar, gi)
			}
		}
	}
	if ga && ars == 0 && gsum != 0 {
		// The ψ terms of a shared α, once for all events.
		dirichletAddPsi(aa[:k], al[:k], gsum)
	}
}

// dirichletAddPsi adds g·(ψ(Σα) - ψ(α_k)) to da_k.
//
//gb:cuda gb_dirichlet_add_psi
func dirichletAddPsi(da, a []float64, g float64) {
	s := 0.0
	for _, v := range a {
		s += v
	}
	ps := opdef.Digamma(s)
	for j, v := range a {
		da[j] += g * (ps - opdef.Digamma(v))
	}
}

//gb:cuda gb_dirichlet_inside
func dirichletInside(y, a []float64) bool {
	for j := range y {
		if !(y[j] > 0 && y[j] <= 1) || !(a[j] > 0) {
			return false
		}
	}
	return true
}
