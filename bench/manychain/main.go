package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"strings"
	"time"

	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
	"github.com/gobayes/gobayes/ppl/posterior"
)

func main() {
	cases := flag.String("cases", "eight_schools-eight_schools_noncentered,kidiq-kidscore_momhs,arK-arK,earnings-earn_height,garch-garch11", "comma-separated posteriordb cases")
	chains := flag.Int("chains", 256, "chains of ChEES and MEADS")
	warmup := flag.Int("warmup", 1000, "warm-up iterations")
	draws := flag.Int("draws", 1000, "draws per chain")
	flag.Parse()
	fmt.Printf("%-42s %-6s %9s %11s %9s %10s %9s\n", "case", "method", "min ESS", "ESS/grad", "ESS/s", "max |err|", "seconds")
	for _, name := range strings.Split(*cases, ",") {
		c, err := posteriordb.Load(name)
		if err != nil {
			log.Fatal(err)
		}
		m, err := posteriordb.Model(name, c)
		if err != nil {
			log.Fatal(err)
		}
		cm, err := m.Compile()
		if err != nil {
			log.Fatal(err)
		}
		t0 := time.Now()
		p, err := infer.Run(context.Background(), cm, infer.Config{Chains: 4, Warmup: *warmup, Draws: *draws, Seed: 1})
		if err != nil {
			log.Fatal(err)
		}
		secs := time.Since(t0).Seconds()
		grads := 0
		for _, ch := range p.Chains {
			grads += ch.Adaptation.GradEvals
		}
		report(name, "NUTS", p, c, float64(grads), secs, 1)
		for _, s := range []string{"ChEES", "MEADS"} {
			t0 = time.Now()
			res, err := lockstep.Run(context.Background(), cm, lockstep.Config{Sampler: s, Chains: *chains, Warmup: *warmup, Draws: *draws, Seed: 1})
			if err != nil {
				log.Fatal(err)
			}
			secs = time.Since(t0).Seconds()
			kept := len(res.Posterior.Chains)
			report(name, s, res.Posterior, c, float64(res.GradEvals*kept), secs, float64(*chains)/float64(kept))
		}
	}
}

// report prints one row: the smallest bulk ESS over the scalars that have
// a reference, per gradient and per second (times scale), and the largest
// error of a mean in reference standard deviations.
func report(name, method string, p *posterior.Posterior, c *posteriordb.Case, grads, secs, scale float64) {
	minESS, maxErr := math.Inf(1), 0.0
	for j, col := range p.Columns {
		ref, ok := c.Ref(col)
		if !ok {
			continue
		}
		chains := make([][]float64, len(p.Chains))
		sum, n := 0.0, 0
		for k, ch := range p.Chains {
			chains[k] = ch.Values[j]
			for _, v := range ch.Values[j] {
				sum += v
				n++
			}
		}
		minESS = math.Min(minESS, diag.ESSBulk(chains))
		if ref.SD > 0 {
			maxErr = math.Max(maxErr, math.Abs(sum/float64(n)-ref.Mean)/ref.SD)
		}
	}
	fmt.Printf("%-42s %-6s %9.0f %11.4f %9.0f %10.3f %9.1f\n", name, method, minESS, minESS/grads, minESS*scale/secs, maxErr, secs)
}
