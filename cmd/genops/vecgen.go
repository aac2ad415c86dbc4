package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"
)

// vecRows is the number of accel/vec's per-chain rows a generated kernel
// may use for its precomputed calls (rows[5] is adjRow's sink).
const vecRows = 5

// rowCall is a costly call on one or two arguments only, computed for
// every chain as a row per element before the loop over chains (once per
// evaluation for a broadcast argument shared by every chain): accel/vec's
// counterpart of a memo and of a data term.
type rowCall struct {
	key  string
	expr ast.Expr
	args []int
}

// rowCalls finds the outermost such calls of es, in order of appearance.
func (p *parsed) rowCalls(es ...ast.Expr) []rowCall {
	s := p.scope()
	var out []rowCall
	seen := map[string]bool{}
	for _, e := range es {
		if e == nil {
			continue
		}
		ast.Inspect(e, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			f, ok := c.Fun.(*ast.Ident)
			if !ok || !(costly[f.Name] || funcs[f.Name].memo) {
				return true
			}
			args, only := map[int]bool{}, true
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
				for i, a := range p.args {
					if a == id.Name {
						args[i] = true
						return true
					}
				}
				only = false
				return true
			})
			if !only || len(args) == 0 || len(args) > 2 {
				return true
			}
			key, err := s.print(c, goLang)
			if err != nil {
				return false
			}
			if !seen[key] {
				seen[key] = true
				rc := rowCall{key: key, expr: c}
				for i := range p.args {
					if args[i] {
						rc.args = append(rc.args, i)
					}
				}
				out = append(out, rc)
			}
			return false
		})
	}
	return out
}

// vecFile writes accel/vec's lockstep kernels of every definition: for
// each element, the rows of its precomputed calls, then one loop over the
// chains.
func vecFile(ps []*parsed, _ map[string]bool) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("package vec\n\nimport (\n\t\"math\"\n\n\t\"github.com/gobayes/gobayes/accel/ir\"\n\t\"github.com/gobayes/gobayes/accel/opdef\"\n)\n\n")
	b.WriteString("var (\n\t_ = opdef.Inv\n\t_ = ir.Exp\n)\n\n")
	b.WriteString("// genKernels are the lockstep kernels of the accel/opdef families; the\n// ops in term form are added by term.go.\nvar genKernels = map[ir.Op]genKernel{\n")
	for _, p := range ps {
		if p.termForm() {
			continue
		}
		fmt.Fprintf(&b, "\tir.Op%s: {(*Batch).gen%sForward, (*Batch).gen%sBackward},\n", p.d.Op, p.d.Family, p.d.Family)
	}
	b.WriteString("}\n")
	for _, p := range ps {
		if p.termForm() {
			continue // accel/vec/term.go
		}
		if err := vecForward(&b, p); err != nil {
			return nil, err
		}
		if err := vecBackward(&b, p); err != nil {
			return nil, err
		}
	}
	return goFile("lpdf_gen.go", &b)
}

// vecScope prints per-chain code: x<i> the argument, rows as r<j>[c].
func (p *parsed) vecScope(rows []rowCall) *scope {
	s := p.scope()
	s.outside, s.nw = true, new(int)
	s.cached = map[string]string{}
	for j, r := range rows {
		s.cached[r.key] = fmt.Sprintf("r%d[c]", j)
	}
	return s
}

// vecHead declares the operands, the batch length and the offsets.
func vecHead(b *bytes.Buffer, p *parsed, adj bool) {
	var as, es, ns []string
	for i := range p.args {
		as = append(as, fmt.Sprintf("a%d", i))
		es = append(es, fmt.Sprintf("b.elem(in.In[%d])", i))
		ns = append(ns, fmt.Sprintf("a%d.n", i))
	}
	if adj {
		b.WriteString("\tv, a, o, nb := b.V, b.Adj, b.loc[in.Out], b.B\n\t_ = v\n")
	} else {
		b.WriteString("\tv, o, nb := b.V, b.loc[in.Out], b.B\n")
	}
	fmt.Fprintf(b, "\t%s := %s\n", strings.Join(as, ", "), strings.Join(es, ", "))
	if len(ns) == 1 {
		fmt.Fprintf(b, "\tn := %s\n", ns[0])
	} else {
		fmt.Fprintf(b, "\tn := max(%s)\n", strings.Join(ns, ", "))
	}
	b.WriteString("\tpw := ir.Pointwise(in)\n")
}

// vecElement opens the loop over elements: the output offset and the
// operands' offsets for element i.
func vecElement(b *bytes.Buffer, p *parsed) {
	b.WriteString("\tfor i := 0; i < n; i++ {\n\t\too := o.off\n\t\tif pw {\n\t\t\too += i * nb\n\t\t}\n")
	var os, vs []string
	for i := range p.args {
		os = append(os, fmt.Sprintf("o%d", i))
		vs = append(vs, fmt.Sprintf("a%d.off+i*a%d.es", i, i))
	}
	fmt.Fprintf(b, "\t\t%s := %s\n", strings.Join(os, ", "), strings.Join(vs, ", "))
	fmt.Fprintf(b, "\t\t%s = %s\n", strings.Repeat("_, ", len(os)-1)+"_", strings.Join(os, ", "))
}

// loopArgs sorts the arguments the loop over chains reads: read are
// those its formulas es read outside the row calls (rows), and Valid's
// withValid; only those Valid's data conditions alone read (tested once
// when every chain shares the data, see vecValid).
func (p *parsed) loopArgs(rows []rowCall, withValid bool, es ...ast.Expr) (read, only map[int]bool) {
	isRow := map[string]bool{}
	for _, r := range rows {
		isRow[r.key] = true
	}
	s := p.scope()
	visit := func(e ast.Expr, into map[int]bool) {
		if e == nil {
			return
		}
		ast.Inspect(e, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if key, err := s.print(c, goLang); err == nil && isRow[key] {
					return false
				}
			}
			if id, ok := n.(*ast.Ident); ok {
				if i, ok := p.names[id.Name]; ok {
					into[i] = true
				}
			}
			return true
		})
	}
	read, only = map[int]bool{}, map[int]bool{}
	for _, e := range es {
		visit(e, read)
	}
	if !withValid {
		return read, only
	}
	if p.validData == nil {
		visit(p.valid, read)
		return read, only
	}
	visit(p.validRest, read)
	visit(p.validData, only)
	for i := range read {
		delete(only, i)
	}
	return read, only
}

// argRows writes, for element i, the row of each parameter the loop
// reads (Batch.row: a per-chain argument's own slots, a shared one's
// value repeated, refilled only when it changes), bounded by the loop's
// length (to) so that the compiler drops the bounds checks; an argument
// only the data conditions read gets its row only when they are tested
// per chain. The variate has none: the loop reads it in place (often
// data, different at every element, a row would be refilled each time,
// which made poisson_log and bernoulli_logit of data slower).
func (p *parsed) argRows(b *bytes.Buffer, read, only map[int]bool, to string) {
	for i := range p.args {
		switch {
		case i == 0:
		case read[i]:
			fmt.Fprintf(b, "\t\ts%d := b.row(a%d, i, b.fills[%d])[:len(%s)]\n", i, i, i, to)
		case only[i]:
			fmt.Fprintf(b, "\t\ts%d := b.fills[%d] // read only when the data conditions are tested per chain\n", i, i)
			fmt.Fprintf(b, "\t\tif !(%s) {\n\t\t\ts%d = b.row(a%d, i, b.fills[%d])\n\t\t}\n\t\ts%d = s%d[:len(%s)]\n", p.constShared(), i, i, i, i, i, to)
		}
	}
}

// vecChain reads the arguments of chain c from their rows (the
// variate in place).
func vecChain(b *bytes.Buffer, p *parsed, read map[int]bool) {
	for i := range p.args {
		switch {
		case !read[i]:
		case i == 0:
			b.WriteString("\t\t\tx0 := v[o0+c*a0.cs]\n")
		default:
			fmt.Fprintf(b, "\t\t\tx%d := s%d[c]\n", i, i)
		}
	}
}

// loopScope is s with the arguments only the data conditions read
// spelled as their rows' element c.
func loopScope(s *scope, only map[int]bool) *scope {
	c := *s
	if c.keyArgVar == nil {
		c.keyArgVar = s.argVar
	}
	c.argVar = func(i int) string {
		if only[i] && i == 0 {
			return "v[o0+c*a0.cs]"
		}
		if only[i] {
			return fmt.Sprintf("s%d[c]", i)
		}
		return fmt.Sprintf("x%d", i)
	}
	return &c
}

// sharedValid is Valid as the loop over chains tests it when every
// chain shares the row calls' arguments (see declareRows): when those
// cover the data conditions' arguments, the conditions passed once
// (vecValid), and only the others remain.
func (p *parsed) sharedValid(rows []rowCall, valid string, s *scope) (string, error) {
	if p.validData == nil {
		return valid, nil
	}
	in := map[int]bool{}
	for _, r := range rows {
		for _, a := range r.args {
			in[a] = true
		}
	}
	for _, a := range p.constArgs {
		if !in[a] {
			return valid, nil
		}
	}
	if p.validRest == nil {
		return "true", nil
	}
	return s.print(p.validRest, goLang)
}

// constShared is the test that every argument of the data conditions
// and data terms is shared by every chain.
func (p *parsed) constShared() string {
	var shared []string
	for _, a := range p.constArgs {
		shared = append(shared, fmt.Sprintf("a%d.cs == 0", a))
	}
	return strings.Join(shared, " && ")
}

// fillRow writes the computation of row j for element i, inline (a
// closure handed to a helper cost a call per chain): into the scalar q<j>
// when every row call's arguments are shared by every chain (shared, see
// declareRows), else the call once when its own operands are shared,
// else once per chain; nothing when element i reads the same scalars as
// element i-1.
//
// guard, when set, is Valid (see guardRow): the per-chain row is NaN
// where it fails.
func fillRow(b *bytes.Buffer, p *parsed, j int, r rowCall, indent, guard string) {
	s := p.scope()
	s.outside = true
	call, _ := s.print(r.expr, goLang)
	var moves, shared, offs, reads, perChain []string
	for _, a := range r.args {
		moves = append(moves, fmt.Sprintf("a%d.es != 0", a))
		shared = append(shared, fmt.Sprintf("a%d.cs == 0", a))
		offs = append(offs, fmt.Sprintf("p%d := a%d.off + i*a%d.es", a, a, a))
		reads = append(reads, fmt.Sprintf("x%d := v[p%d]", a, a))
		perChain = append(perChain, fmt.Sprintf("x%d := v[p%d+c*a%d.cs]", a, a, a))
	}
	in := indent + "\t"
	fmt.Fprintf(b, "%sif i == 0 || %s {\n", indent, strings.Join(moves, " || "))
	fmt.Fprintf(b, "%s%s\n", in, strings.Join(offs, "\n"+in))
	fmt.Fprintf(b, "%sif shared {\n%s\t%s\n%s\tq%d = %s\n", in, in, strings.Join(reads, "\n\t"+in), in, j, call)
	rv := "rv := " + call
	if guard != "" {
		rv = fmt.Sprintf("rv := math.NaN()\nif %s {\nrv = %s\n}", guard, call)
	}
	fmt.Fprintf(b, "%s} else if %s {\n", in, strings.Join(shared, " && "))
	fmt.Fprintf(b, "%s\t%s\n%s\t%s\n%s\tfor c := range r%d {\n%s\t\tr%d[c] = rv\n%s\t}\n", in, strings.Join(reads, "\n\t"+in), in, rv, in, j, in, j, in)
	set := fmt.Sprintf("r%d[c] = %s", j, call)
	if guard != "" {
		set = fmt.Sprintf("%s\nr%d[c] = rv", rv, j)
	}
	fmt.Fprintf(b, "%s} else {\n%s\tfor c := range r%d {\n%s\t\t%s\n%s\t\t%s\n%s\t}\n%s}\n", in, in, j, in, strings.Join(perChain, "\n\t\t"+in), in, set, in, in)
	fmt.Fprintf(b, "%s}\n", indent)
}

// declareRows declares the rows of the row calls, their scalars q<j>
// and shared: whether every argument of every row call is shared by
// every chain (a parameter that is data, or a prior's constant scale),
// when the loops read the calls as scalars instead of rows of B equal
// values (filling them cost as much as the loop, measured on the
// normal's σ per element).
func declareRows(b *bytes.Buffer, rows []rowCall) {
	if len(rows) == 0 {
		return
	}
	var rs, vs, qs, conds []string
	seen := map[int]bool{}
	for j, r := range rows {
		rs = append(rs, fmt.Sprintf("r%d", j))
		vs = append(vs, fmt.Sprintf("b.rows[%d]", j))
		qs = append(qs, fmt.Sprintf("q%d", j))
		for _, a := range r.args {
			if !seen[a] {
				seen[a] = true
				conds = append(conds, fmt.Sprintf("a%d.cs == 0", a))
			}
		}
	}
	sort.Strings(conds)
	fmt.Fprintf(b, "\t%s := %s\n", strings.Join(rs, ", "), strings.Join(vs, ", "))
	fmt.Fprintf(b, "\tvar %s float64\n", strings.Join(qs, ", "))
	fmt.Fprintf(b, "\tshared := %s\n", strings.Join(conds, " && "))
}

// sharedScope is s with the row calls read as the scalars q<j>.
func sharedScope(p *parsed, rows []rowCall) *scope {
	s := p.vecScope(rows)
	for j, r := range rows {
		s.cached[r.key] = fmt.Sprintf("q%d", j)
	}
	return s
}

// resliceRows bounds rows to the loop's length (to) so that the compiler
// drops their bounds checks.
func resliceRows(b *bytes.Buffer, rows []rowCall, to string) {
	if len(rows) == 0 {
		return
	}
	var rs, vs []string
	for j := range rows {
		rs = append(rs, fmt.Sprintf("r%d", j))
		vs = append(vs, fmt.Sprintf("r%d[:len(%s)]", j, to))
	}
	fmt.Fprintf(b, "\t\t%s := %s\n", strings.Join(rs, ", "), strings.Join(vs, ", "))
}

func vecForward(b *bytes.Buffer, p *parsed) error {
	lets := p.letsNeeded(p.value)
	es := []ast.Expr{p.value}
	for _, k := range lets {
		es = append(es, p.lets[k])
	}
	rows := p.rowCalls(es...)
	if len(rows) > vecRows {
		rows = rows[:vecRows]
	}
	guard := p.guardRow(rows, p.value, nil)
	guardCond, err := p.guardCond(guard)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "\nfunc (b *Batch) gen%sForward(in *ir.Instr) {\n", p.d.Family)
	vecHead(b, p, false)
	b.WriteString("\tif !pw {\n\t\tclear(v[o.off : o.off+nb])\n\t}\n")
	declareRows(b, rows)
	vecElement(b, p)
	for j, r := range rows {
		g := ""
		if j == guard {
			g = guardCond
		}
		fillRow(b, p, j, r, "\t\t", g)
	}
	read, only := p.loopArgs(rows, true, es...)
	valid, err := p.vecValid(b, loopScope(p.vecScope(nil), only), "\t\t\t\tfor c := oo; c < oo+nb; c++ {\n\t\t\t\t\tb.put(c, math.Inf(-1), pw)\n\t\t\t\t}\n")
	if err != nil {
		return err
	}
	b.WriteString("\t\tout := v[oo : oo+nb]\n")
	rowOnly := only
	if guard >= 0 {
		if rowOnly, err = p.sharedOnly(rows, valid, only); err != nil {
			return err
		}
	}
	p.argRows(b, read, rowOnly, "out")
	loop := func(b *bytes.Buffer, s *scope, valid string, chain func()) error {
		s = loopScope(s, only)
		b.WriteString("\t\tfor c := range out {\n")
		chain()
		if valid == "true" {
			b.WriteString("\t\t\te := math.Inf(-1)\n\t\t\t{\n")
		} else {
			fmt.Fprintf(b, "\t\t\te := math.Inf(-1)\n\t\t\tif %s {\n", valid)
		}
		for _, k := range lets {
			line, err := goLine(s, p.lets[k], fmt.Sprintf("l%d := %%s", k))
			if err != nil {
				return err
			}
			b.WriteString(line)
		}
		line, err := goLine(s, p.value, "e = %s")
		if err != nil {
			return err
		}
		// As Batch.put: a NaN term (from infinite inputs) is -Inf.
		b.WriteString(line + "\t\t\t}\n\t\t\tif e != e {\n\t\t\t\te = math.Inf(-1)\n\t\t\t}\n")
		b.WriteString("\t\t\tif pw {\n\t\t\t\tout[c] = e\n\t\t\t} else {\n\t\t\t\tout[c] += e\n\t\t\t}\n\t\t}\n")
		return nil
	}
	// Guarded: the per-chain loop, in its own function (rowsLoop), does
	// not test Valid.
	return p.chainLoops(b, rows, valid, only, guard, read, loop, es, "out", "Forward", []string{"pw"}, []string{"bool"}, "true")
}

// sharedOnly are the arguments of only (see loopArgs) that the shared
// loop's test reads: in a guarded kernel the others need no row.
func (p *parsed) sharedOnly(rows []rowCall, valid string, only map[int]bool) (map[int]bool, error) {
	sv, err := p.sharedValid(rows, valid, loopScope(p.vecScope(nil), only))
	if err != nil {
		return nil, err
	}
	out := map[int]bool{}
	for i := range only {
		if strings.Contains(sv, fmt.Sprintf("s%d[c]", i)) {
			out[i] = true
		}
	}
	return out, nil
}

// guardCond is Valid as a guarded row's fill tests it, or "" when there
// is no guard.
func (p *parsed) guardCond(guard int) (string, error) {
	if guard < 0 {
		return "", nil
	}
	return p.vecScope(nil).print(p.valid, goLang)
}

// rowsChain reads the arguments of chain c in a guarded kernel's loop
// (rowsLoop): the variate from its row s0 (variate "s") or as the scalar
// x0.
func rowsChain(b *bytes.Buffer, p *parsed, read map[int]bool, variate string) {
	for i := range p.args {
		switch {
		case !read[i]:
		case i == 0 && variate == "s":
			b.WriteString("\t\t\tx0 := s0[c]\n")
		case i == 0:
		default:
			fmt.Fprintf(b, "\t\t\tx%d := s%d[c]\n", i, i)
		}
	}
}

// vecValid writes, for element i, the test of Valid's data conditions
// (p.validData) once when the data are shared by every chain (when they
// fail there every chain's term is -Inf: fail runs and the element is
// skipped), and returns Valid as the loop over chains tests it, spelled
// by s: those conditions per chain only when they were not tested once
// (isCount calls math.Trunc).
func (p *parsed) vecValid(b *bytes.Buffer, s *scope, fail string) (string, error) {
	if p.validData == nil {
		return s.print(p.valid, goLang)
	}
	var reads []string
	for _, a := range p.constArgs {
		reads = append(reads, fmt.Sprintf("x%d := v[o%d]", a, a))
	}
	d, err := p.vecScope(nil).print(p.validData, goLang)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(b, "\t\tdataValid := false // the data conditions, when every chain shares the data\n")
	fmt.Fprintf(b, "\t\tif %s {\n\t\t\t%s\n\t\t\tdataValid = %s\n", p.constShared(), strings.Join(reads, "\n\t\t\t"), d)
	fmt.Fprintf(b, "\t\t\tif !dataValid {\n%s\t\t\t\tcontinue\n\t\t\t}\n\t\t}\n", fail)
	return p.validAfter(s, "dataValid")
}

func vecBackward(b *bytes.Buffer, p *parsed) error {
	fmt.Fprintf(b, "\nfunc (b *Batch) gen%sBackward(in *ir.Instr) {\n", p.d.Family)
	var grads []int
	for i, g := range p.grads {
		if g != nil {
			grads = append(grads, i)
		}
	}
	if len(grads) == 0 {
		b.WriteString("}\n")
		return nil
	}
	// The lets all partials read (and GradIf's) are per chain, once; a
	// partial's own inside its test of the gradient.
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
	for k := len(p.lets) - 1; k >= 0; k-- {
		if common[k] {
			for _, j := range p.letsNeeded(p.lets[k]) {
				common[j] = true
			}
		}
	}
	// Rows: those the common code reads, computed for every element; a
	// partial's own, only when its argument carries a gradient.
	commonEs := []ast.Expr{p.gradIf}
	for k := range p.lets {
		if common[k] {
			commonEs = append(commonEs, p.lets[k])
		}
	}
	rows := p.rowCalls(commonEs...)
	own := map[int][]int{} // partial → its rows
	shared := map[string]bool{}
	for _, r := range rows {
		shared[r.key] = true
	}
	for _, i := range grads {
		es := []ast.Expr{p.grads[i]}
		for _, k := range p.letsNeeded(p.grads[i]) {
			if !common[k] {
				es = append(es, p.lets[k])
			}
		}
		for _, r := range p.rowCalls(es...) {
			if shared[r.key] {
				continue
			}
			// A row two partials read is computed for either.
			found := -1
			for j, q := range rows {
				if q.key == r.key {
					found = j
				}
			}
			if found < 0 {
				if len(rows) == vecRows {
					continue // computed inline
				}
				rows = append(rows, r)
				found = len(rows) - 1
			}
			own[i] = append(own[i], found)
		}
	}
	vecHead(b, p, true)
	var hv, hf []string
	for _, i := range grads {
		hv = append(hv, fmt.Sprintf("gr%d", i))
		hf = append(hf, fmt.Sprintf("a%d.grad", i))
	}
	fmt.Fprintf(b, "\t%s := %s // hoisted: the loops test them per chain\n", strings.Join(hv, ", "), strings.Join(hf, ", "))
	declareRows(b, rows)
	vecElement(b, p)
	for _, i := range grads {
		fmt.Fprintf(b, "\t\tg%d := b.adjRow(a%d, i, true)\n", i, i)
	}
	ownOf := map[int]bool{}
	for _, js := range own {
		for _, j := range js {
			ownOf[j] = true
		}
	}
	guard := p.guardRow(rows, nil, ownOf)
	guardCond, err := p.guardCond(guard)
	if err != nil {
		return err
	}
	for j, r := range rows {
		if !ownOf[j] {
			g := ""
			if j == guard {
				g = guardCond
			}
			fillRow(b, p, j, r, "\t\t", g)
		}
	}
	filled := map[int]bool{}
	for _, i := range grads {
		var js []int
		for _, j := range own[i] {
			if !filled[j] {
				js = append(js, j)
			}
		}
		sort.Ints(js)
		if len(js) == 0 {
			continue
		}
		// A row shared by two partials is filled when either needs it.
		var conds []string
		for _, k := range grads {
			for _, j := range own[k] {
				for _, jj := range js {
					if j == jj {
						conds = append(conds, fmt.Sprintf("a%d.grad", k))
					}
				}
			}
		}
		fmt.Fprintf(b, "\t\tif %s {\n", strings.Join(dedupe(conds), " || "))
		for _, j := range js {
			fillRow(b, p, j, rows[j], "\t\t\t", "")
			filled[j] = true
		}
		b.WriteString("\t\t}\n")
	}
	les := []ast.Expr{p.gradIf}
	for _, i := range grads {
		les = append(les, p.grads[i])
	}
	for _, k := range p.letsNeeded(les...) {
		les = append(les, p.lets[k])
	}
	read, only := p.loopArgs(rows, true, les...)
	valid, err := p.vecValid(b, loopScope(p.vecScope(nil), only), "")
	if err != nil {
		return err
	}
	b.WriteString("\t\tgs := a[oo : oo+nb]\n")
	rowOnly := only
	if guard >= 0 {
		if rowOnly, err = p.sharedOnly(rows, valid, only); err != nil {
			return err
		}
	}
	p.argRows(b, read, rowOnly, "gs")
	var gv, gr []string
	for _, i := range grads {
		gv = append(gv, fmt.Sprintf("g%d", i))
		gr = append(gr, fmt.Sprintf("g%d[:len(gs)]", i))
	}
	fmt.Fprintf(b, "\t\t%s = %s\n", strings.Join(gv, ", "), strings.Join(gr, ", "))
	loop := func(b *bytes.Buffer, s *scope, valid string, chain func()) error {
		s = loopScope(s, only)
		b.WriteString("\t\tfor c, g := range gs {\n")
		chain()
		if valid != "true" {
			fmt.Fprintf(b, "\t\t\tif !(%s) {\n\t\t\t\tcontinue\n\t\t\t}\n", valid)
		}
		for k := range p.lets {
			if common[k] {
				line, err := goLine(s, p.lets[k], fmt.Sprintf("l%d := %%s", k))
				if err != nil {
					return err
				}
				b.WriteString(line)
			}
		}
		if p.gradIf != nil {
			line, err := goLine(s, p.gradIf, "if !(%s) {\ncontinue\n}")
			if err != nil {
				return err
			}
			b.WriteString(line)
		}
		for _, i := range grads {
			fmt.Fprintf(b, "\t\t\tif gr%d {\n", i)
			for _, k := range p.letsNeeded(p.grads[i]) {
				if common[k] {
					continue
				}
				line, err := goLine(s, p.lets[k], fmt.Sprintf("l%d := %%s", k))
				if err != nil {
					return err
				}
				b.WriteString(line)
			}
			line, err := goLine(s, p.grads[i], fmt.Sprintf("g%d[c] += g * (%%s)", i))
			if err != nil {
				return err
			}
			b.WriteString(line + "\t\t\t}\n")
		}
		b.WriteString("\t\t}\n")
		return nil
	}
	var extra, types []string
	for _, i := range grads {
		extra, types = append(extra, fmt.Sprintf("g%d", i)), append(types, "[]float64")
	}
	for _, i := range grads {
		extra, types = append(extra, fmt.Sprintf("gr%d", i)), append(types, "bool")
	}
	// Guarded (see vecForward): the per-chain loop tests the guard row's
	// NaN alone.
	return p.chainLoops(b, rows, valid, only, guard, read, loop, les, "gs", "Backward", extra, types, fmt.Sprintf("r%d[c] == r%d[c]", guard, guard))
}

// chainLoops ends a kernel with its loops over the chains (loop writes
// one, around a chain's body): without a guard both in the kernel (see
// bothLoops); with one, the loop for chains that share every row here and
// the per-chain loop in a function of its own (rowsLoop, named after the
// family and kind, taking extra arguments of types), whose test is test
// instead of Valid. es are the expressions the loops read; to is the
// slice the rows are resliced like.
func (p *parsed) chainLoops(b *bytes.Buffer, rows []rowCall, valid string, only map[int]bool, guard int, read map[int]bool,
	loop func(*bytes.Buffer, *scope, string, func()) error, es []ast.Expr, to, kind string, extra, types []string, test string) error {
	chain := func(s *scope, valid string) error {
		return loop(b, s, valid, func() { vecChain(b, p, read) })
	}
	if guard < 0 {
		if err := p.bothLoops(b, rows, valid, only, chain, to); err != nil {
			return err
		}
		b.WriteString("\t}\n}\n")
		return nil
	}
	if err := p.sharedLoop(b, rows, valid, only, chain); err != nil {
		return err
	}
	rread, _ := p.loopArgs(rows, false, es...)
	var fns bytes.Buffer
	call, err := p.rowsLoop(fmt.Sprintf("gen%s%sRows", p.d.Family, kind), rows, rread, to, extra, types, func(variate string) error {
		return loop(&fns, p.vecScope(rows), test, func() { rowsChain(&fns, p, rread, variate) })
	}, &fns)
	if err != nil {
		return err
	}
	b.WriteString(call)
	b.WriteString("\t}\n}\n")
	b.Write(fns.Bytes())
	return nil
}

// bothLoops writes a kernel's loop over the chains: where some calls are
// rows, first for chains that share every row's value (read as scalars,
// then on to the next element), and then over the rows, resliced to the
// chains' count like the output to.
func (p *parsed) bothLoops(b *bytes.Buffer, rows []rowCall, valid string, only map[int]bool, loop func(*scope, string) error, to string) error {
	if len(rows) > 0 {
		if err := p.sharedLoop(b, rows, valid, only, loop); err != nil {
			return err
		}
		resliceRows(b, rows, to)
	}
	return loop(p.vecScope(rows), valid)
}

// sharedLoop writes the loop for chains that share every row's value
// (see bothLoops).
func (p *parsed) sharedLoop(b *bytes.Buffer, rows []rowCall, valid string, only map[int]bool, loop func(*scope, string) error) error {
	sv, err := p.sharedValid(rows, valid, loopScope(p.vecScope(nil), only))
	if err != nil {
		return err
	}
	b.WriteString("\t\tif shared {\n")
	if err := loop(sharedScope(p, rows), sv); err != nil {
		return err
	}
	b.WriteString("\t\t\tcontinue\n\t\t}\n")
	return nil
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// nanThrough are the functions whose value is NaN when an argument is
// (see guardRow).
var nanThrough = map[string]bool{"log": true, "log1p": true, "sqrt": true, "abs": true, "inv": true, "tanh": true, "expm1": true}

// guardRow is the row that carries Valid in the loop over chains, or -1:
// the first row that is log(a) or inv(a) of an argument a that Valid
// alone reads and requires positive (a location-scale family's σ > 0:
// on (0, ∞] neither call is NaN, so a NaN row is exactly Valid
// failing), and, when value is not nil, one that value reads through
// arithmetic alone (so that a NaN row makes the term NaN, -Inf as any
// NaN term), skipping rows filled only for one partial (skip). Its
// per-chain fill stores NaN where Valid fails, so the loop tests nothing
// (the forward) or only that row's NaN (the reverse): a test of σ > 0
// per chain, and the row of σ it reads, cost the generated loop the
// registers it then spilled.
func (p *parsed) guardRow(rows []rowCall, value ast.Expr, skip map[int]bool) int {
	if p.valid == nil {
		return -1
	}
	reads := map[int]bool{}
	ast.Inspect(p.valid, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if i, ok := p.names[id.Name]; ok {
				reads[i] = true
			}
		}
		return true
	})
	for j, r := range rows {
		c := r.expr.(*ast.CallExpr)
		f := c.Fun.(*ast.Ident)
		if skip[j] || len(reads) != 1 || len(r.args) != 1 || !reads[r.args[0]] || (f.Name != "log" && f.Name != "inv") {
			continue
		}
		if a, ok := c.Args[0].(*ast.Ident); !ok || a.Name != p.args[r.args[0]] || !requiresPositive(p.valid, a.Name) {
			continue
		}
		if value == nil || p.nanThrough(value, r.key) {
			return j
		}
	}
	return -1
}

// requiresPositive reports whether valid has the conjunct name > 0.
func requiresPositive(valid ast.Expr, name string) bool {
	switch e := valid.(type) {
	case *ast.ParenExpr:
		return requiresPositive(e.X, name)
	case *ast.BinaryExpr:
		if e.Op == token.LAND {
			return requiresPositive(e.X, name) || requiresPositive(e.Y, name)
		}
		x, ok := e.X.(*ast.Ident)
		y, lit := e.Y.(*ast.BasicLit)
		return e.Op == token.GTR && ok && x.Name == name && lit && y.Value == "0"
	}
	return false
}

// nanThrough reports whether e is NaN when the call key is: e reads it
// through arithmetic, lets and nanThrough's functions alone.
func (p *parsed) nanThrough(e ast.Expr, key string) bool {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return p.nanThrough(e.X, key)
	case *ast.UnaryExpr:
		return (e.Op == token.SUB || e.Op == token.ADD) && p.nanThrough(e.X, key)
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO:
			return p.nanThrough(e.X, key) || p.nanThrough(e.Y, key)
		}
	case *ast.Ident:
		if k, ok := p.scope().lets[e.Name]; ok {
			return p.nanThrough(p.lets[k], key)
		}
	case *ast.CallExpr:
		if k, err := p.scope().print(e, goLang); err == nil && k == key {
			return true
		}
		if f, ok := e.Fun.(*ast.Ident); ok && nanThrough[f.Name] {
			for _, a := range e.Args {
				if p.nanThrough(a, key) {
					return true
				}
			}
		}
	}
	return false
}

// rowsLoop writes the loop over chains of a guarded kernel (see
// guardRow) as its own function, name, with the variate x0 (a scalar
// when every chain shares it, name+"0") or row s0, the arguments' rows
// s<i>, the call rows r<j>, then extra (out or gs, the adjoints and
// their flags, pw): its few live values stay in registers, where the
// loop inside the kernel kept the offsets and strides of every operand
// and spilled. call is the kernel's side: the two calls, by a0.cs.
func (p *parsed) rowsLoop(name string, rows []rowCall, read map[int]bool, to string, extra, extraTypes []string, body func(variate string) error, b *bytes.Buffer) (call string, err error) {
	var params, types []string
	for i := range p.args {
		if i > 0 && read[i] {
			params, types = append(params, fmt.Sprintf("s%d", i)), append(types, "[]float64")
		}
	}
	for j := range rows {
		params, types = append(params, fmt.Sprintf("r%d", j)), append(types, "[]float64")
	}
	params, types = append(params, extra...), append(types, extraTypes...)
	variants := []string{""}
	if read[0] {
		variants = []string{"0", "s"}
	}
	var calls []string
	for _, vt := range variants {
		ps, ts := append([]string{to}, params...), append([]string{"[]float64"}, types...)
		fn, arg := name, ""
		switch vt {
		case "0":
			fn, arg = name+"0", "v[o0]"
			ps, ts = append([]string{to, "x0"}, params...), append([]string{"[]float64", "float64"}, types...)
		case "s":
			arg = fmt.Sprintf("v[o0:o0+len(%s)]", to)
			ps, ts = append([]string{to, "s0"}, params...), append([]string{"[]float64", "[]float64"}, types...)
		}
		var decl, reslice, lhs []string
		for k, q := range ps {
			decl = append(decl, q+" "+ts[k])
			if k > 0 && ts[k] == "[]float64" {
				lhs = append(lhs, q)
				reslice = append(reslice, fmt.Sprintf("%s[:len(%s)]", q, to))
			}
		}
		fmt.Fprintf(b, "\nfunc %s(%s) {\n", fn, strings.Join(decl, ", "))
		if len(lhs) > 0 {
			fmt.Fprintf(b, "\t%s = %s\n", strings.Join(lhs, ", "), strings.Join(reslice, ", "))
		}
		if err := body(vt); err != nil {
			return "", err
		}
		b.WriteString("}\n")
		as := append([]string{to}, params...)
		if arg != "" {
			as = append([]string{to, arg}, params...)
		}
		calls = append(calls, fmt.Sprintf("%s(%s)", fn, strings.Join(as, ", ")))
	}
	if len(calls) == 1 {
		return "\t\t" + calls[0] + "\n", nil
	}
	return fmt.Sprintf("\t\tif a0.cs == 0 {\n\t\t\t%s\n\t\t} else {\n\t\t\t%s\n\t\t}\n", calls[0], calls[1]), nil
}
