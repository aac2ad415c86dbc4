// Command seeds runs one posteriordb case with NUTS over many seeds, as
// bench/stan runs it (4 chains, 1000 warm-up, 1000 draws, the case's
// settings), and prints the spread of what bench/stan reports from one
// seed: the minimum bulk ESS, the gradients, ESS per 10⁴ gradients and
// ESS per second (median and quartiles over seeds, and total ESS over
// total time).
//
//	go run ./bench/seeds -case eight_schools-eight_schools_centered -seeds 80
//	go run ./bench/seeds -case ... -diag     # the diagonal metric (ppl.DiagMetric)
//	go run ./bench/seeds -case ... -v        # a line per seed
//	go run ./bench/seeds -case ... -csv out.csv -label now  # a row per seed
//
// The CSV has the columns bench/seeds/stan_seeds.R writes for rstan over
// the same seeds, so the two tables compare row by row (bench/seeds/stan.sh
// runs both).
//
// A change of one unit in the last place of the log density sends every
// chain on another path, so one seed's ESS moves with any change to the
// arithmetic: on a funnel such as the centred eight schools the median
// over 8 seeds moved from 160 to 120 with the log density equal to 1e-15.
// Compare trees by their spread over many seeds, not by one.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/posterior"
)

func main() {
	name := flag.String("case", "eight_schools-eight_schools_centered", "posteriordb case")
	seeds := flag.Int("seeds", 40, "seeds 1..N")
	diag := flag.Bool("diag", false, "keep the metric diagonal (no automatic dense metric)")
	verbose := flag.Bool("v", false, "print a line per seed")
	csvPath := flag.String("csv", "", "write a CSV row per seed to this file")
	label := flag.String("label", "gobayes", "the tool column of the CSV")
	drawsDir := flag.String("draws", "", "write each seed's draws to DIR/seed-N.csv (chain, then a column per parameter)")
	flag.Parse()
	c, err := posteriordb.Load(*name)
	if err != nil {
		fail(err)
	}
	m, err := posteriordb.Model(*name, c)
	if err != nil {
		fail(err)
	}
	compiled, err := m.Compile()
	if err != nil {
		fail(err)
	}
	set := posteriordb.CaseSettings(*name)
	var csv *os.File
	if *csvPath != "" {
		if csv, err = os.Create(*csvPath); err != nil {
			fail(err)
		}
		defer csv.Close()
		fmt.Fprintln(csv, "tool,seed,min_ess_bulk,gradients,ess_per_1e4_grad,divergent,step_size,tree_depth,accept_stat,dense_chains")
	}
	var ess, grads, perGrad, perSec []float64
	totalESS, totalWall, divergent := 0.0, 0.0, 0
	for s := 1; s <= *seeds; s++ {
		cfg := infer.Config{Chains: 4, Warmup: 1000, Draws: 1000, Seed: uint64(s)}
		set.Apply(&cfg)
		cfg.DiagMetric = *diag
		t0 := time.Now()
		p, err := infer.Run(context.Background(), compiled, cfg)
		if err != nil {
			fail(err)
		}
		wall := time.Since(t0).Seconds()
		e := p.Diagnostics().MinESSBulk
		g := 0.0
		for _, ch := range p.Chains {
			g += float64(ch.Adaptation.GradEvals)
		}
		ess, grads = append(ess, e), append(grads, g)
		perGrad, perSec = append(perGrad, 1e4*e/g), append(perSec, e/wall)
		totalESS, totalWall = totalESS+e, totalWall+wall
		divergent += p.Divergences()
		if *drawsDir != "" {
			if err := writeDraws(filepath.Join(*drawsDir, fmt.Sprintf("seed-%d.csv", s)), p); err != nil {
				fail(err)
			}
		}
		if csv != nil {
			eps, depth, acc, dense := 0.0, 0.0, 0.0, 0
			for _, ch := range p.Chains {
				eps += ch.Adaptation.StepSize / float64(len(p.Chains))
				depth += mean(ints(ch.Stats.TreeDepth)) / float64(len(p.Chains))
				acc += mean(ch.Stats.AcceptStat) / float64(len(p.Chains))
				if ch.Adaptation.Dense {
					dense++
				}
			}
			fmt.Fprintf(csv, "%s,%d,%.2f,%.0f,%.4f,%d,%.5f,%.3f,%.4f,%d\n", *label, s, e, g, 1e4*e/g, p.Divergences(), eps, depth, acc, dense)
		}
		if *verbose {
			fmt.Printf("seed %d: ESS %.0f, %.0f gradients, %d divergent, %.3f s\n", s, e, g, p.Divergences(), wall)
		}
	}
	fmt.Printf("%s, NUTS, %d seeds, metric %s\n", *name, *seeds, map[bool]string{true: "diagonal", false: "automatic"}[*diag])
	fmt.Printf("%-22s %10s %10s %10s %10s\n", "", "q25", "median", "q75", "geo mean")
	row := func(label string, v []float64) {
		q25, med, q75 := quartiles(v)
		fmt.Printf("%-22s %10.2f %10.2f %10.2f %10.2f\n", label, q25, med, q75, geoMean(v))
	}
	row("min bulk ESS", ess)
	row("gradients", grads)
	row("ESS per 1e4 gradients", perGrad)
	row("ESS per second", perSec)
	fmt.Printf("total ESS / total seconds %.1f; divergent transitions %d\n", totalESS/totalWall, divergent)
}

func quartiles(v []float64) (q25, med, q75 float64) {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	at := func(q float64) float64 {
		x := q * float64(len(s)-1)
		i := int(x)
		if i+1 >= len(s) {
			return s[len(s)-1]
		}
		return s[i] + (x-float64(i))*(s[i+1]-s[i])
	}
	return at(0.25), at(0.5), at(0.75)
}

// writeDraws writes a posterior's draws as CSV, a row per draw: the chain
// (1-based), then every column; for checking the ESS against another
// estimator (bench/seeds/ess_check.R).
func writeDraws(path string, p *posterior.Posterior) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "chain,%s\n", strings.Join(p.Columns, ","))
	for c, ch := range p.Chains {
		for i := 0; i < p.Draws(); i++ {
			fmt.Fprintf(w, "%d", c+1)
			for j := range p.Columns {
				fmt.Fprintf(w, ",%.17g", ch.Values[j][i])
			}
			fmt.Fprintln(w)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func mean(v []float64) float64 {
	t := 0.0
	for _, x := range v {
		t += x
	}
	return t / float64(len(v))
}

func ints(v []int) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func geoMean(v []float64) float64 {
	t := 0.0
	for _, x := range v {
		t += math.Log(x)
	}
	return math.Exp(t / float64(len(v)))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench/seeds:", err)
	os.Exit(1)
}
