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
// arity, and whether a call on one parameter alone is memoised.
type fn struct {
	goName, cName string
	arity         int
	memo          bool
	boolean       bool // returns a truth value
}

var funcs = map[string]fn{
	"log":       {"math.Log", "log", 1, true, false},
	"log1p":     {"math.Log1p", "log1p", 1, true, false},
	"exp":       {"math.Exp", "exp", 1, true, false},
	"expm1":     {"math.Expm1", "expm1", 1, true, false},
	"sqrt":      {"math.Sqrt", "sqrt", 1, true, false},
	"abs":       {"math.Abs", "fabs", 1, false, false},
	"sign":      {"sign", "gb_sign", 1, false, false},
	"tanh":      {"math.Tanh", "tanh", 1, true, false},
	"inv":       {"inv", "gb_inv", 1, true, false},
	"lgamma":    {"lgamma", "gb_lgamma", 1, true, false},
	"digamma":   {"mathext.Digamma", "gb_digamma", 1, true, false},
	"lbeta":     {"lbeta", "gb_lbeta", 2, false, false},
	"lchoose":   {"lchoose", "gb_lchoose", 2, false, false},
	"logaddexp": {"logAddExp", "gb_logaddexp", 2, false, false},
	"isCount":   {"isCount", "gb_is_count", 1, false, true},
	"where":     {"where", "", 3, false, false},
}

var consts = map[string][2]string{
	"ln2":       {"ln2", "GB_LN2"},
	"lnPi":      {"lnPi", "GB_LN_PI"},
	"lnSqrt2Pi": {"lnSqrt2Pi", "GB_LN_SQRT_2PI"},
	"pi":        {"math.Pi", "GB_PI"},
}

// memo is a function of one parameter alone, computed once per distinct
// value of that parameter.
type memo struct {
	fn  string // formula-language name
	arg int    // argument index
}

// scope resolves the names of one definition's formulas.
type scope struct {
	args []string       // argument names, variate first
	lets map[string]int // let name → index
	// argVar and letVar spell an argument's and a let's value.
	argVar, letVar func(i int) string
	// memoVar spells a memoised value (nil: call the function).
	memoVar func(m memo) string
}

func parse(src string) (ast.Expr, error) {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil, fmt.Errorf("formula %q: %v", src, err)
	}
	return e, nil
}

// memos lists the memoisable calls of e on one parameter (never the
// variate, argument 0, which changes with every element).
func (s *scope) memos(e ast.Expr, out map[memo]bool) {
	ast.Inspect(e, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			return true
		}
		f, ok := c.Fun.(*ast.Ident)
		if !ok || !funcs[f.Name].memo {
			return true
		}
		if id, ok := c.Args[0].(*ast.Ident); ok {
			for i, a := range s.args {
				if a == id.Name && i > 0 {
					out[memo{f.Name, i}] = true
				}
			}
		}
		return true
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
		if f.memo && s.memoVar != nil {
			if a, ok := e.Args[0].(*ast.Ident); ok {
				for i, n := range s.args {
					if n == a.Name && i > 0 {
						b.WriteString(s.memoVar(memo{id.Name, i}))
						return nil
					}
				}
			}
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
			b.WriteString(f.goName)
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
