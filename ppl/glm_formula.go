package ppl

import (
	"fmt"
	"strings"
	"unicode"
)

// The regression formula GLM reads, as R's lme4, brms and bambi write it:
//
//	y ~ x1 + x2 + (1 | county)
//	y ~ 0 + x + (1 + x | county)
//
// The left side names the response column; the right side adds terms: a
// column's name (a coefficient; a string column is treatment-coded, one
// coefficient per level but the first), 1 (the intercept, there unless
// the formula says 0 or - 1), and group-level terms (terms | g) whose
// terms vary by the levels of the column g: 1 a varying intercept, a
// numeric column a varying slope. Everything else (interactions,
// functions of columns) is refused with what to write instead.

// glmFormula is a parsed formula.
type glmFormula struct {
	src       string
	response  glmName
	intercept bool
	fixed     []glmName
	groups    []glmGroup
}

// glmName is a column named in the formula, with the column (1-based)
// where it starts, for messages.
type glmName struct {
	name string
	pos  int
}

// glmGroup is a group-level term (1 + x | g).
type glmGroup struct {
	intercept bool
	slopes    []glmName
	by        glmName
	pos       int
}

// glmToken is a lexical token: kind is "name", "num", "end" or the
// operator's own text.
type glmToken struct {
	kind, text string
	pos        int // 1-based column
}

type glmParser struct {
	src  string
	toks []glmToken
	i    int
}

// parseGLMFormula reads src; a mistake is an *Error naming the column
// of the formula where it is and what to write.
func parseGLMFormula(src string) (*glmFormula, error) {
	p := &glmParser{src: src}
	if err := p.lex(); err != nil {
		return nil, err
	}
	f := &glmFormula{src: src, intercept: true}
	t := p.next()
	if t.kind != "name" {
		return nil, p.errAt(t, "the formula starts with the response column's name, as in \"y ~ x1 + x2 + (1 | g)\"")
	}
	f.response = glmName{t.text, t.pos}
	if t := p.next(); t.kind != "~" {
		if t.kind == "|" || t.kind == "," || t.kind == "(" {
			return nil, p.errAt(t, "the response is one column; for a binomial response give the trials with ppl.Trials(\"n\") and write \"successes ~ …\"")
		}
		return nil, p.errAt(t, "expected ~ after the response %q: a formula is written response ~ predictors, as in \"%s ~ x1 + x2\"", f.response.name, f.response.name)
	}
	sign := "+"
	for first := true; ; first = false {
		t := p.peek()
		if !first {
			p.next()
			if t.kind == "end" {
				break
			}
			if t.kind != "+" && t.kind != "-" {
				return nil, p.errAt(t, "%s", p.between(t))
			}
			sign = t.kind
			t = p.peek()
		} else if t.kind == "-" {
			p.next()
			sign = "-"
			t = p.peek()
		}
		switch {
		case t.kind == "num" && (t.text == "0" || t.text == "1"):
			p.next()
			if sign == "-" && t.text == "0" {
				return nil, p.errAt(t, "write 0 (or - 1) to leave out the intercept")
			}
			f.intercept = t.text == "1" && sign == "+"
		case t.kind == "num":
			return nil, p.errAt(t, "a constant term other than 1 (the intercept) or 0 (none) has no meaning here; give an offset with ppl.Offset(\"column\")")
		case t.kind == "name":
			p.next()
			if sign == "-" {
				return nil, p.errAt(t, "only the intercept can be taken out (- 1); leave %q out of the formula instead", t.text)
			}
			if nt := p.peek(); nt.kind == "(" {
				return nil, p.errAt(t, "functions of columns (%s(…)) are not part of the formula; add a column with the values to the table (or use m.Let on a model written by hand)", t.text)
			}
			f.fixed = append(f.fixed, glmName{t.text, t.pos})
		case t.kind == "(":
			if sign == "-" {
				return nil, p.errAt(t, "a group-level term cannot be taken out; leave it out of the formula")
			}
			g, err := p.group()
			if err != nil {
				return nil, err
			}
			f.groups = append(f.groups, g)
		case t.kind == "end" && first:
			return nil, p.errAt(t, "nothing follows ~; write the predictors, as in \"%s ~ x1 + x2\" (or \"%s ~ 1\" for an intercept alone)", f.response.name, f.response.name)
		case t.kind == "end":
			return nil, p.errAt(t, "the formula ends after %q; write a term (a column, 1, or (1 | group)) there, or remove the %q", sign, sign)
		default:
			return nil, p.errAt(t, "expected a term (a column's name, 1, 0 or (1 | group)), not %q", t.text)
		}
	}
	return f, f.check()
}

// group reads (terms | g).
func (p *glmParser) group() (glmGroup, error) {
	open := p.next()
	g := glmGroup{pos: open.pos, intercept: true}
	for first := true; ; first = false {
		t := p.next()
		if !first {
			if t.kind == "|" {
				break
			}
			if t.kind != "+" {
				if t.kind == ")" {
					return g, p.errAt(t, "a group-level term names its grouping column after a bar: (1 | g), (1 + x | g)")
				}
				return g, p.errAt(t, "inside ( … | g ) the terms are joined by +, then | and the grouping column, as in (1 + x | g)")
			}
			t = p.next()
		}
		switch {
		case t.kind == "num" && (t.text == "0" || t.text == "1"):
			g.intercept = t.text == "1"
		case t.kind == "name":
			g.slopes = append(g.slopes, glmName{t.text, t.pos})
		case t.kind == "|":
			return g, p.errAt(t, "write the varying terms before the bar: (1 | g) for a varying intercept, (1 + x | g) for a slope too")
		default:
			return g, p.errAt(t, "expected 1, 0 or a column's name in a group-level term, as in (1 + x | g)")
		}
	}
	t := p.next()
	if t.kind == "|" {
		return g, p.errAt(t, "(… || g), uncorrelated terms, is what (… | g) gives here (the varying terms are independent); write one bar")
	}
	if t.kind != "name" {
		return g, p.errAt(t, "expected the grouping column's name after the bar, as in (1 | county)")
	}
	g.by = glmName{t.text, t.pos}
	if t := p.next(); t.kind != ")" {
		if t.kind == "/" || t.kind == ":" {
			return g, p.errAt(t, "nested grouping (g1/g2, g1:g2) is not supported; make a column of the combined labels and group by it")
		}
		return g, p.errAt(t, "expected ) to close the group-level term opened at column %d", open.pos)
	}
	if !g.intercept && len(g.slopes) == 0 {
		return g, p.errAt(open, "the group-level term varies nothing; write (1 | %s) for a varying intercept", g.by.name)
	}
	return g, nil
}

// between says what is wrong with t where + or - was expected.
func (p *glmParser) between(t glmToken) string {
	switch t.kind {
	case ":", "*":
		return fmt.Sprintf("interactions (a%sb) are not supported yet; add a column of the product to the table and name it", t.kind)
	case "^", "/":
		return fmt.Sprintf("%q is not part of the formula; add a column of the values you want to the table", t.kind)
	case "name", "num", "(":
		return fmt.Sprintf("terms are joined by +; write + before %q", t.text)
	case ")":
		return "this ) closes nothing"
	case "~":
		return "a formula has one ~"
	}
	return fmt.Sprintf("expected + or - between terms, not %q", t.text)
}

// check refuses a column named twice.
func (f *glmFormula) check() error {
	seen := map[string]glmName{}
	for _, x := range f.fixed {
		if x.name == f.response.name {
			return glmErr(f.src, x.pos, "the response %q is also a predictor; leave it out of the right side", x.name)
		}
		if prev, ok := seen[x.name]; ok {
			return glmErr(f.src, x.pos, "%q is named twice (first at column %d); name each predictor once", x.name, prev.pos)
		}
		seen[x.name] = x
	}
	groups := map[string]glmName{}
	for _, g := range f.groups {
		if prev, ok := groups[g.by.name]; ok {
			return glmErr(f.src, g.by.pos, "two group-level terms by %q (the first at column %d); join them into one: (1 + x | %s)", g.by.name, prev.pos, g.by.name)
		}
		groups[g.by.name] = g.by
		slopes := map[string]bool{}
		for _, s := range g.slopes {
			if slopes[s.name] {
				return glmErr(f.src, s.pos, "%q varies by %q twice; name it once", s.name, g.by.name)
			}
			slopes[s.name] = true
		}
	}
	return nil
}

func (p *glmParser) next() glmToken {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *glmParser) peek() glmToken { return p.toks[p.i] }

func (p *glmParser) lex() error {
	rs := []rune(p.src)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case unicode.IsLetter(r) || r == '_':
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || rs[j] == '_' || rs[j] == '.') {
				j++
			}
			p.toks = append(p.toks, glmToken{"name", string(rs[i:j]), i + 1})
			i = j
		case unicode.IsDigit(r) || r == '.':
			j := i
			for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '.') {
				j++
			}
			p.toks = append(p.toks, glmToken{"num", string(rs[i:j]), i + 1})
			i = j
		case strings.ContainsRune("~+-()|:*^/,", r):
			p.toks = append(p.toks, glmToken{string(r), string(r), i + 1})
			i++
		case r == '`' || r == '"' || r == '\'':
			return glmErr(p.src, i+1, "quoted names are not read; name the column as it is (letters, digits, _ and .), renaming it in the CSV header if it has spaces")
		default:
			return glmErr(p.src, i+1, "%q is not part of a formula (columns, 1, 0, + - ~ and ( … | group))", r)
		}
	}
	p.toks = append(p.toks, glmToken{"end", "", len(rs) + 1})
	return nil
}

func (p *glmParser) errAt(t glmToken, format string, args ...any) error {
	return glmErr(p.src, t.pos, format, args...)
}

// glmErr is a mistake at column pos (1-based) of the formula src: the
// message quotes the formula with a caret under the place.
func glmErr(src string, pos int, format string, args ...any) error {
	return formulaError("GLM", src, pos, format, args...)
}
