package main

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/posterior"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// centred is the case whose check is that its divergences are reported.
const centred = "eight_schools-eight_schools_centered"

// result is the verdict on one case; the exported fields are what -json
// prints.
type result struct {
	Name     string   `json:"case"`
	Pass     bool     `json:"pass"`
	Problems []string `json:"problems,omitempty"`
	WorstZ   float64  `json:"worst_z"`
	WorstCol string   `json:"worst_column"`
	WorstSD  float64  `json:"worst_sd_error"` // relative
	MaxRhat  float64  `json:"max_rhat"`
	MinBulk  float64  `json:"min_ess_bulk"`
	MinTail  float64  `json:"min_ess_tail"`
	Div      int      `json:"divergences"`
	Seconds  float64  `json:"seconds"` // wall time of warm-up and sampling
	Grads    int      `json:"gradient_evaluations"`
	Note     string   `json:"settings,omitempty"`
	err      error
	Error    string `json:"error,omitempty"`
}

func (r *result) line() string {
	status := "PASS"
	if !r.Pass {
		status = "FAIL"
	}
	if r.err != nil {
		return fmt.Sprintf("%s  %-42s error: %v", status, r.Name, r.err)
	}
	s := fmt.Sprintf("%s  %-42s z %5.2f (%s)  sd %4.1f%%  R-hat %.4f  ESS bulk %5.0f tail %5.0f  div %d  %.1fs  %.0fk grads",
		status, r.Name, r.WorstZ, r.WorstCol, 100*r.WorstSD, r.MaxRhat, r.MinBulk, r.MinTail, r.Div, r.Seconds, float64(r.Grads)/1000)
	if r.Note != "" {
		s += "  [" + r.Note + "]"
	}
	if len(r.Problems) > 0 {
		s += "\n      " + strings.Join(r.Problems, "\n      ")
	}
	return s
}

// runCase samples one case and judges it; thin is MEADS's thinning (0:
// validate's default, meadsThin).
func runCase(ctx context.Context, name string, cfg infer.Config, thin int) *result {
	r := &result{Name: name}
	r.Note = applySettings(name, &cfg)
	c, err := posteriordb.Load(name)
	if err != nil {
		r.err = err
		return r
	}
	m, err := posteriordb.Model(name, c)
	if err != nil {
		r.err = err
		return r
	}
	compiled, err := m.Compile()
	if err != nil {
		r.err = err
		return r
	}
	start := time.Now()
	p, err := sample(ctx, compiled, cfg, thin)
	if err != nil {
		r.err = err
		return r
	}
	r.Seconds = time.Since(start).Seconds()
	for _, ch := range p.Chains {
		r.Grads += ch.Adaptation.GradEvals
	}
	judge(r, c, p)
	return r
}

// applySettings sets the case's sampler settings (posteriordb.CaseSettings)
// on cfg, as far as they apply to cfg's sampler, and returns the note to
// print beside the result.
func applySettings(name string, cfg *infer.Config) (note string) {
	s := posteriordb.CaseSettings(name)
	if s == (posteriordb.Settings{}) {
		return ""
	}
	target := cfg.TargetAccept
	s.Apply(cfg)
	note = s.Note
	if cfg.Sampler == infer.RWMH && cfg.TargetAccept != target {
		// A higher target acceptance is a Hamiltonian remedy; for
		// random-walk Metropolis it only shrinks the steps.
		cfg.TargetAccept = target
		note = ""
	}
	if s.Dense && (cfg.Sampler == infer.ChEES || cfg.Sampler == infer.MEADS) {
		// ChEES and MEADS adapt a diagonal metric only (NUTS, HMC and
		// RWMH a dense one): say that this run's is diagonal.
		note = "diagonal metric (NUTS runs this case with a dense one)"
	}
	return note
}

// judge compares the run p with the reference of case c.
func judge(r *result, c *posteriordb.Case, p *posterior.Posterior) {
	r.Pass = true
	r.MaxRhat, r.MinBulk, r.MinTail = 0, math.Inf(1), math.Inf(1)
	fail := func(format string, args ...any) {
		r.Pass = false
		r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
	}
	r.Div = p.Divergences()
	for _, ref := range c.Reference {
		j := p.Column(ref.Name)
		if j < 0 {
			fail("%s: the run does not record it", ref.Name)
			continue
		}
		ch := p.ByChain(ref.Name)
		flat := diag.Flatten(ch)
		mean, sd := stat.MeanStdDev(flat, nil)
		bulk, tail := diag.ESSBulk(ch), diag.ESSTail(ch)
		rhat := diag.Rhat(ch)
		mcse := sd / math.Sqrt(bulk)
		z := math.Abs(mean-ref.Mean) / math.Sqrt(ref.MCSEMean*ref.MCSEMean+mcse*mcse)
		sdErr := math.Abs(sd-ref.SD) / ref.SD
		if z > r.WorstZ || math.IsNaN(z) {
			r.WorstZ, r.WorstCol = z, ref.Name
		}
		r.WorstSD = math.Max(r.WorstSD, sdErr)
		r.MaxRhat = math.Max(r.MaxRhat, rhat)
		r.MinBulk = math.Min(r.MinBulk, bulk)
		r.MinTail = math.Min(r.MinTail, tail)
		if c.Name == centred {
			continue // judged on its divergences below
		}
		if !(z <= 4) {
			fail("%s: mean %.4g, reference %.4g: %.1f standard errors apart", ref.Name, mean, ref.Mean, z)
		}
		if !(sdErr <= 0.1) {
			fail("%s: sd %.4g, reference %.4g (%.0f%% off)", ref.Name, sd, ref.SD, 100*sdErr)
		}
		sort.Float64s(flat)
		for _, q := range []struct {
			p        float64
			ref, run float64
		}{{0.05, ref.Q05, diag.Quantile(flat, 0.05)}, {0.95, ref.Q95, diag.Quantile(flat, 0.95)}} {
			// The normal approximation understates a skewed tail's
			// quantile error; the draws' own spread around the quantile
			// (the same shape, at the reference's ESS for its side) widens
			// it where they show a longer tail.
			runSE := math.Max(quantileSE(sd, q.p, tail), quantileSEDraws(flat, q.p, tail))
			refSE := math.Max(quantileSE(ref.SD, q.p, ref.ESSTail), runSE*math.Sqrt(tail/ref.ESSTail))
			tol := 4 * math.Hypot(refSE, runSE)
			if !(math.Abs(q.run-q.ref) <= tol) {
				fail("%s: %g-quantile %.4g, reference %.4g (tolerance %.3g)", ref.Name, q.p, q.run, q.ref, tol)
			}
		}
		if !(rhat < 1.01) {
			fail("%s: R-hat %.4f", ref.Name, rhat)
		}
	}
	if c.Name == centred {
		r.Problems = nil
		r.Pass = r.Div > 0 && strings.Contains(strings.Join(p.Warnings(), " "), "divergent")
		if !r.Pass {
			r.Problems = append(r.Problems, "the funnel's divergences were not reported")
		}
		return
	}
	if r.Div > 0 {
		fail("%d divergent transitions", r.Div)
	}
}

// quantileSEDraws is a p-quantile's standard error read off the sorted
// draws: half the distance between their quantiles at p minus and plus one
// binomial standard error of p with ess effective draws, so that it needs
// no assumption about the distribution's shape.
func quantileSEDraws(sorted []float64, p, ess float64) float64 {
	s := math.Sqrt(p * (1 - p) / ess)
	return (diag.Quantile(sorted, math.Min(1, p+s)) - diag.Quantile(sorted, math.Max(0, p-s))) / 2
}

// quantileSE is the normal approximation of a p-quantile's standard error
// from ess effective draws: sd·sqrt(p(1-p))/φ(Φ⁻¹(p))/sqrt(ess).
func quantileSE(sd, p, ess float64) float64 {
	z := distuv.UnitNormal.Quantile(p)
	return sd * math.Sqrt(p*(1-p)) / distuv.UnitNormal.Prob(z) / math.Sqrt(ess)
}
