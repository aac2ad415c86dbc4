package ppl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/gobayes/gobayes/table"
)

// glmRows is a simulated data set for the GLM tests: a gaussian, a count,
// a 0/1 and a binomial response, two numeric predictors, a label column
// with three levels (floor) and a grouping column with five (county),
// an exposure and trials.
type glmRows struct {
	n                     int
	yg, yc, yb, k, trials []float64
	x1, x2, expo          []float64
	floor, county         []string
}

func makeGLMRows(n int, seed uint64) *glmRows {
	rng := rand.New(rand.NewPCG(seed, 7))
	r := &glmRows{n: n}
	floors := []string{"ground", "basement", "upper"}
	counties := []string{"Dakota", "Anoka", "Wright", "Benton", "Aitkin"}
	for i := 0; i < n; i++ {
		x1, x2 := 3+2*rng.NormFloat64(), rng.Float64()*10
		fl, co := floors[rng.IntN(3)], counties[rng.IntN(5)]
		expo := math.Log(0.5 + rng.Float64())
		eta := 0.3 + 0.2*x1 - 0.05*x2 + float64(len(co))*0.05
		r.x1, r.x2, r.floor, r.county, r.expo = append(r.x1, x1), append(r.x2, x2), append(r.floor, fl), append(r.county, co), append(r.expo, expo)
		r.yg = append(r.yg, eta+rng.NormFloat64())
		r.yc = append(r.yc, float64(rng.IntN(1+int(math.Exp(math.Min(eta, 3))))))
		r.yb = append(r.yb, float64(rng.IntN(2)))
		t := 1 + rng.IntN(8)
		r.trials = append(r.trials, float64(t))
		r.k = append(r.k, float64(rng.IntN(t+1)))
	}
	return r
}

// csv writes the rows to a file and reads them back with package table.
func (r *glmRows) table(t *testing.T, name string) *table.Table {
	t.Helper()
	var b strings.Builder
	b.WriteString("yg,yc,yb,k,trials,x1,x2,floor,county,expo\n")
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for i := 0; i < r.n; i++ {
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", g(r.yg[i]), g(r.yc[i]), g(r.yb[i]), g(r.k[i]), g(r.trials[i]), g(r.x1[i]), g(r.x2[i]), r.floor[i], r.county[i], g(r.expo[i]))
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err := table.ReadCSV(p)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// The default priors' rule, written out again here from the package's
// documentation (glm.go), for the hand-written twins.
func r3(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
	return v
}

func sampleMeanSD(d []float64) (float64, float64) {
	s := 0.0
	for _, v := range d {
		s += v
	}
	mean := s / float64(len(d))
	ss := 0.0
	for _, v := range d {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(d)-1))
}

// levels gives sorted labels and each row's 0-based code.
func levels(col []string) ([]string, []int) {
	ls := slices.Clone(col)
	sort.Strings(ls)
	ls = slices.Compact(ls)
	codes := make([]int, len(col))
	for i, c := range col {
		codes[i] = slices.Index(ls, c)
	}
	return ls, codes
}

// dummies is the treatment coding of col written as a matrix [N, L-1]
// of 0/1 indicators (the GLM gathers from a vector instead), with the
// levels' prior standard deviation 2.5·S/sd of the rarest level's
// indicator, and their share of the intercept's variance.
func dummies(col []string, S float64) (X [][]float64, sd, ivar float64) {
	ls, codes := levels(col)
	X = make([][]float64, len(col))
	for i := range X {
		X[i] = make([]float64, len(ls)-1)
		if codes[i] > 0 {
			X[i][codes[i]-1] = 1
		}
	}
	minSD := math.Inf(1)
	var means []float64
	for k := 1; k < len(ls); k++ {
		ind := make([]float64, len(col))
		for i := range col {
			ind[i] = X[i][k-1]
		}
		mean, s := sampleMeanSD(ind)
		minSD = math.Min(minSD, s)
		means = append(means, mean)
	}
	sd = r3(2.5 * S / minSD)
	for _, mean := range means {
		ivar += sd * sd * mean * mean
	}
	return X, sd, ivar
}

// slopePrior is a numeric column's coefficient's prior sd and its share
// of the intercept's variance.
func slopePrior(x []float64, S float64) (sd, ivar float64) {
	mean, s := sampleMeanSD(x)
	sd = r3(2.5 * S / s)
	return sd, sd * sd * mean * mean
}

// sameDensity compares the log densities of two models with the same
// free parameters (by name) at random positions: equal to 1e-12,
// relatively.
func sameDensity(t *testing.T, what string, a, b *Model) {
	t.Helper()
	ca, err := a.Compile()
	if err != nil {
		t.Fatalf("%s: GLM: %v", what, err)
	}
	cb, err := b.Compile()
	if err != nil {
		t.Fatalf("%s: by hand: %v", what, err)
	}
	if ca.Dim() != cb.Dim() {
		t.Fatalf("%s: GLM has %d unconstrained slots, the hand-written model %d", what, ca.Dim(), cb.Dim())
	}
	place := map[string]Param{}
	for _, p := range cb.Params() {
		place[p.Name] = p
	}
	rng := rand.New(rand.NewPCG(9, 9))
	xa, xb := make([]float64, ca.Dim()), make([]float64, cb.Dim())
	for trial := 0; trial < 20; trial++ {
		for i := range xa {
			xa[i] = 4*rng.Float64() - 2
		}
		for _, p := range ca.Params() {
			q, ok := place[p.Name]
			if !ok || q.Len != p.Len || q.Transform != p.Transform {
				t.Fatalf("%s: GLM parameter %s (%d, %s) has no twin (%+v)", what, p.Name, p.Len, p.Transform, q)
			}
			copy(xb[q.Offset:q.Offset+q.Len], xa[p.Offset:p.Offset+p.Len])
		}
		la, lb := ca.LogDensity(xa), cb.LogDensity(xb)
		if math.IsNaN(la) || math.IsInf(la, 0) || math.Abs(la-lb) > 1e-12*math.Max(1, math.Abs(lb)) {
			t.Fatalf("%s: log density %.15g by GLM, %.15g by hand (at %v)", what, la, lb, xa)
		}
	}
}

// TestGLMTwins: each GLM model has the log density of the same model
// written by hand, with the default priors worked out from the rule in
// glm.go's documentation (and the treatment coding as a matrix of
// indicators).
func TestGLMTwins(t *testing.T) {
	r := makeGLMRows(120, 1)
	tb := r.table(t, "rows.csv")
	countyLabels, countyIdx := levels(r.county)
	ymean, ysd := sampleMeanSD(r.yg)

	t.Run("gaussian y ~ x1 + x2", func(t *testing.T) {
		m := GLM("yg ~ x1 + x2", tb)
		s1, v1 := slopePrior(r.x1, ysd)
		s2, v2 := slopePrior(r.x2, ysd)
		h := NewModel("hand")
		a := h.Normal("Intercept", r3(ymean), r3(math.Sqrt(2.5*ysd*2.5*ysd+v1+v2)))
		b1 := h.Normal("x1", 0, s1)
		b2 := h.Normal("x2", 0, s2)
		sigma := h.HalfNormal("sigma", r3(ysd))
		h.Normal("yg", a.Add(b1.Mul(r.x1)).Add(b2.Mul(r.x2)), sigma, Observed(r.yg))
		sameDensity(t, "gaussian", m, h)
	})

	t.Run("poisson with offset, label column and varying intercept", func(t *testing.T) {
		m := GLM("yc ~ x1 + floor + (1 | county)", tb, Family("poisson"), Offset("expo"))
		s1, v1 := slopePrior(r.x1, 1)
		X, sdf, vf := dummies(r.floor, 1)
		cm, _ := sampleMeanSD(r.yc)
		em, _ := sampleMeanSD(r.expo)
		h := NewModel("hand")
		h.Coords("county", countyLabels...)
		a := h.Normal("Intercept", r3(math.Log(cm)-em), r3(math.Sqrt(2.5*2.5+v1+vf)))
		b1 := h.Normal("x1", 0, s1)
		bf := h.Normal("floor", 0, sdf, Size(2))
		sig := h.HalfNormal("1|county_sigma", 1)
		z := h.Normal("1|county_offset", 0, 1, Dims("county"))
		eta := a.Add(b1.Mul(r.x1)).Add(MatVec(X, bf)).Add(Index(sig.Mul(z), countyIdx)).Add(r.expo)
		h.Poisson("yc", Exp(eta), Observed(r.yc))
		sameDensity(t, "poisson", m, h)
	})

	t.Run("bernoulli without intercept, varying slope", func(t *testing.T) {
		m := GLM("yb ~ 0 + x2 + (1 + x1 | county)", tb, Family("bernoulli"))
		s2, _ := slopePrior(r.x2, 1)
		_, sd1 := sampleMeanSD(r.x1)
		h := NewModel("hand")
		h.Coords("county", countyLabels...)
		b2 := h.Normal("x2", 0, s2)
		si := h.HalfNormal("1|county_sigma", 1)
		zi := h.Normal("1|county_offset", 0, 1, Dims("county"))
		ss := h.HalfNormal("x1|county_sigma", r3(1/sd1))
		zs := h.Normal("x1|county_offset", 0, 1, Dims("county"))
		eta := b2.Mul(r.x2).Add(Index(si.Mul(zi), countyIdx)).Add(Index(ss.Mul(zs), countyIdx).Mul(r.x1))
		h.BernoulliLogit("yb", eta, Observed(r.yb))
		sameDensity(t, "bernoulli", m, h)
	})

	t.Run("binomial with trials", func(t *testing.T) {
		m := GLM("k ~ x1 + (1 | county)", tb, Family("binomial"), Trials("trials"))
		s1, v1 := slopePrior(r.x1, 1)
		ks, ns := 0.0, 0.0
		for i := range r.k {
			ks, ns = ks+r.k[i], ns+r.trials[i]
		}
		p := ks / ns
		h := NewModel("hand")
		h.Coords("county", countyLabels...)
		a := h.Normal("Intercept", r3(math.Log(p/(1-p))), r3(math.Sqrt(2.5*2.5+v1)))
		b1 := h.Normal("x1", 0, s1)
		sig := h.HalfNormal("1|county_sigma", 1)
		z := h.Normal("1|county_offset", 0, 1, Dims("county"))
		h.Binomial("k", r.trials, Logistic(a.Add(b1.Mul(r.x1)).Add(Index(sig.Mul(z), countyIdx))), Observed(r.k))
		sameDensity(t, "binomial", m, h)
	})

	t.Run("negative binomial", func(t *testing.T) {
		m := GLM("yc ~ x2", tb, Family("negativebinomial"))
		s2, v2 := slopePrior(r.x2, 1)
		cm, _ := sampleMeanSD(r.yc)
		h := NewModel("hand")
		a := h.Normal("Intercept", r3(math.Log(cm)), r3(math.Sqrt(2.5*2.5+v2)))
		b2 := h.Normal("x2", 0, s2)
		phi := h.Exponential("phi", 0.1)
		h.NegativeBinomial("yc", Exp(a.Add(b2.Mul(r.x2))), phi, Observed(r.yc))
		sameDensity(t, "negative binomial", m, h)
	})

	t.Run("priors given and replaced by name", func(t *testing.T) {
		m := GLM("yg ~ x1 + (1 | county)", tb, Prior("x1", "StudentT(3, 0, 1)"), Prior("Intercept", "Normal(0, 10)"))
		m.SetPrior("1|county_sigma", "HalfCauchy(2)")
		m.SetPrior("sigma", "Exponential(1)")
		h := NewModel("hand")
		h.Coords("county", countyLabels...)
		a := h.Normal("Intercept", 0, 10)
		b1 := h.StudentT("x1", 3, 0, 1)
		sig := h.HalfCauchy("1|county_sigma", 2)
		z := h.Normal("1|county_offset", 0, 1, Dims("county"))
		sigma := h.Exponential("sigma", 1)
		h.Normal("yg", a.Add(b1.Mul(r.x1)).Add(Index(sig.Mul(z), countyIdx)), sigma, Observed(r.yg))
		sameDensity(t, "priors", m, h)
		if s := m.String(); !strings.Contains(s, "1|county_sigma ~ HalfCauchy(2)") || !strings.Contains(s, "x1 ~ StudentT(3, 0, 1)") || !strings.Contains(s, "GLM yg ~ x1 + (1 | county), family gaussian") {
			t.Errorf("the listing does not show the priors given:\n%s", s)
		}
	})
}

// TestGLMListing: the listing shows the formula, every default prior by
// name and the label column's levels by their labels.
func TestGLMListing(t *testing.T) {
	r := makeGLMRows(60, 2)
	m := GLM("yc ~ floor + (1 | county)", r.table(t, "rows.csv"), Family("poisson"))
	s := m.String()
	for _, w := range []string{"family poisson (log link)", "Intercept ~ Normal(", "floor[floor_level=2] ~ Normal(0, ", "1|county_sigma ~ HalfNormal(1)", "1|county_offset[county=5] ~ Normal(0, 1)", "yc[60] ~ PoissonLog(", "1|county[county=5] = Mul(1|county_sigma, 1|county_offset)"} {
		if !strings.Contains(s, w) {
			t.Errorf("the listing lacks %q:\n%s", w, s)
		}
	}
	if h := m.HTML(); !strings.Contains(h, "family poisson") {
		t.Errorf("the HTML listing lacks the formula: %s", h)
	}
	fit := m.Sample(Seed(1), Chains(1), Warmup(50), Draws(20), LiveProgress(false))
	for _, col := range []string{"floor[ground]", "floor[upper]", "1|county[Aitkin]", "1|county[Wright]"} {
		if len(fit.Flat(col)) != 20 {
			t.Errorf("no draws of %s (the treatment coding's or the group's labels)", col)
		}
	}
}

// TestGLMFormulaErrors: a mistake in the formula names its column and
// says what to write.
func TestGLMFormulaErrors(t *testing.T) {
	tb := makeGLMRows(20, 3).table(t, "rows.csv")
	for _, c := range []struct {
		formula string
		col     int
		want    string
	}{
		{"yg x1", 4, "expected ~"},
		{"yg ~ x1 +", 10, "write a term"},
		{"yg ~", 5, "nothing follows ~"},
		{"yg ~ x1 x2", 9, "write + before"},
		{"yg ~ x1 * x2", 9, "interactions"},
		{"yg ~ x1:x2", 8, "interactions"},
		{"yg ~ log(x1)", 6, "add a column"},
		{"yg ~ (1 | county", 17, "expected ) to close"},
		{"yg ~ (1 + x1 county)", 14, "joined by +"},
		{"yg ~ (1 || county)", 10, "one bar"},
		{"yg ~ 2", 6, "offset"},
		{"yg ~ x1 + x1", 11, "named twice"},
		{"yg ~ yg", 6, "also a predictor"},
		{"yg ~ x1 - x2", 11, "leave \"x2\" out"},
		{"~ x1", 1, "starts with the response"},
		{"yg ~ x1 + $", 11, "not part of a formula"},
		{"yg ~ (0 | county)", 6, "varies nothing"},
		{"yg ~ (1 | county) + (x1 | county)", 27, "join them"},
		{"yg ~ nope", 6, "no column \"nope\""},
		{"yg ~ x1 + (1 | nope)", 16, "no column \"nope\""},
		{"nope ~ x1", 1, "no column \"nope\""},
		{"yg ~ (1 + floor | county)", 11, "label column"},
		{"yg ~ (1 | x1)", 11, "fractions"},
		{"floor ~ x1", 1, "holds labels"},
	} {
		err := mustFail(t, c.formula, func() { GLM(c.formula, tb) })
		msg := err.Error()
		if !strings.Contains(msg, fmt.Sprintf("column %d:", c.col)) || !strings.Contains(msg, c.want) {
			t.Errorf("GLM(%q): %v\nwant column %d and %q", c.formula, err, c.col, c.want)
		}
		if lines := strings.Split(msg, "\n"); len(lines) != 3 || strings.Index(lines[2], "^")-4 != c.col-1 {
			t.Errorf("GLM(%q): the caret is not under column %d:\n%s", c.formula, c.col, msg)
		}
	}
}

// TestGLMOptionErrors: unknown columns in the options list the table's
// columns; an unknown family lists the families; a Prior naming no
// variable lists them.
func TestGLMOptionErrors(t *testing.T) {
	tb := makeGLMRows(20, 4).table(t, "rows.csv")
	for _, c := range []struct {
		what string
		f    func()
		want []string
	}{
		{"offset column", func() { GLM("yc ~ x1", tb, Family("poisson"), Offset("exposure")) }, []string{"Offset", "no column \"exposure\"", "yg, yc, yb, k, trials, x1, x2, floor, county, expo"}},
		{"trials missing", func() { GLM("k ~ x1", tb, Family("binomial")) }, []string{"ppl.Trials"}},
		{"family", func() { GLM("yg ~ x1", tb, Family("gamma")) }, []string{"no family \"gamma\"", "gaussian, bernoulli, binomial, poisson, negativebinomial"}},
		{"prior name", func() { GLM("yg ~ x1", tb, Prior("x3", "Normal(0, 1)")) }, []string{"x3", "Intercept, x1, sigma"}},
		{"prior family", func() { GLM("yg ~ x1", tb, Prior("x1", "Gaussian(0, 1)")) }, []string{"x1", "no family \"Gaussian\""}},
		{"prior arity", func() { GLM("yg ~ x1", tb, Prior("x1", "Normal(1)")) }, []string{"Normal takes 2 numbers (mu, sigma), got 1"}},
		{"SetPrior on data", func() { GLM("yg ~ x1", tb).SetPrior("yg", "Normal(0, 1)") }, []string{"free random variable", "Intercept, x1, sigma"}},
		{"SetRows on a hand model", func() { NewModel("m").SetRows(tb) }, []string{"not built by GLM", "SetData"}},
	} {
		err := mustFail(t, c.what, c.f)
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v; want %q", c.what, err, w)
			}
		}
	}
}

// TestGLMSetRowsPredictions: new rows of a table (labels in another
// order, no response column) go to the GLM's containers with the codes
// the model was built with; the predictions there follow the fit, and a
// level the model has not seen is an error naming the row.
func TestGLMSetRowsPredictions(t *testing.T) {
	r := makeGLMRows(150, 5)
	m := GLM("yg ~ x1 + floor + (1 | county)", r.table(t, "rows.csv"))
	fit := m.Sample(Seed(1), Chains(2), Warmup(300), Draws(300), LiveProgress(false))
	idata := m.InferenceData(fit, Seed(2))
	dir := t.TempDir()
	p := filepath.Join(dir, "new.csv")
	if err := os.WriteFile(p, []byte("x1,floor,county\n2.5,upper,Wright\n-1,ground,Aitkin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := table.ReadCSV(p)
	if err != nil {
		t.Fatal(err)
	}
	m.SetRows(rows)
	pred := m.Predictions(idata, fit, Seed(3))
	mean := func(xs []float64) float64 { return stat.Mean(xs, nil) }
	draws := func(c string) []float64 { return fit.Flat(c) }
	for i, c := range []struct {
		x1            float64
		floor, county string
	}{{2.5, "upper", "Wright"}, {-1, "ground", "Aitkin"}} {
		want := mean(draws("Intercept")) + c.x1*mean(draws("x1")) + mean(draws("1|county["+c.county+"]"))
		want += mean(draws("floor[" + c.floor + "]")) // basement, first in order, is the reference
		got := mean(pred.Flat(fmt.Sprintf("yg[%d]", i)))
		// The mean of 600 predictive draws with sd ≈ 1: within 0.3.
		if math.IsNaN(got) || math.Abs(got-want) > 0.3 {
			t.Errorf("prediction yg[%d] (%v) has mean %.3f, want %.3f from the fit", i, c, got, want)
		}
	}
	if got := idata.Draws["predictions"]; got != pred {
		t.Errorf("InferenceData has no predictions group")
	}
	// xarray reads the store back, the GLM's names ("1|county") and
	// labels included.
	store := filepath.Join(t.TempDir(), "glm.zarr")
	if err := idata.WriteZarr(store); err != nil {
		t.Fatal(err)
	}
	expected := expectedStore(idata)
	if _, ok := expected["posterior"]["1|county"]; !ok {
		t.Fatalf("the posterior group has no 1|county")
	}
	expected["_coords"] = map[string]any{"county": []string{"Aitkin", "Anoka", "Benton", "Dakota", "Wright"}, "floor_level": []string{"ground", "upper"}}
	readBack(t, store, expected)

	if err := os.WriteFile(p, []byte("x1,floor,county\n1,upper,Wright\n0,ground,Hennepin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad, err := table.ReadCSV(p)
	if err != nil {
		t.Fatal(err)
	}
	e := mustFail(t, "unknown level", func() { m.SetRows(bad) })
	for _, w := range []string{"county", "\"Hennepin\" at row 1", "Aitkin"} {
		if !strings.Contains(e.Error(), w) {
			t.Errorf("SetRows with an unknown level: %v; want %q", e, w)
		}
	}
	if err := os.WriteFile(p, []byte("floor,county\nupper,Wright\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	short, _ := table.ReadCSV(p)
	e = mustFail(t, "missing column", func() { m.SetRows(short) })
	if !strings.Contains(e.Error(), "no column \"x1\"") || !strings.Contains(e.Error(), "floor, county") {
		t.Errorf("SetRows without a column: %v", e)
	}
}
