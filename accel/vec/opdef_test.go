package vec_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef"
	"github.com/gobayes/gobayes/accel/vec"
)

// TestOpdefFamilies runs the generated lockstep kernel of every family
// defined in accel/opdef against ir's frames, chain by chain: each
// parameter per chain (one per element, and shared by every element),
// counts as data, summed and pointwise. No family needs an entry here.
func TestOpdefFamilies(t *testing.T) {
	for _, d := range opdef.Ops() {
		t.Run(d.Family, func(t *testing.T) {
			op := opNamed(t, d.Name)
			for _, pw := range [][]int{nil, {1}} {
				for _, shared := range []bool{false, true} {
					p := opdefProgram(t, d, op, pw, shared)
					checkAgainstFrame(t, d.Family, p, 7, 1.5)
				}
			}
		})
	}
}

// opdefProgram is one likelihood term of family d over 5 elements: its
// parameters come from the position through the bijector of their
// support (vectors, or scalars shared by every element), its counts and
// bounded variates are data, a continuous variate is a parameter too.
func opdefProgram(t *testing.T, d *opdef.Dist, op ir.Op, pw []int, shared bool) *ir.Program {
	const n = 5
	counts := []float64{0, 1, 3, 2, 7}
	trials := []float64{0, 4, 3, 9, 12}
	b := ir.NewBuilder(4 * n)
	next := 0
	param := func(size int) ir.ID {
		var shape []int
		if size > 1 {
			shape = []int{size}
		}
		id := b.ParamSlice(next, shape)
		next += size
		return id
	}
	emit := func(op ir.Op, ints []int, in ...ir.ID) ir.ID {
		id, err := b.Emit(op, in, ints, -1)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	arg := func(support string, size int) ir.ID {
		switch kind, _, _ := strings.Cut(support, ":"); kind {
		case "Positive":
			return emit(ir.OpExp, nil, param(size))
		case "UnitInterval":
			return emit(ir.OpLogistic, nil, param(size))
		case "NonNegInt", "BoundedInt":
			return b.Const(counts, []int{n})
		case "Binary":
			return b.Const([]float64{0, 1, 1, 0, 1}, []int{n})
		case "Bounded":
			return emit(ir.OpLogistic, nil, param(size)) // in (0, 1): the uniform's bounds below are -1 and 2
		}
		return param(size)
	}
	args := []ir.ID{arg(d.Support, n)}
	for k, a := range d.Args[1:] {
		size := n
		if shared && k%2 == 0 {
			size = 1
		}
		switch {
		case a.Support == "NonNegInt":
			args = append(args, b.Const(trials, []int{n}))
		case strings.HasPrefix(d.Support, "Bounded:"):
			args = append(args, b.Const([]float64{-1, 2}[k:k+1], nil))
		default:
			args = append(args, arg(a.Support, size))
		}
	}
	lp := emit(op, pw, args...)
	if pw != nil {
		lp = emit(ir.OpSum, nil, lp)
	}
	p, err := b.Finalize(lp)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOpdefFamiliesData runs every family's generated kernel with data
// shared by every chain: the parameters as constants and the variate per
// chain (a prior with data parameters: the loops read the parameters'
// costly calls as scalars), then the variate as data and the parameters
// per chain (a likelihood), each with its data as one value and one per
// element; and with one constant outside its support, where every
// chain's term is -Inf without a loop over the chains.
func TestOpdefFamiliesData(t *testing.T) {
	for _, d := range opdef.All() {
		op := opNamed(t, d.Name)
		if strings.HasPrefix(d.Support, "Bounded") || d.Discrete {
			continue // the uniform's bounds and the counts are data in TestOpdefFamilies already
		}
		t.Run(d.Family, func(t *testing.T) {
			for _, dataY := range []bool{false, true} {
				for _, scalar := range []bool{false, true} {
					p := opdefDataProgram(t, d, op, dataY, scalar, false)
					checkAgainstFrame(t, d.Family, p, 7, 1.5)
				}
			}
			p := opdefDataProgram(t, d, op, false, true, true)
			b := vec.New(p, 3)
			xs := make([]float64, 3*p.Dim)
			lps, grads := make([]float64, 3), make([]float64, 3*p.Dim)
			b.LogDensityGrad(xs, lps, grads)
			for c, lp := range lps {
				if !math.IsInf(lp, -1) {
					t.Errorf("a parameter outside its support: chain %d log density %v, want -Inf", c, lp)
				}
			}
			for j, g := range grads {
				if g != 0 {
					t.Errorf("a parameter outside its support: gradient[%d] = %v, want 0", j, g)
				}
			}
		})
	}
}

// opdefDataProgram is one likelihood term of family d over 5 elements
// with data shared by every chain (see TestOpdefFamiliesData); bad puts
// the last parameter outside its support (a scale of -1).
func opdefDataProgram(t *testing.T, d *opdef.Dist, op ir.Op, dataY, scalar, bad bool) *ir.Program {
	const n = 5
	b := ir.NewBuilder(4 * n)
	next := 0
	emit := func(op ir.Op, in ...ir.ID) ir.ID {
		id, err := b.Emit(op, in, nil, -1)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	param := func(support string) ir.ID {
		id := b.ParamSlice(next, []int{n})
		next += n
		switch support {
		case "Positive":
			return emit(ir.OpExp, id)
		case "UnitInterval":
			return emit(ir.OpLogistic, id)
		}
		return id
	}
	data := func(support string, size int) ir.ID {
		v := make([]float64, size)
		for i := range v {
			switch support {
			case "Positive":
				v[i] = 0.6 + 0.3*float64(i)
			case "UnitInterval":
				v[i] = 0.2 + 0.15*float64(i)
			default:
				v[i] = 0.4*float64(i) - 0.7
			}
		}
		var shape []int
		if size > 1 {
			shape = []int{size}
		}
		return b.Const(v, shape)
	}
	size := n
	if scalar {
		size = 1
	}
	var args []ir.ID
	if dataY {
		args = append(args, data(d.Support, n))
	} else {
		args = append(args, param(d.Support))
	}
	for k, a := range d.Args[1:] {
		switch {
		case bad && k == len(d.Args)-2:
			args = append(args, b.Const([]float64{-1}, nil))
		case dataY:
			args = append(args, param(a.Support))
		default:
			args = append(args, data(a.Support, size))
		}
	}
	p, err := b.Finalize(emit(op, args...))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOpdefScaleOutside runs every family's kernel (log densities and
// tails) with one positive parameter per chain and unconstrained, at
// values inside and outside its support (-1, 0, NaN, ±Inf, 0.7, 3):
// the log densities and every gradient, those of -Inf chains included,
// must match ir.Frame's, chain by chain (outside the support a term is
// -Inf and adds nothing to the gradient). The location-scale families'
// kernels carry σ > 0 in the NaN of their rows of log σ and 1/σ.
func TestOpdefScaleOutside(t *testing.T) {
	const n = 5
	values := []float64{-1, 0, math.NaN(), math.Inf(1), math.Inf(-1), 0.7, 3}
	for _, d := range opdef.Ops() {
		op := opNamed(t, d.Name)
		if strings.HasPrefix(d.Support, "Bounded") || d.Discrete {
			continue
		}
		for k, a := range d.Args {
			if k == 0 || a.Support != "Positive" {
				continue
			}
			for _, pw := range [][]int{nil, {1}} {
				for _, size := range []int{1, n} {
					b := ir.NewBuilder(4 * n)
					next := 0
					emit := func(op ir.Op, ints []int, in ...ir.ID) ir.ID {
						id, err := b.Emit(op, in, ints, -1)
						if err != nil {
							t.Fatal(err)
						}
						return id
					}
					param := func(size int) ir.ID {
						var shape []int
						if size > 1 {
							shape = []int{size}
						}
						id := b.ParamSlice(next, shape)
						next += size
						return id
					}
					ys := make([]float64, n)
					for i := range ys {
						ys[i] = 0.4*float64(i) + 0.3 // in every continuous family's support
					}
					args := []ir.ID{b.Const(ys, []int{n})}
					at := 0
					for j, aj := range d.Args[1:] {
						switch {
						case j+1 == k:
							at = next
							args = append(args, param(size))
						case aj.Support == "Positive":
							args = append(args, emit(ir.OpExp, nil, param(n)))
						default:
							args = append(args, param(n))
						}
					}
					lp := emit(op, pw, args...)
					if pw != nil {
						lp = emit(ir.OpSum, nil, lp)
					}
					p, err := b.Finalize(lp)
					if err != nil {
						t.Fatal(err)
					}
					rng := rand.New(rand.NewPCG(7, uint64(k)))
					dim, chains := p.Dim, len(values)
					xs := make([]float64, chains*dim)
					for c := range chains {
						for j := range dim {
							xs[c*dim+j] = 2*rng.Float64() - 1
						}
						for j := range size {
							xs[c*dim+at+j] = values[c]
							if size > 1 && j != c%size {
								xs[c*dim+at+j] = 0.5 // the value at one element, the others inside
							}
						}
					}
					bt := vec.New(p, chains)
					lps, grads := make([]float64, chains), make([]float64, chains*dim)
					bt.LogDensityGrad(xs, lps, grads)
					f, g := ir.NewFrame(p), make([]float64, dim)
					name := fmt.Sprintf("%s %s=%d values pointwise=%v", d.Family, a.Name, size, pw != nil)
					for c := range chains {
						want := f.Gradient(xs[c*dim:(c+1)*dim], g)
						if !agree(lps[c], want) {
							t.Errorf("%s, %s = %v: log density %v, ir.Frame %v", name, a.Name, values[c], lps[c], want)
							continue
						}
						for j := range dim {
							if !agree(grads[c*dim+j], g[j]) {
								t.Errorf("%s, %s = %v: gradient[%d] %v, ir.Frame %v", name, a.Name, values[c], j, grads[c*dim+j], g[j])
								break
							}
						}
					}
				}
			}
		}
	}
}
