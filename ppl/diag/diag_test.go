package diag

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// Fixed arrays; the oracle values below come from testdata/arviz_oracle.py,
// a pure-Python transcription of ArviZ 0.17's diagnostics (run with
// /usr/bin/python3 testdata/arviz_oracle.py).
var (
	fixedA = [][]float64{
		{0.1, -0.3, 1.2, 0.8, -1.1, 0.4, 0.9, -0.2, 0.0, 1.5, -0.7, 0.3},
		{0.6, 1.1, -0.4, 0.2, 0.7, -0.9, 1.3, 0.5, -0.1, 0.8, 0.2, -0.5},
		{1.0, 0.4, 0.9, 1.8, 0.3, 1.2, 0.6, 1.5, 0.7, 2.1, 0.9, 1.1},
	}
	fixedB = [][]float64{
		{0.0, 0.2, 0.5, 0.7, 0.6, 0.9, 1.1, 1.0, 1.3, 1.2, 1.5, 1.4, 1.6, 1.3, 1.1, 0.8},
		{2.0, 1.8, 1.9, 1.6, 1.7, 1.4, 1.5, 1.2, 1.0, 1.1, 0.9, 0.7, 0.8, 0.5, 0.6, 0.4},
	}
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %.12g, want %.12g", what, got, want)
	}
}

func TestAgainstOracle(t *testing.T) {
	cases := []struct {
		name   string
		chains [][]float64
		f      func([][]float64) float64
		want   float64
	}{
		{"A RhatBasic", fixedA, RhatBasic, 1.1693105226667437},
		{"A Rhat", fixedA, Rhat, 1.0854355407516711},
		{"A ESSBulk", fixedA, ESSBulk, 43.67065486064195},
		{"A ESSTail", fixedA, ESSTail, 51.34426229508199},
		{"A ESSMean", fixedA, ESSMean, 43.64248711458511},
		{"A MCSEMean", fixedA, MCSEMean, 0.11306665781978736},
		{"A MCSESD", fixedA, MCSESD, 0.08049068459578655},
		{"B RhatBasic", fixedB, RhatBasic, 1.0299399722813862},
		{"B Rhat", fixedB, Rhat, 1.82884378419659},
		{"B ESSBulk", fixedB, ESSBulk, 5.205720163113518},
		{"B ESSTail", fixedB, ESSTail, 14.222222222222225},
		{"B ESSMean", fixedB, ESSMean, 5.152039415004318},
		{"B MCSEMean", fixedB, MCSEMean, 0.21963779694800004},
		{"B MCSESD", fixedB, MCSESD, 0.16738197592668005},
	}
	for _, c := range cases {
		near(t, c.name, c.f(c.chains), c.want, 1e-9)
	}
}

func TestQuantileHDI(t *testing.T) {
	for _, c := range []struct {
		name             string
		chains           [][]float64
		q05, q95, lo, hi float64
	}{
		// Oracle: testdata/arviz_oracle.py (numpy-style linear quantiles,
		// ArviZ's hdi at 94%).
		{"A", fixedA, -0.75, 1.575, -1.1, 1.5},
		{"B", fixedB, 0.31000000000000005, 1.845, 0.2, 2.0},
	} {
		s := Flatten(c.chains)
		sort.Float64s(s)
		near(t, c.name+" q05", Quantile(s, 0.05), c.q05, 1e-12)
		near(t, c.name+" q95", Quantile(s, 0.95), c.q95, 1e-12)
		lo, hi := HDI(s, 0.94)
		near(t, c.name+" hdi lo", lo, c.lo, 1e-12)
		near(t, c.name+" hdi hi", hi, c.hi, 1e-12)
	}
}

// TestRhatBasicByHand: chains {1,2,3,4} and {5,6,7,8}: W = 5/3,
// B = 4·var(2.5, 6.5) = 32, so R = sqrt((3/4·5/3 + 32/4)/(5/3)) = sqrt(5.55).
func TestRhatBasicByHand(t *testing.T) {
	near(t, "RhatBasic", RhatBasic([][]float64{{1, 2, 3, 4}, {5, 6, 7, 8}}), math.Sqrt(5.55), 1e-12)
}

// TestEBFMI: the oracle is testdata/arviz_oracle.py (ArviZ's bfmi).
func TestEBFMI(t *testing.T) {
	near(t, "EBFMI", EBFMI(fixedA[0]), 3.010825549689621, 1e-12)
}

func iidChains(seed uint64, m, n int, shift func(c int) float64) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([][]float64, m)
	for c := range out {
		out[c] = make([]float64, n)
		for i := range out[c] {
			out[c][i] = rng.NormFloat64() + shift(c)
		}
	}
	return out
}

// TestProperties checks known behaviour on simulated chains: R-hat ≈ 1 and
// ESS ≈ N for iid draws; R-hat > 1.1 for chains stuck in different places;
// ESS ≈ N(1-φ)/(1+φ) for an AR(1) process with coefficient φ.
func TestProperties(t *testing.T) {
	iid := iidChains(1, 4, 1000, func(int) float64 { return 0 })
	if r := Rhat(iid); r > 1.01 {
		t.Errorf("Rhat of iid chains = %g, want < 1.01", r)
	}
	for name, f := range map[string]func([][]float64) float64{"bulk": ESSBulk, "tail": ESSTail, "mean": ESSMean} {
		// Relative sd of an ESS estimate at N = 4000 is a few percent;
		// 15% leaves room for the tail ESS's indicator noise.
		if e := f(iid); math.Abs(e-4000) > 600 {
			t.Errorf("ESS %s of 4000 iid draws = %g, want ≈ 4000", name, e)
		}
	}
	stuck := iidChains(2, 4, 1000, func(c int) float64 { return float64(c) })
	if r := Rhat(stuck); r < 1.1 {
		t.Errorf("Rhat of chains centred at 0, 1, 2, 3 = %g, want > 1.1", r)
	}
	// AR(1) with φ = 0.8: ESS ≈ 4000·0.2/1.8 ≈ 444.
	rng := rand.New(rand.NewPCG(3, 1))
	ar := make([][]float64, 4)
	for c := range ar {
		ar[c] = make([]float64, 1000)
		x := rng.NormFloat64() / math.Sqrt(1-0.64)
		for i := range ar[c] {
			x = 0.8*x + rng.NormFloat64()
			ar[c][i] = x
		}
	}
	if e := ESSMean(ar); e < 444*0.7 || e > 444*1.3 {
		t.Errorf("ESS of AR(1) φ=0.8 = %g, want ≈ 444", e)
	}
	// MCSE of the mean of iid draws ≈ 1/sqrt(4000).
	near(t, "MCSEMean iid", MCSEMean(iid), 1/math.Sqrt(4000), 0.002)
}
