package ppl

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/ppl/internal/compile"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Unconstrain maps values of the free parameters, by name, to an
// unconstrained position: the inverse of the bijectors, for user initial
// values. Each value is a float64, int, []float64, []int or [][]float64 of
// the parameter's shape. Every free parameter must be given; unknown
// names and values outside a parameter's support are errors naming it.
func (c *Compiled) Unconstrain(values map[string]any) ([]float64, error) {
	return c.UnconstrainAt(nil, values)
}

// UnconstrainAt is Unconstrain where the parameters that values leaves out
// keep their values at the unconstrained position x0 (for example a random
// start): partial initial values. A left-out parameter whose value at x0
// falls outside bounds that the given values move is an error naming it.
func (c *Compiled) UnconstrainAt(x0 []float64, values map[string]any) ([]float64, error) {
	pr, err := c.predictiveProgram()
	if err != nil {
		return nil, err
	}
	pos := make([]float64, pr.Dim)
	if x0 != nil {
		if len(x0) != c.dim {
			return nil, fmt.Errorf("ppl: %s: position has %d values; the model has %d", c.name, len(x0), c.dim)
		}
		d := c.pool.Get().(*Density)
		draw := make([]float64, c.varLen)
		d.Constrained(x0, draw)
		c.pool.Put(d)
		if err := c.fill(pr, pos, draw); err != nil {
			return nil, err
		}
	}
	known := map[string]bool{}
	var missing []string
	for _, l := range c.p.Latents {
		r := l.RV
		known[r.Name] = true
		v, ok := values[r.Name]
		if !ok {
			if x0 == nil {
				missing = append(missing, r.Name)
			}
			continue
		}
		n, err := asNode(v)
		if err != nil || n.Kind != graph.KConst {
			return nil, &Error{Var: r.Name, Msg: fmt.Sprintf("initial value: %v", err)}
		}
		if n.Len() != r.Value.Len() {
			return nil, &Error{Var: r.Name, Msg: fmt.Sprintf("initial value has %d elements; the parameter has shape %v", n.Len(), r.Value.Dims)}
		}
		copy(pos[pr.Offset[r]:], n.Data)
	}
	if len(missing) > 0 {
		return nil, &Error{Var: strings.Join(missing, ", "), Msg: "no initial value given; give every free parameter a value"}
	}
	var unknown []string
	for k := range values {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, &Error{Var: strings.Join(unknown, ", "), Msg: "not a free parameter of the model (observed variables and deterministic quantities take no initial value)"}
	}
	for _, r := range c.p.Observed {
		copy(pos[pr.Offset[r]:], r.Data)
	}
	return c.unconstrain(pr, pos)
}

// UnconstrainDraw maps a draw in the layout of Vars (as
// Density.Constrained writes it) back to its unconstrained position.
func (c *Compiled) UnconstrainDraw(draw []float64) ([]float64, error) {
	pr, err := c.predictiveProgram()
	if err != nil {
		return nil, err
	}
	pos := make([]float64, pr.Dim)
	if err := c.fill(pr, pos, draw); err != nil {
		return nil, err
	}
	return c.unconstrain(pr, pos)
}

// unconstrain inverts every bijector at the constrained position pos (all
// variables' values; bounds may depend on them).
func (c *Compiled) unconstrain(pr *compile.Predictive, pos []float64) ([]float64, error) {
	f := ir.NewFrame(pr.Program)
	f.Forward(pos)
	index := map[*graph.RV]int{}
	for i, r := range c.m.g.RVs {
		index[r] = i
	}
	x := make([]float64, c.dim)
	for _, l := range c.p.Latents {
		r := l.RV
		i := index[r]
		y := pos[pr.Offset[r] : pr.Offset[r]+r.Value.Len()]
		u := x[l.Offset : l.Offset+l.Len]
		lo, hi := val(f, pr.EffLower[i]), val(f, pr.EffUpper[i])
		at := func(b []float64, k int) float64 { return b[k%len(b)] }
		switch l.Transform {
		case compile.Identity:
			copy(u, y)
		case compile.Lower:
			for k := range u {
				u[k] = ir.LowerInverse(y[k], at(lo, k))
			}
		case compile.Upper:
			for k := range u {
				u[k] = ir.UpperInverse(y[k], at(hi, k))
			}
		case compile.Interval:
			for k := range u {
				u[k] = ir.IntervalInverse(y[k], at(lo, k), at(hi, k))
			}
		case compile.Ordered:
			ir.OrderedInverse(y, u)
		case compile.PosOrdered:
			ir.PosOrderedInverse(y, u)
		case compile.Simplex:
			k := r.Value.Dims[len(r.Value.Dims)-1]
			for row := range len(y) / k {
				if msg := checkSupport(y[row*k:(row+1)*k], dist.Simplex, 0, 1); msg != "" {
					return nil, &Error{Var: r.Name, Msg: fmt.Sprintf("row %d: value %s", row, msg)}
				}
			}
			for row := range len(y) / k {
				ir.SimplexInverse(y[row*k:(row+1)*k], u[row*(k-1):(row+1)*(k-1)])
			}
		case compile.CholCorr:
			ir.CholCorrInverse(y, u)
		}
		for k, v := range u {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, &Error{Var: r.Name, Msg: fmt.Sprintf("value %v (element %d) lies outside the parameter's support (%s transform); give a value inside it", y[min(k, len(y)-1)], k, l.Transform)}
			}
		}
	}
	return slices.Clip(x), nil
}
