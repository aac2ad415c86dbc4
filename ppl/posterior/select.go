package posterior

import (
	"fmt"
	"strings"

	"github.com/gobayes/gobayes/ppl/diag"
)

// Expand maps variable names ("theta": every element) and scalar column
// names ("theta[2]") to column indices, in the order given.
func (p *Posterior) Expand(names ...string) ([]int, error) {
	var out []int
	for _, n := range names {
		if j := p.Column(n); j >= 0 {
			out = append(out, j)
			continue
		}
		v := p.variable(n)
		if v == nil {
			return nil, fmt.Errorf("posterior: no variable or column %q: the model records %s", n, p.varList())
		}
		for k := 0; k < v.size(); k++ {
			out = append(out, v.Start+k)
		}
	}
	return out, nil
}

func (p *Posterior) variable(name string) *Var {
	for i := range p.Vars {
		if p.Vars[i].Name == name {
			return &p.Vars[i]
		}
	}
	return nil
}

func (p *Posterior) varList() string {
	names := make([]string, len(p.Vars))
	for i, v := range p.Vars {
		names[i] = v.Name
	}
	return strings.Join(names, ", ")
}

func (v *Var) size() int {
	n := 1
	for _, d := range v.Shape {
		n *= d
	}
	return n
}

// Select returns the posterior restricted to the named variables (every
// element of a vector) or scalar columns, sharing the draws. It panics with
// an error naming what the model records when a name is unknown.
func (p *Posterior) Select(names ...string) *Posterior {
	cols, err := p.Expand(names...)
	if err != nil {
		panic(err)
	}
	q := *p
	q.Columns = make([]string, len(cols))
	for i, j := range cols {
		q.Columns[i] = p.Columns[j]
	}
	// Whole variables stay variables; single columns become scalar ones.
	q.Vars = nil
	start := 0
	for _, n := range names {
		if v := p.variable(n); v != nil && p.Column(n) < 0 {
			nv := *v
			nv.Start = start
			q.Vars = append(q.Vars, nv)
			start += v.size()
			continue
		}
		det := false
		for _, v := range p.Vars {
			if strings.HasPrefix(n, v.Name+"[") || n == v.Name {
				det = v.Deterministic
			}
		}
		q.Vars = append(q.Vars, Var{Name: n, Deterministic: det, Start: start})
		start++
	}
	q.Chains = make([]Chain, len(p.Chains))
	for c, ch := range p.Chains {
		q.Chains[c] = Chain{Stats: ch.Stats, Adaptation: ch.Adaptation, Values: make([][]float64, len(cols))}
		for i, j := range cols {
			q.Chains[c].Values[i] = ch.Values[j]
		}
	}
	return &q
}

// ByChain returns the draws of one scalar column, per chain (shared, not
// copied). It panics when the column does not exist.
func (p *Posterior) ByChain(column string) [][]float64 {
	j := p.Column(column)
	if j < 0 {
		panic(fmt.Errorf("posterior: no column %q: the columns are %s", column, p.columnHint()))
	}
	out := make([][]float64, len(p.Chains))
	for c := range p.Chains {
		out[c] = p.Chains[c].Values[j]
	}
	return out
}

// Flat returns the draws of one scalar column, chains concatenated.
func (p *Posterior) Flat(column string) []float64 {
	return diag.Flatten(p.ByChain(column))
}

func (p *Posterior) columnHint() string {
	if len(p.Columns) <= 12 {
		return strings.Join(p.Columns, ", ")
	}
	return strings.Join(p.Columns[:12], ", ") + ", …"
}
