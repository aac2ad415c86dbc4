package plotting

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobayes/gobayes/plotting/internal/eightschools"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// The documentation images: every plot type for the eight-schools
// posterior (centred and non-centred), for the README and the plotting
// documentation. `make docs-images` writes them into docs/img:
//
//	go test -run '^TestDocImages$' -count 1 ./plotting -docimages
//	go test -run '^TestDocImages$' -count 1 ./plotting -docimages -docimages.synthetic
var (
	docImagesWrite     = flag.Bool("docimages", false, "TestDocImages writes the documentation images into "+docImagesDir)
	docImagesSynthetic = flag.Bool("docimages.synthetic", false, "TestDocImages uses synthetic draws instead of the sampler")
)

// docImagesDir is the repository's docs/img from this package's directory
// (the tests' working directory).
var docImagesDir = filepath.Join("..", "docs", "img")

// TestDocImages renders every documentation image and checks that each
// is a non-empty PNG. With -docimages it writes them into docs/img; else
// into a temporary directory.
//
// The posteriors come from the real sampler (ppl, NUTS, 4 chains × 1000
// draws, seed 1); with -docimages.synthetic, or in -short mode, from
// eightschools.Synthetic. When -docimages is given and sampling fails,
// the images fall back to synthetic draws (the failure is logged); without
// it the failure fails the test. The count-data predictive check uses
// synthetic counts (eight schools has none).
func TestDocImages(t *testing.T) {
	dir := t.TempDir()
	synthetic := *docImagesSynthetic || (testing.Short() && !*docImagesWrite)
	if *docImagesWrite {
		dir = docImagesDir
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	figs, err := docImageFigures(synthetic)
	if err != nil {
		if !*docImagesWrite {
			t.Fatalf("sampling the eight-schools posteriors: %v", err)
		}
		t.Logf("sampling the eight-schools posteriors: %v; using synthetic draws", err)
		if figs, err = docImageFigures(true); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range figs {
		path := filepath.Join(dir, f.name+".png")
		if err := writeDocImage(f.fig, path); err != nil {
			t.Errorf("%s: %v", f.name, err)
			continue
		}
		if *docImagesWrite {
			t.Log(path)
		}
	}
}

// writeDocImage writes the figure as a PNG compressed harder than a
// notebook's (these files are committed), after checking that it decodes
// to a non-empty image.
func writeDocImage(f *Figure, path string) error {
	b, err := f.PNG()
	if err != nil {
		return err
	}
	if len(b) == 0 {
		return fmt.Errorf("empty PNG")
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return err
	}
	if r := img.Bounds(); r.Dx() <= 0 || r.Dy() <= 0 {
		return fmt.Errorf("empty image (%v)", r)
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

type docImage struct {
	name string
	fig  *Figure
}

func docImageFigures(synthetic bool) ([]docImage, error) {
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
	three := []any{"mu", "tau", "theta[0]"}
	with := func(extra ...any) []any { return append(append([]any{}, three...), extra...) }
	return []docImage{
		{"trace_centred", Trace(c, three...)},
		{"trace_noncentred", Trace(nc, three...)},
		{"pair_centred", Pair(c, three...)},
		{"pair_noncentred", Pair(nc, three...)},
		{"pair_centred_logtau", Pair(c, "tau", "theta[0]", Log("tau"))},
		{"forest_centred", Forest(c, "mu", "tau", "theta")},
		{"forest_models", Forest([]*posterior.Posterior{c, nc}, "mu", "tau", "theta", Labels("centred", "non-centred"))},
		{"posterior_centred", Posterior(c, with(Ref(0), ROPE(-1, 1))...)},
		{"posterior_noncentred", Posterior(nc, with(Histogram())...)},
		{"rank_centred", Rank(c, three...)},
		{"rank_noncentred", Rank(nc, three...)},
		{"autocorr_centred", Autocorr(c, three...)},
		{"autocorr_noncentred", Autocorr(nc, three...)},
		{"energy_centred", Energy(c)},
		{"energy_noncentred", Energy(nc)},
		{"ess_centred", ESS(c, three...)},
		{"ess_noncentred", ESS(nc, three...)},
		{"ppc_continuous", PPC(eightschools.Y, yrep)},
		{"ppc_counts", PPC(eightschools.Counts(), eightschools.CountReplicates(200, 4))},
		{"elbo", ELBO(elbo)},
		{"dist", Dist(eightschools.TauPrior(4000, 6), Labels("tau prior draws"))},
	}, nil
}
