package ir_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef"
)

// TestTermRows checks the generated row loops of every op in term form
// against themselves in the ways the skeletons call them: a broadcast
// argument (stride 0) gives the terms of the same value repeated in a
// vector; the sum is the sum of the pointwise terms; the partials from
// the lets Values kept are those computed again (vec passes no keep);
// a broadcast argument's adjoint is returned summed, a vector's added in
// place, and a partial not asked for is not touched.
func TestTermRows(t *testing.T) {
	const n = 16
	rng := rand.New(rand.NewPCG(23, 1))
	found := 0
	for op := ir.Op(0); op < ir.NumOps; op++ {
		term := ir.TermOf(op)
		if term == nil {
			continue
		}
		found++
		name := ir.Def(op).Name
		arity := ir.Def(op).Arity
		// Arguments in (0.05, 0.95) for the variate (inside every
		// tail's support, the unit interval's included) and (0.5, 3)
		// for the parameters, a bounded support's bounds around the
		// variate's range; the last argument is broadcast.
		bounded := strings.HasPrefix(supportOf(t, name), "Bounded")
		vecRows, bcRows := ir.TermRows{N: n}, ir.TermRows{N: n}
		for j := 0; j < arity; j++ {
			lo, hi := 0.5, 3.0
			switch {
			case j == 0:
				lo, hi = 0.05, 0.95
			case bounded && j == 1:
				lo, hi = -2, 0
			case bounded && j == 2:
				lo, hi = 1, 2
			}
			if j == arity-1 {
				v := lo + (hi-lo)*rng.Float64()
				bcRows.X[j], bcRows.S[j] = []float64{v}, 0
				vecRows.X[j], vecRows.S[j] = repeat(v, n), 1
				continue
			}
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = lo + (hi-lo)*rng.Float64()
			}
			vecRows.X[j], vecRows.S[j] = xs, 1
			bcRows.X[j], bcRows.S[j] = xs, 1
		}
		pwVec, pwBc := make([]float64, n), make([]float64, n)
		keep := make([]float64, n*term.Keep)
		if term.Keep == 0 {
			keep = nil
		}
		sum := term.Values(bcRows, keep, pwBc, false)
		term.Values(vecRows, nil, pwVec, false)
		want := 0.0
		valid := 0
		for i := range pwVec {
			if math.Float64bits(pwVec[i]) != math.Float64bits(pwBc[i]) {
				t.Errorf("%s: element %d: %v with the last argument broadcast, %v with it a vector", name, i, pwBc[i], pwVec[i])
			}
			if !math.IsInf(pwBc[i], -1) {
				valid++
			}
			want += pwBc[i]
		}
		if valid == 0 {
			t.Errorf("%s: no element inside the support: the test's ranges are wrong for it", name)
		}
		if math.Float64bits(sum) != math.Float64bits(want) {
			t.Errorf("%s: sum %v, the pointwise terms add to %v", name, sum, want)
		}
		added := term.Values(bcRows, nil, pwBc, true)
		for i := range pwBc {
			if pwBc[i] != 2*pwVec[i] && !math.IsInf(pwVec[i], -1) {
				t.Errorf("%s: element %d: added %v to itself, got %v", name, i, pwVec[i], pwBc[i])
			}
		}
		if math.Float64bits(added) != math.Float64bits(sum) {
			t.Errorf("%s: the sum changed with add: %v, %v", name, added, sum)
		}

		g := make([]float64, n)
		for i := range g {
			g[i] = 0.5 + rng.Float64()
		}
		all := uint(1)<<arity - 1
		grads := func(keep []float64, need uint) ([][]float64, ir.TermArgs) {
			var d ir.TermRows
			out := make([][]float64, arity)
			for j := 0; j < arity; j++ {
				out[j] = make([]float64, n)
				if j == arity-1 {
					out[j] = out[j][:1] // broadcast: returned summed
				} else {
					d.S[j] = 1
				}
				d.X[j] = out[j]
			}
			return out, term.Grads(bcRows, keep, need, g, 1, d)
		}
		withKeep, sumsKeep := grads(keep, all)
		again, sumsAgain := grads(nil, all)
		for j := 0; j < arity; j++ {
			for i := range withKeep[j] {
				if math.Float64bits(withKeep[j][i]) != math.Float64bits(again[j][i]) {
					t.Errorf("%s: ∂%d element %d: %v from the kept lets, %v computed again", name, j, i, withKeep[j][i], again[j][i])
				}
			}
			if math.Float64bits(sumsKeep[j]) != math.Float64bits(sumsAgain[j]) {
				t.Errorf("%s: ∂%d summed: %v from the kept lets, %v computed again", name, j, sumsKeep[j], sumsAgain[j])
			}
			if j < arity-1 && withKeep[arity-1][0] != 0 {
				t.Errorf("%s: the broadcast argument's partial was added in place (%v), not returned", name, withKeep[arity-1][0])
			}
		}
		// Each partial alone: the same values, and nothing else touched.
		for j := 0; j < arity-1; j++ {
			alone, _ := grads(keep, 1<<j)
			for k := 0; k < arity-1; k++ {
				for i := range alone[k] {
					w := 0.0
					if k == j {
						w = withKeep[k][i]
					}
					if math.Float64bits(alone[k][i]) != math.Float64bits(w) {
						t.Errorf("%s: asking for ∂%d only: ∂%d element %d is %v, want %v", name, j, k, i, alone[k][i], w)
					}
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no op in term form")
	}
}

// supportOf is the variate's support of the op named name.
func supportOf(t *testing.T, name string) string {
	for _, d := range opdef.Ops() {
		if d.Name == name {
			return d.Support
		}
	}
	t.Fatalf("%s: not an accel/opdef op", name)
	return ""
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}
