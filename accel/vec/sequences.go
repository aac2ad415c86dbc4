package vec

import "github.com/gobayes/gobayes/accel/ir"

// Lockstep kernels of the structure ops that time-series models are made
// of, with package ir's semantics: linear_recurrence
// (x_t = a_t + b_t·x_{t−1}, x_{−1} = x0), concat and slice. Each row of
// the output is one element for every chain.

// at is element i of chain c of operand x (x broadcast when a scalar).
func (b *Batch) at(x operand, i, c int) float64 { return b.V[x.off+i*x.es+c*x.cs] }

func (b *Batch) recurrenceForward(in *ir.Instr) {
	v, o, nb := b.V, b.loc[in.Out], b.B
	x0, a, bb := b.elem(in.In[0]), b.elem(in.In[1]), b.elem(in.In[2])
	for t := 0; t < o.n; t++ {
		out := v[o.off+t*nb : o.off+(t+1)*nb]
		for c := range out {
			prev := b.at(x0, 0, c)
			if t > 0 {
				prev = v[o.off+(t-1)*nb+c]
			}
			out[c] = b.at(a, t, c) + b.at(bb, t, c)*prev
		}
	}
}

// recurrenceBackward carries each chain's adjoint of x_t back through the
// steps, as ir does: c ← (c + g_t)·b_t.
func (b *Batch) recurrenceBackward(in *ir.Instr) {
	v, a, o, nb := b.V, b.Adj, b.loc[in.Out], b.B
	x0, ac, bb := b.elem(in.In[0]), b.elem(in.In[1]), b.elem(in.In[2])
	carry := b.rows[0]
	clear(carry)
	for t := o.n - 1; t >= 0; t-- {
		g := a[o.off+t*nb : o.off+(t+1)*nb]
		ga, gb := b.adjRow(ac, t, true), b.adjRow(bb, t, true)
		for c, gc := range g {
			k := carry[c] + gc
			ga[c] += k
			prev := b.at(x0, 0, c)
			if t > 0 {
				prev = v[o.off+(t-1)*nb+c]
			}
			gb[c] += k * prev
			carry[c] = k * b.at(bb, t, c)
		}
	}
	g0 := b.adjRow(x0, 0, true)
	for c, k := range carry {
		g0[c] += k
	}
}

// concatForward copies each input's rows (or a shared input's values to
// every chain) into the output's rows, one after another.
func (b *Batch) concatForward(in *ir.Instr) {
	v, o, nb := b.V, b.loc[in.Out], b.B
	row := 0
	for _, id := range in.In {
		x := b.loc[id]
		for j := 0; j < x.n; j, row = j+1, row+1 {
			out := v[o.off+row*nb : o.off+(row+1)*nb]
			if x.cs == 0 {
				xv := v[x.off+j]
				for c := range out {
					out[c] = xv
				}
				continue
			}
			copy(out, v[x.off+j*nb:x.off+(j+1)*nb])
		}
	}
}

func (b *Batch) concatBackward(in *ir.Instr) {
	a, o, nb := b.Adj, b.loc[in.Out], b.B
	row := 0
	for _, id := range in.In {
		x := b.loc[id]
		if !x.grad {
			row += x.n
			continue
		}
		for j := 0; j < x.n; j, row = j+1, row+1 {
			g, gx := a[o.off+row*nb:o.off+(row+1)*nb], a[x.off+j*nb:x.off+(j+1)*nb]
			gx = gx[:len(g)]
			for c, gc := range g {
				gx[c] += gc
			}
		}
	}
}

// sliceForward is x[start : start+length] (Ints), x per chain.
func (b *Batch) sliceForward(in *ir.Instr) {
	v, o, x, nb := b.V, b.loc[in.Out], b.loc[in.In[0]], b.B
	start := in.Ints[0]
	copy(v[o.off:o.off+o.n*nb], v[x.off+start*nb:x.off+(start+o.n)*nb])
}

func (b *Batch) sliceBackward(in *ir.Instr) {
	a, o, x, nb := b.Adj, b.loc[in.Out], b.loc[in.In[0]], b.B
	if !x.grad {
		return
	}
	start := in.Ints[0]
	g, gx := a[o.off:o.off+o.n*nb], a[x.off+start*nb:x.off+(start+o.n)*nb]
	gx = gx[:len(g)]
	for i, gi := range g {
		gx[i] += gi
	}
}
