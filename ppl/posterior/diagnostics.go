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
	for _, name := range p.Columns {
		ch := p.ByChain(name)
		if constant(ch) {
			continue
		}
		r, b, t := diag.Rhat(ch), diag.ESSBulk(ch), diag.ESSTail(ch)
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
