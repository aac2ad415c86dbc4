package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
)

// A target prints formulas in one language.
type target int

const (
	goLang target = iota
	cLang
)

// fn is a function of the formula language: its Go and C spelling, its
// arity, and whether a call on parameters alone is memoised (see memo).
type fn struct {
	goName, cName string
	arity         int
	memo          bool
	boolean       bool // returns a truth value
}

// costly are the functions worth caching when their arguments are
// constant data (see dataTerms).
var costly = map[string]bool{
	"log": true, "log1p": true, "exp": true, "expm1": true, "sqrt": true, "tanh": true,
	"inv": true, "lgamma": true, "digamma": true, "lbeta": true, "lchoose": true, "logaddexp": true, "logistic": true,
}

var funcs = map[string]fn{
	"log":       {"math.Log", "log", 1, true, false},
	"log1p":     {"math.Log1p", "log1p", 1, true, false},
	"exp":       {"Exp", "exp", 1, true, false},
	"expm1":     {"math.Expm1", "expm1", 1, true, false},
	"sqrt":      {"math.Sqrt", "sqrt", 1, true, false},
	"abs":       {"math.Abs", "fabs", 1, false, false},
	"sign":      {"opdef.Sign", "gb_sign", 1, false, false},
	"tanh":      {"math.Tanh", "tanh", 1, true, false},
	"inv":       {"opdef.Inv", "gb_inv", 1, true, false},
	"lgamma":    {"opdef.LGamma", "gb_lgamma", 1, true, false},
	"digamma":   {"opdef.Digamma", "gb_digamma", 1, true, false},
	"lbeta":     {"opdef.LBeta", "gb_lbeta", 2, true, false},
	"lchoose":   {"opdef.LChoose", "gb_lchoose", 2, true, false},
	"logaddexp": {"opdef.LogAddExp", "gb_logaddexp", 2, true, false},
	"isCount":   {"opdef.IsCount", "gb_is_count", 1, false, true},
	"where":     {"opdef.Where", "", 3, false, false},
	"max":       {"max", "gb_max", 2, false, false}, // Go's builtin: NaN in, NaN out, as math.Max (C's fmax drops a NaN)
	"min":       {"min", "gb_min", 2, false, false},
	"logistic":  {"Logistic", "gb_logistic", 1, true, false},
	// The elementwise ops' own (accel/opdef's Unary, Binary).
	"logisticDeriv": {"LogisticDeriv", "gb_logistic_deriv", 1, false, false},
	"softplus":      {"Softplus", "gb_softplus", 1, false, false},
	"trigamma":      {"opdef.Trigamma", "gb_trigamma", 1, false, false},
	"logitOf":       {"Logit", "gb_logit", 1, false, false}, // not "logit": a parameter's name
	"pow":           {"math.Pow", "pow", 2, false, false},
	// The tails' (accel/opdef's Tail).
	"logPhi":     {"opdef.LogPhi", "gb_log_phi", 1, false, false},
	"dLogPhi":    {"opdef.DLogPhi", "gb_dlog_phi", 1, false, false},
	"log1mexp":   {"opdef.Log1mExp", "gb_log1mexp", 1, false, false},
	"logDiffExp": {"opdef.LogDiffExp", "gb_logdiffexp", 2, false, false},
	"erf":        {"math.Erf", "erf", 1, false, false},
	"atan2":      {"math.Atan2", "atan2", 2, false, false},
	// The incomplete gamma and beta functions in log space and their
	// derivatives in the shapes (accel/opdef's incgamma.go, incbeta.go).
	"logGammaP":    {"opdef.LogGammaP", "gb_log_gamma_p", 2, false, false},
	"logGammaQ":    {"opdef.LogGammaQ", "gb_log_gamma_q", 2, false, false},
	"dLogGammaP":   {"opdef.DLogGammaP", "gb_dlog_gamma_p", 2, false, false},
	"dLogGammaQ":   {"opdef.DLogGammaQ", "gb_dlog_gamma_q", 2, false, false},
	"logIncBeta":   {"opdef.LogIncBeta", "gb_log_inc_beta", 4, false, false},
	"dLogIncBetaA": {"opdef.DLogIncBetaA", "gb_dlog_inc_beta_a", 4, false, false},
	"dLogIncBetaB": {"opdef.DLogIncBetaB", "gb_dlog_inc_beta_b", 4, false, false},
}

var consts = map[string][2]string{
	"ln2":       {"opdef.Ln2", "GB_LN2"},
	"lnPi":      {"opdef.LnPi", "GB_LN_PI"},
	"lnSqrt2Pi": {"opdef.LnSqrt2Pi", "GB_LN_SQRT_2PI"},
	"pi":        {"math.Pi", "GB_PI"},
	"inf":       {"math.Inf(1)", "GB_INF"},
}

// memo is a costly call that reads parameters only (never the variate,
// argument 0, which changes with every element): lgamma(alpha),
// log(sigma), lbeta(alpha, beta). The loops compute it once per distinct
// value of those parameters. key is the call's Go form, sig the
// arguments it reads ("1,2").
type memo struct{ key, sig string }

// scope resolves the names of one definition's formulas.
type scope struct {
	args []string       // argument names, variate first
	lets map[string]int // let name → index
	// argVar and letVar spell an argument's and a let's value; keyArgVar,
	// when set, spells arguments in the keys of memos and cached terms
	// (plain) instead of argVar.
	argVar, letVar func(i int) string
	keyArgVar      func(i int) string
	// memoized and cached spell a memo and a data term (see dataTerms)
	// by the call's Go form; nil or a missing entry: compute it.
	memoized, cached map[string]string
	// pre, when set, receives the statements that compute each where in
	// Go lazily (an if/else into a temporary w<n>), so that only the
	// branch taken is computed; without it where is a function call.
	pre *[]string
	nw  *int
	// memoExprs are the memoised calls by key; decl collects the memo
	// variables to declare before the loop.
	memoExprs map[string]ast.Expr
	decl      *memoState
	// outside is set for code outside package ir: accel/ir's own
	// functions (Exp, Logistic) are then qualified.
	outside bool
	// first spells argument i's first element and count the number of
	// elements, for the memos computed once before the loop; nil and "":
	// in<i>[0] and n, as in accel/ir's own loops.
	first func(i int) string
	count string
	// fresh are the memos already refreshed in this iteration on the path
	// to here: a later statement reads them without testing again.
	// Conditional code (a partial's block, a where's branch) works on a
	// copy, so that what it refreshes does not count after it.
	fresh map[string]bool
}

// conditional is s for code that may not run: its own copy of fresh.
func (s *scope) conditional() *scope {
	c := *s
	if s.fresh != nil {
		c.fresh = make(map[string]bool, len(s.fresh))
		for k, v := range s.fresh {
			c.fresh[k] = v
		}
	}
	return &c
}

// plain is s without memos and cached terms: how keys are spelled.
func (s *scope) plain() *scope {
	av := s.argVar
	if s.keyArgVar != nil {
		av = s.keyArgVar
	}
	return &scope{args: s.args, lets: s.lets, argVar: av, letVar: s.letVar, outside: s.outside}
}

func parse(src string) (ast.Expr, error) {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil, fmt.Errorf("formula %q: %v", src, err)
	}
	return e, nil
}

// memos finds the memoisable calls of e (see memo), the outermost ones,
// recording each call's expression in exprs.
func (s *scope) memos(e ast.Expr, out map[memo]bool, exprs map[string]ast.Expr) {
	ast.Inspect(e, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		f, ok := c.Fun.(*ast.Ident)
		if !ok || !funcs[f.Name].memo {
			return true
		}
		params, only := map[int]bool{}, true
		ast.Inspect(c, func(m ast.Node) bool {
			id, ok := m.(*ast.Ident)
			if !ok || id == f {
				return true
			}
			if _, fn := funcs[id.Name]; fn {
				return true
			}
			if _, k := consts[id.Name]; k {
				return true
			}
			for i, a := range s.args {
				if a == id.Name && i > 0 {
					params[i] = true
					return true
				}
			}
			only = false // the variate or a let
			return true
		})
		if !only || len(params) == 0 {
			return true
		}
		var idx []string
		for i := range s.args {
			if params[i] {
				idx = append(idx, strconv.Itoa(i))
			}
		}
		key, err := s.plain().print(c, goLang)
		if err != nil {
			return false
		}
		out[memo{key, strings.Join(idx, ",")}] = true
		exprs[key] = c
		return false
	})
}

// uses reports which lets e reads.
func (s *scope) uses(e ast.Expr, out map[int]bool) {
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if k, ok := s.lets[id.Name]; ok {
				out[k] = true
			}
		}
		return true
	})
}

// refreshMemo adds to the statement's pre-statements the recomputation
// of memo v for an element, when one of its parameters is not broadcast
// (stride not 0); a memo of broadcast parameters alone is computed once,
// before the loop (memoState.declare). Every parameter varying or none:
// the loop keeps no key to compare with, so few values stay live.
func (s *scope) refreshMemo(key, v string) {
	if s.fresh[key] {
		return
	}
	if s.fresh != nil {
		s.fresh[key] = true
	}
	e := s.memoExprs[key]
	params := map[int]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			for i, a := range s.args {
				if a == id.Name && i > 0 {
					params[i] = true
				}
			}
		}
		return true
	})
	var conds []string
	for i := range s.args {
		if params[i] {
			conds = append(conds, fmt.Sprintf("s%d != 0", i))
		}
	}
	varies := strings.Join(conds, " || ")
	call, _ := s.plain().print(e, goLang)
	hoisted := s.plain()
	hoisted.argVar = func(i int) string { return fmt.Sprintf("in%d[0]", i) }
	if s.first != nil {
		hoisted.argVar = s.first
	}
	count := "n"
	if s.count != "" {
		count = s.count
	}
	first, _ := hoisted.print(e, goLang)
	s.decl.add(&s.decl.vals, v)
	s.decl.inits = append(s.decl.inits, fmt.Sprintf("if %s > 0 && !(%s) {\n%s = %s\n}", count, varies, v, first))
	stmt := fmt.Sprintf("if %s {\n%s = %s\n}", varies, v, call)
	for _, p := range *s.pre {
		if p == stmt {
			return
		}
	}
	*s.pre = append(*s.pre, stmt)
}

// printBranch is the statements of one branch of a lazy where: its own
// where statements, then the assignment of its value to w.
func (s *scope) printBranch(x ast.Expr, w string) (string, error) {
	inner := s.conditional()
	var stmts []string
	inner.pre = &stmts
	v, err := inner.print(x, goLang)
	if err != nil {
		return "", err
	}
	return strings.Join(append(stmts, w+" = "+v, ""), "\n"), nil
}

// print spells e in language t.
func (s *scope) print(e ast.Expr, t target) (string, error) {
	var b strings.Builder
	err := s.write(&b, e, t)
	return b.String(), err
}

func (s *scope) write(b *strings.Builder, e ast.Expr, t target) error {
	switch e := e.(type) {
	case *ast.ParenExpr:
		b.WriteString("(")
		if err := s.write(b, e.X, t); err != nil {
			return err
		}
		b.WriteString(")")
	case *ast.BasicLit:
		if e.Kind != token.INT && e.Kind != token.FLOAT {
			return fmt.Errorf("literal %s: only numbers", e.Value)
		}
		v, err := strconv.ParseFloat(e.Value, 64)
		if err != nil {
			return err
		}
		lit := strconv.FormatFloat(v, 'g', -1, 64)
		if t == cLang && !strings.ContainsAny(lit, ".e") {
			lit += ".0" // no integer division in C
		}
		b.WriteString(lit)
	case *ast.Ident:
		for i, a := range s.args {
			if a == e.Name {
				b.WriteString(s.argVar(i))
				return nil
			}
		}
		if k, ok := s.lets[e.Name]; ok {
			b.WriteString(s.letVar(k))
			return nil
		}
		if c, ok := consts[e.Name]; ok {
			b.WriteString(c[t])
			return nil
		}
		return fmt.Errorf("unknown name %q", e.Name)
	case *ast.UnaryExpr:
		if e.Op != token.SUB && e.Op != token.NOT && e.Op != token.ADD {
			return fmt.Errorf("operator %s", e.Op)
		}
		b.WriteString(e.Op.String())
		if _, nested := e.X.(*ast.UnaryExpr); nested {
			b.WriteString("(")
			defer b.WriteString(")") // never "--x", C's decrement
		}
		return s.write(b, e.X, t)
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ, token.LAND, token.LOR:
		default:
			return fmt.Errorf("operator %s", e.Op)
		}
		if err := s.write(b, e.X, t); err != nil {
			return err
		}
		fmt.Fprintf(b, " %s ", e.Op)
		return s.write(b, e.Y, t)
	case *ast.CallExpr:
		if s.cached != nil || s.memoized != nil {
			k := s.plain()
			k.outside = false // keys are spelled as inside accel/ir
			key, err := k.print(e, goLang)
			if err != nil {
				return err
			}
			if v, ok := s.cached[key]; ok {
				b.WriteString(v)
				return nil
			}
			if v, ok := s.memoized[key]; ok && s.pre != nil {
				s.refreshMemo(key, v)
				b.WriteString(v)
				return nil
			}
		}
		id, ok := e.Fun.(*ast.Ident)
		if !ok {
			return fmt.Errorf("call of a non-name")
		}
		f, ok := funcs[id.Name]
		if !ok {
			return fmt.Errorf("unknown function %q", id.Name)
		}
		if len(e.Args) != f.arity {
			return fmt.Errorf("%s takes %d arguments, not %d", id.Name, f.arity, len(e.Args))
		}
		if id.Name == "where" && t == goLang && s.pre != nil {
			cond, err := s.print(e.Args[0], t)
			if err != nil {
				return err
			}
			w := fmt.Sprintf("w%d", *s.nw)
			*s.nw++
			preA, err := s.printBranch(e.Args[1], w)
			if err != nil {
				return err
			}
			preB, err := s.printBranch(e.Args[2], w)
			if err != nil {
				return err
			}
			*s.pre = append(*s.pre, fmt.Sprintf("var %s float64\nif %s {\n%s} else {\n%s}", w, cond, preA, preB))
			b.WriteString(w)
			return nil
		}
		if id.Name == "where" && t == cLang {
			b.WriteString("(")
			for k, sep := range []string{" ? ", " : ", ")"} {
				if err := s.write(b, e.Args[k], t); err != nil {
					return err
				}
				b.WriteString(sep)
			}
			return nil
		}
		if t == goLang {
			name := f.goName
			if s.outside && !strings.Contains(name, ".") && name != "min" && name != "max" {
				name = "ir." + name
			}
			b.WriteString(name)
		} else {
			b.WriteString(f.cName)
		}
		b.WriteString("(")
		for k, a := range e.Args {
			if k > 0 {
				b.WriteString(", ")
			}
			if err := s.write(b, a, t); err != nil {
				return err
			}
		}
		b.WriteString(")")
	default:
		return fmt.Errorf("unsupported expression %T", e)
	}
	return nil
}
