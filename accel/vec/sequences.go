package vec

import "github.com/gobayes/gobayes/accel/ir"

// Lockstep kernels of the structure ops that time-series models are made
// of, with package ir's semantics: linear_recurrence
// (x_t = a_t + b_t·x_{t−1}, x_{−1} = x0), concat and slice. Each row of
// the output is one element for every chain.

// rowAt is element i of x for every chain: x's own slots when x is per
// chain, else dst filled with the shared value (no memo, for loops that
// do not run from i = 0 up).
func (b *Batch) rowAt(x operand, i int, dst []float64) []float64 {
	o := x.off + i*x.es
	if x.cs == 1 {
		return b.V[o : o+b.B]
	}
	xv := b.V[o]
	for c := range dst {
		dst[c] = xv
	}
	return dst
}

func (b *Batch) recurrenceForward(in *ir.Instr) {
	v, o, nb := b.V, b.loc[in.Out], b.B
	x0, a, bb := b.elem(in.In[0]), b.elem(in.In[1]), b.elem(in.In[2])
	prev := b.rowAt(x0, 0, b.rows[4])
	for t := 0; t < o.n; t++ {
		out := v[o.off+t*nb : o.off+(t+1)*nb]
		as, bs := b.row(a, t, b.rows[2]), b.row(bb, t, b.rows[3])
		as, bs, prev = as[:len(out)], bs[:len(out)], prev[:len(out)]
		for c := range out {
			out[c] = as[c] + bs[c]*prev[c]
		}
		prev = out
	}
}

// recurrenceBackward carries each chain's adjoint of x_t back through the
// steps, as ir does: k = c + g_t, ∂a_t += k, ∂b_t += k·x_{t−1}, c ← k·b_t.
func (b *Batch) recurrenceBackward(in *ir.Instr) {
	v, a, o, nb := b.V, b.Adj, b.loc[in.Out], b.B
	x0, ac, bb := b.elem(in.In[0]), b.elem(in.In[1]), b.elem(in.In[2])
	carry := b.rows[0]
	clear(carry)
	for t := o.n - 1; t >= 0; t-- {
		g := a[o.off+t*nb : o.off+(t+1)*nb]
		ga, gb := b.adjRow(ac, t, true), b.adjRow(bb, t, true)
		bs := b.rowAt(bb, t, b.rows[3])
		var prev []float64
		if t > 0 {
			prev = v[o.off+(t-1)*nb : o.off+t*nb]
		} else {
			prev = b.rowAt(x0, 0, b.rows[4])
		}
		ga, gb, bs, prev, carry := ga[:len(g)], gb[:len(g)], bs[:len(g)], prev[:len(g)], carry[:len(g)]
		for c, gc := range g {
			k := carry[c] + gc
			ga[c] += k
			gb[c] += k * prev[c]
			carry[c] = k * bs[c]
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
