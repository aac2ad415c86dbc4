package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"strings"
)

// irFile writes accel/ir's Forward and Backward of every definition, in
// the shape of the hand-written loops of lpdf_*.go: strided reads of
// broadcast inputs, memoised functions of one parameter, -Inf outside
// Valid, one adjoint accumulator per input.
func irFile(ps []*parsed, declared map[string]bool) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("package ir\n\nimport (\n\t\"math\"\n\n\t\"gonum.org/v1/gonum/mathext\"\n)\n\n")
	b.WriteString("var _ = mathext.Digamma\n\n")
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
		fmt.Fprintf(&b, "\tregister(Op%s, OpDef{Name: %q, Arity: %d, Shape: lpdfShape, Forward: %sForward, Backward: %sBackward})\n",
			p.d.Op, p.d.Name, len(p.args), lowerFirst(p.d.Family), lowerFirst(p.d.Family))
	}
	b.WriteString("}\n")
	for _, p := range ps {
		if err := irForward(&b, p); err != nil {
			return nil, err
		}
		if err := irBackward(&b, p); err != nil {
			return nil, err
		}
	}
	return goFile("lpdf_gen.go", &b)
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
	seen       map[string]bool
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
}

// refresh recomputes, in region, the memos of ms not already done there
// whose parameter changed: one comparison per parameter.
func refresh(b *bytes.Buffer, p *parsed, ms []memo, indent, region string, st *memoState, done map[memo]bool) {
	s := p.scope(nil)
	byArg := map[int][]memo{}
	var order []int
	for _, m := range ms {
		if done[m] {
			continue
		}
		done[m] = true
		if byArg[m.arg] == nil {
			order = append(order, m.arg)
		}
		byArg[m.arg] = append(byArg[m.arg], m)
	}
	for _, a := range order {
		key := fmt.Sprintf("k%d%s", a, region)
		st.add(&st.keys, key)
		lhs, rhs := []string{key}, []string{fmt.Sprintf("x%d", a)}
		for _, m := range byArg[a] {
			v, _ := memoName(m)
			st.add(&st.vals, v)
			call, _ := s.print(&ast.CallExpr{Fun: ast.NewIdent(m.fn), Args: []ast.Expr{ast.NewIdent(p.args[m.arg])}}, goLang)
			lhs, rhs = append(lhs, v), append(rhs, call)
		}
		fmt.Fprintf(b, "%sif x%d != %s {\n%s\t%s = %s\n%s}\n", indent, a, key, indent, strings.Join(lhs, ", "), strings.Join(rhs, ", "), indent)
	}
}

// letsNeeded is the lets the expressions read, with the lets they read,
// in order.
func (p *parsed) letsNeeded(es ...ast.Expr) []int {
	s := p.scope(nil)
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
	s := p.scope(nil)
	set := map[memo]bool{}
	for _, e := range es {
		if e != nil {
			s.memos(e, set)
		}
	}
	return sortedMemos(set)
}

func memoVar(m memo) string { v, _ := memoName(m); return v }

func irForward(b *bytes.Buffer, p *parsed) error {
	s := p.scope(memoVar)
	formulaComment(b, p)
	fmt.Fprintf(b, "func %sForward(f *Frame, in *Instr) {\n", lowerFirst(p.d.Family))
	reads(b, p)
	b.WriteString("\tout, pw := f.Val(in.Out), isPointwise(in)\n")
	lets := p.letsNeeded(p.value)
	es := []ast.Expr{p.value}
	for _, k := range lets {
		es = append(es, p.lets[k])
	}
	ms := p.memosOf(es...)
	valid, err := s.print(p.valid, goLang)
	if err != nil {
		return err
	}
	var st memoState
	var body bytes.Buffer
	refresh(&body, p, ms, "\t\t\t", "", &st, map[memo]bool{})
	st.declare(b)
	b.WriteString("\tt := 0.0\n\tfor i := 0; i < n; i++ {\n")
	elements(b, p)
	fmt.Fprintf(b, "\t\te := negInf\n\t\tif %s {\n", valid)
	b.Write(body.Bytes())
	for _, k := range lets {
		v, err := s.print(p.lets[k], goLang)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "\t\t\tl%d := %s\n", k, v)
	}
	v, err := s.print(p.value, goLang)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "\t\t\te = %s\n\t\t}\n", v)
	b.WriteString("\t\tif e != e { // NaN from infinite inputs\n\t\t\te = negInf\n\t\t}\n")
	b.WriteString("\t\tif pw {\n\t\t\tout[i] = e\n\t\t}\n\t\tt += e\n\t}\n")
	b.WriteString("\tif !pw {\n\t\tout[0] = t\n\t}\n")
	b.WriteString("}\n")
	return nil
}

func irBackward(b *bytes.Buffer, p *parsed) error {
	s := p.scope(memoVar)
	fmt.Fprintf(b, "\nfunc %sBackward(f *Frame, in *Instr) {\n", lowerFirst(p.d.Family))
	reads(b, p)
	b.WriteString("\tg, gs := f.AdjOf(in.Out), outStride(in)\n")
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
	valid, err := s.print(p.valid, goLang)
	if err != nil {
		return err
	}
	// What every partial reads (lets, and memos through them or
	// directly) is computed once per element; the rest inside the partial
	// that reads it, only when its argument carries a gradient.
	common := map[int]bool{}
	commonMemo := map[memo]bool{}
	for n, i := range grads {
		lets := map[int]bool{}
		for _, k := range p.letsNeeded(p.grads[i]) {
			lets[k] = true
		}
		var es []ast.Expr
		es = append(es, p.grads[i])
		for k := range lets {
			es = append(es, p.lets[k])
		}
		ms := map[memo]bool{}
		for _, m := range p.memosOf(es...) {
			ms[m] = true
		}
		if n == 0 {
			common, commonMemo = lets, ms
			continue
		}
		for k := range common {
			if !lets[k] {
				delete(common, k)
			}
		}
		for m := range commonMemo {
			if !ms[m] {
				delete(commonMemo, m)
			}
		}
	}
	var st memoState
	var body bytes.Buffer
	done := map[memo]bool{}
	refresh(&body, p, sortedMemos(commonMemo), "\t\t", "", &st, done)
	for k := range p.lets {
		if common[k] {
			v, err := s.print(p.lets[k], goLang)
			if err != nil {
				return err
			}
			fmt.Fprintf(&body, "\t\tl%d := %s\n", k, v)
		}
	}
	for _, i := range grads {
		g := p.grads[i]
		fmt.Fprintf(&body, "\t\tif d%d != nil {\n", i)
		var own []ast.Expr
		lets := p.letsNeeded(g)
		for _, k := range lets {
			if !common[k] {
				own = append(own, p.lets[k])
			}
		}
		inner := map[memo]bool{}
		for m := range done {
			inner[m] = true
		}
		refresh(&body, p, p.memosOf(append(own, g)...), "\t\t\t", fmt.Sprintf("d%d", i), &st, inner)
		for _, k := range lets {
			if common[k] {
				continue
			}
			v, err := s.print(p.lets[k], goLang)
			if err != nil {
				return err
			}
			fmt.Fprintf(&body, "\t\t\tl%d := %s\n", k, v)
		}
		v, err := s.print(g, goLang)
		if err != nil {
			return err
		}
		fmt.Fprintf(&body, "\t\t\td%dSum = acc(d%d, d%dVec, i, gi*(%s), d%dSum)\n\t\t}\n", i, i, i, v, i)
	}
	st.declare(b)
	b.WriteString("\tfor i := 0; i < n; i++ {\n")
	elements(b, p)
	fmt.Fprintf(b, "\t\tif !(%s) {\n\t\t\tcontinue\n\t\t}\n\t\tgi := g[i*gs]\n", valid)
	b.Write(body.Bytes())
	b.WriteString("\t}\n")
	for _, i := range grads {
		fmt.Fprintf(b, "\tflushAcc(d%d, d%dVec, d%dSum)\n", i, i, i)
	}
	b.WriteString("}\n")
	return nil
}
