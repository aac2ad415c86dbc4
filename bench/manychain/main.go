package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// row is one method on one case.
type row struct {
	name, method    string
	gradsPerCh      int
	ess, perGrad    float64 // smallest bulk ESS of the judged chains, per their gradients
	perSec, perCPU  float64 // ESS of all chains per wall and per CPU second
	maxErr, maxRhat float64
	wall            float64
	failed          bool // the run is off the reference: its efficiency means little
}

func main() {
	cases := flag.String("cases", "", "comma-separated posteriordb cases (default: all but the simulated logistic regression)")
	chains := flag.Int("chains", 128, "chains of ChEES and MEADS")
	warmup := flag.Int("warmup", 1000, "warm-up iterations")
	draws := flag.Int("draws", 1000, "draws per chain")
	thin := flag.Int("thin", 40, "MEADS: iterations per kept draw (as cmd/validate)")
	flag.Parse()
	names := posteriordb.Cases()
	if *cases != "" {
		names = strings.Split(*cases, ",")
	}
	fmt.Printf("%s, GOMAXPROCS %d, load average at start %s\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.GOMAXPROCS(0), loadAverage())
	fmt.Printf("NUTS: 4 chains; ChEES: %d chains; MEADS: %d chains thinned by %d; %d warm-up, %d draws\n\n", *chains, *chains, *thin, *warmup, *draws)
	fmt.Println("| case | method | grads/chain | min ESS | ESS/grad | ESS/s | ESS/CPU-s | max err (sd) | max R-hat | wall s |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	var rows []row
	for _, name := range names {
		if name == posteriordb.LogisticName {
			continue
		}
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
		set := posteriordb.CaseSettings(name)
		cfg := infer.Config{Chains: 4, Warmup: *warmup, Draws: *draws, Seed: 1}
		set.Apply(&cfg)
		w0, c0 := time.Now(), cpuSeconds()
		p, err := infer.Run(context.Background(), cm, cfg)
		if err != nil {
			log.Fatal(err)
		}
		grads := 0
		for _, ch := range p.Chains {
			grads += ch.Adaptation.GradEvals
		}
		rows = append(rows, measure(name, "NUTS", p, c, float64(grads), time.Since(w0).Seconds(), cpuSeconds()-c0, 1))
		for _, s := range []infer.Sampler{infer.ChEES, infer.MEADS} {
			lc := lockstep.Config{Sampler: s, Chains: *chains, Warmup: *warmup, Draws: cfg.Draws, Seed: 1, InitRadius: set.InitRadius}
			if s == infer.ChEES {
				lc.TargetAccept = set.TargetAccept // 0: the sampler's default
			} else {
				lc.Thin = *thin
			}
			w0, c0 = time.Now(), cpuSeconds()
			res, err := lockstep.Run(context.Background(), cm, lc)
			if err != nil {
				log.Fatal(err)
			}
			kept := len(res.Posterior.Chains)
			rows = append(rows, measure(name, s.String(), res.Posterior, c, float64(res.GradEvals*kept), time.Since(w0).Seconds(), cpuSeconds()-c0, float64(*chains)/float64(kept)))
		}
	}
	fmt.Printf("\nload average at the end %s\n", loadAverage())
	summarise(rows)
}

// measure prints and returns one row: the smallest bulk ESS over the
// scalars that have a reference, per gradient of the judged chains and,
// times scale (all chains over judged chains), per wall and CPU second;
// the largest error of a mean in reference standard deviations and the
// largest R-hat.
func measure(name, method string, p *posterior.Posterior, c *posteriordb.Case, grads, wall, cpu, scale float64) row {
	r := row{name: name, method: method, ess: math.Inf(1), wall: wall}
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
		r.ess = math.Min(r.ess, diag.ESSBulk(chains))
		r.maxRhat = math.Max(r.maxRhat, diag.Rhat(chains))
		if ref.SD > 0 {
			r.maxErr = math.Max(r.maxErr, math.Abs(sum/float64(n)-ref.Mean)/ref.SD)
		}
	}
	r.gradsPerCh = int(grads) / len(p.Chains)
	r.perGrad = r.ess / grads
	r.perSec = r.ess * scale / wall
	r.perCPU = r.ess * scale / cpu
	// A mean 0.3 sd off with a thousand effective draws is far outside its
	// error (MCSE 0.03 sd): the run missed the posterior.
	r.failed = !(r.maxErr < 0.3) || !(r.maxRhat < 1.05)
	fmt.Printf("| %s | %s | %d | %.0f | %.4f | %.0f | %.0f | %.3f | %.3f | %.1f |\n",
		name, method, r.gradsPerCh, r.ess, r.perGrad, r.perSec, r.perCPU, r.maxErr, r.maxRhat, wall)
	return r
}

// summarise prints, for ChEES and MEADS, the geometric mean over cases of
// their ESS per gradient and per wall second relative to NUTS, over the
// cases where all three runs found the posterior.
func summarise(rows []row) {
	byCase := map[string]map[string]row{}
	var order []string
	for _, r := range rows {
		if byCase[r.name] == nil {
			byCase[r.name] = map[string]row{}
			order = append(order, r.name)
		}
		byCase[r.name][r.method] = r
	}
	for _, method := range []string{"ChEES", "MEADS"} {
		lg, ls, n := 0.0, 0.0, 0
		var left []string
		for _, name := range order {
			nuts, other := byCase[name]["NUTS"], byCase[name][method]
			if nuts.failed || other.failed {
				left = append(left, name)
				continue
			}
			lg += math.Log(other.perGrad / nuts.perGrad)
			ls += math.Log(other.perSec / nuts.perSec)
			n++
		}
		if n == 0 {
			continue
		}
		fmt.Printf("%s/NUTS over %d cases (geometric mean): ESS per gradient %.2f×, ESS per second %.2f×", method, n, math.Exp(lg/float64(n)), math.Exp(ls/float64(n)))
		if len(left) > 0 {
			fmt.Printf("; left out (a run off the reference: a mean 0.3 sd away or R-hat ≥ 1.05): %s", strings.Join(left, ", "))
		}
		fmt.Println()
	}
}

// cpuSeconds is the process's user and system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// loadAverage is the first three fields of /proc/loadavg (the machine is
// shared: the figures mean little without it).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
