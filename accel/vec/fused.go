package vec

import (
	"math"

	"github.com/gobayes/gobayes/accel/ir"
)

// mixture is a fused forward kernel for the log density of a finite
// normal mixture of one per-chain scalar y,
//
//	log_sum_exp(normal_lpdf(y | μ, σ) pointwise [+ log w]),
//
// with μ, σ and log w data: one pass computes every component's term
// c_k − h_k(y−μ_k)², c_k = log w_k − log σ_k − log √(2π), h_k = 1/(2σ_k²),
// straight into the log-sum-exp's scratch, skipping the intermediate
// values. Gradients run the instructions unfused (their reverse sweeps
// need those values).
type mixture struct {
	y       operand
	c, h, m []float64
	// par is (c_k − shift, h_k, m_k) per component, shift the largest c_k.
	par   []float64
	shift float64
}

// dataflow indexes p for the fusion passes: the instruction producing
// each value, and how many times each value is read (by instructions, as
// an output of the program, or as its target).
func dataflow(p *ir.Program) (producer, uses map[ir.ID]int) {
	producer = map[ir.ID]int{}
	uses = map[ir.ID]int{}
	for k, in := range p.Instrs {
		producer[in.Out] = k
		for _, a := range in.In {
			uses[a]++
		}
	}
	for _, o := range p.Outputs {
		uses[o.ID]++
	}
	uses[p.Target]++
	return producer, uses
}

// fuseMixtures finds the pattern in p and marks its instructions: the
// normal and the add are skipped in forward-only evaluation and the
// log-sum-exp runs the fused kernel.
func (b *Batch) fuseMixtures() {
	p := b.P
	producer, uses := dataflow(p)
	private := func(id ir.ID) bool {
		if uses[id] != 1 {
			return false
		}
		v := p.Values[id]
		for j, w := range p.Values {
			if ir.ID(j) != id && w.Len > 0 && w.Off < v.Off+v.Len && v.Off < w.Off+w.Len {
				return false // another value views these slots
			}
		}
		return true
	}
	for k := range p.Instrs {
		lse := &p.Instrs[k]
		if b.plan[k].k != kLogSumExp || !private(lse.In[0]) {
			continue
		}
		x := lse.In[0]
		n := p.Values[x].Len
		pk, ok := producer[x]
		if !ok {
			continue
		}
		var logW []float64
		normalAt, addAt := pk, -1
		if in := &p.Instrs[pk]; in.Op == ir.OpAdd && b.plan[pk].k == kBinary {
			a, w := in.In[0], in.In[1]
			if b.loc[a].per && !b.loc[w].per {
				// normal + log w
			} else if b.loc[w].per && !b.loc[a].per {
				a, w = w, a
			} else {
				continue
			}
			if !private(a) || p.Values[a].Len != n {
				continue
			}
			lw := b.loc[w]
			logW = make([]float64, n)
			for i := range logW {
				if lw.n == 1 {
					logW[i] = b.V[lw.off]
				} else {
					logW[i] = b.V[lw.off+i]
				}
			}
			normalAt, addAt = producer[a], pk
			if _, ok := producer[a]; !ok {
				continue
			}
		}
		nm := &p.Instrs[normalAt]
		if nm.Op != ir.OpNormalLPDF || len(nm.Ints) == 0 || nm.Ints[0] != 1 || p.Values[nm.Out].Len != n {
			continue
		}
		y, mu, sg := b.loc[nm.In[0]], b.loc[nm.In[1]], b.loc[nm.In[2]]
		if !y.per || y.n != 1 || mu.per || sg.per {
			continue
		}
		f := &mixture{y: y, c: make([]float64, n), h: make([]float64, n), m: make([]float64, n)}
		good := true
		for i := 0; i < n; i++ {
			mi, si := b.V[mu.off], b.V[sg.off]
			if mu.n > 1 {
				mi = b.V[mu.off+i]
			}
			if sg.n > 1 {
				si = b.V[sg.off+i]
			}
			if !(si > 0) || math.IsInf(si, 0) || math.IsInf(mi, 0) || math.IsNaN(mi) {
				good = false
				break
			}
			f.c[i], f.h[i], f.m[i] = -math.Log(si)-lnSqrt2Pi, 0.5/(si*si), mi
			if logW != nil {
				f.c[i] += logW[i]
			}
		}
		if !good {
			continue
		}
		f.shift = math.Inf(-1)
		for _, c := range f.c {
			f.shift = max(f.shift, c)
		}
		for i := range f.c {
			f.par = append(f.par, f.c[i]-f.shift, f.h[i], f.m[i])
		}
		b.plan[k].mix = f
		b.plan[normalAt].fused = true
		if addAt >= 0 {
			b.plan[addAt].fused = true
		}
	}
}

// mixtureForward is the fused kernel of the log-sum-exp instruction in.
// Every term is at most c_k, so exp(term − max c) never overflows: one
// pass (mixSum) sums the shifted terms' exponentials, one vector log
// follows. A chain whose sum underflows (y hundreds of scales from every
// component), or whose y is not finite, is redone with the maximum
// subtracted, as log_sum_exp does.
func (b *Batch) mixtureForward(in *ir.Instr, f *mixture) {
	v, o := b.V, b.loc[in.Out]
	nb := b.B
	out := v[o.off : o.off+nb]
	ys := v[f.y.off : f.y.off+nb]
	sum := b.tmp[:nb]
	mixSum(sum, ys, f.par)
	// A sum below 2^-900 (or NaN) has lost digits or means a y that is not
	// finite; its logarithm, whatever the kernel gives for it, is below
	// −623 or NaN, which is how those chains are found again below.
	logInRange(sum, sum)
	redo := false
	out = out[:len(sum)]
	for c, t := range sum {
		redo = redo || !(t > -900*math.Ln2)
		out[c] = f.shift + t
	}
	if !redo {
		return
	}
	for c, y := range ys {
		if s := sum[c]; s > -900*math.Ln2 && !math.IsNaN(y) && !math.IsInf(y, 0) {
			continue
		}
		out[c] = f.exact(y)
	}
}

// mixSum writes, for each y of ys, Σ_k exp(max(c_k − h_k·(y − m_k)², −708))
// with par holding (c_k, h_k, m_k) per component: four chains at a time in
// assembly on amd64, the rest one at a time by ExpScalar.
func mixSum(dst, ys, par []float64) {
	dst = dst[:len(ys)]
	start := 0
	if useAVX2 {
		mixSumAVX2(dst, ys, par)
		start = len(ys) &^ 3
	}
	for c := start; c < len(ys); c++ {
		y, s := ys[c], 0.0
		for k := 0; k+2 < len(par); k += 3 {
			d := y - par[k+2]
			a := math.FMA(-par[k+1], d*d, par[k]) // as the kernel rounds it
			if !(a > -708) {
				a = -708
			}
			s += ExpScalar(a)
		}
		dst[c] = s
	}
}

// exact is one chain's mixture log density with the maximum subtracted.
func (f *mixture) exact(y float64) float64 {
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return math.Inf(-1)
	}
	m := math.Inf(-1)
	for i := range f.c {
		d := y - f.m[i]
		m = max(m, f.c[i]-f.h[i]*d*d)
	}
	s := 0.0
	for i := range f.c {
		d := y - f.m[i]
		s += ir.Exp(f.c[i] - f.h[i]*d*d - m)
	}
	return m + math.Log(s)
}

// skipLoneSum lets Forward read LP straight from the one term of a target
// that is a sum of one per-chain scalar (a model whose whole density is
// one term, as a mixture's log-sum-exp), skipping the copy.
func (b *Batch) skipLoneSum() {
	p := b.P
	if p.Target == ir.None {
		return
	}
	for k := range p.Instrs {
		in := &p.Instrs[k]
		if in.Out != p.Target {
			continue
		}
		if b.plan[k].k != kAddN || len(in.In) != 1 {
			return
		}
		src := b.loc[in.In[0]]
		if !src.per || src.n != 1 {
			return
		}
		for _, o := range p.Outputs {
			if o.ID == p.Target {
				return // a deterministic output reads the sum
			}
		}
		for j := range p.Instrs {
			for _, a := range p.Instrs[j].In {
				if a == p.Target {
					return
				}
			}
		}
		b.plan[k].fused = true
		b.lpFrom = in.In[0]
		return
	}
}

// densityForm finds programs whose whole log density is one fused
// mixture of the position itself (one dimension, nothing else evaluated
// per chain): for them ForwardDensity gives the mixture's sum without
// its logarithm.
func (b *Batch) densityForm() {
	p := b.P
	if p.Dim != 1 {
		return
	}
	var found *mixture
	for k := range p.Instrs {
		st := &b.plan[k]
		switch {
		case st.mix != nil && found == nil && p.Instrs[k].Out == b.lpFrom:
			found = st.mix
		case st.k == kSkip || st.fused:
		default:
			return
		}
	}
	if found != nil && found.y.per && found.y.off == 0 && found.y.n == 1 {
		b.density = found
	}
}

// DensityForm reports whether ForwardDensity applies: the log density is
// shift + log s(y) for the one-dimensional position y, with s a sum of
// exponentials that never overflows (a normal mixture of y).
func (b *Batch) DensityForm() bool { return b.density != nil }

// ForwardDensity writes s(y) for each chain into dens (length B), where
// the log density is shift + log s(y): a Metropolis ratio is then s'/s
// with no logarithm or exponential. LP is left as it was. Only for a
// program with DensityForm.
func (b *Batch) ForwardDensity(dens []float64) {
	mixSum(dens[:b.B], b.V[:b.B], b.density.par)
}

// DensityFloor is the constant DensityFloor (accel.DensityBatch).
func (b *Batch) DensityFloor() float64 { return DensityFloor }

// DensityFloor is the least s for which LogFromDensity takes shift + log s:
// below it (or for a y that is not finite) the sum has lost digits.
const DensityFloor = 0x1p-900

// LogFromDensity is the log density at y of a program with DensityForm,
// given s = s(y) from ForwardDensity: shift + log s, or, where s is below
// DensityFloor or not finite, the log-sum-exp with the maximum subtracted.
func (b *Batch) LogFromDensity(s, y float64) float64 {
	f := b.density
	if s >= DensityFloor && s <= math.MaxFloat64 && !math.IsNaN(y) && !math.IsInf(y, 0) {
		return f.shift + LogScalar(s)
	}
	return f.exact(y)
}
