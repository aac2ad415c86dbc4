// Command docimages renders every plot type for the eight-schools
// posterior (centred and non-centred) into docs/img, for the README and
// the plotting documentation. Run it with `make docs-images`.
//
// The posteriors come from the real sampler (ppl, NUTS, 4 chains × 1000
// draws, seed 1); with -synthetic, or when sampling fails, from
// eightschools.Synthetic. The count-data predictive check uses synthetic
// counts (eight schools has none).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"

	"github.com/gobayes/gobayes/plotting"
	"github.com/gobayes/gobayes/plotting/internal/eightschools"
	"github.com/gobayes/gobayes/ppl/posterior"
)

func main() {
	out := flag.String("out", "docs/img", "directory to write the PNGs into")
	synthetic := flag.Bool("synthetic", false, "use synthetic draws instead of the sampler")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	figs, err := figures(*synthetic)
	if err != nil {
		fmt.Fprintf(os.Stderr, "docimages: %v; using synthetic draws\n", err)
		if figs, err = figures(true); err != nil {
			fail(err)
		}
	}
	failed := false
	for _, f := range figs {
		path := filepath.Join(*out, f.name+".png")
		if err := save(f.fig, path); err != nil {
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

func fail(err error) {
	fmt.Fprintln(os.Stderr, "docimages:", err)
	os.Exit(1)
}

// save writes the figure as a PNG compressed harder than a notebook's
// (these files are committed).
func save(f *plotting.Figure, path string) error {
	b, err := f.PNG()
	if err != nil {
		return err
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

type named struct {
	name string
	fig  *plotting.Figure
}

func figures(synthetic bool) ([]named, error) {
	var c, nc *posterior.Posterior
	var yrep any
	var elbo any
	if synthetic {
		c = eightschools.Synthetic(true, 4, 1000, 1)
		nc = eightschools.Synthetic(false, 4, 1000, 1)
		yrep = eightschools.Replicates(nc, 200, 3)
		elbo = eightschools.ELBOHistory(2000, 5)
	} else {
		var err error
		mc, mnc := eightschools.Model(true), eightschools.Model(false)
		if c, err = eightschools.Sample(mc, 1); err != nil {
			return nil, err
		}
		if nc, err = eightschools.Sample(mnc, 1); err != nil {
			return nil, err
		}
		if yrep, err = eightschools.Predictive(mnc, nc, 2); err != nil {
			return nil, err
		}
		if elbo, err = eightschools.ADVI(mnc, 3); err != nil {
			return nil, err
		}
	}
	three := []any{"mu", "tau", "theta[1]"}
	with := func(extra ...any) []any { return append(append([]any{}, three...), extra...) }
	return []named{
		{"trace_centred", plotting.Trace(c, three...)},
		{"trace_noncentred", plotting.Trace(nc, three...)},
		{"pair_centred", plotting.Pair(c, three...)},
		{"pair_noncentred", plotting.Pair(nc, three...)},
		{"pair_centred_logtau", plotting.Pair(c, "tau", "theta[1]", plotting.Log("tau"))},
		{"forest_centred", plotting.Forest(c, "mu", "tau", "theta")},
		{"forest_models", plotting.Forest([]*posterior.Posterior{c, nc}, "mu", "tau", "theta", plotting.Labels("centred", "non-centred"))},
		{"posterior_centred", plotting.Posterior(c, with(plotting.Ref(0), plotting.ROPE(-1, 1))...)},
		{"posterior_noncentred", plotting.Posterior(nc, with(plotting.Histogram())...)},
		{"rank_centred", plotting.Rank(c, three...)},
		{"rank_noncentred", plotting.Rank(nc, three...)},
		{"autocorr_centred", plotting.Autocorr(c, three...)},
		{"autocorr_noncentred", plotting.Autocorr(nc, three...)},
		{"energy_centred", plotting.Energy(c)},
		{"energy_noncentred", plotting.Energy(nc)},
		{"ess_centred", plotting.ESS(c, three...)},
		{"ess_noncentred", plotting.ESS(nc, three...)},
		{"ppc_continuous", plotting.PPC(eightschools.Y, yrep)},
		{"ppc_counts", plotting.PPC(eightschools.Counts(), eightschools.CountReplicates(200, 4))},
		{"elbo", plotting.ELBO(elbo)},
		{"dist", plotting.Dist(eightschools.TauPrior(4000, 6), plotting.Labels("tau prior draws"))},
	}, nil
}
