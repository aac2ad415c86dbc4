package ppl

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/ppl/dist"
)

// paramFor is a valid parameter value for a support (and the family's
// bounds: Uniform's lower and upper).
func paramFor(fam *dist.Family, i int) any {
	switch fam.Name {
	case "Dirichlet":
		return []float64{1, 2, 3}
	case "MultiNormalChol":
		if i == 0 {
			return []float64{0.5, -0.5}
		}
		return [][]float64{{1, 0}, {0.5, 1}}
	case "CategoricalLogit":
		return []float64{0.1, 0.2, -0.3}
	case "Uniform":
		return []float64{-1, 2}[i]
	}
	switch fam.ParamSupport[i].Kind {
	case dist.Positive:
		return 1.5
	case dist.UnitInterval:
		return 0.3
	case dist.NonNegInt:
		return 10
	}
	return 0.5
}

// TestEveryFamily compiles every family of package dist through its Model
// method: continuous families as parameters (the bijector chosen from the
// support, the gradient checked at random points, the values inside the
// support), discrete ones observed at draws of their own sampler.
func TestEveryFamily(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, fam := range dist.Families() {
		t.Run(fam.Name, func(t *testing.T) {
			params := make([]any, len(fam.Params))
			for i := range params {
				params[i] = paramFor(fam, i)
			}
			m := NewModel(fam.Name)
			var opts []Option
			switch {
			case fam.Name == "LKJCorrChol":
				opts = append(opts, Shape(3, 3))
			case fam.EventRank == 0 && !fam.Discrete:
				opts = append(opts, Size(3))
			case fam.Discrete:
				// A latent vector: of a finite family it is enumerated
				// (enumerate.go), of any other refused.
				opts = append(opts, Size(3))
			}
			v := m.Var("v", fam, params, opts...)
			if fam.Discrete {
				c, err := m.Compile()
				if k, _ := enumSupport(&v.v); k == 0 && err == nil {
					t.Fatalf("a latent vector of %s compiled; want an error", fam.Name)
				} else if k > 0 {
					if err != nil {
						t.Fatalf("a latent vector of %s, enumerated: %v", fam.Name, err)
					}
					// Nothing uses it: its posterior is its prior, rows
					// summing to one.
					vals, err := c.Constrain(nil)
					if err != nil {
						t.Fatal(err)
					}
					p := vals["v_probs"]
					for i := range 3 {
						s := 0.0
						for _, x := range p[i*k : (i+1)*k] {
							s += x
						}
						if len(p) != 3*k || math.Abs(s-1) > 1e-12 {
							t.Fatalf("v_probs %v: want 3 rows of %d summing to one", p, k)
						}
					}
				}
				// Draw data from the family itself, then observe it.
				m = NewModel(fam.Name)
				n := 5
				data := make([]float64, n)
				ps := make([][]float64, len(params))
				for i, p := range params {
					nd, _ := asNode(p)
					ps[i] = nd.Data
				}
				fam.Sample(rng, ps, data)
				m.Var("v", fam, params, Observed(data))
			}
			c, err := m.Compile()
			if err != nil {
				t.Fatal(err)
			}
			if fam.Discrete || c.Dim() == 0 {
				if lp := c.LogDensity(nil); math.IsInf(lp, 0) || math.IsNaN(lp) {
					t.Errorf("log density of observed draws = %v", lp)
				}
				return
			}
			x := make([]float64, c.Dim())
			for range 3 {
				for i := range x {
					x[i] = 2*rng.Float64() - 1
				}
				irtest.CheckGradient(t, c.Program(), x, 1e-6)
				v, err := c.Constrain(x)
				if err != nil {
					t.Fatal(err)
				}
				vals := v["v"]
				var msg string
				switch fam.Support.Kind {
				case dist.Positive:
					msg = checkSupport(vals, dist.Positive, 0, 0)
				case dist.UnitInterval:
					msg = checkSupport(vals, dist.UnitInterval, 0, 1)
				case dist.Bounded:
					msg = checkSupport(vals, dist.Bounded, -1, 2)
				case dist.Simplex:
					msg = checkSupport(vals, dist.Simplex, 0, 1)
				}
				if msg != "" {
					t.Errorf("constrained value %v %s", vals, msg)
				}
			}
		})
	}
}

func TestMultiNormalCov(t *testing.T) {
	cov := [][]float64{{4, 1.2}, {1.2, 1}}
	mu := []float64{1, -1}
	x := []float64{0.5, 0.3}
	// The bivariate normal log density by hand.
	det := 4*1 - 1.2*1.2
	d0, d1 := x[0]-mu[0], x[1]-mu[1]
	quad := (1*d0*d0 - 2*1.2*d0*d1 + 4*d1*d1) / det
	want := -math.Log(2*math.Pi) - 0.5*math.Log(det) - 0.5*quad
	for _, asData := range []bool{true, false} {
		m := NewModel("mvn")
		var c any = cov
		if !asData {
			s := m.HalfNormal("s", 1) // cov built from a parameter: s·cov, s fixed below
			c = Mul(s, Reshape(Concat(cov[0], cov[1]), 2, 2))
		}
		m.MultiNormal("x", mu, c, Observed(x))
		cm, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		var q []float64
		var extra float64
		if !asData {
			q = []float64{0}                             // log s = 0: s = 1
			extra = math.Log(math.Sqrt(2/math.Pi)) - 0.5 // HalfNormal(1) at 1, plus the log-transform's Jacobian log s = 0
		}
		if got := cm.LogDensity(q); math.Abs(got-(want+extra)) > 1e-10 {
			t.Errorf("cov as data %v: log density %v; want %v", asData, got, want+extra)
		}
	}
	for _, c := range []struct {
		cov  any
		want string
	}{
		{[][]float64{{1, 0.5}, {0.4, 1}}, "not symmetric"},
		{[][]float64{{1, 2}, {2, 1}}, "not positive definite"},
		{[]float64{1, 2}, "square matrix"},
	} {
		err := catch(func() { NewModel("bad").MultiNormal("x", mu, c.cov, Observed(x)) })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("cov %v: err %v; want %q", c.cov, err, c.want)
		}
	}
}
