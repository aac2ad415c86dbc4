package posterior

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fake builds a posterior of 4 chains × n draws: mu ~ N(shift(c), 1),
// theta[0..1] ~ N(0, 2), and a deterministic d = 2·mu, with NUTS-like stats
// and the given number of divergences in chain 1.
func fake(n int, shift func(c int) float64, divergences int) *Posterior {
	rng := rand.New(rand.NewPCG(9, 9))
	p := &Posterior{
		Model:   "fake",
		Vars:    []Var{{Name: "mu", Start: 0}, {Name: "theta", Shape: []int{2}, Start: 1}, {Name: "d", Deterministic: true, Start: 3}},
		Columns: []string{"mu", "theta[0]", "theta[1]", "d"},
		Sampler: "NUTS", Warmup: 100, Seconds: []float64{1, 2, 1.5, 1},
		Settings: Settings{Seed: 3, TargetAccept: 0.8, MaxDepth: 10, Metric: "diag_e"},
	}
	for c := 0; c < 4; c++ {
		ch := Chain{Values: make([][]float64, 4)}
		for j := range ch.Values {
			ch.Values[j] = make([]float64, n)
		}
		st := &ch.Stats
		st.LP, st.AcceptStat, st.StepSize, st.Energy = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		st.TreeDepth, st.NLeapfrog, st.Divergent = make([]int, n), make([]int, n), make([]bool, n)
		for i := 0; i < n; i++ {
			mu := shift(c) + rng.NormFloat64()
			ch.Values[0][i] = mu
			ch.Values[1][i] = 2 * rng.NormFloat64()
			ch.Values[2][i] = 2 * rng.NormFloat64()
			ch.Values[3][i] = 2 * mu
			st.LP[i] = -0.5 * mu * mu
			st.AcceptStat[i] = rng.Float64()
			st.StepSize[i] = 0.7
			st.Energy[i] = -st.LP[i] + rng.ExpFloat64()
			st.TreeDepth[i] = 2
			st.NLeapfrog[i] = 3
			st.Divergent[i] = c == 0 && i < divergences
		}
		ch.Adaptation = Adaptation{StepSize: 0.7, InvMetric: []float64{1.5, 2, 3}, WarmupSeconds: 0.25, SamplingSeconds: 0.75, GradEvals: 999}
		p.Chains = append(p.Chains, ch)
	}
	return p
}

func noShift(int) float64 { return 0 }

func TestStanCSVRoundTrip(t *testing.T) {
	p := fake(50, noShift, 3)
	p.Chains[1].Values[1][7] = math.Inf(-1)
	dir := t.TempDir()
	files, err := p.WriteStanCSV(filepath.Join(dir, "fake"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Fatalf("%d files, want 4", len(files))
	}
	q, err := ReadStanCSV(files...)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(q.Columns, p.Columns) || !reflect.DeepEqual(q.Vars, p.Vars) {
		t.Fatalf("layout: %v %v, want %v %v", q.Columns, q.Vars, p.Columns, p.Vars)
	}
	if q.Model != p.Model || q.Sampler != p.Sampler || q.Warmup != p.Warmup || q.Settings != p.Settings {
		t.Errorf("metadata %q %q %d %+v, want %q %q %d %+v", q.Model, q.Sampler, q.Warmup, q.Settings, p.Model, p.Sampler, p.Warmup, p.Settings)
	}
	for c := range p.Chains {
		want, got := p.Chains[c], q.Chains[c]
		want.Adaptation.GradEvals = 0 // not part of the Stan CSV format
		if !reflect.DeepEqual(got, want) {
			t.Errorf("chain %d differs after the round trip:\n got %+v\nwant %+v", c, got.Adaptation, want.Adaptation)
		}
	}
}

// TestStanCSVFormat checks the lines cmdstanpy's reader requires
// (cmdstanpy/utils/stancsv.py: scan_config, scan_hmc_params).
func TestStanCSVFormat(t *testing.T) {
	p := fake(5, noShift, 0)
	var b bytes.Buffer
	if err := p.WriteChainCSV(&b, 0); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{
		"# model = fake\n", "#     num_samples = 5\n", "#     num_warmup = 100\n", "#     save_warmup = 0\n",
		"#         metric = diag_e\n", "#             max_depth = 10\n",
		"\nlp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,mu,theta.1,theta.2,d\n# Adaptation terminated\n# Step size = 0.7\n# Diagonal elements of inverse mass matrix:\n# 1.5, 2, 3\n",
		"#  Elapsed Time: 0.25 seconds (Warm-up)\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("Stan CSV lacks %q", want)
		}
	}
}

func TestJSON(t *testing.T) {
	p := fake(10, noShift, 0)
	p.Chains[0].Values[0][2] = math.NaN()
	var b bytes.Buffer
	if err := p.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Variables []struct {
			Name    string
			Columns []string
		}
		Chains []struct {
			Draws map[string][]*float64
		}
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Chains) != 4 || got.Variables[1].Name != "theta" || len(got.Variables[1].Columns) != 2 {
		t.Fatalf("decoded %+v", got)
	}
	if got.Chains[0].Draws["mu"][2] != nil {
		t.Error("NaN not written as null")
	}
	if v := *got.Chains[3].Draws["theta[1]"][9]; v != p.Chains[3].Values[2][9] {
		t.Errorf("theta[1] draw 10 of chain 4 = %v, want %v", v, p.Chains[3].Values[2][9])
	}
	// SaveJSON writes the same bytes to a file.
	path := filepath.Join(t.TempDir(), "p.json")
	if err := p.SaveJSON(path); err != nil {
		t.Fatal(err)
	}
	if saved, err := os.ReadFile(path); err != nil || !bytes.Equal(saved, b.Bytes()) {
		t.Errorf("SaveJSON wrote %d bytes (%v), WriteJSON %d", len(saved), err, b.Len())
	}
}

// TestSummaryByHand checks mean, sd and quantiles on a 2-chain posterior
// of 4 draws whose values are known: {1,2,3,4} and {5,6,7,8}: mean 4.5,
// sd sqrt(6) (sample variance 42/7), median 4.5.
func TestSummaryByHand(t *testing.T) {
	p := &Posterior{Columns: []string{"x"}, Vars: []Var{{Name: "x"}}, Seconds: []float64{2, 4},
		Chains: []Chain{{Values: [][]float64{{1, 2, 3, 4}}}, {Values: [][]float64{{5, 6, 7, 8}}}}}
	r := p.Summary().Rows[0]
	if r.Mean != 4.5 || math.Abs(r.SD-math.Sqrt(6)) > 1e-12 || r.Median != 4.5 {
		t.Errorf("mean %g sd %g median %g, want 4.5, %g, 4.5", r.Mean, r.SD, r.Median, math.Sqrt(6))
	}
	// 94% HDI of 8 sorted draws: floor(0.94·8) = 7 steps wide: [1, 8].
	if r.HDI3 != 1 || r.HDI97 != 8 {
		t.Errorf("HDI [%g, %g], want [1, 8]", r.HDI3, r.HDI97)
	}
	// Chains that disagree this much must be flagged.
	if r.Rhat < 1.1 {
		t.Errorf("R-hat %g for chains {1..4} and {5..8}, want > 1.1", r.Rhat)
	}
	// ESS per second uses the slowest chain's 4 seconds.
	if math.Abs(r.ESSBulkPerSecond-r.ESSBulk/4) > 1e-12 {
		t.Errorf("ESS/s %g, want ESS/4 = %g", r.ESSBulkPerSecond, r.ESSBulk/4)
	}
}

func TestSummaryRendering(t *testing.T) {
	p := fake(200, noShift, 0)
	text := p.String()
	for _, h := range []string{"mean", "sd", "hdi_3%", "hdi_97%", "mcse_mean", "mcse_sd", "ess_bulk", "ess_tail", "r_hat", "ess_bulk/s", "theta[1]"} {
		if !strings.Contains(text, h) {
			t.Errorf("text summary lacks %q:\n%s", h, text)
		}
	}
	h := p.HTML()
	if !strings.HasPrefix(h, `<div class="gobayes-summary"><table`) || strings.Count(h, "<tr>") != 5 {
		t.Errorf("HTML summary: want a table of a header and 4 rows, got %s", h)
	}
}

func TestWarnings(t *testing.T) {
	cases := []struct {
		name string
		p    *Posterior
		want []string // substrings, one per expected warning; none: clean
	}{
		{"clean", fake(500, noShift, 0), nil},
		{"divergent", fake(500, noShift, 5), []string{"5 of 2000 draws (0.2%) ended in a divergent transition", "ppl.TargetAccept"}},
		{"stuck", fake(500, func(c int) float64 { return 3 * float64(c) }, 0), []string{"R-hat above 1.01 for mu, d"}},
	}
	for _, c := range cases {
		got := strings.Join(c.p.Warnings(), "\n")
		if c.want == nil && got != "" {
			t.Errorf("%s: unexpected warnings %q", c.name, got)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: warnings %q lack %q", c.name, got, w)
			}
		}
	}
	// Tree depth and E-BFMI.
	p := fake(500, noShift, 0)
	for i := range p.Chains[2].Stats.TreeDepth[:50] {
		p.Chains[2].Stats.TreeDepth[i] = 10
	}
	e := p.Chains[1].Stats.Energy
	for i := range e {
		e[i] = float64(i) // a trend: tiny changes against a large variance
	}
	for i := range p.Chains[3].Stats.AcceptStat {
		p.Chains[3].Stats.AcceptStat[i] = 0
	}
	got := strings.Join(p.Warnings(), "\n")
	for _, w := range []string{"50 of 2000 draws (2.5%) hit the maximum tree depth 10", "E-BFMI below 0.3 (chain 2:", "chain 4 (mean acceptance 0, step size 0.7) barely moved"} {
		if !strings.Contains(got, w) {
			t.Errorf("warnings %q lack %q", got, w)
		}
	}
}

func TestSelect(t *testing.T) {
	p := fake(10, noShift, 0)
	q := p.Select("theta", "mu")
	if strings.Join(q.Columns, " ") != "theta[0] theta[1] mu" {
		t.Errorf("columns %v", q.Columns)
	}
	if q.Vars[0].Name != "theta" || q.Vars[1].Start != 2 {
		t.Errorf("vars %+v", q.Vars)
	}
	if q.Chains[1].Values[2][4] != p.Chains[1].Values[0][4] {
		t.Error("selected draws differ from the original's")
	}
	if got := len(p.Summary("theta[1]", "d").Rows); got != 2 {
		t.Errorf("Summary of 2 names has %d rows", got)
	}
	defer func() {
		r := recover()
		err, ok := r.(error)
		if !ok || !strings.Contains(err.Error(), `no variable or column "sigma"`) || !strings.Contains(err.Error(), "mu, theta, d") {
			t.Errorf("Select of an unknown name: panic %v", r)
		}
	}()
	p.Select("sigma")
}

func TestDiagnostics(t *testing.T) {
	p := fake(300, func(c int) float64 { return 2 * float64(c) }, 7)
	d := p.Diagnostics()
	if d.Divergences != 7 || d.TreeDepthHits != 0 || len(d.EBFMI) != 4 {
		t.Errorf("divergences %d, tree-depth hits %d, %d E-BFMI values", d.Divergences, d.TreeDepthHits, len(d.EBFMI))
	}
	// mu and d = 2·mu are shifted per chain; theta is not.
	if d.MaxRhat < 1.1 || (d.WorstRhat != "mu" && d.WorstRhat != "d") {
		t.Errorf("max R-hat %g at %s, want > 1.1 at mu or d", d.MaxRhat, d.WorstRhat)
	}
	if !(d.MinESSBulk < 100) || (d.WorstESS != "mu" && d.WorstESS != "d") {
		t.Errorf("min ESS %g at %s, want < 100 at mu or d", d.MinESSBulk, d.WorstESS)
	}
}

// TestDisplayCap: a posterior of 100 scalars shows 40 rows and says how
// many it left out.
func TestDisplayCap(t *testing.T) {
	p := &Posterior{Model: "wide"}
	for j := 0; j < 100; j++ {
		p.Columns = append(p.Columns, fmt.Sprintf("x[%d]", j))
	}
	p.Vars = []Var{{Name: "x", Shape: []int{100}}}
	rng := rand.New(rand.NewPCG(1, 1))
	for c := 0; c < 2; c++ {
		ch := Chain{}
		for j := 0; j < 100; j++ {
			col := make([]float64, 50)
			for i := range col {
				col[i] = rng.NormFloat64()
			}
			ch.Values = append(ch.Values, col)
		}
		p.Chains = append(p.Chains, ch)
	}
	h := p.HTML()
	if n := strings.Count(h, "<tr>") - 1; n != DisplayRows || !strings.Contains(h, "60 more scalars") {
		t.Errorf("display shows %d rows; want %d and a note of 60 more", n, DisplayRows)
	}
	if n := len(p.Summary().Rows); n != 100 {
		t.Errorf("Summary has %d rows, want 100", n)
	}
}

// TestStanCSVDenseRoundTrip: a dense inverse metric is written as CmdStan
// writes it (one row per line) and read back whole.
func TestStanCSVDenseRoundTrip(t *testing.T) {
	p := fake(20, noShift, 0)
	p.Settings.Metric = "dense_e"
	for c := range p.Chains {
		p.Chains[c].Adaptation.Dense = true
		p.Chains[c].Adaptation.InvMetric = []float64{2, 0.5, 0.1, 0.5, 3, -0.2, 0.1, -0.2, 1.5}
	}
	var b bytes.Buffer
	if err := p.WriteChainCSV(&b, 0); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "# Elements of inverse mass matrix:\n# 2, 0.5, 0.1\n# 0.5, 3, -0.2\n# 0.1, -0.2, 1.5\n") {
		t.Errorf("dense metric block not as CmdStan writes it:\n%s", b.String())
	}
	files, err := p.WriteStanCSV(filepath.Join(t.TempDir(), "dense"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := ReadStanCSV(files...)
	if err != nil {
		t.Fatal(err)
	}
	a := q.Chains[2].Adaptation
	if !a.Dense || !reflect.DeepEqual(a.InvMetric, p.Chains[2].Adaptation.InvMetric) || q.Settings.Metric != "dense_e" {
		t.Errorf("read back dense=%v metric %v (%s)", a.Dense, a.InvMetric, q.Settings.Metric)
	}
}

// TestReadStanCSVSaveWarmup reads a file laid out as CmdStan writes it with
// save_warmup = 1 (warm-up rows before "# Adaptation terminated"): only the
// sampling rows are draws.
func TestReadStanCSVSaveWarmup(t *testing.T) {
	text := `# model = m
#     num_samples = 2
#     num_warmup = 3
#     save_warmup = 1
#     thin = 1
lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,mu
-1,0.9,1,1,1,0,1,10
-1,0.9,1,1,1,0,1,11
-1,0.9,1,1,1,0,1,12
# Adaptation terminated
# Step size = 0.5
# Diagonal elements of inverse mass matrix:
# 2
-2,0.8,0.5,2,3,0,2,1
-2,0.8,0.5,2,3,1,2,2
`
	path := filepath.Join(t.TempDir(), "w.csv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := ReadStanCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Flat("mu"); !reflect.DeepEqual(got, []float64{1, 2}) || p.Divergences() != 1 || p.Chains[0].Adaptation.StepSize != 0.5 {
		t.Errorf("mu %v, %d divergences, step size %g; want [1 2], 1, 0.5", got, p.Divergences(), p.Chains[0].Adaptation.StepSize)
	}
}

// TestPercent: shares that one decimal would show as 0.0% or 100.0% are
// bounded instead; the others are rounded to one decimal (by hand).
func TestPercent(t *testing.T) {
	cases := []struct {
		k, n int
		want string
	}{
		{0, 4000, "0%"},
		{1, 4000, "<0.1%"}, // 0.025%
		{2, 4000, "0.1%"},  // 0.05% rounds up
		{5, 2000, "0.2%"},  // 0.25%, one decimal
		{50, 2000, "2.5%"},
		{3999, 4000, ">99.9%"}, // 99.975%
		{3997, 4000, "99.9%"},  // 99.925%
		{4000, 4000, "100%"},
	}
	for _, c := range cases {
		if got := percent(c.k, c.n); got != c.want {
			t.Errorf("percent(%d, %d) = %q, want %q", c.k, c.n, got, c.want)
		}
	}
}

// TestRhatShown: every R-hat the summary flags shows a value above 1.01,
// in text (marked "*") and HTML (red) alike, and the warnings name the
// same scalars.
func TestRhatShown(t *testing.T) {
	cases := []struct {
		r       float64
		shown   string
		flagged bool
	}{
		{1.0, "1.000", false},
		{1.0100, "1.010", false},
		{1.0104, "1.0104", true}, // above the threshold: flagged, with the decimal that shows it
		{1.01003, "1.01003", true},
		{1.00996, "1.010", false},
		{1.012, "1.012", true},
		{1.2, "1.200", true},
	}
	for _, c := range cases {
		s := &Summary{Model: "m", Sampler: "NUTS", Chains: 4, Draws: 100, Rows: []SummaryRow{{Name: "x", Rhat: c.r}}}
		text, h := s.String(), s.HTML()
		wantText := c.shown
		if c.flagged {
			wantText += "*"
		}
		if !strings.Contains(text, " "+wantText+" ") {
			t.Errorf("R-hat %g: text lacks %q:\n%s", c.r, wantText, text)
		}
		red := `color:#b00">` + c.shown + "*<"
		if strings.Contains(h, red) != c.flagged || !strings.Contains(h, ">"+c.shown+"<") && !c.flagged {
			t.Errorf("R-hat %g: HTML shows %q flagged %v, want flagged %v: %s", c.r, c.shown, strings.Contains(h, red), c.flagged, h)
		}
	}
}

// TestESSPerSecond: the rate is shown only for runs of at least
// MinSecondsForRate; shorter ones show a dash.
func TestESSPerSecond(t *testing.T) {
	for _, c := range []struct {
		seconds float64
		shown   bool
	}{{0.002, false}, {0.049, false}, {0.05, true}, {4, true}} {
		p := fake(200, noShift, 0)
		for i := range p.Seconds {
			p.Seconds[i] = c.seconds
		}
		r := p.Summary().Rows[0]
		if c.shown != !math.IsNaN(r.ESSBulkPerSecond) {
			t.Errorf("%g s: ESS/s %g, want shown %v", c.seconds, r.ESSBulkPerSecond, c.shown)
		}
		if c.shown && math.Abs(r.ESSBulkPerSecond-r.ESSBulk/c.seconds) > 1e-9*r.ESSBulk/c.seconds {
			t.Errorf("%g s: ESS/s %g, want ESS/seconds = %g", c.seconds, r.ESSBulkPerSecond, r.ESSBulk/c.seconds)
		}
		last := strings.Fields(strings.Split(p.String(), "\n")[2])
		if got := last[len(last)-1]; (got == "—") == c.shown {
			t.Errorf("%g s: ess_bulk/s cell %q", c.seconds, got)
		}
	}
}

// TestApproximationSummary: draws from an approximation show their
// moments and intervals, not chain diagnostics, and raise no chain warnings.
func TestApproximationSummary(t *testing.T) {
	p := fake(200, func(c int) float64 { return 3 * float64(c) }, 5) // would warn as chains
	p.Approximation = true
	s := p.Summary()
	r := s.Rows[0]
	if math.IsNaN(r.Mean) || math.IsNaN(r.HDI3) || !math.IsNaN(r.Rhat) || !math.IsNaN(r.ESSBulk) || !math.IsNaN(r.ESSBulkPerSecond) {
		t.Errorf("row %+v: want moments and intervals, no diagnostics", r)
	}
	if len(s.Warnings) != 0 {
		t.Errorf("warnings %q for an approximation", s.Warnings)
	}
	text := p.String()
	if !strings.Contains(text, "800 draws from the approximation") || !strings.Contains(text, "do not apply") || strings.Contains(text, "r_hat") {
		t.Errorf("text, want moments and intervals only:\n%s", text)
	}
	if h := p.HTML(); strings.Count(h, "<th>") != 5 || strings.Contains(h, "r_hat") {
		t.Errorf("HTML, want 5 columns (name, mean, sd, HDI): %s", h)
	}
}

// TestNumberForms: every column of the summary has one number form,
// chosen from the column's magnitudes (issue 25: HDI bounds 8.04e-03
// beside -1.675, 0.000223 beside 9.76e-05), and E-BFMIs under 0.3 never
// show as 0.30 and share their decimals (0.2996 beside 0.2000, not 0.20).
func TestNumberForms(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name string
		rows []SummaryRow
		// want: per row, mean, sd, hdi_3%, hdi_97%, mcse_mean, mcse_sd, r_hat
		want [][]string
	}{
		{"az.summary's 3 decimals",
			[]SummaryRow{{Mean: 3.643, SD: 3.312, HDI3: 0.5, HDI97: 9.319, MCSEMean: 0.072, MCSESD: 0.065, Rhat: 1.001}},
			[][]string{{"3.643", "3.312", "0.500", "9.319", "0.072", "0.065", "1.001"}}},
		{"an HDI bound near zero",
			[]SummaryRow{{Mean: -0.8, SD: 0.5, HDI3: -1.675, HDI97: 8.04e-03, MCSEMean: 0.012, MCSESD: 9.39e-03, Rhat: 1}},
			[][]string{{"-0.800", "0.500", "-1.6750", "0.0080", "0.0120", "0.0094", "1.000"}}},
		{"small and smaller in one column",
			[]SummaryRow{
				{Mean: 4.24e-04, SD: 2.41e-03, HDI3: -4.40e-03, HDI97: 4.67e-03, MCSEMean: 1.21e-04, MCSESD: 1.23e-04, Rhat: 1.0105},
				{Mean: -0.194, SD: 2.63e-03, HDI3: -0.198, HDI97: -0.188, MCSEMean: 1.13e-04, MCSESD: 8.02e-05, Rhat: 1.0}},
			[][]string{
				{"0.00042", "0.0024", "-0.0044", "0.0047", "1.21e-04", "1.23e-04", "1.0105"},
				{"-0.19400", "0.0026", "-0.1980", "-0.1880", "1.13e-04", "8.02e-05", "1.0000"}}},
		{"a tiny value makes the column scientific",
			[]SummaryRow{{Mean: 2e-7, SD: 1, HDI3: -2, HDI97: 2, MCSEMean: 0.01, MCSESD: 0.01, Rhat: 1}, {Mean: 1.5, SD: 1, HDI3: -2, HDI97: 2, MCSEMean: 0.01, MCSESD: 0.01, Rhat: 1}},
			[][]string{{"2.00e-07", "1.000", "-2.000", "2.000", "0.010", "0.010", "1.000"}, {"1.50e+00", "1.000", "-2.000", "2.000", "0.010", "0.010", "1.000"}}},
		{"0.000999 rounds to 0.0010 (2 significant digits, 4 decimals)",
			[]SummaryRow{{Mean: 0.000999, SD: 1, HDI3: 0, HDI97: 1, MCSEMean: 0, MCSESD: 0, Rhat: nan}},
			[][]string{{"0.0010", "1.000", "0.000", "1.000", "0.000", "0.000", "—"}}},
	}
	for _, c := range cases {
		for i := range c.rows {
			c.rows[i].Name = fmt.Sprintf("x%d", i)
			c.rows[i].ESSBulk, c.rows[i].ESSTail, c.rows[i].ESSBulkPerSecond = 1000, 1000, nan
		}
		s := &Summary{Model: "m", Sampler: "NUTS", Chains: 4, Draws: 100, Rows: c.rows}
		lines := strings.Split(s.String(), "\n")
		for i := range c.rows {
			cells := strings.Fields(strings.ReplaceAll(lines[2+i], "*", ""))
			got := []string{cells[1], cells[2], cells[3], cells[4], cells[5], cells[6], cells[9]}
			if !reflect.DeepEqual(got, c.want[i]) {
				t.Errorf("%s, row %d: %q, want %q", c.name, i, got, c.want[i])
			}
		}
	}
	for _, c := range []struct {
		vs   []float64
		want []string
	}{
		{[]float64{0.2996}, []string{"0.2996"}},
		{[]float64{0.25}, []string{"0.25"}},
		{[]float64{0.29999}, []string{"0.29999"}},
		{[]float64{0.2996, 0.2}, []string{"0.2996", "0.2000"}},
		{[]float64{0.16, 0.21, 0.28}, []string{"0.16", "0.21", "0.28"}},
	} {
		if got := belowAll(c.vs, 0.3); !reflect.DeepEqual(got, c.want) {
			t.Errorf("belowAll(%v, 0.3) = %q, want %q", c.vs, got, c.want)
		}
	}
}
