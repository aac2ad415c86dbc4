package posterior

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"
)

// arPosterior is a NUTS-like posterior of chains × n draws of k scalars
// x[1..k], each chain of each scalar an AR(1) process with unit marginal
// variance: x[j] has coefficient 0.95·(j-1)/(k-2) (ESS from about N down
// to N/40, as NUTS gives), and the last one 0.998 (ESS ≈ N/1000, below 100
// per chain, so the warnings look for correlated pairs, as a slowly
// mixing scale parameter makes them do). Seeded.
func arPosterior(seed uint64, chains, n, k int) *Posterior {
	rng := rand.New(rand.NewPCG(seed, 0xa1))
	p := &Posterior{
		Model: "ar1", Vars: []Var{{Name: "x", Shape: []int{k}}}, Sampler: "NUTS", Warmup: 1000,
		Settings: Settings{Seed: seed, TargetAccept: 0.8, MaxDepth: 10, Metric: "diag_e"},
	}
	for j := 0; j < k; j++ {
		p.Columns = append(p.Columns, fmt.Sprintf("x[%d]", j))
	}
	for c := 0; c < chains; c++ {
		ch := Chain{Values: make([][]float64, k), Adaptation: Adaptation{StepSize: 0.5}}
		for j := range ch.Values {
			phi := 0.95 * float64(j) / float64(max(k-2, 1))
			if j == k-1 {
				phi = 0.998
			}
			s := math.Sqrt(1 - phi*phi)
			x := rng.NormFloat64()
			col := make([]float64, n)
			for i := range col {
				x = phi*x + s*rng.NormFloat64()
				col[i] = x
			}
			ch.Values[j] = col
		}
		ch.Stats.Energy = make([]float64, n)
		ch.Stats.Divergent = make([]bool, n)
		ch.Stats.TreeDepth = make([]int, n)
		ch.Stats.AcceptStat = make([]float64, n)
		for i := 0; i < n; i++ {
			ch.Stats.Energy[i] = rng.NormFloat64()
			ch.Stats.TreeDepth[i] = 3
			ch.Stats.AcceptStat[i] = 0.8
		}
		p.Chains = append(p.Chains, ch)
		p.Seconds = append(p.Seconds, 2.5)
	}
	return p
}

// shallow is a new Posterior value over p's draws, as a new run's would
// be: nothing computed for p is carried over.
func shallow(p *Posterior) *Posterior {
	return &Posterior{
		Model: p.Model, Vars: p.Vars, Columns: p.Columns, Chains: p.Chains, Sampler: p.Sampler,
		Warmup: p.Warmup, Seconds: p.Seconds, Settings: p.Settings,
	}
}

// BenchmarkSummaryDisplay measures what a notebook shows for a fit of 4
// chains × 80,000 draws × 20 scalars: the posterior's own HTML display
// (summary table and warnings), on a fresh Posterior each time. The anchor,
// timed in the same loop, is a plain sort.Float64s of a copy of every
// scalar's pooled draws; x-sort is the display's wall time over the
// anchor's. The CPU times (process-wide, all threads) are reported too:
// on a shared machine they move less than wall times.
//
//	go test -run '^$' -bench SummaryDisplay -benchtime 3x ./ppl/posterior
func BenchmarkSummaryDisplay(b *testing.B) {
	p := arPosterior(1, 4, 80000, 20)
	var display, anchor, displayCPU, anchorCPU time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0, c0 := time.Now(), cpuTime()
		for j := range p.Columns {
			flat := make([]float64, 0, len(p.Chains)*p.Draws())
			for _, ch := range p.Chains {
				flat = append(flat, ch.Values[j]...)
			}
			sort.Float64s(flat)
		}
		t1, c1 := time.Now(), cpuTime()
		if html := shallow(p).HTML(); len(html) == 0 {
			b.Fatal("empty display")
		}
		t2, c2 := time.Now(), cpuTime()
		anchor += t1.Sub(t0)
		display += t2.Sub(t1)
		anchorCPU += c1 - c0
		displayCPU += c2 - c1
	}
	b.ReportMetric(display.Seconds()/float64(b.N), "display-s")
	b.ReportMetric(anchor.Seconds()/float64(b.N), "sort-s")
	b.ReportMetric(display.Seconds()/anchor.Seconds(), "x-sort")
	if anchorCPU > 0 {
		b.ReportMetric(displayCPU.Seconds()/float64(b.N), "display-cpu-s")
		b.ReportMetric(displayCPU.Seconds()/anchorCPU.Seconds(), "cpu-x-sort")
	}
}
