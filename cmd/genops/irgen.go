package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"slices"
	"strings"
)

// irFile writes accel/ir's Forward and Backward of every definition, in
// the shape of the hand-written loops of lpdf_*.go: strided reads of
// broadcast inputs, memoised functions of one parameter, -Inf outside
// Valid, one adjoint accumulator per input.
func irFile(ps []*parsed, declared map[string]bool) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("package ir\n\nimport (\n\t\"math\"\n\n\t\"github.com/gobayes/gobayes/accel/opdef\"\n)\n\n")
	b.WriteString("var _ = opdef.Inv\n\n")
	var fresh []string
	for _, p := range ps {
		if !declared["Op"+p.d.Op] {
			fresh = append(fresh, "Op"+p.d.Op)
		}
	}
	b.WriteString("// The ops defined only in accel/opdef, after those of ops.go.\nconst (\n")
	for i, op := range fresh {
		if i == 0 {
			fmt.Fprintf(&b, "\t%s Op = numHandOps + iota\n", op)
		} else {
			fmt.Fprintf(&b, "\t%s\n", op)
		}
	}
	if len(fresh) == 0 {
		b.WriteString("\tNumOps = numHandOps\n")
	} else {
		b.WriteString("\tNumOps // the number of ops\n")
	}
	b.WriteString(")\n\nfunc init() {\n")
	for _, p := range ps {
		if p.termForm() {
			scratch := ""
			if len(p.keep) > 0 {
				scratch = fmt.Sprintf(", Scratch: keepScratch(%d)", len(p.keep))
			}
			fmt.Fprintf(&b, "\tregister(Op%s, OpDef{Name: %q, Arity: %d, Shape: lpdfShape, Forward: terms[Op%s].forward, Backward: terms[Op%s].backward%s})\n",
				p.d.Op, p.d.Name, len(p.args), p.d.Op, p.d.Op, scratch)
			continue
		}
		scratch := ""
		var as []string
		for _, a := range p.constArgs {
			as = append(as, fmt.Sprint(a))
		}
		switch {
		case len(p.keep) > 0 && p.hasConstPart():
			scratch = fmt.Sprintf(", Scratch: keepDataScratch(%d, %d, %s)", len(p.keep), len(p.terms), strings.Join(as, ", "))
		case len(p.keep) > 0:
			scratch = fmt.Sprintf(", Scratch: keepScratch(%d)", len(p.keep))
		case p.hasConstPart():
			scratch = fmt.Sprintf(", Scratch: dataScratch(%d, %s)", len(p.terms), strings.Join(as, ", "))
		}
		fmt.Fprintf(&b, "\tregister(Op%s, OpDef{Name: %q, Arity: %d, Shape: lpdfShape, Forward: %sForward, Backward: %sBackward%s})\n",
			p.d.Op, p.d.Name, len(p.args), lowerFirst(p.d.Family), lowerFirst(p.d.Family), scratch)
	}
	b.WriteString("}\n")
	for _, p := range ps {
		if p.termForm() {
			continue // term_gen.go
		}
		if err := irForward(&b, p); err != nil {
			return nil, err
		}
		if err := irBackward(&b, p); err != nil {
			return nil, err
		}
	}
	return goFile("lpdf_gen.go", &b)
}

// constPrelude writes the code that, on the first evaluation in a frame
// with constant data, caches the data terms and tests the data conditions
// of Valid (validData) for every element; allValid then lets the loop skip
// them.
func constPrelude(b *bytes.Buffer, p *parsed) {
	if !p.hasConstPart() {
		return
	}
	skip := "0"
	if len(p.keep) > 0 {
		skip = fmt.Sprintf("%d*n", len(p.keep))
	}
	s := p.scope()
	var ins []string
	for _, a := range p.constArgs {
		ins = append(ins, fmt.Sprintf("in%d", a))
	}
	fmt.Fprintf(b, "\tcache, fill, vflag := constData(f, in, %s)\n", skip)
	fmt.Fprintf(b, "\tcn := batchLen(%s)\n", strings.Join(ins, ", "))
	b.WriteString("\tif fill {\n\t\tok := true\n\t\tfor i := 0; i < cn; i++ {\n")
	for _, a := range p.constArgs {
		fmt.Fprintf(b, "\t\t\tx%d := in%d[i*s%d]\n\t\t\t_ = x%d\n", a, a, a, a)
	}
	for j, t := range p.terms {
		v, _ := s.print(t, goLang)
		fmt.Fprintf(b, "\t\t\tcache[%d*cn+i] = %s\n", j, v)
	}
	if p.validData != nil {
		v, _ := s.print(p.validData, goLang)
		fmt.Fprintf(b, "\t\t\tif !(%s) {\n\t\t\t\tok = false\n\t\t\t}\n", v)
	}
	b.WriteString("\t\t}\n\t\tif ok {\n\t\t\t*vflag = 1\n\t\t} else {\n\t\t\t*vflag = 2\n\t\t}\n\t}\n")
	b.WriteString("\tallValid := vflag != nil && *vflag == 1\n\t_ = allValid\n")
	b.WriteString("\tcs := 0 // the cache's stride: 0 for one element\n\tif cn > 1 {\n\t\tcs = 1\n\t}\n\t_, _ = cs, cache\n")
}

// validCode is Valid as the loops test it: the data conditions only when
// constant data did not all pass them once per frame.
func (p *parsed) validCode(s *scope) (string, error) {
	if !p.hasConstPart() || p.validData == nil {
		return s.print(p.valid, goLang)
	}
	return p.validAfter(s, "allValid")
}

// validAfter is Valid with its data conditions skipped when flag (a Go
// boolean: they passed once for all) holds.
func (p *parsed) validAfter(s *scope, flag string) (string, error) {
	d, err := s.print(p.validData, goLang)
	if err != nil {
		return "", err
	}
	out := "(" + flag + " || " + d + ")"
	if p.validRest != nil {
		r, err := s.print(p.validRest, goLang)
		if err != nil {
			return "", err
		}
		out += " && " + r
	}
	return out, nil
}

// termsOf are the data terms the expressions read, by index.
func (p *parsed) termsOf(es ...ast.Expr) []int {
	s := p.scope()
	var out []int
	for j, t := range p.terms {
		for _, e := range es {
			if e == nil {
				continue
			}
			found := false
			ast.Inspect(e, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok && !found {
					if k, err := s.print(c, goLang); err == nil && k == p.termKeys[j] {
						found = true
					}
				}
				return !found
			})
			if found {
				out = append(out, j)
				break
			}
		}
		_ = t
	}
	return out
}

// readTerms reads the data terms js for element i: from the cache when
// there is one, else computed.
func readTerms(b *bytes.Buffer, p *parsed, s *scope, js []int, indent string) error {
	for _, j := range js {
		// Computed, a term of a parameter (Cached's log σ) is a memo.
		t := s.conditional()
		t.cached = nil
		line, err := goLine(t, p.terms[j], fmt.Sprintf("c%d = %%s", j))
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "%svar c%d float64\n%sif cache != nil {\n%s\tc%d = cache[%d*cn+i*cs]\n%s} else {\n%s%s}\n",
			indent, j, indent, indent, j, j, indent, line, indent)
	}
	return nil
}

// readTermRows reads the data terms js for element i in the loop over
// full vectors, where the cache is filled: from rows of n.
func readTermRows(b *bytes.Buffer, js []int, indent string) {
	for _, j := range js {
		fmt.Fprintf(b, "%sc%d := cacheRow%d[i]\n", indent, j, j)
	}
}

// keepSlot is where a loop reads or writes kept let j of element i: a
// placeholder that fullLoop replaces by the scratch's slot (the general
// loop) or by its row (the loop over full vectors).
func keepSlot(j int) string { return fmt.Sprintf("@keep%d@", j) }

// fullLoop is loop with its kept lets' slots resolved: rows of n in the
// loop over full vectors (fast), else slots of the scratch.
func fullLoop(loop string, p *parsed, fast bool) string {
	for j := range p.keep {
		slot := fmt.Sprintf("keep[%d*n+i]", j)
		if fast {
			slot = fmt.Sprintf("keepRow%d[i]", j)
		}
		loop = strings.ReplaceAll(loop, keepSlot(j), slot)
	}
	return loop
}

// loopScope is the scope of a generated loop: memos and data terms as
// variables, the memos' keys and values declared through st.
func (p *parsed) loopScope() (*scope, *memoState) {
	s := p.scope()
	st := &memoState{}
	s.nw, s.decl, s.fresh = new(int), st, map[string]bool{}
	s.memoized, s.memoExprs = p.memoNames, p.memoExprs
	if len(p.terms) > 0 {
		s.cached = map[string]string{}
		for j, k := range p.termKeys {
			s.cached[k] = fmt.Sprintf("c%d", j)
		}
	}
	return s, st
}

// formulaComment documents a definition in the generated code.
func formulaComment(b *bytes.Buffer, p *parsed) {
	d := p.d
	fmt.Fprintf(b, "\n// %s(%s) = %s where %s", d.Name, strings.Join(p.args, ", "), d.Value, d.Valid)
	for _, l := range d.Let {
		fmt.Fprintf(b, ",\n// %s = %s", l.Name, l.Expr)
	}
	b.WriteString(".\n")
}

// reads declares the inputs and their strides.
func reads(b *bytes.Buffer, p *parsed) {
	var ins, vals, strides, slices []string
	for i := range p.args {
		ins = append(ins, fmt.Sprintf("in%d", i))
		vals = append(vals, fmt.Sprintf("f.Val(in.In[%d])", i))
		strides = append(strides, fmt.Sprintf("s%d", i))
		slices = append(slices, fmt.Sprintf("stride(in%d)", i))
	}
	fmt.Fprintf(b, "\t%s := %s\n", strings.Join(ins, ", "), strings.Join(vals, ", "))
	fmt.Fprintf(b, "\tn := batchLen(%s)\n", strings.Join(ins, ", "))
	fmt.Fprintf(b, "\t%s := %s\n", strings.Join(strides, ", "), strings.Join(slices, ", "))
}

// elements reads element i of every argument.
func elements(b *bytes.Buffer, p *parsed) {
	var xs, rs []string
	for i := range p.args {
		xs = append(xs, fmt.Sprintf("x%d", i))
		rs = append(rs, fmt.Sprintf("in%d[i*s%d]", i, i))
	}
	fmt.Fprintf(b, "\t\t%s := %s\n", strings.Join(xs, ", "), strings.Join(rs, ", "))
	// A formula need not read every argument (the uniform density's
	// value ignores y); each still sets the batch length.
	fmt.Fprintf(b, "\t\t%s = %s\n", strings.Repeat("_, ", len(xs)-1)+"_", strings.Join(xs, ", "))
}

// memoState collects the memo keys and values a loop uses, to declare
// them before it.
type memoState struct {
	keys, vals []string
	// inits compute the memos of broadcast parameters before the loop.
	inits []string
	seen  map[string]bool
}

func (st *memoState) add(list *[]string, name string) {
	if st.seen == nil {
		st.seen = map[string]bool{}
	}
	if !st.seen[name] {
		st.seen[name] = true
		*list = append(*list, name)
	}
}

func (st *memoState) declare(b *bytes.Buffer) {
	for _, k := range st.keys {
		fmt.Fprintf(b, "\t%s := math.NaN()\n", k)
	}
	if len(st.vals) > 0 {
		fmt.Fprintf(b, "\tvar %s float64\n", strings.Join(st.vals, ", "))
	}
	seen := map[string]bool{}
	for _, s := range st.inits {
		if !seen[s] {
			seen[s] = true
			b.WriteString(s + "\n")
		}
	}
}

// letsNeeded is the lets the expressions read, with the lets they read,
// in order.
func (p *parsed) letsNeeded(es ...ast.Expr) []int {
	s := p.scope()
	need := map[int]bool{}
	for _, e := range es {
		if e != nil {
			s.uses(e, need)
		}
	}
	for k := len(p.lets) - 1; k >= 0; k-- {
		if need[k] {
			s.uses(p.lets[k], need)
		}
	}
	var out []int
	for k := range p.lets {
		if need[k] {
			out = append(out, k)
		}
	}
	return out
}

func (p *parsed) memosOf(es ...ast.Expr) []memo {
	s := p.scope()
	set := map[memo]bool{}
	for _, e := range es {
		if e != nil {
			s.memos(e, set, map[string]ast.Expr{})
		}
	}
	return sortedMemos(set)
}

func irForward(b *bytes.Buffer, p *parsed) error {
	s, st := p.loopScope()
	formulaComment(b, p)
	fmt.Fprintf(b, "func %sForward(f *Frame, in *Instr) {\n", lowerFirst(p.d.Family))
	if sc := p.d.Shortcut; sc != "" {
		fmt.Fprintf(b, "\tif shortcuts && %sForward(f, in) {\n\t\treturn\n\t}\n", sc)
	}
	reads(b, p)
	b.WriteString("\tout, pw := f.Val(in.Out), Pointwise(in)\n")
	if len(p.keep) > 0 {
		b.WriteString("\tkeep := f.Val(in.Scratch) // the kept lets, a row of n each\n")
	}
	lets := p.letsNeeded(p.value)
	for _, k := range p.keep {
		if !slices.Contains(lets, k) {
			return fmt.Errorf("opdef %s: Keep %s: the value does not read it", p.d.Family, p.d.Let[k].Name)
		}
	}
	es := []ast.Expr{p.value}
	for _, k := range lets {
		es = append(es, p.lets[k])
	}
	valid, err := p.validCode(s)
	if err != nil {
		return err
	}
	var body, terms, termRows bytes.Buffer
	used := p.termsOf(es...)
	if err := readTerms(&terms, p, s, used, "\t\t\t"); err != nil {
		return err
	}
	readTermRows(&termRows, used, "\t\t\t")
	for _, k := range lets {
		line, err := goLine(s, p.lets[k], fmt.Sprintf("l%d := %%s", k))
		if err != nil {
			return err
		}
		body.WriteString(line)
		if j := p.kept(k); j >= 0 {
			fmt.Fprintf(&body, "%s = l%d\n", keepSlot(j), k)
		}
	}
	line, err := goLine(s, p.value, "e = %s")
	if err != nil {
		return err
	}
	body.WriteString(line)
	st.declare(b)
	constPrelude(b, p)
	loop := func(terms []byte) string {
		var loop bytes.Buffer
		loop.WriteString("\tt := 0.0\n\tfor i := 0; i < n; i++ {\n")
		elements(&loop, p)
		fmt.Fprintf(&loop, "\t\te := negInf\n\t\tif %s {\n", valid)
		loop.Write(terms)
		loop.Write(body.Bytes())
		loop.WriteString("\t\t}\n")
		loop.WriteString("\t\tif e != e { // NaN from infinite inputs\n\t\t\te = negInf\n\t\t}\n")
		loop.WriteString("\t\tif pw {\n\t\t\tout[i] = e\n\t\t}\n\t\tt += e\n\t}\n")
		return loop.String()
	}
	writeLoops(b, p, used, terms.Bytes(), termRows.Bytes(), loop, "\tif !pw {\n\t\tout[0] = t\n\t}\n")
	return nil
}

// fullVectors opens the block that runs a loop when the inputs have one
// of the shapes of Dist.Fast (full[i]: argument i is a full vector, else
// one value): the same loop as the general one after it, with its strides
// declared as constants (and the inputs resliced to n), so that the
// compiler drops the index arithmetic, the stride tests of the memos and
// the bounds checks. When the shape has full constant data, the block
// runs only once the data are cached and valid, and reads the cache's
// rows (it reports true: the loop is to read the data terms by
// readTermRows). The caller writes the loop and closes the block.
func fullVectors(b *bytes.Buffer, p *parsed, full []bool, terms []int) (rows bool) {
	var conds, ss, vs, ins, cut []string
	for i := range p.args {
		ss = append(ss, fmt.Sprintf("s%d", i))
		if full[i] {
			conds = append(conds, fmt.Sprintf("len(in%d) == n", i))
			vs = append(vs, "1")
			ins = append(ins, fmt.Sprintf("in%d", i))
			cut = append(cut, fmt.Sprintf("in%d[:n]", i))
		} else {
			conds = append(conds, fmt.Sprintf("len(in%d) == 1", i))
			vs = append(vs, "0")
		}
	}
	if p.hasConstPart() {
		for _, a := range p.constArgs {
			rows = rows || full[a]
		}
	}
	if rows {
		// The data are constants, cached, and pass Valid's data
		// conditions.
		conds = append(conds, "allValid")
	}
	fmt.Fprintf(b, "\tif n > 1 && %s {\n", strings.Join(conds, " && "))
	b.WriteString("\t\t// The loop below with constant strides.\n")
	fmt.Fprintf(b, "\t\tconst %s = %s\n", strings.Join(ss, ", "), strings.Join(vs, ", "))
	switch {
	case rows:
		b.WriteString("\t\tconst cs, allValid = 1, true\n")
	case p.hasConstPart():
		b.WriteString("\t\tconst cs = 0\n")
	}
	if len(ins) > 0 {
		fmt.Fprintf(b, "\t\t%s := %s\n", strings.Join(ins, ", "), strings.Join(cut, ", "))
	}
	if rows {
		for _, j := range terms {
			fmt.Fprintf(b, "\t\tcacheRow%d := cache[%d*n:][:n]\n", j, j)
		}
	}
	for j := range p.keep {
		fmt.Fprintf(b, "\t\tkeepRow%d := keep[%d*n:][:n]\n", j, j)
	}
	return rows
}

// fastShapes are Dist.Fast's shapes: full[i] when argument i is a full
// vector.
func (p *parsed) fastShapes() [][]bool {
	if len(p.d.Fast) == 0 {
		full := make([]bool, len(p.args))
		for i := range full {
			full[i] = true
		}
		return [][]bool{full}
	}
	var out [][]bool
	for _, f := range p.d.Fast {
		full := make([]bool, len(p.args))
		for _, name := range strings.Fields(f) {
			full[p.names[name]] = true
		}
		out = append(out, full)
	}
	return out
}

func irBackward(b *bytes.Buffer, p *parsed) error {
	s, st := p.loopScope()
	fmt.Fprintf(b, "\nfunc %sBackward(f *Frame, in *Instr) {\n", lowerFirst(p.d.Family))
	if sc := p.d.Shortcut; sc != "" {
		fmt.Fprintf(b, "\tif shortcuts && %sBackward(f, in) {\n\t\treturn\n\t}\n", sc)
	}
	reads(b, p)
	b.WriteString("\tg, gs := f.AdjOf(in.Out), outStride(in)\n")
	if len(p.keep) > 0 {
		b.WriteString("\tkeep := f.Val(in.Scratch) // left by Forward at this point\n")
	}
	var sums []string
	var grads []int
	for i, g := range p.grads {
		if g == nil {
			continue
		}
		fmt.Fprintf(b, "\td%d, d%dVec := gradOf(f, in.In[%d])\n", i, i, i)
		sums = append(sums, fmt.Sprintf("d%dSum", i))
		grads = append(grads, i)
	}
	if len(sums) == 0 {
		b.WriteString("}\n")
		return nil
	}
	fmt.Fprintf(b, "\tvar %s float64\n", strings.Join(sums, ", "))
	valid, err := p.validCode(s)
	if err != nil {
		return err
	}
	// The lets every partial reads (and GradIf's) are computed once per
	// element; the others inside the partial that reads them, only when
	// its argument carries a gradient. Memos refresh where they are read.
	common := map[int]bool{}
	for n, i := range grads {
		lets := map[int]bool{}
		for _, k := range p.letsNeeded(p.grads[i]) {
			lets[k] = true
		}
		if n == 0 {
			common = lets
			continue
		}
		for k := range common {
			if !lets[k] {
				delete(common, k)
			}
		}
	}
	if p.gradIf != nil {
		for _, k := range p.letsNeeded(p.gradIf) {
			common[k] = true
		}
	}
	for k := len(p.lets) - 1; k >= 0; k-- { // a common let's own lets
		if common[k] {
			for _, j := range p.letsNeeded(p.lets[k]) {
				common[j] = true
			}
		}
	}
	all := []ast.Expr{p.gradIf}
	for _, i := range grads {
		all = append(all, p.grads[i])
	}
	all = append(all, p.lets...)
	used := p.termsOf(all...)
	var body, terms, termRows bytes.Buffer
	if err := readTerms(&terms, p, s, used, "\t\t"); err != nil {
		return err
	}
	readTermRows(&termRows, used, "\t\t")
	for k := range p.lets {
		if common[k] {
			line, err := p.letLine(s, k)
			if err != nil {
				return err
			}
			body.WriteString(line)
		}
	}
	if p.gradIf != nil {
		line, err := goLine(s, p.gradIf, "if !(%s) {\ncontinue\n}")
		if err != nil {
			return err
		}
		body.WriteString(line)
	}
	top := s
	// A memo that several partials read is refreshed once, before their
	// blocks, when any of them runs: each block then finds it fresh.
	readers := map[string][]int{}
	var keys []string
	for _, i := range grads {
		exprs := []ast.Expr{p.grads[i]}
		for _, k := range p.letsNeeded(p.grads[i]) {
			if !common[k] {
				exprs = append(exprs, p.lets[k])
			}
		}
		for _, m := range p.memosOf(exprs...) {
			if readers[m.key] == nil {
				keys = append(keys, m.key)
			}
			readers[m.key] = append(readers[m.key], i)
		}
	}
	for _, key := range keys {
		if len(readers[key]) < 2 || top.fresh[key] {
			continue
		}
		var conds, pre []string
		for _, i := range readers[key] {
			conds = append(conds, fmt.Sprintf("d%d != nil", i))
		}
		once := *top
		once.pre = &pre
		once.refreshMemo(key, p.memoNames[key])
		fmt.Fprintf(&body, "		if %s {\n%s\n}\n", strings.Join(conds, " || "), strings.Join(pre, "\n"))
	}
	for _, i := range grads {
		s := top.conditional() // the partial's block runs only with a gradient
		g := p.grads[i]
		fmt.Fprintf(&body, "\t\tif d%d != nil {\n", i)
		for _, k := range p.letsNeeded(g) {
			if common[k] {
				continue
			}
			line, err := p.letLine(s, k)
			if err != nil {
				return err
			}
			body.WriteString(line)
		}
		line, err := goLine(s, g, fmt.Sprintf("d%dSum = acc(d%d, d%dVec, i, gi*(%%s), d%dSum)", i, i, i, i))
		if err != nil {
			return err
		}
		body.WriteString(line + "\t\t}\n")
	}
	st.declare(b)
	constPrelude(b, p)
	loop := func(terms []byte) string {
		var loop bytes.Buffer
		loop.WriteString("\tfor i := 0; i < n; i++ {\n")
		elements(&loop, p)
		fmt.Fprintf(&loop, "\t\tif !(%s) {\n\t\t\tcontinue\n\t\t}\n\t\tgi := g[i*gs]\n", valid)
		loop.Write(terms)
		loop.Write(body.Bytes())
		loop.WriteString("\t}\n")
		for _, i := range grads {
			fmt.Fprintf(&loop, "\tflushAcc(d%d, d%dVec, d%dSum)\n", i, i, i)
		}
		return loop.String()
	}
	writeLoops(b, p, used, terms.Bytes(), termRows.Bytes(), loop, "")
	return nil
}

// writeLoops writes the end of a Forward or Backward: a block per shape of
// Dist.Fast with its copy of the loop, then the general loop, each
// followed by tail (Forward's store of the sum) and the function's end.
// loop makes a loop's text given how it reads the data terms.
func writeLoops(b *bytes.Buffer, p *parsed, used []int, terms, termRows []byte, loop func([]byte) string, tail string) {
	for _, full := range p.fastShapes() {
		read := terms
		if fullVectors(b, p, full, used) {
			read = termRows
		}
		b.WriteString(fullLoop(loop(read), p, true))
		b.WriteString(tail + "\t\treturn\n\t}\n")
	}
	b.WriteString(fullLoop(loop(terms), p, false))
	b.WriteString(tail + "}\n")
}

// goLine is one Go statement, format applied to e's value, after the
// statements e needs first: memo refreshes and lazy wheres (format.Source
// indents them).
func goLine(s *scope, e ast.Expr, format string) (string, error) {
	inner := *s
	var pre []string
	inner.pre = &pre
	v, err := inner.print(e, goLang)
	if err != nil {
		return "", err
	}
	return strings.Join(append(pre, fmt.Sprintf(format, v), ""), "\n"), nil
}

// letLine is the statement giving let k its value in Backward: read from
// the scratch when Forward kept it, else computed.
func (p *parsed) letLine(s *scope, k int) (string, error) {
	if j := p.kept(k); j >= 0 {
		return fmt.Sprintf("l%d := %s\n", k, keepSlot(j)), nil
	}
	return goLine(s, p.lets[k], fmt.Sprintf("l%d := %%s", k))
}
