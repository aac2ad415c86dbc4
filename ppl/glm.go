package ppl

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/table"
)

// GLMOption sets how GLM builds its model: Family, Offset, Trials,
// Prior, ModelName.
type GLMOption func(*glmSettings)

type glmSettings struct {
	family string
	offset string
	trials string
	name   string
	priors []glmPrior
}

type glmPrior struct{ name, spec string }

// Family picks the GLM's likelihood and link: "gaussian" (the default;
// "normal" too), "bernoulli" and "binomial" (logit link), "poisson" and
// "negativebinomial" (log link).
func Family(name string) GLMOption { return func(s *glmSettings) { s.family = name } }

// Offset adds a column to the GLM's linear predictor with coefficient 1:
// the log of the exposure in a Poisson rate model.
func Offset(column string) GLMOption { return func(s *glmSettings) { s.offset = column } }

// Trials names the column with each row's number of trials, for the
// binomial family.
func Trials(column string) GLMOption { return func(s *glmSettings) { s.trials = column } }

// Prior gives a GLM variable another prior than the default, written as
// the listing writes one: ppl.Prior("floor", "Normal(0, 1)"),
// ppl.Prior("1|county_sigma", "HalfCauchy(1)"). The family takes numbers
// only.
func Prior(name, prior string) GLMOption {
	return func(s *glmSettings) { s.priors = append(s.priors, glmPrior{name, prior}) }
}

// ModelName names the model GLM builds (the response column's name and
// "_glm" by default).
func ModelName(name string) GLMOption { return func(s *glmSettings) { s.name = name } }

// glmSpec is what SetRows needs to give a GLM model new rows.
type glmSpec struct {
	formula, family string
	numeric         []string            // columns held as "<col>_data"
	coded           map[string][]string // string (or grouping) columns held as "<col>_idx", by their labels
	order           []string            // the containers in the order made
}

var glmFamilies = []string{"gaussian", "bernoulli", "binomial", "poisson", "negativebinomial"}

// GLM builds a regression model from a formula over the columns of
// table t, as bambi and brms do:
//
//	t, _ := table.ReadCSV("radon.csv")
//	m := ppl.GLM("log_radon ~ floor + (1 | county)", t)
//	m                                        // the listing: every prior
//	m.SetPrior("floor", "Normal(0, 1)")      // replace one by name
//	fit := m.Sample(ppl.Seed(1))
//	m.SetRows(newHouses)                     // new rows: predictions
//	pred := m.Predictions(idata, fit)
//
// The model is an ordinary *Model: the listing shows what GLM made,
// SetPrior replaces a prior, and anything can be added before sampling.
//
// What the formula makes (names as bambi gives them):
//   - Intercept, the intercept, unless the formula says 0 or - 1;
//   - a coefficient per numeric column, named as the column;
//   - a string column x becomes treatment-coded: the first level (in
//     sorted order) is the reference, and the coefficient x has one
//     element per other level, x[level], along the dimension x_level;
//   - a group-level term (1 + x | g) makes, for the intercept and each
//     slope, a standard deviation "1|g_sigma" ("x|g_sigma"), standard
//     normal offsets "1|g_offset" with one element per level of g, and
//     the varying effect "1|g" = sigma · offset (non-centred, which
//     samples well with few rows per group), with dimension g labelled
//     by g's levels in sorted order; the varying terms are independent;
//   - the likelihood, named as the response column, with the family's
//     link: gaussian (identity, with a standard deviation sigma),
//     bernoulli and binomial (logit; binomial needs Trials), poisson
//     (log) and negativebinomial (log, with an overdispersion phi:
//     variance mu + mu²/phi).
//
// Data enter as containers named after their columns: a numeric column
// x as "x_data", a string column's codes as "x_idx", the offset and the
// trials likewise; SetRows gives them all a new table's rows at once
// (string labels mapped to the codes the model was built with).
//
// Default priors are weakly informative and scaled to the data, so that
// the same model reads the same whatever the units of the columns. Let
// S be the response's scale: its standard deviation for gaussian, 1 on
// the link scale otherwise (a unit change of a log rate or a log odds is
// already a large effect). A coefficient of a column with standard
// deviation s gets Normal(0, 2.5·S/s): the effect of a change of one
// standard deviation of the column is within ±5·S with 95% prior
// probability. A string column's levels share one
// prior, with s the standard deviation of the rarest level's 0/1
// indicator column (the widest of the levels' priors). The intercept is
// centred where the data put it (the response's mean through the link,
// less the offset's mean) with standard deviation sqrt((2.5·S)² + Σ
// (sd_j·mean_j)²) over the coefficients j: the predictors are not
// centred, so the intercept's uncertainty includes the coefficients'
// times the columns' means. A group-level standard deviation gets
// HalfNormal(S) for a varying intercept and HalfNormal(S/s) for a
// varying slope; sigma (gaussian) HalfNormal(S); phi Exponential(0.1)
// (mean 10, from strong overdispersion to near Poisson). Every number is
// rounded to three significant digits, as the listing shows it.
//
// A mistake in the formula is an error quoting it with a caret under the
// place and saying what to write; a column the table does not have is an
// error listing the columns it has. The formula's grammar: the response
// column, ~, then terms joined by + — a column's name, 1 or 0 (with or
// without the intercept; - 1 also removes it), and (terms | g) with 1
// and numeric columns as its terms. Interactions and functions of
// columns are not read: add a column with their values to the table.
func GLM(formula string, t *table.Table, opts ...GLMOption) *Model {
	s := glmSettings{family: "gaussian"}
	for _, o := range opts {
		o(&s)
	}
	f, err := parseGLMFormula(formula)
	if err != nil {
		panic(err)
	}
	if t == nil {
		panic(&Error{Var: "GLM", Msg: "no table given; read one with table.ReadCSV(path)"})
	}
	fam := strings.ReplaceAll(strings.ReplaceAll(strings.ToLower(s.family), "_", ""), " ", "")
	switch fam {
	case "normal":
		fam = "gaussian"
	case "negbinomial", "negativebinomial2":
		fam = "negativebinomial"
	}
	if !slices.Contains(glmFamilies, fam) {
		panic(&Error{Var: "GLM", Msg: fmt.Sprintf("no family %q; the families are %s", s.family, strings.Join(glmFamilies, ", "))})
	}
	b := &glmBuilder{f: f, t: t, s: &s, fam: fam, spec: &glmSpec{coded: map[string][]string{}}, priors: map[string]string{}}
	for _, p := range s.priors {
		if _, dup := b.priors[p.name]; dup {
			panic(&Error{Var: p.name, Msg: "two priors given for it (ppl.Prior); give one"})
		}
		b.priors[p.name] = p.spec
	}
	name := s.name
	if name == "" {
		name = f.response.name + "_glm"
	}
	b.m = NewModel(name)
	b.build()
	for name := range b.priors {
		if !b.used[name] {
			panic(&Error{Var: name, Msg: fmt.Sprintf("ppl.Prior names no variable of the GLM; its variables with priors are %s", strings.Join(b.made, ", "))})
		}
	}
	b.spec.formula, b.spec.family = formula, fam
	b.m.glm = b.spec
	return b.m
}

type glmBuilder struct {
	f      *glmFormula
	t      *table.Table
	s      *glmSettings
	fam    string
	m      *Model
	spec   *glmSpec
	priors map[string]string // the user's, by variable name
	used   map[string]bool
	made   []string // the variables with priors, in order
	scale  float64  // S
}

// column is the table's column named n (at position pos of the formula,
// 0 for an option's), or an error listing the columns there are.
func (b *glmBuilder) column(n string, pos int, what string) *table.Column {
	if b.t.Has(n) {
		return b.t.Col(n)
	}
	msg := fmt.Sprintf("no column %q in table %s (its columns: %s); name one of them", n, b.t.Name(), strings.Join(b.t.Names(), ", "))
	if pos > 0 {
		panic(glmErr(b.f.src, pos, "%s", msg))
	}
	panic(&Error{Var: "GLM", Msg: what + ": " + msg})
}

// numeric is the values of a numeric column, which must be complete.
func (b *glmBuilder) numeric(c *table.Column, pos int, what string) []float64 {
	if c.Kind() == table.String {
		msg := fmt.Sprintf("column %q holds labels (%s…), not numbers; %s", c.Name(), strings.Join(firstN(c.Labels(), 3), ", "), what)
		if pos > 0 {
			panic(glmErr(b.f.src, pos, "%s", msg))
		}
		panic(&Error{Var: "GLM", Msg: msg})
	}
	d := c.Floats()
	if i := firstNonFinite(d); i >= 0 {
		panic(&Error{Var: "GLM", Msg: fmt.Sprintf("column %q holds %v at row %d (0-based, after the header); drop or impute the rows with missing values before GLM", c.Name(), d[i], i)})
	}
	return d
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// codes is a string (or whole-number) column as sorted labels and each
// row's code, for a categorical predictor or a grouping column.
func codesOf(c *table.Column) (labels []string, codes []int) {
	if c.Kind() == table.String {
		s := c.Sorted()
		d := s.Floats()
		codes = make([]int, len(d))
		for i, v := range d {
			codes[i] = int(v)
		}
		return s.Labels(), codes
	}
	d := c.Floats()
	vals := slices.Clone(d)
	slices.Sort(vals)
	vals = slices.Compact(vals)
	labels = make([]string, len(vals))
	for i, v := range vals {
		labels[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	codes = make([]int, len(d))
	for i, v := range d {
		codes[i], _ = slices.BinarySearch(vals, v)
	}
	return labels, codes
}

// round3 rounds x to three significant digits.
func round3(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
	return v
}

// meanSD is d's mean and sample standard deviation (NaN for one value).
func meanSD(d []float64) (mean, sd float64) { return stat.MeanStdDev(d, nil) }

// prior makes the variable name with the user's prior or the default
// family def and parameters.
func (b *glmBuilder) prior(name, def string, params []float64, opts ...Option) *RV {
	if b.used == nil {
		b.used = map[string]bool{}
	}
	b.made = append(b.made, name)
	spec, ok := b.priors[name]
	var fam *dist.Family
	var ps []any
	if ok {
		b.used[name] = true
		fam, ps = parsePrior(name, spec)
	} else {
		fam = family(def)
		for _, p := range params {
			ps = append(ps, round3(p))
		}
	}
	return b.m.Var(name, fam, ps, opts...)
}

// data makes the container of a numeric column.
func (b *glmBuilder) data(col string, d []float64) Expr {
	name := col + "_data"
	if _, ok := b.m.names[name]; ok { // a column both a term and a varying slope
		return asExpr(b.m.dataNode(name))
	}
	b.spec.numeric = append(b.spec.numeric, col)
	b.spec.order = append(b.spec.order, name)
	return b.m.Data(name, d)
}

// index makes the codes container of a string or grouping column.
func (b *glmBuilder) index(c *table.Column) (Expr, []string) {
	name := c.Name() + "_idx"
	if labels, ok := b.spec.coded[c.Name()]; ok {
		return asExpr(b.m.dataNode(name)), labels
	}
	labels, codes := codesOf(c)
	b.spec.coded[c.Name()] = labels
	b.spec.order = append(b.spec.order, name)
	return b.m.Data(name, codes), labels
}

func (b *glmBuilder) build() {
	f, m := b.f, b.m
	yc := b.column(f.response.name, f.response.pos, "")
	y := b.numeric(yc, f.response.pos, "the response is numbers (for a yes/no column, code it 0/1 in the file)")
	n := len(y)
	var trials []float64
	if b.fam == "binomial" {
		if b.s.trials == "" {
			panic(&Error{Var: "GLM", Msg: "the binomial family needs each row's number of trials: ppl.Trials(\"column\") (for 0/1 outcomes use ppl.Family(\"bernoulli\"))"})
		}
		trials = b.numeric(b.column(b.s.trials, 0, "Trials"), 0, "Trials names a column of counts")
	} else if b.s.trials != "" {
		panic(&Error{Var: "GLM", Msg: fmt.Sprintf("Trials applies to the binomial family, not %s", b.fam)})
	}
	var offset []float64
	if b.s.offset != "" {
		offset = b.numeric(b.column(b.s.offset, 0, "Offset"), 0, "Offset names a numeric column (the log of the exposure, say)")
	}

	// The scale S and the intercept's centre.
	ymean, ysd := meanSD(y)
	b.scale = 1
	var centre float64
	switch b.fam {
	case "gaussian":
		if !(ysd > 0) {
			panic(&Error{Var: f.response.name, Msg: fmt.Sprintf("the response is %v in every row; there is nothing to model", y[0])})
		}
		b.scale, centre = ysd, ymean
	case "bernoulli", "binomial":
		p := ymean
		if trials != nil {
			s, t := 0.0, 0.0
			for i := range y {
				s += y[i]
				t += trials[i]
			}
			p = s / t
		}
		p = math.Min(math.Max(p, 0.01), 0.99)
		centre = math.Log(p / (1 - p))
	case "poisson", "negativebinomial":
		if ymean > 0 {
			centre = math.Log(ymean)
		}
	}
	if offset != nil {
		om, _ := meanSD(offset)
		centre -= om
	}

	// Coefficients: their priors' scales first, for the intercept's.
	type term struct {
		x      glmName
		c      *table.Column
		d      []float64 // a numeric column's values
		sd     float64   // its prior's
		labels []string  // a label column's levels
	}
	var terms []term
	interceptVar := 0.0
	for _, x := range f.fixed {
		c := b.column(x.name, x.pos, "")
		if c.Kind() == table.String {
			labels, codes := codesOf(c)
			if len(labels) < 2 {
				panic(glmErr(f.src, x.pos, "column %q has one level (%s) in every row; it cannot be told from the intercept, leave it out", x.name, labels[0]))
			}
			counts := make([]int, len(labels))
			for _, v := range codes {
				counts[v]++
			}
			// One prior for the term's levels: the widest of theirs, by the
			// rarest level's indicator column.
			minSD := math.Inf(1)
			shares := make([]float64, 0, len(labels)-1)
			for k := 1; k < len(labels); k++ {
				p := float64(counts[k]) / float64(n)
				minSD = math.Min(minSD, math.Sqrt(p*(1-p)*float64(n)/math.Max(1, float64(n-1))))
				shares = append(shares, p)
			}
			psd := round3(2.5 * b.scale / minSD)
			for _, p := range shares {
				interceptVar += psd * psd * p * p
			}
			terms = append(terms, term{x: x, c: c, labels: labels, sd: psd})
			continue
		}
		d := b.numeric(c, x.pos, "for a categorical predictor, make it a column of labels")
		mean, sd := meanSD(d)
		if !(sd > 0) {
			panic(glmErr(f.src, x.pos, "column %q is %v in every row; its coefficient cannot be told from the intercept, leave it out", x.name, d[0]))
		}
		psd := round3(2.5 * b.scale / sd)
		interceptVar += psd * psd * mean * mean
		terms = append(terms, term{x: x, c: c, d: d, sd: psd})
	}

	var eta Expr
	add := func(e Expr) {
		if eta == nil {
			eta = e
		} else {
			eta = Add(eta, e)
		}
	}
	if f.intercept {
		add(b.prior("Intercept", "Normal", []float64{centre, math.Sqrt(2.5*b.scale*2.5*b.scale + interceptVar)}))
	}
	for _, x := range terms {
		if x.labels != nil {
			idx, _ := b.index(x.c)
			dim := x.x.name + "_level"
			m.Coords(dim, x.labels[1:]...)
			var r *RV
			if _, own := b.priors[x.x.name]; own {
				r = b.prior(x.x.name, "", nil, Dims(dim))
			} else {
				b.made = append(b.made, x.x.name)
				r = m.Normal(x.x.name, 0, x.sd, Dims(dim))
			}
			add(Index(Concat(0.0, r), idx))
			continue
		}
		add(Mul(b.prior(x.x.name, "Normal", []float64{0, x.sd}), b.data(x.x.name, x.d)))
	}

	// Group-level terms, non-centred.
	for _, g := range f.groups {
		c := b.column(g.by.name, g.by.pos, "")
		if c.Kind() == table.Float {
			panic(glmErr(f.src, g.by.pos, "column %q holds numbers with fractions; group by a column of labels or whole numbers", g.by.name))
		}
		idx, labels := b.index(c)
		if m.g.Coords[g.by.name] == nil {
			m.Coords(g.by.name, labels...)
		}
		varying := func(term string, sd float64) Expr {
			base := term + "|" + g.by.name
			sigma := b.prior(base+"_sigma", "HalfNormal", []float64{sd})
			z := b.prior(base+"_offset", "Normal", []float64{0, 1}, Dims(g.by.name))
			eff := m.Deterministic(base, Mul(sigma, z), Dims(g.by.name))
			return Index(eff, idx)
		}
		if g.intercept {
			add(varying("1", b.scale))
		}
		for _, x := range g.slopes {
			sc := b.column(x.name, x.pos, "")
			if sc.Kind() == table.String {
				panic(glmErr(f.src, x.pos, "a label column (%q) as a varying slope is not supported yet; group by the combined labels instead", x.name))
			}
			d := b.numeric(sc, x.pos, "")
			_, sd := meanSD(d)
			if !(sd > 0) {
				panic(glmErr(f.src, x.pos, "column %q is %v in every row; a slope for it cannot vary", x.name, d[0]))
			}
			add(Mul(varying(x.name, b.scale/sd), b.data(x.name, d)))
		}
	}
	if offset != nil {
		add(b.data(b.s.offset, offset))
	}
	if eta == nil {
		panic(glmErr(f.src, len(f.src)+1, "the formula has no terms (0 and nothing else); write 1 for an intercept-only model"))
	}

	// The likelihood.
	obs := Observed(y)
	switch b.fam {
	case "gaussian":
		sigma := b.prior("sigma", "HalfNormal", []float64{b.scale})
		m.Normal(f.response.name, eta, sigma, obs)
	case "bernoulli":
		m.BernoulliLogit(f.response.name, eta, obs)
	case "binomial":
		m.BinomialLogit(f.response.name, b.data(b.s.trials, trials), eta, obs)
	case "poisson":
		m.PoissonLog(f.response.name, eta, obs)
	case "negativebinomial":
		phi := b.prior("phi", "Exponential", []float64{0.1})
		m.NegativeBinomial(f.response.name, Exp(eta), phi, obs)
	}
}

// parsePrior reads a prior written as the listing writes one,
// "Normal(0, 2.5)", for the variable name.
func parsePrior(name, spec string) (*dist.Family, []any) {
	s := strings.TrimSpace(spec)
	open, end := strings.IndexByte(s, '('), len(s)-1
	if open <= 0 || end < open || s[end] != ')' {
		panic(&Error{Var: name, Msg: fmt.Sprintf("prior %q: write a family and its numbers, as in \"Normal(0, 2.5)\" or \"HalfNormal(1)\"", spec)})
	}
	fname := strings.TrimSpace(s[:open])
	fam := dist.Lookup(fname)
	if fam == nil {
		if n := familyByStanName(fname); n != "" {
			fam = dist.Lookup(n)
		}
	}
	if fam == nil {
		var names []string
		for _, f := range dist.Families() {
			if !f.Discrete && f.EventRank == 0 {
				names = append(names, f.Name)
			}
		}
		panic(&Error{Var: name, Msg: fmt.Sprintf("prior %q: no family %q; the continuous ones are %s", spec, fname, strings.Join(names, ", "))})
	}
	if fam.Discrete || fam.EventRank != 0 {
		panic(&Error{Var: name, Msg: fmt.Sprintf("prior %q: a prior here is a continuous scalar family; %s is not", spec, fam.Name)})
	}
	var ps []any
	if inner := strings.TrimSpace(s[open+1 : end]); inner != "" {
		for _, a := range strings.Split(inner, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
			if err != nil {
				panic(&Error{Var: name, Msg: fmt.Sprintf("prior %q: %q is not a number; a prior's parameters are numbers", spec, strings.TrimSpace(a))})
			}
			ps = append(ps, v)
		}
	}
	if len(ps) != len(fam.Params) {
		panic(&Error{Var: name, Msg: fmt.Sprintf("prior %q: %s takes %d numbers (%s), got %d", spec, fam.Name, len(fam.Params), strings.Join(fam.Params, ", "), len(ps))})
	}
	return fam, ps
}

// SetPrior replaces the prior of the free random variable name, written
// as the listing writes one: m.SetPrior("floor", "Normal(0, 1)"). The
// variable keeps its shape and dimensions, and everything built from it
// reads the new prior; the cell's output says what changed. Meant for
// the priors GLM chose, it works for any free variable.
func (m *Model) SetPrior(name, prior string) {
	old, ok := m.names[name].(*RV)
	if !ok || old.v.Observed || old.v.Mix != nil {
		var free []string
		for _, r := range m.g.RVs {
			if !r.Observed && r.Mix == nil {
				free = append(free, r.Name)
			}
		}
		m.failf(name, "SetPrior replaces the prior of a free random variable; model %q's are %s", m.g.Name, strings.Join(free, ", "))
	}
	fam, ps := parsePrior(name, prior)
	var opts []Option
	switch {
	case old.v.Dims != nil:
		opts = append(opts, Dims(old.v.Dims...))
	case old.given != nil:
		opts = append(opts, Shape(old.given...))
	case len(old.v.Value.Dims) > 0:
		opts = append(opts, Shape(old.v.Value.Dims...))
	}
	// A replacement is meant: not a second definition in this run.
	was, had := m.defined[name]
	m.defined[name] = setPriorRun{}
	defer func() {
		if e := recover(); e != nil {
			if had {
				m.defined[name] = was
			}
			panic(e)
		}
	}()
	m.Var(name, fam, ps, opts...)
	if had {
		m.defined[name] = was
	}
}

// setPriorRun marks a name as last defined by no run (see SetPrior).
type setPriorRun struct{}

// SetRows gives a model built by GLM the rows of another table with the
// same columns (the response may be missing), to predict there:
// m.SetRows(newRows), then m.Predictions(idata, fit) or
// m.PosteriorPredictive(fit). The label columns' values are mapped to
// the codes the model was built with; a label it has not seen is an
// error naming the row.
func (m *Model) SetRows(t *table.Table) {
	if m.glm == nil {
		m.failf("SetRows", "model %q was not built by GLM; give its data containers new values with m.SetData", m.g.Name)
	}
	if t == nil {
		m.failf("SetRows", "no table given")
	}
	col := func(n string) *table.Column {
		if !t.Has(n) {
			m.failf("SetRows", "table %s has no column %q, which the model's formula uses (its columns: %s)", t.Name(), n, strings.Join(t.Names(), ", "))
		}
		return t.Col(n)
	}
	var pairs []any
	for _, cname := range m.glm.order {
		switch {
		case strings.HasSuffix(cname, "_data"):
			c := col(strings.TrimSuffix(cname, "_data"))
			if c.Kind() == table.String {
				m.failf("SetRows", "column %q of table %s holds labels, but the model was built with numbers there", c.Name(), t.Name())
			}
			pairs = append(pairs, cname, c)
		default:
			n := strings.TrimSuffix(cname, "_idx")
			c := col(n)
			labels := m.glm.coded[n]
			at := map[string]int{}
			for i, l := range labels {
				at[l] = i
			}
			newLabels, codes := codesOf(c)
			ids := make([]int, len(codes))
			for i, k := range codes {
				id, ok := at[newLabels[k]]
				if !ok {
					m.failf("SetRows", "column %q holds %q at row %d, a level the model was not built with (it knows %s); predict only for known levels, or build the model with rows of that level", n, newLabels[k], i, strings.Join(firstN(labels, 8), ", "))
				}
				ids[i] = id
			}
			pairs = append(pairs, cname, ids)
		}
	}
	if len(pairs) == 0 {
		m.failf("SetRows", "the model's formula uses no columns but the response; there is nothing to set")
	}
	m.SetData(pairs[0].(string), pairs[1], pairs[2:]...)
}

// about is the listing's line for a GLM model: its formula and family.
func (g *glmSpec) about() string {
	link := map[string]string{"gaussian": "identity", "bernoulli": "logit", "binomial": "logit", "poisson": "log", "negativebinomial": "log"}[g.family]
	return fmt.Sprintf("GLM %s, family %s (%s link); priors scaled to the data unless set (SetPrior)", g.formula, g.family, link)
}
