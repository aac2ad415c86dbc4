package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/gobayes/gobayes/ppl"
)

func main() {
	draws := flag.Int("draws", 80000, "draws per chain")
	rounds := flag.Int("rounds", 2, "timed rounds of the summaries (each on fresh copies)")
	flag.Parse()

	y := []float64{28, 8, -3, 7, -1, 1, 18, 12}
	sigma := []float64{15, 10, 16, 11, 9, 11, 10, 18}
	m := ppl.NewModel("eight_schools")
	mu := m.Normal("mu", 0, 5)
	tau := m.HalfCauchy("tau", 5)
	z := m.Normal("theta_tilde", 0, 1, ppl.Size(8))
	theta := m.Deterministic("theta", ppl.Add(mu, ppl.Mul(tau, z)))
	m.Normal("y", theta, sigma).Observe(y)

	t0 := time.Now()
	fit := m.Sample(ppl.NUTS(), ppl.Chains(4), ppl.Seed(1), ppl.Draws(*draws))
	sampling := time.Since(t0)
	fmt.Printf("sampling 4 × %d draws: %.2f s\n", *draws, sampling.Seconds())
	for r := 1; r <= *rounds; r++ {
		a, b := *fit, *fit // fresh copies: nothing computed for fit is reused
		t1 := time.Now()
		_ = a.Summary("mu", "tau").String()
		t2 := time.Now()
		_ = b.HTML()
		t3 := time.Now()
		fmt.Printf("round %d: Summary(\"mu\", \"tau\") %.2f s (%.2f× sampling), full display %.2f s (%.2f× sampling)\n",
			r, t2.Sub(t1).Seconds(), t2.Sub(t1).Seconds()/sampling.Seconds(), t3.Sub(t2).Seconds(), t3.Sub(t2).Seconds()/sampling.Seconds())
	}
}
