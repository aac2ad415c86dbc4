package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"slices"
	"strings"
)

// maxTermArity is the length of accel/ir's TermArgs: the most arguments
// an op in term form may have.
const maxTermArity = 4

// termForm reports whether an op is written as terms (one element's value
// and partials, run by accel/ir's and accel/vec's hand-written skeletons,
// term.go in each) rather than as loops of its own. The tails are: no
// benchmark model censors or truncates, and their costly calls (logPhi,
// the incomplete gamma and beta functions) leave little for a loop of
// their own to save. The densities keep their loops, whose memos, data
// caches and per-shape copies the benchmarks in bench/README.md measure.
func (p *parsed) termForm() bool { return p.d.Of != nil }

// termFile writes accel/ir/term_gen.go: for each op in term form, the
// value and the partials of one element, each written once, inside the
// two loops over a row of elements that the skeletons call (<op>Values,
// <op>Grads: element r of argument j is x.X[j][r*x.S[j]], so that ir
// passes a whole batch and vec the chains of one element), and the table
// (terms) that the skeletons read.
func termFile(ps []*parsed, _ map[string]bool) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("package ir\n\nimport (\n\t\"math\"\n\n\t\"github.com/gobayes/gobayes/accel/opdef\"\n)\n\n")
	b.WriteString("var (\n\t_ = math.Log\n\t_ = opdef.Inv\n)\n\n")
	b.WriteString("// terms are the ops in term form, by op.\nvar terms = map[Op]*Term{\n")
	for _, p := range ps {
		if p.termForm() {
			fmt.Fprintf(&b, "\tOp%s: {%d, %sValues, %sGrads},\n", p.d.Op, len(p.keep), lowerFirst(p.d.Family), lowerFirst(p.d.Family))
		}
	}
	b.WriteString("}\n")
	for _, p := range ps {
		if !p.termForm() {
			continue
		}
		if len(p.args) > maxTermArity {
			return nil, fmt.Errorf("opdef %s: %d arguments, more than the %d of a term", p.d.Family, len(p.args), maxTermArity)
		}
		if err := termValues(&b, p); err != nil {
			return nil, err
		}
		if err := termGrads(&b, p); err != nil {
			return nil, err
		}
	}
	return goFile("term_gen.go", &b)
}

// termScope spells argument i as x<i> and let k as l<k>; a memo (a
// costly call on parameters alone: log σ, lgamma(α)) is a variable that
// the row loop computes once, before the loop, when its parameters are
// broadcast over the row (stride 0), and per element otherwise. In
// accel/ir a row is the batch; in accel/vec it is the chains of one
// element, where a parameter that the chains share is broadcast.
func (p *parsed) termScope() (*scope, *memoState) {
	s := p.scope()
	st := &memoState{}
	s.nw, s.decl, s.fresh = new(int), st, map[string]bool{}
	s.memoized, s.memoExprs = p.memoNames, p.memoExprs
	s.first = func(i int) string { return fmt.Sprintf("xs%d[0]", i) }
	s.count = "x.N"
	return s, st
}

// termRowHead reads the row's arguments (xs<j>) and strides (s<j>).
func termRowHead(b *bytes.Buffer, p *parsed) {
	var xs, ss, xv, sv []string
	for i := range p.args {
		xs = append(xs, fmt.Sprintf("xs%d", i))
		ss = append(ss, fmt.Sprintf("s%d", i))
		xv = append(xv, fmt.Sprintf("x.X[%d]", i))
		sv = append(sv, fmt.Sprintf("x.S[%d]", i))
	}
	fmt.Fprintf(b, "%s := %s\n%s := %s\n", strings.Join(xs, ", "), strings.Join(xv, ", "), strings.Join(ss, ", "), strings.Join(sv, ", "))
}

// termRowLoop opens the loop with element r's arguments (x<j>).
func termRowLoop(b *bytes.Buffer, p *parsed) {
	var es, ex []string
	for i := range p.args {
		es = append(es, fmt.Sprintf("x%d", i))
		ex = append(ex, fmt.Sprintf("xs%d[r*s%d]", i, i))
	}
	fmt.Fprintf(b, "for r := 0; r < x.N; r++ {\n%s := %s\n", strings.Join(es, ", "), strings.Join(ex, ", "))
}

func termValues(b *bytes.Buffer, p *parsed) error {
	s, st := p.termScope()
	lets := p.letsNeeded(p.value)
	for _, k := range p.keep {
		if !slices.Contains(lets, k) {
			return fmt.Errorf("opdef %s: Keep %s: the value does not read it", p.d.Family, p.d.Let[k].Name)
		}
	}
	valid, err := s.print(p.valid, goLang)
	if err != nil {
		return fmt.Errorf("opdef %s: Valid: %v", p.d.Family, err)
	}
	formulaComment(b, p)
	fmt.Fprintf(b, "func %sValues(x TermRows, keep, out []float64, add bool) float64 {\n", lowerFirst(p.d.Family))
	b.WriteString("sum := 0.0\n")
	termRowHead(b, p)
	var body bytes.Buffer
	fmt.Fprintf(&body, "e := negInf\nif %s {\n", valid)
	if err := termLets(&body, p, s, lets, map[int]bool{}, false); err != nil {
		return err
	}
	if len(p.keep) > 0 {
		body.WriteString("if keep != nil {\n")
		for j, k := range p.keep {
			fmt.Fprintf(&body, "keep[r*%d+%d] = l%d\n", len(p.keep), j, k)
		}
		body.WriteString("}\n")
	}
	line, err := goLine(s, p.value, "e = %s")
	if err != nil {
		return fmt.Errorf("opdef %s: Value: %v", p.d.Family, err)
	}
	body.WriteString(line)
	st.declare(b)
	termRowLoop(b, p)
	b.Write(body.Bytes())
	b.WriteString("}\nif e != e { // NaN from infinite inputs\ne = negInf\n}\nif add {\nout[r] += e\n} else if out != nil {\nout[r] = e\n}\nsum += e\n}\nreturn sum\n}\n")
	return nil
}

func termGrads(b *bytes.Buffer, p *parsed) error {
	s, st := p.termScope()
	valid, err := s.print(p.valid, goLang)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "\nfunc %sGrads(x TermRows, keep []float64, need uint, g []float64, gs int, d TermRows) TermArgs {\n", lowerFirst(p.d.Family))
	var sums, as, av, vs, vv []string
	out := make([]string, len(p.args))
	for i, g := range p.grads {
		out[i] = "0"
		if g == nil {
			continue
		}
		out[i] = fmt.Sprintf("sum%d", i)
		sums = append(sums, fmt.Sprintf("sum%d", i))
		as = append(as, fmt.Sprintf("a%d", i))
		av = append(av, fmt.Sprintf("d.X[%d]", i))
		vs = append(vs, fmt.Sprintf("v%d", i))
		vv = append(vv, fmt.Sprintf("d.S[%d] != 0", i))
	}
	fmt.Fprintf(b, "%s := %s\n%s := %s\nvar %s float64\n", strings.Join(as, ", "), strings.Join(av, ", "), strings.Join(vs, ", "), strings.Join(vv, ", "), strings.Join(sums, ", "))
	termRowHead(b, p)
	var body bytes.Buffer
	fmt.Fprintf(&body, "if !(%s) {\ncontinue\n}\n", valid)
	done := map[int]bool{}
	if p.gradIf != nil {
		if err := termLets(&body, p, s, p.letsNeeded(p.gradIf), done, true); err != nil {
			return err
		}
		line, err := goLine(s, p.gradIf, "if !(%s) {\ncontinue\n}")
		if err != nil {
			return fmt.Errorf("opdef %s: GradIf: %v", p.d.Family, err)
		}
		body.WriteString(line)
	}
	body.WriteString("gi := g[r*gs]\n")
	// The lets that two partials or more read are computed once, before
	// the partials, when any of them is needed.
	count := map[int]int{}
	for _, g := range p.grads {
		if g != nil {
			for _, k := range p.letsNeeded(g) {
				count[k]++
			}
		}
	}
	var shared []int
	var mask uint
	for k := range p.lets {
		if count[k] > 1 && !done[k] {
			shared = append(shared, k)
		}
	}
	// readers are the partials that read each memo, through their own
	// expressions or the lets computed for them.
	readers := map[string]uint{}
	var keys []string
	for i, g := range p.grads {
		if g == nil {
			continue
		}
		es := []ast.Expr{g}
		for _, k := range p.letsNeeded(g) {
			if !done[k] {
				es = append(es, p.lets[k])
			}
		}
		for _, m := range p.memosOf(es...) {
			if readers[m.key] == 0 {
				keys = append(keys, m.key)
			}
			readers[m.key] |= 1 << i
		}
	}
	// A memo that several partials read is refreshed once, before the
	// partials, when any of them is needed: each then finds it fresh.
	for _, key := range keys {
		r := readers[key]
		if r&(r-1) == 0 || s.fresh[key] {
			continue
		}
		var pre []string
		once := *s
		once.pre = &pre
		once.refreshMemo(key, p.memoNames[key])
		fmt.Fprintf(&body, "if need&%d != 0 {\n%s\n}\n", r, strings.Join(pre, "\n"))
	}
	if len(shared) > 0 {
		for i, g := range p.grads {
			if g == nil {
				continue
			}
			for _, k := range p.letsNeeded(g) {
				if slices.Contains(shared, k) {
					mask |= 1 << i
				}
			}
		}
		for _, k := range shared {
			fmt.Fprintf(&body, "var l%d float64\n", k)
		}
		fmt.Fprintf(&body, "if need&%d != 0 {\n", mask)
		var block bytes.Buffer
		inner := map[int]bool{}
		for k := range done {
			inner[k] = true
		}
		if err := termLets(&block, p, s.conditional(), p.letsNeededAll(shared), inner, true); err != nil {
			return err
		}
		// Assign, not declare, the shared lets.
		code := block.String()
		for _, k := range shared {
			code = strings.Replace(code, fmt.Sprintf("l%d := ", k), fmt.Sprintf("l%d = ", k), 1)
			code = strings.Replace(code, fmt.Sprintf("var l%d float64\n", k), "", 1)
		}
		body.WriteString(code)
		body.WriteString("}\n")
		for _, k := range shared {
			done[k] = true
		}
	}
	for i, g := range p.grads {
		if g == nil {
			continue
		}
		fmt.Fprintf(&body, "if need&%d != 0 {\n", 1<<i)
		inner := map[int]bool{}
		for k := range done {
			inner[k] = true
		}
		sc := s.conditional() // the block runs only when the partial is needed
		if err := termLets(&body, p, sc, p.letsNeeded(g), inner, true); err != nil {
			return err
		}
		line, err := goLine(sc, g, fmt.Sprintf("sum%d = acc(a%d, v%d, r, gi*(%%s), sum%d)", i, i, i, i))
		if err != nil {
			return fmt.Errorf("opdef %s: the partial by %s: %v", p.d.Family, p.args[i], err)
		}
		body.WriteString(line)
		body.WriteString("}\n")
	}
	st.declare(b)
	termRowLoop(b, p)
	b.Write(body.Bytes())
	fmt.Fprintf(b, "}\nreturn TermArgs{%s}\n}\n", strings.Join(out, ", "))
	return nil
}

// termLets writes lets ks (in order) that done does not hold, and adds
// them to done; a kept let is read from keep when the caller passes it.
func termLets(b *bytes.Buffer, p *parsed, s *scope, ks []int, done map[int]bool, readKeep bool) error {
	for _, k := range ks {
		if done[k] {
			continue
		}
		done[k] = true
		if j := p.kept(k); j >= 0 && readKeep {
			line, err := goLine(s.conditional(), p.lets[k], fmt.Sprintf("l%d = %%s", k))
			if err != nil {
				return err
			}
			fmt.Fprintf(b, "var l%d float64\nif keep != nil {\nl%d = keep[r*%d+%d]\n} else {\n%s}\n", k, k, len(p.keep), j, line)
			continue
		}
		line, err := goLine(s, p.lets[k], fmt.Sprintf("l%d := %%s", k))
		if err != nil {
			return err
		}
		b.WriteString(line)
	}
	return nil
}

// letsNeededAll is the lets ks read, with ks, in order.
func (p *parsed) letsNeededAll(ks []int) []int {
	var es []ast.Expr
	for _, k := range ks {
		es = append(es, p.lets[k])
	}
	out := p.letsNeeded(es...)
	for _, k := range ks {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
