package posterior

import (
	"math"

	"github.com/gobayes/gobayes/ppl/diag"
)

// Diagnostics are the run's convergence checks in numbers, for code that
// decides rather than reads (Warnings says the same in words).
type Diagnostics struct {
	Divergences   int       // divergent transitions, all chains
	TreeDepthHits int       // draws at the maximum tree depth
	EBFMI         []float64 // per chain (NaN without energies)
	MaxRhat       float64   // largest rank-normalised split R-hat
	MinESSBulk    float64
	MinESSTail    float64
	// Worst names the columns behind MaxRhat and the smallest ESS.
	WorstRhat, WorstESS string
}

// Diagnostics computes the checks over every non-constant column.
func (p *Posterior) Diagnostics() Diagnostics {
	d := Diagnostics{
		Divergences: p.Divergences(), TreeDepthHits: p.TreeDepthHits(), EBFMI: p.EBFMI(),
		MaxRhat: math.NaN(), MinESSBulk: math.NaN(), MinESSTail: math.NaN(),
	}
	if p.Draws() == 0 {
		return d
	}
	stats := p.columnStats(p.allColumns())
	for j, name := range p.Columns {
		st := stats[j]
		if st.Constant {
			continue
		}
		r, b, t := st.Rhat, st.ESSBulk, st.ESSTail
		if math.IsNaN(d.MaxRhat) || r > d.MaxRhat {
			d.MaxRhat, d.WorstRhat = r, name
		}
		if math.IsNaN(d.MinESSBulk) || b < d.MinESSBulk {
			d.MinESSBulk = b
			if math.IsNaN(d.MinESSTail) || b <= d.MinESSTail {
				d.WorstESS = name
			}
		}
		if math.IsNaN(d.MinESSTail) || t < d.MinESSTail {
			d.MinESSTail = t
			if t <= d.MinESSBulk {
				d.WorstESS = name
			}
		}
	}
	return d
}

// pointwise stacks the draws of every chain as loglik[draw][column].
func (p *Posterior) pointwise() [][]float64 {
	var out [][]float64
	for _, ch := range p.Chains {
		for i := 0; i < p.Draws(); i++ {
			row := make([]float64, len(p.Columns))
			for j := range row {
				row[j] = ch.Values[j][i]
			}
			out = append(out, row)
		}
	}
	return out
}

// LOO estimates the expected log predictive density by PSIS-LOO, reading
// every column as one observation's log-likelihood: call it on the
// posterior ppl's Model.LogLik returns (m.LogLik(fit).LOO()).
func (p *Posterior) LOO() *diag.ModelCheck { return diag.LOO(p.pointwise()) }

// WAIC is LOO's cheaper, less reliable cousin, on the same input.
func (p *Posterior) WAIC() *diag.ModelCheck { return diag.WAIC(p.pointwise()) }
