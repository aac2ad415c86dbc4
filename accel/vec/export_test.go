package vec

import "github.com/gobayes/gobayes/accel/ir"

// FallbackOps lists the instructions of b that run per chain through
// package ir (op names, in program order).
func FallbackOps(b *Batch) []string {
	var ops []string
	for k := range b.P.Instrs {
		if b.plan[k].k == kFallback {
			ops = append(ops, b.P.Instrs[k].Op.String())
		}
	}
	return ops
}

// LinearNormals counts the regression likelihoods fused into
// linearNormal kernels.
func LinearNormals(b *Batch) int {
	n := 0
	for _, st := range b.plan {
		if st.lin != nil {
			n++
		}
	}
	return n
}

// AffineNormals counts the likelihoods fused into affineNormal kernels.
func AffineNormals(b *Batch) int {
	n := 0
	for _, st := range b.plan {
		if st.aff != nil {
			n++
		}
	}
	return n
}

// ValueOf is chain c's value id.
func ValueOf(b *Batch, id ir.ID, c int) []float64 {
	l := b.loc[id]
	out := make([]float64, l.n)
	for i := range out {
		out[i] = b.V[l.off+i*l.es+c*l.cs]
	}
	return out
}
