// Command docimages renders every plot type for the eight-schools
// posterior (centred and non-centred) into docs/img, for the README and
// the plotting documentation. Run it with `make docs-images`.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gobayes/gobayes/plotting"
	"github.com/gobayes/gobayes/plotting/internal/eightschools"
	"github.com/gobayes/gobayes/ppl/posterior"
)

func main() {
	out := flag.String("out", "docs/img", "directory to write the PNGs into")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	centred := eightschools.Synthetic(true, 4, 1000, 1)
	noncentred := eightschools.Synthetic(false, 4, 1000, 1)
	figs := figures(centred, noncentred)
	failed := false
	for _, f := range figs {
		path := filepath.Join(*out, f.name+".png")
		if err := f.fig.Save(path); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			failed = true
			continue
		}
		fmt.Println(path)
	}
	if failed {
		os.Exit(1)
	}
}

type named struct {
	name string
	fig  *plotting.Figure
}

func figures(c, nc *posterior.Posterior) []named {
	return []named{
		{"trace_centred", plotting.Trace(c, "mu", "tau", "theta[1]")},
		{"trace_noncentred", plotting.Trace(nc, "mu", "tau", "theta[1]")},
		{"pair_centred", plotting.Pair(c, "mu", "tau", "theta[1]")},
		{"pair_noncentred", plotting.Pair(nc, "mu", "tau", "theta[1]")},
		{"forest_centred", plotting.Forest(c)},
		{"forest_models", plotting.Forest([]*posterior.Posterior{c, nc}, "mu", "tau", "theta", plotting.Labels("centred", "non-centred"))},
		{"posterior_centred", plotting.Posterior(c, "mu", "tau", "theta[1]", plotting.Ref(0), plotting.ROPE(-1, 1))},
		{"posterior_noncentred", plotting.Posterior(nc, "mu", "tau", "theta[1]", plotting.Histogram())},
		{"rank_centred", plotting.Rank(c, "mu", "tau", "theta[1]")},
		{"rank_noncentred", plotting.Rank(nc, "mu", "tau", "theta[1]")},
		{"autocorr_centred", plotting.Autocorr(c, "mu", "tau", "theta[1]")},
		{"autocorr_noncentred", plotting.Autocorr(nc, "mu", "tau", "theta[1]")},
		{"energy_centred", plotting.Energy(c)},
		{"energy_noncentred", plotting.Energy(nc)},
		{"ess_centred", plotting.ESS(c, "mu", "tau", "theta[1]")},
		{"ess_noncentred", plotting.ESS(nc, "mu", "tau", "theta[1]")},
		{"ppc_continuous", plotting.PPC(eightschools.Y, eightschools.Replicates(nc, 200, 3))},
		{"ppc_counts", plotting.PPC(eightschools.Counts(), eightschools.CountReplicates(200, 4))},
		{"elbo", plotting.ELBO(eightschools.ELBOHistory(2000, 5))},
		{"dist", plotting.Dist(eightschools.TauPrior(4000, 6), plotting.Labels("tau prior draws"))},
	}
}
