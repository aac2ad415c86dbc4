// Command stan compares gobayes with Stan (Debian's r-cran-rstan) on the
// posteriordb cases, both run in the same invocation with the same settings:
// 4 chains, 1000 warm-up, 1000 draws, the per-case settings of
// internal/posteriordb.CaseSettings.
//
//	go run ./bench/stan [-cases REGEXP] [-out results.jsonl] [-stan=false]
//
// For each case it prints, for both tools, the compile time, the sampling
// wall time (warm-up included), the minimum bulk ESS, ESS per second, the
// gradient evaluations and the time per gradient (chain time divided by
// gradients; for gobayes, sampling wall time × busy cores divided by
// gradients, since its chains share the cores), then the ratios. Stan's
// sampling wall time includes rstan's start of one R process per core; it ends with the geometric mean of the ESS/s
// ratio and, for eight schools, the ratio of the time from model definition
// to summary (Stan: compile and sample).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl/infer"
)

// run is one tool's result on one case, in the fields run_stan.R prints.
type run struct {
	Case          string  `json:"case"`
	Tool          string  `json:"tool"`
	CompileS      float64 `json:"compile_s"`
	WallS         float64 `json:"wall_s"`
	MinESSBulk    float64 `json:"min_ess_bulk"`
	ESSPerS       float64 `json:"ess_per_s"`
	Gradients     float64 `json:"gradients"`
	USPerGradient float64 `json:"us_per_gradient"`
	Divergent     int     `json:"divergent"`
	// DefToSummaryS is the time from model definition to summary
	// (gobayes: build, compile, sample, summarise; Stan: compile and sample).
	DefToSummaryS float64 `json:"def_to_summary_s"`
	Err           string  `json:"error,omitempty"`
}

func main() {
	cases := flag.String("cases", "", "regular expression selecting the cases (default: all)")
	out := flag.String("out", "", "also append every result as a JSON line to this file")
	withStan := flag.Bool("stan", true, "run Stan too (needs Rscript with rstan and jsonlite)")
	seed := flag.Uint64("seed", 1, "random seed of both tools")
	flag.Parse()
	sel, err := regexp.Compile(*cases)
	if err != nil {
		fail("bad -cases: %v", err)
	}
	dir, err := posteriordb.Dir()
	if err != nil {
		fail("%v", err)
	}
	script, err := filepath.Abs(filepath.Join(sourceDir(), "run_stan.R"))
	if err != nil {
		fail("%v", err)
	}
	var rows [][2]*run
	for _, name := range posteriordb.Cases() {
		if name == posteriordb.LogisticName || !sel.MatchString(name) {
			continue
		}
		set := posteriordb.CaseSettings(name)
		var s *run
		if *withStan {
			s = runStan(script, dir, name, set, *seed)
			record(*out, s)
		}
		g := runGobayes(name, set, *seed)
		record(*out, g)
		rows = append(rows, [2]*run{g, s})
		fmt.Fprintln(os.Stderr, line(g, s))
	}
	report(rows)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench/stan: "+format+"\n", args...)
	os.Exit(1)
}

// sourceDir finds this command's folder, whether run with go run from the
// repository root or from here.
func sourceDir() string {
	for _, d := range []string{"bench/stan", "."} {
		if _, err := os.Stat(filepath.Join(d, "run_stan.R")); err == nil {
			return d
		}
	}
	fail("run_stan.R not found: run from the repository root")
	return ""
}

func record(path string, r *run) {
	if path == "" || r == nil {
		return
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fail("%v", err)
	}
	defer f.Close()
	b, _ := json.Marshal(r)
	f.Write(append(b, '\n'))
}

func runStan(script, dir, name string, set posteriordb.Settings, seed uint64) *run {
	r := &run{Case: name, Tool: "stan"}
	tmp, err := os.CreateTemp("", "stan-*.jsonl")
	if err != nil {
		r.Err = err.Error()
		return r
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	cmd := exec.Command("Rscript", script, dir, tmp.Name(), name)
	cmd.Env = append(os.Environ(), fmt.Sprintf("BENCH_SEED=%d", seed))
	if set.TargetAccept > 0 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("STAN_ADAPT_DELTA=%g", set.TargetAccept))
	}
	if set.Dense {
		cmd.Env = append(cmd.Env, "STAN_METRIC=dense_e")
	}
	if set.InitRadius > 0 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("STAN_INIT_R=%g", set.InitRadius))
	}
	if set.DrawsFactor > 1 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("STAN_DRAWS=%d", 1000*set.DrawsFactor))
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		r.Err = fmt.Sprintf("Rscript: %v: %s", err, lastLines(stderr.String(), 5))
		return r
	}
	b, err := os.ReadFile(tmp.Name())
	if err != nil || len(bytes.TrimSpace(b)) == 0 {
		r.Err = "Rscript printed no result: " + lastLines(stderr.String(), 5)
		return r
	}
	if err := json.Unmarshal(bytes.TrimSpace(b), r); err != nil {
		r.Err = err.Error()
	}
	r.DefToSummaryS = r.CompileS + r.WallS
	return r
}

func lastLines(s string, n int) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t != "" && !strings.Contains(t, "codetools") {
			lines = append(lines, t)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

func runGobayes(name string, set posteriordb.Settings, seed uint64) *run {
	r := &run{Case: name, Tool: "gobayes"}
	c, err := posteriordb.Load(name)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	start := time.Now()
	m, err := posteriordb.Model(name, c)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	compiled, err := m.Compile()
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.CompileS = time.Since(start).Seconds()
	cfg := infer.Config{Chains: 4, Warmup: 1000, Draws: 1000, Seed: seed}
	set.Apply(&cfg)
	t0 := time.Now()
	p, err := infer.Run(context.Background(), compiled, cfg)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.WallS = time.Since(t0).Seconds()
	_ = p.Summary().String()
	r.DefToSummaryS = time.Since(start).Seconds()
	r.MinESSBulk = p.Diagnostics().MinESSBulk
	r.ESSPerS = r.MinESSBulk / r.WallS
	for _, ch := range p.Chains {
		r.Gradients += float64(ch.Adaptation.GradEvals)
	}
	// The chains share the cores (4 goroutines on GOMAXPROCS cores), so a
	// chain's own wall time counts the time it waited; charge instead the
	// whole capacity used: sampling wall time × busy cores. This
	// overestimates gobayes's time per gradient, never the reverse.
	busy := min(runtime.GOMAXPROCS(0), len(p.Chains))
	r.USPerGradient = 1e6 * r.WallS * float64(busy) / r.Gradients
	r.Divergent = p.Divergences()
	return r
}

func line(g, s *run) string {
	if s == nil {
		return fmt.Sprintf("%-42s gobayes %.2fs ESS/s %.0f", g.Case, g.WallS, g.ESSPerS)
	}
	return fmt.Sprintf("%-42s gobayes %.2fs ESS/s %.0f | stan %.2fs ESS/s %.0f", g.Case, g.WallS, g.ESSPerS, s.WallS, s.ESSPerS)
}

func report(rows [][2]*run) {
	fmt.Printf("gobayes against Stan (rstan %s), 4 chains x (1000 warm-up + 1000 draws), GOMAXPROCS=%d\n\n", "2.21", runtime.GOMAXPROCS(0))
	fmt.Println("| case | tool | compile s | sampling s | min ESS bulk | ESS/s | gradients | µs/gradient | divergent |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|---:|")
	logSum, n, below := 0.0, 0, 0
	for _, row := range rows {
		for _, r := range row {
			if r == nil {
				continue
			}
			if r.Err != "" {
				fmt.Printf("| %s | %s | error: %s |||||||\n", r.Case, r.Tool, r.Err)
				continue
			}
			fmt.Printf("| %s | %s | %.2f | %.2f | %.0f | %.0f | %.0f | %.2f | %d |\n",
				r.Case, r.Tool, r.CompileS, r.WallS, r.MinESSBulk, r.ESSPerS, r.Gradients, r.USPerGradient, r.Divergent)
		}
	}
	fmt.Println()
	fmt.Println("| case | ESS/s gobayes ÷ Stan | µs/gradient Stan ÷ gobayes | definition→summary Stan ÷ gobayes |")
	fmt.Println("|---|---:|---:|---:|")
	for _, row := range rows {
		g, s := row[0], row[1]
		if s == nil || g.Err != "" || s.Err != "" {
			continue
		}
		ratio := g.ESSPerS / s.ESSPerS
		logSum += math.Log(ratio)
		n++
		if ratio < 1 {
			below++
		}
		fmt.Printf("| %s | %.2f | %.1f | %.0f |\n", g.Case, ratio, s.USPerGradient/g.USPerGradient, s.DefToSummaryS/g.DefToSummaryS)
	}
	if n > 0 {
		fmt.Printf("\ngeometric mean of ESS/s ratio over %d cases: %.2f (target >= 2); cases below 1: %d (target 0)\n", n, math.Exp(logSum/float64(n)), below)
	}
}
