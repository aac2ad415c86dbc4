package ppl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/gobayes/gobayes/accel/ir"
)

// checkProbSums says, once at the start of a run, which Categorical
// variables given probabilities by an expression have rows that do not
// sum to 1 (Concat(w, w, 0.5) sums to 2w + 0.5): the log density divides
// them by their sum, which is seldom what the model's author meant. It
// looks at a few starting points like the run's (uniform in (-2, 2) on
// the unconstrained scale); a model it cannot evaluate there is left to
// the run to report.
func (c *Compiled) checkProbSums(seed uint64) {
	m := c.m
	if len(m.probs) == 0 {
		return
	}
	var at []int
	for i, r := range m.g.RVs {
		if ln, ok := m.probs[r]; ok && r.Params[0] == ln {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return
	}
	pr, err := c.predictiveProgram()
	if err != nil {
		return
	}
	rng := rand.New(rand.NewPCG(seed, 0x5a3e))
	f := ir.NewFrame(pr.Program)
	x := make([]float64, c.Dim())
	flat := make([]float64, c.varLen)
	d := c.pool.Get().(*Density)
	defer c.pool.Put(d)
	off := map[int]float64{} // variable index → the first sum found off 1
	for range 3 {
		for k := range x {
			x[k] = 4*rng.Float64() - 2
		}
		d.Constrained(x, flat)
		if c.fill(pr, f.V, flat) != nil {
			return
		}
		f.Forward(f.V[:pr.Dim])
		for _, i := range at {
			if _, seen := off[i]; seen {
				continue
			}
			p := m.g.RVs[i].Params[0]
			k := 1
			if len(p.Dims) > 0 {
				k = p.Dims[len(p.Dims)-1]
			}
			logits := f.Val(pr.Params[i][0])
			for row := 0; row+k <= len(logits); row += k {
				sum := 0.0
				for _, l := range logits[row : row+k] {
					sum += math.Exp(l)
				}
				if math.Abs(sum-1) > 1e-6 && !math.IsNaN(sum) {
					off[i] = sum
					break
				}
			}
		}
	}
	if len(off) == 0 {
		return
	}
	var parts []string
	for _, i := range at {
		if sum, ok := off[i]; ok {
			r := m.g.RVs[i]
			parts = append(parts, fmt.Sprintf("%s: the Categorical probabilities %s sum to %.4g, not 1, at a starting point of the run", r.Name, formula(r.Params[0].Args[0], 3), sum))
		}
	}
	c.m.session().notice(strings.Join(parts, "; ") + ". They are divided by their sum; give a simplex (a Dirichlet variable, Softmax(…)) or pass logits to CategoricalLogit to mean that.")
}
