package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/mpi"
	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl"
)

func main() {
	rows := flag.Int("rows", 1_000_000, "rows of the logistic regression")
	preds := flag.Int("preds", 100, "predictors")
	ranks := flag.String("ranks", "1,2", "job sizes to time")
	reps := flag.Int("reps", 15, "gradients timed per configuration (the median is reported)")
	sample := flag.Bool("sample", true, "also sample with NUTS on each job size (ESS/s)")
	warmup := flag.Int("warmup", 150, "NUTS warm-up iterations")
	draws := flag.Int("draws", 150, "NUTS draws")
	flag.Parse()
	var sizes []int
	for _, f := range strings.Split(*ranks, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			log.Fatalf("-ranks %q: want sizes such as 1,2", *ranks)
		}
		sizes = append(sizes, n)
	}
	fmt.Printf("%s, %d cores, load average at start %s\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.NumCPU(), loadAverage())
	fmt.Printf("logistic regression, %d rows × %d predictors (%.0f MB of data)\n\n", *rows, *preds, float64(*rows**preds*8)/1e6)

	// The anchor: the same gradient on one core, in this process.
	whole := model(*rows, *preds, ppl.Shards(1))
	cw, err := whole.Compile()
	check(err)
	d := cw.Dim()
	x := make([]float64, d)
	for i := range x {
		x[i] = 0.01 * float64(i%7-3)
	}
	anchor := timeDensity(cw.NewDensity(), x, *reps)
	fmt.Printf("| configuration | ms/gradient | ratio to 1 core in process | bytes/gradient (kernel↔rank 0) | bytes/gradient (between ranks) |\n|---|---:|---:|---:|---:|\n")
	fmt.Printf("| in process, whole (anchor) | %.2f | 1.00 | — | — |\n", anchor*1e3)
	for _, k := range sizes {
		if k < 2 {
			continue
		}
		m := model(*rows, *preds, ppl.Shards(k))
		c, err := m.Compile()
		check(err)
		t := timeDensity(c.NewDensity(), x, *reps)
		fmt.Printf("| in process, %d shards | %.2f | %.2f | — | — |\n", k, t*1e3, t/anchor)
	}
	// The job's shards: the model split as Backend("mpi") splits it, one
	// shard per rank (for 1 rank, the 2-shard split, both on rank 0).
	measured := map[int]float64{} // ranks → seconds per gradient on the job
	for _, k := range sizes {
		m := model(*rows, *preds, ppl.Shards(max(k, 2)))
		c, err := m.Compile()
		check(err)
		main, blocks := c.ShardPrograms()
		job, err := mpi.Start(mpi.Config{Ranks: k})
		check(err)
		start := time.Now()
		acc, err := job.CompileSharded(main, blocks)
		check(err)
		place := time.Since(start)
		s0, r0 := job.Traffic()
		t := timeCompiled(acc, x, *reps)
		s1, r1 := job.Traffic()
		calls := int64(*reps + 1)
		link := float64(s1-s0+r1-r0) / float64(calls)
		// Between ranks: the position broadcast to k-1 ranks, and each of
		// them gathering its log density and gradient to rank 0.
		between := (k - 1) * (d + (1 + d)) * 8
		measured[k] = t
		fmt.Printf("| MPI, %d rank(s), %d blocks | %.2f | %.2f | %.0f | %d |\n", k, len(blocks), t*1e3, t/anchor, link, between)
		fmt.Fprintf(os.Stderr, "  %d ranks: data placed in %.2f s (%s)\n", k, place.Seconds(), job.Info())
		acc.Close()
		job.Close()
	}
	trips := overhead(sizes, *reps)
	costModel(measured, trips, *rows, d)
	if !*sample {
		return
	}
	fmt.Printf("\nNUTS, 1 chain, %d warm-up + %d draws, from the MAP:\n\n| configuration | wall s | min bulk ESS | ESS/s | gradients | ratio of ESS/s to in process |\n|---|---:|---:|---:|---:|---:|\n", *warmup, *draws)
	m := model(*rows, *preds)
	mapFit := m.MAP(ppl.Seed(1))
	init := map[string]any{}
	for name, v := range mapFit.Values {
		if len(v) == 1 {
			init[name] = v[0]
		} else {
			init[name] = v
		}
	}
	opts := []ppl.SampleOption{ppl.Chains(1), ppl.Seed(3), ppl.Warmup(*warmup), ppl.Draws(*draws), ppl.LiveProgress(false), ppl.Init(init)}
	base := 0.0
	run := func(label string, extra ...ppl.SampleOption) {
		start := time.Now()
		fit := m.Sample(append(slices.Clone(opts), extra...)...)
		wall := time.Since(start).Seconds()
		ess := fit.Diagnostics().MinESSBulk
		r := ess / wall
		if base == 0 {
			base = r
		}
		fmt.Printf("| %s | %.1f | %.0f | %.2f | %d | %.2f |\n", label, wall, ess, r, fit.Chains[0].Adaptation.GradEvals, r/base)
	}
	run("in process, automatic shards")
	for _, k := range sizes {
		run(fmt.Sprintf("MPI, %d rank(s)", k), ppl.Backend("mpi"), ppl.Ranks(k))
	}
}

// overhead is the cost of the MPI round trip per gradient: a model of 64
// rows, forced into shards, in process and on the job.
func overhead(sizes []int, reps int) map[int]float64 {
	trips := map[int]float64{}
	fmt.Printf("\nRound trip per gradient (logistic regression of 64 rows × 2, sharded; in-process shards as the anchor):\n\n| ranks | in process µs | MPI µs | overhead µs |\n|---:|---:|---:|---:|\n")
	for _, k := range sizes {
		kk := max(k, 2)
		m := model(64, 2, ppl.Shards(kk))
		c, err := m.Compile()
		check(err)
		x := make([]float64, c.Dim())
		n := 200 * reps
		in := timeDensity(c.NewDensity(), x, n)
		main, blocks := c.ShardPrograms()
		job, err := mpi.Start(mpi.Config{Ranks: k})
		check(err)
		acc, err := job.CompileSharded(main, blocks)
		check(err)
		t := timeCompiled(acc, x, n)
		fmt.Printf("| %d | %.1f | %.1f | %.1f |\n", k, in*1e6, t*1e6, (t-in)*1e6)
		trips[k] = t - in
		acc.Close()
		job.Close()
	}
	return trips
}

// costModel predicts the seconds per gradient on R ranks,
//
//	T(R) = c·N/R + L + ⌈log₂R⌉·(2α + 8d/β) + (R−1)·8(d+1)/β
//
// c the arithmetic per row (from the 1-rank job: its time less its round
// trip), L the round trip kernel ↔ rank 0, and a binomial-tree broadcast
// of the position and gather of the (d+1)-value partial sums, the root
// receiving every rank's. It is checked here against the 2-rank job (L
// and α from this machine's measured round trips), then evaluated for a
// commodity cluster.
func costModel(measured, trips map[int]float64, rows, d int) {
	t1, ok1 := measured[1]
	t2, ok2 := measured[2]
	r1, okr1 := trips[1]
	r2, okr2 := trips[2]
	if !(ok1 && ok2 && okr1 && okr2) {
		return
	}
	c := (t1 - r1) / float64(rows)
	pred2 := c*float64(rows)/2 + r2
	fmt.Printf("\nCost model (see bench/README.md): arithmetic %.3f µs per row on one core.\n", c*1e6)
	fmt.Printf("Check on this machine: 2 ranks predicted %.1f ms per gradient, measured %.1f ms (%+.0f%%).\n\n",
		pred2*1e3, t2*1e3, 100*(t2-pred2)/pred2)
	type net struct {
		name              string
		link, alpha, beta float64
	}
	nets := []net{
		{"10 GbE (α 25 µs, β 1.1 GB/s, kernel link 100 µs)", 100e-6, 25e-6, 1.1e9},
		{"InfiniBand HDR (α 2 µs, β 20 GB/s, kernel link 50 µs)", 50e-6, 2e-6, 20e9},
	}
	fmt.Printf("| rows | network | ranks | ms/gradient | speed-up over 1 rank | communication share |\n|---:|---|---:|---:|---:|---:|\n")
	for _, n := range []int{rows, 100 * rows} {
		for _, nt := range nets {
			base := c*float64(n) + nt.link
			for _, r := range []int{8, 64, 256} {
				lg := math.Ceil(math.Log2(float64(r)))
				comm := nt.link + lg*(2*nt.alpha+8*float64(d)/nt.beta) + float64(r-1)*8*float64(d+1)/nt.beta
				t := c*float64(n)/float64(r) + comm
				fmt.Printf("| %.0e | %s | %d | %.2f | %.1f | %.0f%% |\n", float64(n), nt.name, r, t*1e3, base/t, 100*comm/t)
			}
		}
	}
}

func model(rows, preds int, opts ...ppl.ModelOption) *ppl.Model {
	c := posteriordb.SimulatedLogistic(rows, preds, 7)
	m := ppl.NewModel("logistic", opts...)
	beta := m.Normal("beta", 0, 1, ppl.Size(preds))
	alpha := m.Normal("alpha", 0, 2)
	m.BernoulliLogit("y", alpha.Add(ppl.MatVec(c.Data["X"], beta))).Observe(c.Data["y"])
	return m
}

// timeDensity is the median seconds of one gradient, after one warm call.
func timeDensity(d interface {
	LogDensityGrad(x, g []float64) float64
}, x []float64, reps int) float64 {
	g := make([]float64, len(x))
	d.LogDensityGrad(x, g)
	ts := make([]float64, reps)
	for i := range ts {
		start := time.Now()
		d.LogDensityGrad(x, g)
		ts[i] = time.Since(start).Seconds()
	}
	return median(ts)
}

func timeCompiled(c accel.Compiled, x []float64, reps int) float64 {
	lp, g := make([]float64, 1), make([]float64, len(x))
	check(c.LogDensityGrad(x, lp, g))
	ts := make([]float64, reps)
	for i := range ts {
		start := time.Now()
		check(c.LogDensityGrad(x, lp, g))
		ts[i] = time.Since(start).Seconds()
	}
	return median(ts)
}

func median(ts []float64) float64 {
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[len(s)/2]
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
