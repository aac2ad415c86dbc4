package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/infer"
	"gonum.org/v1/gonum/mat"
)

// result is one child's measurement.
type result struct {
	Model, Input    string
	Rows, Preds     int
	DataMB          float64 // X and y, float64
	AnchorMB        float64 // VmHWM with the data simulated, before the model
	PeakMB          float64 // VmHWM after sampling
	AllocMB         float64 // bytes allocated from the anchor to the end of sampling
	FirstDrawS      float64 // from the model's first line to a chain's first iteration
	SampleS         float64 // the whole Sample call
	GradMS          float64 // one gradient, median of several
	Shards          string
	Warmup, Draws   int
	MaxDepth, Procs int
}

func main() {
	child := flag.Bool("child", false, "run one case and print its result as JSON")
	rowsFlag := flag.String("rows", "100000,1000000", "comma-separated row counts")
	preds := flag.Int("preds", 100, "predictors")
	models := flag.String("models", "linear,logistic", "comma-separated models: linear, logistic")
	inputs := flag.String("inputs", "rows,flat", "comma-separated input forms of X: rows ([][]float64), flat (a *mat.Dense over one []float64)")
	warmup := flag.Int("warmup", 10, "warm-up iterations")
	draws := flag.Int("draws", 10, "draws per chain")
	depth := flag.Int("maxdepth", 4, "NUTS maximum tree depth (few iterations are the point, not their quality)")
	grads := flag.Int("grads", 9, "gradients timed after sampling (the median is reported)")
	flag.Parse()
	if *child {
		r := runCase(strings.Split(*models, ",")[0], strings.Split(*inputs, ",")[0], atoi(strings.Split(*rowsFlag, ",")[0]), *preds, *warmup, *draws, *depth, *grads)
		if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
			log.Fatal(err)
		}
		return
	}
	fmt.Printf("%s, GOMAXPROCS %d, load average at start %s\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.GOMAXPROCS(0), loadAverage())
	fmt.Printf("NUTS: 4 chains, %d warm-up, %d draws, max depth %d; X is rows × %d, y rows\n\n", *warmup, *draws, *depth, *preds)
	fmt.Println("| model | rows | X as | data MB | anchor MB | peak MB | peak / data | above anchor / data | allocated MB | first draw s | sample s | ms / gradient | shards |")
	fmt.Println("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, rs := range strings.Split(*rowsFlag, ",") {
		for _, model := range strings.Split(*models, ",") {
			for _, input := range strings.Split(*inputs, ",") {
				args := []string{"-child", "-rows", rs, "-preds", strconv.Itoa(*preds), "-models", model, "-inputs", input,
					"-warmup", strconv.Itoa(*warmup), "-draws", strconv.Itoa(*draws), "-maxdepth", strconv.Itoa(*depth), "-grads", strconv.Itoa(*grads)}
				cmd := exec.Command(os.Args[0], args...)
				cmd.Stderr = os.Stderr
				out, err := cmd.Output()
				if err != nil {
					log.Fatalf("%s %s %s: %v", model, rs, input, err)
				}
				var r result
				if err := json.Unmarshal(bytes.TrimSpace(out), &r); err != nil {
					log.Fatalf("%s %s %s: %v in %q", model, rs, input, err, out)
				}
				fmt.Printf("| %s | %d | %s | %.0f | %.0f | %.0f | %.2f | %.2f | %.0f | %.2f | %.1f | %.2f | %s |\n",
					r.Model, r.Rows, r.Input, r.DataMB, r.AnchorMB, r.PeakMB, r.PeakMB/r.DataMB, (r.PeakMB-r.AnchorMB)/r.DataMB,
					r.AllocMB, r.FirstDrawS, r.SampleS, r.GradMS, r.Shards)
			}
		}
	}
}

// runCase simulates the data, builds the model, samples it and measures.
func runCase(model, input string, rows, preds, warmup, draws, depth, grads int) result {
	X, y := simulate(model, rows, preds)
	r := result{Model: model, Input: input, Rows: rows, Preds: preds, Warmup: warmup, Draws: draws, MaxDepth: depth, Procs: runtime.GOMAXPROCS(0)}
	r.DataMB = float64(8*(rows*preds+rows)) / 1e6
	var xv any
	switch input {
	case "rows":
		rs := make([][]float64, rows)
		for i := range rs {
			rs[i] = X[i*preds : (i+1)*preds : (i+1)*preds]
		}
		xv = rs
	case "flat":
		xv = mat.NewDense(rows, preds, X)
	default:
		log.Fatalf("unknown input form %q: want rows or flat", input)
	}
	runtime.GC()
	r.AnchorMB = vmHWM()
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)

	start := time.Now()
	var first sync.Once
	var firstAt time.Duration
	m := ppl.NewModel("regression")
	beta := m.Normal("beta", 0, 1, ppl.Size(preds))
	switch model {
	case "linear":
		alpha := m.Normal("alpha", 0, 5)
		sigma := m.HalfNormal("sigma", 2)
		m.Normal("y", ppl.Add(alpha, ppl.MatVec(xv, beta)), sigma).Observe(y)
	case "logistic":
		m.BernoulliLogit("y", ppl.MatVec(xv, beta)).Observe(y)
	default:
		log.Fatalf("unknown model %q: want linear or logistic", model)
	}
	progress := func(ps []infer.ChainProgress) {
		for _, p := range ps {
			if p.Iteration >= 1 {
				first.Do(func() { firstAt = time.Since(start) })
			}
		}
	}
	m.Sample(ppl.NUTS(), ppl.Chains(4), ppl.Seed(1), ppl.Warmup(warmup), ppl.Draws(draws), ppl.MaxDepth(depth),
		ppl.LiveProgress(false), ppl.Progress(progress))
	r.SampleS = time.Since(start).Seconds()
	r.FirstDrawS = firstAt.Seconds()
	r.PeakMB = vmHWM()
	var ms1 runtime.MemStats
	runtime.ReadMemStats(&ms1)
	r.AllocMB = float64(ms1.TotalAlloc-ms0.TotalAlloc) / 1e6

	c, err := m.Compile()
	if err != nil {
		log.Fatal(err)
	}
	r.Shards = strings.Join(strings.Fields(c.ShardPlan().String()), " ")
	d := c.NewDensity()
	x := make([]float64, c.Dim())
	for i := range x {
		x[i] = 0.01 * float64(i%7-3)
	}
	g := make([]float64, len(x))
	d.LogDensityGrad(x, g)
	ts := make([]float64, grads)
	for i := range ts {
		t0 := time.Now()
		d.LogDensityGrad(x, g)
		ts[i] = time.Since(t0).Seconds() * 1e3
	}
	r.GradMS = median(ts)
	return r
}

// simulate draws X (rows × preds, row-major, one slice) and y of a linear
// (noise 1) or logistic regression with coefficients of total scale 2.
func simulate(model string, rows, preds int) (X, y []float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	beta := make([]float64, preds)
	for j := range beta {
		beta[j] = rng.NormFloat64() * 2 / math.Sqrt(float64(preds))
	}
	X = make([]float64, rows*preds)
	y = make([]float64, rows)
	for i := range rows {
		eta := 0.0
		for j := range preds {
			v := rng.NormFloat64()
			X[i*preds+j] = v
			eta += v * beta[j]
		}
		if model == "logistic" {
			if rng.Float64() < 1/(1+math.Exp(-eta)) {
				y[i] = 1
			}
		} else {
			y[i] = 0.5 + eta + rng.NormFloat64()
		}
	}
	return X, y
}

// vmHWM is the process's peak resident set in MB (10⁶ bytes).
func vmHWM() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				log.Fatal(err)
			}
			return kb * 1024 / 1e6
		}
	}
	log.Fatal("no VmHWM in /proc/self/status")
	return 0
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		log.Fatalf("%q is not a number", s)
	}
	return n
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
