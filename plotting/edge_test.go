package plotting

import (
	"math"
	"testing"
)

// Every plot on awkward posteriors either renders or carries an error;
// none panics.
func TestEdgeCases(t *testing.T) {
	constant := fixture()
	for c := range constant.Chains {
		for i := range constant.Chains[c].Values[0] {
			constant.Chains[c].Values[0][i] = 3
		}
	}
	nan := fixture()
	for c := range nan.Chains {
		for i := range nan.Chains[c].Values[1] {
			nan.Chains[c].Values[1][i] = math.NaN()
		}
		nan.Chains[c].Values[0][5] = math.Inf(1)
	}
	short := fixture()
	for c := range short.Chains {
		for j := range short.Chains[c].Values {
			short.Chains[c].Values[j] = short.Chains[c].Values[j][:2]
		}
		short.Chains[c].Stats.Divergent = nil
		short.Chains[c].Stats.Energy = short.Chains[c].Stats.Energy[:2]
	}
	ragged := fixture()
	ragged.Chains[2].Values[0] = ragged.Chains[2].Values[0][:10]
	posteriors := map[string]any{"constant": constant, "nan": nan, "short": short, "ragged": ragged}
	plots := map[string]func(any) *Figure{
		"Trace":     func(p any) *Figure { return Trace(p) },
		"Posterior": func(p any) *Figure { return Posterior(p) },
		"Histogram": func(p any) *Figure { return Posterior(p, Histogram()) },
		"Pair":      func(p any) *Figure { return Pair(p, "mu", "tau", "theta[0]") },
		"Forest":    func(p any) *Figure { return Forest(p) },
		"Rank":      func(p any) *Figure { return Rank(p) },
		"Autocorr":  func(p any) *Figure { return Autocorr(p) },
		"Energy":    func(p any) *Figure { return Energy(p) },
		"ESS":       func(p any) *Figure { return ESS(p) },
	}
	for pname, p := range posteriors {
		for name, plot := range plots {
			t.Run(pname+"/"+name, func(t *testing.T) {
				f := plot(p)
				if pname == "ragged" {
					if f.Err() == nil {
						t.Error("chains of unequal length: no error")
					}
					return
				}
				if f.Err() != nil {
					return // a clear error is an acceptable answer
				}
				if _, err := f.PNG(); err != nil {
					t.Errorf("PNG: %v", err)
				}
			})
		}
	}
	for name, f := range map[string]*Figure{
		"Dist constant": Dist([]float64{2, 2, 2}),
		"Dist one":      Dist([]float64{1}),
		"PPC constant":  PPC([]float64{1, 1}, [][]float64{{1, 1}, {1, 1}}),
		"ELBO one":      ELBO([]float64{-3}),
	} {
		if f.Err() != nil {
			continue
		}
		if _, err := f.PNG(); err != nil {
			t.Errorf("%s: PNG: %v", name, err)
		}
	}
}
