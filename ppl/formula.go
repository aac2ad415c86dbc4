package ppl

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Formulas: an expression written as it reads on paper (Let, Formula;
// the grammar is in Let's documentation, which %doc m.Let shows).

// Using names a Go value (a number, []float64, []int, …) or expression
// for a formula: m.Let("mu", "a[g] + b * x", ppl.Using("g", groups),
// ppl.Using("x", x)). Ids used to index (x[g]) must be whole numbers.
func Using(name string, value any) Option {
	return func(o *options) {
		if o.using == nil {
			o.using = map[string]any{}
		}
		o.using[name] = value
	}
}

// Formula is the expression the formula src writes, over the model's
// names and the values given with Using (the other options are refused):
// m.Normal("y", m.Formula("a + b * exp(-c * t)", ppl.Using("t", t)),
// sigma, ppl.Observed(y)). The grammar is Let's.
func (m *Model) Formula(src string, opts ...Option) Expr {
	var o options
	for _, f := range opts {
		f(&o)
	}
	if o.shape != nil || o.lower != nil || o.upper != nil || o.order != graph.Unordered || o.hasObserved || o.dims != nil {
		m.failf("Formula", "a formula takes the option Using only")
	}
	return m.formula("Formula", src, o.using)
}

// Let records the formula src as the deterministic quantity name (as
// Deterministic does) and returns it. It takes the options Using and
// Dims.
//
//	theta := m.Let("theta", "mu + tau * z")
//	m.Let("eta", "alpha[county] + beta * x", ppl.Using("county", countyIdx), ppl.Using("x", x))
//	m.Let("p", "inv_logit(a + b * dose^2)")
//
// The grammar is Go's for expressions, with ^ for a power:
//
//   - numbers: 2, 0.5, 1e-3; the constant pi;
//   - names: the model's random variables, deterministic quantities and
//     data containers, values given with Using (a number, []float64,
//     []int, an Expr), which may not hide a model's name;
//   - operators: + - * / and ^, a power (x^2); ^ binds tightest and
//     groups from the right (2^3^2 is 2^9), unary minus less tightly
//     (-x^2 is -(x^2)), then * /, then + -; parentheses group;
//   - indexing, 0-based as in Go: x[2] is one element, x[ids] gathers by a
//     vector of whole-number ids given with Using or as an integer data
//     container (m.Data("county_idx", []int{…}), which SetData may swap):
//     a group's value per observation;
//   - functions of one argument: exp, log, log1p, expm1, sqrt, square,
//     abs, tanh, logistic (inv_logit), logit, softplus, lgamma, digamma,
//     inv, neg, step, sum, mean, logsumexp, softmax, logsoftmax, cumsum;
//     of two: dot, pow, min, max, matvec(A, x), add, sub, mul, div,
//     log_diff_exp; clip(x, lo, hi);
//   - log densities as Stan writes them, a family's name in snake case
//     with _lpdf or _lpmf: normal_lpdf(y, mu, sigma),
//     poisson_log_lpmf(k, eta).
//
// Arithmetic broadcasts a scalar over a vector. The listing and LaTeX
// show the formula's names. A mistake (an unknown name or function, a
// missing parenthesis, a negative index) is an error quoting the formula
// with a caret under the column where it is.
func (m *Model) Let(name, src string, opts ...Option) Expr {
	var o options
	for _, f := range opts {
		f(&o)
	}
	if o.shape != nil || o.lower != nil || o.upper != nil || o.order != graph.Unordered || o.hasObserved {
		m.failf(name, "Let takes the options Using and Dims only")
	}
	e := m.formula(name, src, o.using)
	var dopts []Option
	if o.dims != nil {
		dopts = append(dopts, Dims(o.dims...))
	}
	return m.Deterministic(name, e, dopts...)
}

// formulaError is a mistake at a column of a formula.
func formulaError(name, src string, col int, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Var: name, Msg: fmt.Sprintf("formula %q, column %d: %s\n    %s\n    %s^", src, col, msg, src, strings.Repeat(" ", col-1))}
}

func (m *Model) formula(name, src string, using map[string]any) Expr {
	// A value given with Using under a name of the model would stand for
	// it in the formula: the model's variable silently left out.
	for _, u := range slices.Sorted(maps.Keys(using)) {
		if v, ok := m.names[u]; ok {
			m.failf(name, "Using(%q, …) has the name of the model's %s %s, which it would hide in the formula; rename the value given with Using (and use that name in the formula), or leave it out to use the model's %s", u, strings.TrimPrefix(strings.TrimPrefix(describeNamed(v), "a "), "an "), u, u)
		}
	}
	expr := parseFormula(name, src)
	f := &formulaBuilder{m: m, name: name, src: src, using: using}
	return f.build(expr)
}

// parseFormula reads a formula into Go's syntax tree (positions are
// columns): a small precedence-climbing parser over Go's scanner, since Go's
// own parser gives ^ (here a power) the precedence of +.
func parseFormula(name, src string) ast.Expr {
	p := &formulaParser{name: name, src: src}
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	p.sc.Init(file, []byte(src), func(pos token.Position, msg string) {
		panic(formulaError(name, src, pos.Column, "%s", msg))
	}, 0)
	p.base = token.Pos(file.Base())
	p.next()
	e := p.expr(1)
	if p.tok != token.EOF && !(p.tok == token.SEMICOLON && p.lit == "\n") {
		p.fail("unexpected %s; formulas combine terms with + - * / and ^ (a power)", p.what())
	}
	return e
}

type formulaParser struct {
	name, src string
	sc        scanner.Scanner
	base      token.Pos
	pos       token.Pos // column of the current token
	tok       token.Token
	lit       string
}

func (p *formulaParser) next() {
	var pos token.Pos
	pos, p.tok, p.lit = p.sc.Scan()
	p.pos = pos - p.base + 1
}

func (p *formulaParser) what() string {
	switch {
	case p.tok == token.EOF || p.tok == token.SEMICOLON && p.lit == "\n":
		return "end of formula"
	case p.lit != "":
		return strconv.Quote(p.lit)
	}
	return strconv.Quote(p.tok.String())
}

func (p *formulaParser) fail(format string, args ...any) {
	panic(formulaError(p.name, p.src, int(p.pos), format, args...))
}

// precedence of the binary operators: + - 1, * / 2, ^ 4 (right to left;
// unary minus, 3, binds less tightly: -x^2 is -(x²)).
func formulaPrec(t token.Token) int {
	switch t {
	case token.ADD, token.SUB:
		return 1
	case token.MUL, token.QUO:
		return 2
	case token.XOR:
		return 4
	}
	return 0
}

func (p *formulaParser) expr(min int) ast.Expr {
	x := p.unary()
	for {
		prec := formulaPrec(p.tok)
		if prec == 0 || prec < min {
			return x
		}
		op, pos := p.tok, p.pos
		p.next()
		next := prec + 1
		if op == token.XOR {
			next = prec // right-associative: 2^3^2 = 2^(3^2)
		}
		y := p.expr(next)
		x = &ast.BinaryExpr{X: x, OpPos: pos, Op: op, Y: y}
	}
}

func (p *formulaParser) unary() ast.Expr {
	if p.tok == token.SUB || p.tok == token.ADD {
		op, pos := p.tok, p.pos
		p.next()
		return &ast.UnaryExpr{OpPos: pos, Op: op, X: p.expr(3)}
	}
	return p.postfix(p.operand())
}

func (p *formulaParser) operand() ast.Expr {
	switch p.tok {
	case token.INT, token.FLOAT:
		e := &ast.BasicLit{ValuePos: p.pos, Kind: p.tok, Value: p.lit}
		p.next()
		return e
	case token.IDENT:
		e := &ast.Ident{NamePos: p.pos, Name: p.lit}
		p.next()
		return e
	case token.LPAREN:
		pos := p.pos
		p.next()
		e := p.expr(1)
		p.expect(token.RPAREN)
		return &ast.ParenExpr{Lparen: pos, X: e}
	}
	p.fail("expected a number, a name or (, found %s", p.what())
	return nil
}

func (p *formulaParser) expect(t token.Token) {
	if p.tok != t {
		p.fail("expected %q, found %s", t.String(), p.what())
	}
	p.next()
}

// postfix reads calls f(a, b) and indexing x[i] after an operand.
func (p *formulaParser) postfix(x ast.Expr) ast.Expr {
	for {
		switch p.tok {
		case token.LPAREN:
			pos := p.pos
			p.next()
			var args []ast.Expr
			for p.tok != token.RPAREN {
				args = append(args, p.expr(1))
				if p.tok != token.COMMA {
					break
				}
				p.next()
			}
			p.expect(token.RPAREN)
			x = &ast.CallExpr{Fun: x, Lparen: pos, Args: args}
		case token.LBRACK:
			pos := p.pos
			p.next()
			i := p.expr(1)
			p.expect(token.RBRACK)
			x = &ast.IndexExpr{X: x, Lbrack: pos, Index: i}
		default:
			return x
		}
	}
}

type formulaBuilder struct {
	m     *Model
	name  string
	src   string
	using map[string]any
}

// fail panics with a mistake at n's column.
func (f *formulaBuilder) fail(n ast.Node, format string, args ...any) {
	panic(formulaError(f.name, f.src, int(n.Pos()), format, args...))
}

// at runs make, giving a mistake it makes (a shape mismatch, say) n's
// column.
func (f *formulaBuilder) at(n ast.Node, make func() Expr) (e Expr) {
	defer func() {
		if r := recover(); r != nil {
			if pe, ok := r.(*Error); ok && !strings.HasPrefix(pe.Msg, "formula ") {
				msg := pe.Msg
				if pe.Var != "" {
					msg = pe.Var + ": " + msg
				}
				f.fail(n, "%s", msg)
			}
			panic(r)
		}
	}()
	return make()
}

func (f *formulaBuilder) build(n ast.Expr) Expr {
	switch x := n.(type) {
	case *ast.ParenExpr:
		return f.build(x.X)
	case *ast.BasicLit:
		if x.Kind != token.INT && x.Kind != token.FLOAT {
			f.fail(x, "%s is not a number", x.Value)
		}
		v, err := strconv.ParseFloat(x.Value, 64)
		if err != nil {
			f.fail(x, "%s is not a number", x.Value)
		}
		return asExpr(graph.Scalar(v))
	case *ast.Ident:
		return f.name0(x)
	case *ast.UnaryExpr:
		a := f.build(x.X)
		switch x.Op {
		case token.SUB:
			return f.at(x, func() Expr { return Neg(a) })
		case token.ADD:
			return a
		}
		f.fail(x, "the operator %s is not arithmetic; formulas take + - * / and ^ (a power)", x.Op)
	case *ast.BinaryExpr:
		a, b := f.build(x.X), f.build(x.Y)
		var fn func(a, b any) Expr
		switch x.Op {
		case token.ADD:
			fn = Add
		case token.SUB:
			fn = Sub
		case token.MUL:
			fn = Mul
		case token.QUO:
			fn = Div
		case token.XOR:
			fn = Pow
		default:
			f.fail(x, "the operator %s is not arithmetic; formulas take + - * / and ^ (a power)", x.Op)
		}
		return f.at(x, func() Expr { return fn(a, b) })
	case *ast.IndexExpr:
		return f.index(x)
	case *ast.CallExpr:
		return f.call(x)
	}
	f.fail(n, "formulas are made of numbers, names, + - * / ^, calls such as exp(x) and indexing such as x[ids]")
	return nil
}

// name0 resolves a name: Using's values first, then the model's names.
func (f *formulaBuilder) name0(id *ast.Ident) Expr {
	if v, ok := f.using[id.Name]; ok {
		n, err := asNode(v)
		if err != nil {
			f.fail(id, "%s (given with Using): %v", id.Name, err)
		}
		if n.Kind == graph.KConst {
			if j := firstNonFinite(n.Data); j >= 0 {
				f.fail(id, "%s (given with Using) holds %v at index %d; data must be finite", id.Name, n.Data[j], j)
			}
			if n.Container == "" {
				l := *n // shown by the name the formula gave it
				l.Label = id.Name
				n = &l
			}
		}
		return asExpr(n)
	}
	switch x := f.m.names[id.Name].(type) {
	case *RV:
		return x
	case *graph.Node:
		return asExpr(x)
	case dataName:
		return asExpr(f.m.dataNode(id.Name))
	}
	if id.Name == "pi" {
		pi := graph.Scalar(math.Pi)
		pi.Label = "pi"
		return asExpr(pi)
	}
	f.fail(id, "%s is not a name of model %q nor given with Using (names: %s)", id.Name, f.m.g.Name, strings.Join(f.m.knownNames(f.using), ", "))
	return nil
}

// index is x[i] for a whole number i (one element) or x[ids] for a
// vector of ids given with Using or as a data container.
func (f *formulaBuilder) index(x *ast.IndexExpr) Expr {
	base := f.build(x.X)
	if lit, ok := x.Index.(*ast.BasicLit); ok && lit.Kind == token.INT {
		i, _ := strconv.Atoi(lit.Value)
		return f.at(x, func() Expr { return At(base, i) })
	}
	if u, ok := x.Index.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		f.fail(x.Index, "indices are 0-based and not negative")
	}
	id, ok := x.Index.(*ast.Ident)
	if !ok {
		f.fail(x.Index, "index by a whole number (x[2]) or by ids given with Using (x[group])")
	}
	var d []float64
	if v, ok := f.using[id.Name]; ok {
		n, err := asNode(v)
		if err != nil || n.Kind != graph.KConst {
			f.fail(id, "the ids %s must be Go data ([]int), not an expression", id.Name)
		}
		d = n.Data
	} else if c := f.m.dataNode(id.Name); c != nil {
		return f.at(x, func() Expr { return Index(base, asExpr(c)) }) // SetData may swap them
	} else {
		f.fail(id, "the ids %s are not given: add ppl.Using(%q, ids) with a []int of 0-based ids", id.Name, id.Name)
	}
	idx := make([]int, len(d))
	for i, v := range d {
		if v != math.Trunc(v) || v < 0 {
			f.fail(id, "id %v at position %d of %s is not a whole number ≥ 0 (ids are 0-based)", v, i, id.Name)
		}
		idx[i] = int(v)
	}
	return f.at(x, func() Expr { return Index(base, idx) })
}

// formulaFuncs are the functions of one argument, by their formula name.
var formulaFuncs = map[string]func(any) Expr{
	"exp": Exp, "log": Log, "log1p": Log1p, "expm1": Expm1, "sqrt": Sqrt, "square": Square,
	"abs": Abs, "tanh": Tanh, "logistic": Logistic, "inv_logit": Logistic, "logit": Logit,
	"softplus": Softplus, "lgamma": Lgamma, "digamma": Digamma, "inv": Inv, "sum": Sum,
	"mean": Mean, "logsumexp": LogSumExp, "log_sum_exp": LogSumExp, "softmax": Softmax,
	"logsoftmax": LogSoftmax, "log_softmax": LogSoftmax, "cumsum": CumSum, "cumulative_sum": CumSum,
	"neg": Neg, "step": Step,
}

// formulaFuncs2 are the functions of two arguments.
var formulaFuncs2 = map[string]func(a, b any) Expr{
	"dot": Dot, "pow": Pow, "min": Min, "fmin": Min, "max": Max, "fmax": Max, "matvec": MatVec,
	"add": Add, "sub": Sub, "mul": Mul, "div": Div, "log_diff_exp": LogDiffExp,
}

func (f *formulaBuilder) call(x *ast.CallExpr) Expr {
	id, ok := x.Fun.(*ast.Ident)
	if !ok {
		f.fail(x.Fun, "call a function by its name, as exp(x)")
	}
	fn := strings.ToLower(id.Name)
	args := make([]any, len(x.Args))
	for i, a := range x.Args {
		args[i] = f.build(a)
	}
	want := func(k int) {
		if len(args) != k {
			f.fail(x, "%s takes %d argument(s), got %d", id.Name, k, len(args))
		}
	}
	if g, ok := formulaFuncs[fn]; ok {
		want(1)
		return f.at(x, func() Expr { return g(args[0]) })
	}
	if g, ok := formulaFuncs2[fn]; ok {
		want(2)
		return f.at(x, func() Expr { return g(args[0], args[1]) })
	}
	if fn == "clip" {
		want(3)
		return f.at(x, func() Expr { return Clip(args[0], args[1], args[2]) })
	}
	for _, suffix := range []string{"_lpdf", "_lpmf"} {
		if fam, ok := strings.CutSuffix(fn, suffix); ok {
			family := familyByStanName(fam)
			if family == "" {
				f.fail(x.Fun, "no family %q (write a family's name in snake case: normal_lpdf, student_t_lpdf, poisson_log_lpmf)", fam)
			}
			if len(args) < 1 {
				f.fail(x, "%s takes the variate, then the parameters", id.Name)
			}
			return f.at(x, func() Expr { return LogPDF(family, args[0], args[1:]...) })
		}
	}
	f.fail(x.Fun, "no function %s in formulas (there are: exp, log, sqrt, logistic, sum, dot, pow, min, max, clip, matvec, normal_lpdf, …)", id.Name)
	return nil
}

// familyByStanName finds a family by its snake-case name (student_t →
// StudentT), "" for none.
func familyByStanName(s string) string {
	want := strings.ReplaceAll(s, "_", "")
	for _, fam := range dist.Families() {
		if strings.EqualFold(fam.Name, want) {
			return fam.Name
		}
	}
	return ""
}
