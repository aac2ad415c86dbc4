package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"time"

	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl/infer"
)

func main() {
	sampler := flag.String("sampler", "nuts", "sampler: nuts, hmc, rwmh, chees or meads (unless -chains says otherwise chees runs 1024 chains, meads 256 thinned by 40; rwmh runs ten times the iterations)")
	cases := flag.String("cases", "", "regular expression selecting the cases (default: all)")
	chains := flag.Int("chains", 4, "chains per case")
	seed := flag.Uint64("seed", 1, "random seed")
	warmup := flag.Int("warmup", 1000, "warm-up iterations per chain")
	draws := flag.Int("draws", 1000, "draws per chain")
	thin := flag.Int("thin", 0, "MEADS: iterations per kept draw (default 0: validate's choice, see meadsThin)")
	asJSON := flag.Bool("json", false, "print one JSON object per case instead of a line")
	flag.Parse()

	sel, err := regexp.Compile(*cases)
	if err != nil {
		fmt.Fprintf(os.Stderr, "validate: bad -cases pattern: %v\n", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	smp, err := infer.ParseSampler(*sampler)
	if err != nil {
		fmt.Fprintf(os.Stderr, "validate: -sampler: %v\n", err)
		os.Exit(2)
	}
	cfg := infer.Config{Sampler: smp, Chains: *chains, Seed: *seed, Warmup: *warmup, Draws: *draws}
	var defaults []string
	if cfg.Sampler != infer.NUTS {
		defaults = append(defaults, "sampler "+cfg.Sampler.String())
	}
	if *chains != 4 || *warmup != 1000 || *draws != 1000 {
		defaults = append(defaults, fmt.Sprintf("%d chains, %d warm-up, %d draws", *chains, *warmup, *draws))
	}
	if len(defaults) > 0 {
		fmt.Println("settings differing from the defaults for every case:", strings.Join(defaults, "; "))
	}
	start := time.Now()
	passed, failed := 0, 0
	for _, name := range posteriordb.Cases() {
		if name == posteriordb.LogisticName || !sel.MatchString(name) {
			continue
		}
		r := runCase(ctx, name, cfg, *thin)
		if *asJSON {
			if r.err != nil {
				r.Error = r.err.Error()
			}
			// JSON has no NaN: undefined statistics print as -1.
			for _, f := range []*float64{&r.WorstZ, &r.WorstSD, &r.MaxRhat, &r.MinBulk, &r.MinTail} {
				if math.IsNaN(*f) || math.IsInf(*f, 0) {
					*f = -1
				}
			}
			b, _ := json.Marshal(r)
			fmt.Println(string(b))
		} else {
			fmt.Println(r.line())
		}
		if r.Pass {
			passed++
		} else {
			failed++
		}
		if ctx.Err() != nil {
			break
		}
	}
	fmt.Printf("%d passed, %d failed (%.0f s)\n", passed, failed, time.Since(start).Seconds())
	if failed > 0 {
		os.Exit(1)
	}
}
