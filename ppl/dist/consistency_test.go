package dist_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/dist"
)

// TestDrawsInSupport checks that a family's sampler, its declared support
// and its op agree: 500 draws lie in the support, and the op gives every
// draw a finite log density (pointwise mode).
func TestDrawsInSupport(t *testing.T) {
	const n = 500
	l := []float64{1.5, 0, 0, -0.5, 0.8, 0, 0.3, 0.2, 0.6}
	cases := []struct {
		f      *dist.Family
		params [][]float64
		shapes [][]int // of the parameters; nil: scalars
		event  []int   // shape of one event; nil: scalar
	}{
		{f: dist.Normal, params: [][]float64{{1}, {2}}},
		{f: dist.HalfNormal, params: [][]float64{{2}}},
		{f: dist.StudentT, params: [][]float64{{3}, {1}, {2}}},
		{f: dist.HalfStudentT, params: [][]float64{{3}, {2}}},
		{f: dist.Cauchy, params: [][]float64{{1}, {2}}},
		{f: dist.HalfCauchy, params: [][]float64{{2}}},
		{f: dist.Laplace, params: [][]float64{{1}, {2}}},
		{f: dist.Logistic, params: [][]float64{{1}, {2}}},
		{f: dist.LogNormal, params: [][]float64{{0.5}, {1}}},
		{f: dist.Exponential, params: [][]float64{{2}}},
		{f: dist.Gamma, params: [][]float64{{0.5}, {2}}},
		{f: dist.InverseGamma, params: [][]float64{{3}, {2}}},
		{f: dist.Weibull, params: [][]float64{{1.5}, {2}}},
		{f: dist.Beta, params: [][]float64{{0.8}, {3}}},
		{f: dist.Uniform, params: [][]float64{{-1}, {2}}},
		{f: dist.Bernoulli, params: [][]float64{{0.3}}},
		{f: dist.BernoulliLogit, params: [][]float64{{0.5}}},
		{f: dist.Binomial, params: [][]float64{{8}, {0.4}}},
		{f: dist.BinomialLogit, params: [][]float64{{8}, {-0.5}}},
		{f: dist.Poisson, params: [][]float64{{3}}},
		{f: dist.PoissonLog, params: [][]float64{{1}}},
		{f: dist.NegativeBinomial, params: [][]float64{{3}, {1.5}}},
		{f: dist.CategoricalLogit, params: [][]float64{{0.1, 1, -1}}, shapes: [][]int{{3}}},
		{f: dist.Dirichlet, params: [][]float64{{0.5, 1, 3}}, shapes: [][]int{{3}}, event: []int{3}},
		{f: dist.MultiNormalChol, params: [][]float64{{1, 2, 3}, l}, shapes: [][]int{{3}, {3, 3}}, event: []int{3}},
		{f: dist.LKJCorrChol, params: [][]float64{{2}}, event: []int{4, 4}},
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for _, c := range cases {
		t.Run(c.f.Name, func(t *testing.T) {
			ev := ir.ShapeLen(c.event)
			draws := make([]float64, n*ev)
			if c.f.EventRank == 2 {
				// LKJ writes one factor per call.
				for i := range n {
					c.f.Sample(rng, c.params, draws[i*ev:(i+1)*ev])
				}
			} else {
				c.f.Sample(rng, c.params, draws)
			}
			for i := range n {
				if msg := outsideSupport(c.f, c.params, draws[i*ev:(i+1)*ev], c.event); msg != "" {
					t.Fatalf("draw %v: %s", draws[i*ev:(i+1)*ev], msg)
				}
			}
			b := ir.NewBuilder(0)
			var y ir.ID
			switch {
			case c.f.EventRank == 2:
				y = b.Const(draws[:ev], c.event) // the op takes one factor
			case ev > 1:
				y = b.Const(draws, []int{n, ev})
			default:
				y = b.Const(draws, []int{n})
			}
			in := []ir.ID{y}
			for j, p := range c.params {
				var shape []int
				if c.shapes != nil {
					shape = c.shapes[j]
				}
				in = append(in, b.Const(p, shape))
			}
			out, err := b.Emit(c.f.Op, in, []int{1}, -1)
			if err != nil {
				t.Fatal(err)
			}
			b.AddOutput("lp", out)
			p, err := b.Finalize(ir.None)
			if err != nil {
				t.Fatal(err)
			}
			fr := ir.NewFrame(p)
			fr.Forward(nil)
			for i, v := range fr.Val(p.Output("lp")) {
				if math.IsInf(v, 0) || math.IsNaN(v) {
					t.Errorf("log density of draw %d is %v", i, v)
				}
			}
		})
	}
}

// outsideSupport says why x (one event) is outside f's support, or "".
func outsideSupport(f *dist.Family, params [][]float64, x []float64, event []int) string {
	s := f.Support
	for _, v := range x {
		switch s.Kind {
		case dist.Positive:
			if !(v > 0) {
				return "not positive"
			}
		case dist.UnitInterval:
			if !(v > 0 && v < 1) {
				return "not in (0, 1)"
			}
		case dist.Bounded:
			if !(v >= params[s.Lower][0] && v <= params[s.Upper][0]) {
				return "outside the bounds"
			}
		case dist.Binary:
			if v != 0 && v != 1 {
				return "not 0 or 1"
			}
		case dist.NonNegInt, dist.BoundedInt:
			if v < 0 || v != math.Trunc(v) {
				return "not a count"
			}
			if s.Kind == dist.BoundedInt && v > params[s.Upper][0] {
				return "above its bound"
			}
		case dist.Real, dist.Simplex, dist.CholeskyCorr:
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return "not finite"
			}
		}
	}
	switch s.Kind {
	case dist.Simplex:
		sum := 0.0
		for _, v := range x {
			if !(v > 0) {
				return "a simplex entry is not positive"
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-12 {
			return "does not sum to one"
		}
	case dist.CholeskyCorr:
		k := event[0]
		for r := range k {
			norm := 0.0
			for c := range k {
				v := x[r*k+c]
				if c > r && v != 0 {
					return "not lower triangular"
				}
				norm += v * v
			}
			if math.Abs(norm-1) > 1e-12 || !(x[r*k+r] > 0) {
				return "a row is not a unit vector with a positive diagonal"
			}
		}
	}
	if f.Op == ir.OpCategoricalLogitLPMF && x[0] >= float64(len(params[0])) {
		return "category out of range"
	}
	return ""
}
