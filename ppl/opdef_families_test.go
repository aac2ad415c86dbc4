package ppl_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/opdef"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// TestGeneratedFamiliesRecoverParameters samples the two families defined
// only in accel/opdef end to end (model building, compile, NUTS) on data
// simulated from known parameters, and checks the posterior means against
// them: the zero-inflated Poisson's ψ and λ, and the beta-binomial's mean
// α/(α+β), which its data pin down well.
func TestGeneratedFamiliesRecoverParameters(t *testing.T) {
	if testing.Short() {
		t.Skip("samples two models")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	const psi, lambda = 0.3, 4.0 // psi: the Poisson's weight, as in PyMC
	zip := make([]float64, 2000)
	for i := range zip {
		if rng.Float64() < psi {
			zip[i] = distuv.Poisson{Lambda: lambda, Src: rng}.Rand()
		}
	}
	m := ppl.NewModel("zip")
	p := m.Beta("psi", 1, 1)
	l := m.Gamma("lambda", 2, 0.5)
	m.ZeroInflatedPoisson("y", p, l, ppl.Observed(zip))
	fit := m.Sample(ppl.Seed(1), ppl.LiveProgress(false))
	checkMeans(t, "zero-inflated Poisson", fit, []simulated{{"psi", psi, 0.04}, {"lambda", lambda, 0.2}})

	const a, b, trials = 2.0, 6.0, 20.0
	ys, ns := make([]float64, 400), make([]float64, 400)
	for i := range ys {
		q := distuv.Beta{Alpha: a, Beta: b, Src: rng}.Rand()
		ns[i] = trials
		ys[i] = distuv.Binomial{N: trials, P: q, Src: rng}.Rand()
	}
	m = ppl.NewModel("betabinomial")
	al := m.Gamma("alpha", 2, 0.5)
	be := m.Gamma("beta", 2, 0.5)
	m.BetaBinomial("y", ns, al, be, ppl.Observed(ys))
	fit = m.Sample(ppl.Seed(2), ppl.LiveProgress(false))
	ma, mb := fit.Summary("alpha").Rows[0].Mean, fit.Summary("beta").Rows[0].Mean
	if got, want := ma/(ma+mb), a/(a+b); math.Abs(got-want) > 0.03 {
		t.Errorf("beta-binomial: posterior α/(α+β) %.3f, simulated with %.3f", got, want)
	}
	if fit.Divergences() > 0 {
		t.Errorf("beta-binomial: %d divergences", fit.Divergences())
	}

	// The zero-inflated negative binomial and the hurdle Poisson, on data
	// drawn by their own definitions' samplers (whose moments
	// ppl/dist's tests check).
	draw := func(d *opdef.Dist, params ...float64) []float64 {
		out := make([]float64, 2000)
		for i := range out {
			out[i] = d.Draw(rng, params)
		}
		return out
	}
	m = ppl.NewModel("zinb")
	m.ZeroInflatedNegBinomial("y", m.Beta("psi", 1, 1), m.Gamma("mu", 2, 0.5), m.Gamma("phi", 2, 0.5),
		ppl.Observed(draw(opdef.ZeroInflatedNegBinomial, 0.25, 3, 2)))
	fit = m.Sample(ppl.Seed(3), ppl.LiveProgress(false))
	checkMeans(t, "zero-inflated negative binomial", fit, []simulated{{"psi", 0.25, 0.06}, {"mu", 3, 0.3}})
	m = ppl.NewModel("hurdle")
	m.HurdlePoisson("y", m.Beta("psi", 1, 1), m.Gamma("lambda", 2, 0.5), ppl.Observed(draw(opdef.HurdlePoisson, 0.6, 2.5)))
	fit = m.Sample(ppl.Seed(4), ppl.LiveProgress(false))
	checkMeans(t, "hurdle Poisson", fit, []simulated{{"psi", 0.6, 0.04}, {"lambda", 2.5, 0.2}})
}

// simulated is a parameter's simulated value and the distance its
// posterior mean may be from it.
type simulated struct {
	name      string
	want, tol float64
}

// checkMeans compares fit's posterior means with the simulated values.
func checkMeans(t *testing.T, family string, fit *posterior.Posterior, params []simulated) {
	t.Helper()
	for _, c := range params {
		if got := fit.Summary(c.name).Rows[0].Mean; math.Abs(got-c.want) > c.tol {
			t.Errorf("%s: %s posterior mean %.3f, simulated with %.3f", family, c.name, got, c.want)
		}
	}
}
