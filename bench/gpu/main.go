// Command gpu measures the many-chain samplers on the CPU and on the GPU
// through the accel contract, and writes the simulated data that
// bench/gpu/numpyro_bench.py samples with NumPyro on the same machine:
//
//	go run ./bench/gpu -data /tmp/gpubench                  # CPU only
//	GOBAYES_CUDA_WORKER=bin/gobayes-cuda go run ./bench/gpu  # and the GPU
//
// On the lent GPU machine accel/cuda/device-run.sh runs it (step
// gpubench) after building the worker. Cases: eight schools
// (non-centred; NUTS with 4 chains, ChEES with -chains chains), a
// logistic regression with -n rows and -d predictors (NUTS, ChEES with
// -logistic-chains chains), and random-walk Metropolis with -rwmh-chains
// chains on a four-component normal mixture. Each run prints a table row
// and a line "RESULT {json}" for merging with NumPyro's.
package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// result is one run, as printed after "RESULT ".
type result struct {
	Case     string             `json:"case"`
	Method   string             `json:"method"`
	Backend  string             `json:"backend"`
	Chains   int                `json:"chains"`
	Warmup   int                `json:"warmup"`
	Draws    int                `json:"draws"`
	Wall     float64            `json:"wall_s"`
	GradsPer int                `json:"grads_per_chain,omitempty"`
	MinESS   float64            `json:"min_ess_bulk_kept,omitempty"`
	ESSPerS  float64            `json:"ess_per_s,omitempty"` // all chains' ESS (kept ESS × chains/kept) per wall second
	MaxRhat  float64            `json:"max_rhat,omitempty"`
	MaxErr   float64            `json:"max_err_sd,omitempty"` // vs the reference posterior, in its sds
	Means    map[string]float64 `json:"means,omitempty"`
	DrawsPS  float64            `json:"draws_per_s,omitempty"`
	// SteadyDrawsPS is the rate without the run's start and end: the
	// difference of two runs' times (RWMH).
	SteadyDrawsPS float64 `json:"steady_draws_per_s,omitempty"`
	Error         string  `json:"error,omitempty"`
}

func (r result) print() {
	if r.Error != "" {
		fmt.Printf("| %s | %s | %s | error: %s |\n", r.Case, r.Method, r.Backend, r.Error)
	} else {
		fmt.Printf("| %s | %s | %s | %d | %d | %.2f | %.0f | %.0f | %.3f | %.3f |\n",
			r.Case, r.Method, r.Backend, r.Chains, r.GradsPer, r.Wall, r.MinESS, r.ESSPerS, r.MaxRhat, r.MaxErr)
	}
	b, _ := json.Marshal(r)
	fmt.Printf("RESULT %s\n", b)
}

func main() {
	dataDir := flag.String("data", filepath.Join(os.TempDir(), "gobayes-gpubench"), "folder for the simulated data NumPyro reads")
	cases := flag.String("cases", "eight_schools,logistic,rwmh", "cases to run")
	backends := flag.String("backends", "cpu,cuda", "backends of the many-chain runs")
	chains := flag.Int("chains", 1024, "ChEES chains on eight schools")
	gchains := flag.String("gpu-chains", "1024,16384,131072", "ChEES chains on eight schools on the GPU, comma-separated")
	lchains := flag.Int("logistic-chains", 128, "ChEES chains on the logistic regression (GPU)")
	lcpu := flag.Int("logistic-cpu-chains", 0, "ChEES chains on the logistic regression on the CPU (each gradient costs about 7 ms a core; 16 chains took 247 s on 16 cores); 0 skips it")
	n := flag.Int("n", 100_000, "logistic regression: rows")
	d := flag.Int("d", 50, "logistic regression: predictors")
	lwarm := flag.Int("logistic-iters", 500, "logistic regression: warm-up and draws each")
	rchains := flag.Int("rwmh-chains", 1_000_000, "RWMH chains")
	rsteps := flag.Int("rwmh-steps", 1000, "RWMH steps per chain")
	nuts := flag.Bool("nuts", true, "also run NUTS (4 chains on the CPU)")
	flag.Parse()
	fmt.Printf("%s, GOMAXPROCS %d\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.GOMAXPROCS(0))
	fmt.Println("| case | method | backend | chains | grads/chain | wall s | min ESS (kept) | ESS/s (all) | max R-hat | max err (sd) |")
	fmt.Println("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
	bks := strings.Split(*backends, ",")
	for _, c := range strings.Split(*cases, ",") {
		switch c {
		case "eight_schools":
			eightSchools(bks, *chains, counts(*gchains), *nuts)
		case "logistic":
			logistic(bks, *dataDir, *n, *d, *lchains, *lcpu, *lwarm, *nuts)
		case "rwmh":
			rwmh(bks, *rchains, *rsteps)
		default:
			log.Fatalf("unknown case %q", c)
		}
	}
}

// counts parses a comma-separated list of counts.
func counts(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			log.Fatalf("bad count %q in %q", f, s)
		}
		out = append(out, n)
	}
	return out
}

func eightSchools(bks []string, chains int, gpuChains []int, nuts bool) {
	name := "eight_schools-eight_schools_noncentered"
	c, err := posteriordb.Load(name)
	if err != nil {
		log.Fatal(err)
	}
	set := posteriordb.CaseSettings(name)
	build := func() *ppl.Model {
		m, err := posteriordb.Model(name, c)
		if err != nil {
			log.Fatal(err)
		}
		return m
	}
	if nuts {
		run("eight_schools", "NUTS", "cpu", c, build(), 4, 1000, 1000, ppl.NUTS(), ppl.TargetAccept(set.TargetAccept))
	}
	for _, b := range bks {
		cs := gpuChains
		if b == "cpu" {
			cs = []int{chains}
		}
		for _, n := range cs {
			run("eight_schools", "ChEES", b, c, build(), n, 1000, 1000, ppl.ChEES(), ppl.TargetAccept(set.TargetAccept))
		}
	}
}

func logistic(bks []string, dir string, n, d, chains, cpuChains, iters int, nuts bool) {
	c := posteriordb.SimulatedLogistic(n, d, 1)
	if err := writeLogistic(dir, c); err != nil {
		log.Fatal(err)
	}
	build := func() *ppl.Model {
		m, err := posteriordb.Model(posteriordb.LogisticName, c)
		if err != nil {
			log.Fatal(err)
		}
		return m
	}
	if nuts {
		run("logistic", "NUTS", "cpu", nil, build(), 4, iters, iters, ppl.NUTS())
	}
	for _, b := range bks {
		ch := chains
		if b == "cpu" {
			ch = cpuChains
		}
		if ch == 0 {
			continue
		}
		run("logistic", "ChEES", b, nil, build(), ch, iters, iters, ppl.ChEES())
	}
}

// run samples m and prints its row; ref, when not nil, is the reference
// posterior.
func run(cs, method, backend string, ref *posteriordb.Case, m *ppl.Model, chains, warmup, draws int, opts ...ppl.SampleOption) {
	r := result{Case: cs, Method: method, Backend: backend, Chains: chains, Warmup: warmup, Draws: draws}
	opts = append(opts, ppl.Chains(chains), ppl.Warmup(warmup), ppl.Draws(draws), ppl.Seed(1), ppl.LiveProgress(false))
	if method != "NUTS" {
		opts = append(opts, ppl.Backend(backend))
	}
	t0 := time.Now()
	var p *posterior.Posterior
	err := func() (err error) {
		defer ppl.Catch(&err)
		p = m.Sample(opts...)
		return nil
	}()
	r.Wall = time.Since(t0).Seconds()
	if err != nil {
		r.Error = err.Error()
		r.print()
		return
	}
	if p.Backend != "" {
		r.Backend = p.Backend
	}
	measure(&r, p, ref)
	r.print()
}

// measure fills r's ESS, R-hat, error and means from p's kept chains.
func measure(r *result, p *posterior.Posterior, ref *posteriordb.Case) {
	r.MinESS = math.Inf(1)
	r.Means = map[string]float64{}
	for j, col := range p.Columns {
		chains := make([][]float64, len(p.Chains))
		sum, cnt := 0.0, 0
		for k, ch := range p.Chains {
			chains[k] = ch.Values[j]
			for _, v := range ch.Values[j] {
				sum += v
				cnt++
			}
		}
		mean := sum / float64(cnt)
		if j < 4 {
			r.Means[col] = mean
		}
		r.MinESS = math.Min(r.MinESS, diag.ESSBulk(chains))
		r.MaxRhat = math.Max(r.MaxRhat, diag.Rhat(chains))
		if ref != nil {
			if s, ok := ref.Ref(col); ok && s.SD > 0 {
				r.MaxErr = math.Max(r.MaxErr, math.Abs(mean-s.Mean)/s.SD)
			}
		}
	}
	if len(p.Chains) > 0 {
		r.GradsPer = p.Chains[0].Adaptation.GradEvals
	}
	scale := 1.0
	if p.RunChains > len(p.Chains) {
		scale = float64(p.RunChains) / float64(len(p.Chains))
	}
	r.ESSPerS = r.MinESS * scale / r.Wall
}

// writeLogistic writes c's X (row-major), y as little-endian float64 and
// their shape, for NumPyro.
func writeLogistic(dir string, c *posteriordb.Case) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	X := c.Data["X"].([][]float64)
	y := c.Data["y"].([]float64)
	flat := make([]float64, 0, len(X)*len(X[0]))
	for _, row := range X {
		flat = append(flat, row...)
	}
	for name, v := range map[string][]float64{"logistic_X.f64": flat, "logistic_y.f64": y} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if err := binary.Write(f, binary.LittleEndian, v); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	meta, _ := json.Marshal(map[string]int{"N": len(X), "D": len(X[0])})
	return os.WriteFile(filepath.Join(dir, "logistic.json"), meta, 0o644)
}

func rwmh(bks []string, chains, steps int) {
	m := posteriordb.MixtureModel()
	cm, err := m.Compile()
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range bks {
		r := result{Case: "rwmh_mixture", Method: "RWMH", Backend: b, Chains: chains, Draws: steps}
		cfg := lockstep.Config{Sampler: infer.RWMH, Chains: chains, NoWarmup: true, Draws: steps, Scale: 0.1, Seed: 1, Init: []float64{0}}
		if b != "cpu" {
			bk, err := accel.ByName(b)
			if err != nil {
				r.Error = err.Error()
				r.print()
				continue
			}
			cfg.Backend = bk
			if i, ok := bk.(interface{ Info() string }); ok {
				r.Backend = b + " (" + i.Info() + ")"
			}
		}
		// The steady rate, as JAX's compiled second run gives it: the
		// time of steps draws less that of steps/10, which carries the
		// same start (compile, initial values, the final read of every
		// chain's moments).
		// A first short run starts the worker and compiles the program.
		short := cfg
		short.Draws = max(1, steps/10)
		tShort := 0.0
		var err error
		for range 2 {
			t0 := time.Now()
			if _, err = lockstep.Run(context.Background(), cm, short); err != nil {
				break
			}
			tShort = time.Since(t0).Seconds()
		}
		if err != nil {
			r.Error = err.Error()
			r.print()
			continue
		}
		t0 := time.Now()
		res, err := lockstep.Run(context.Background(), cm, cfg)
		r.Wall = time.Since(t0).Seconds()
		if err != nil {
			r.Error = err.Error()
			r.print()
			continue
		}
		r.DrawsPS = float64(chains) * float64(steps) / r.Wall
		if r.Wall > tShort {
			r.SteadyDrawsPS = float64(chains) * float64(steps-short.Draws) / (r.Wall - tShort)
		}
		r.Means = map[string]float64{"mean": res.Moments.Mean[0], "variance": res.Moments.Var[0]}
		fmt.Printf("| rwmh_mixture | RWMH | %s | %d | %d steps | %.2f | %.3g draws/s (steady %.3g; %d steps took %.2f s) | mean %.4f | variance %.4f | |\n",
			r.Backend, chains, steps, r.Wall, r.DrawsPS, r.SteadyDrawsPS, short.Draws, tShort, res.Moments.Mean[0], res.Moments.Var[0])
		b2, _ := json.Marshal(r)
		fmt.Printf("RESULT %s\n", b2)
	}
}
