package posterior

import (
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestStanCSVReadByRstan has R's rstan (read_stan_csv, a reader written by
// the Stan developers) read the files and report the mean of theta[2], the
// divergences and the step size; it is skipped where R or rstan is missing.
func TestStanCSVReadByRstan(t *testing.T) {
	if testing.Short() {
		t.Skip("starts R")
	}
	if _, err := exec.LookPath("Rscript"); err != nil {
		t.Skip("Rscript not installed")
	}
	if err := exec.Command("Rscript", "-e", "library(rstan)").Run(); err != nil {
		t.Skip("rstan not installed (Debian: r-cran-rstan)")
	}
	p := fake(100, noShift, 4)
	files, err := p.WriteStanCSV(filepath.Join(t.TempDir(), "fake"))
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`suppressMessages(library(rstan)); f <- read_stan_csv(c("%s"));
cat(sprintf("%%.12g %%d %%.12g", mean(as.matrix(f, pars="theta[2]")), get_num_divergent(f),
  get_sampler_params(f, inc_warmup=FALSE)[[1]][1, "stepsize__"]))`, strings.Join(files, `","`))
	out, err := exec.Command("Rscript", "-e", script).CombinedOutput()
	if err != nil {
		t.Fatalf("rstan could not read the files: %v\n%s", err, out)
	}
	f := strings.Fields(strings.TrimSpace(string(out)))
	if len(f) != 3 {
		t.Fatalf("unexpected R output %q", out)
	}
	mean, _ := strconv.ParseFloat(f[0], 64)
	div, _ := strconv.Atoi(f[1])
	eps, _ := strconv.ParseFloat(f[2], 64)
	want := 0.0
	for _, v := range p.Flat("theta[1]") { // Stan's theta[2]: Stan counts from 1
		want += v / 400
	}
	if math.Abs(mean-want) > 1e-9 || div != 4 || eps != 0.7 {
		t.Errorf("rstan read mean(theta[2]) %g, %d divergences, step size %g; want %g, 4, 0.7", mean, div, eps, want)
	}
}
