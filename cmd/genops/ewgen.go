package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"strings"

	"github.com/gobayes/gobayes/accel/opdef"
)

// The elementwise ops (opdef.Unary, opdef.Binary): accel/ir's loops and
// scalar fast path, accel/vec's lockstep kernels and accel/cuda/cgen's C
// templates, each from the op's formulas.

// ewOp is one parsed elementwise op: its formulas over the names args
// (x, y, g for a unary op; a, b, y, g for a binary one).
type ewOp struct {
	op, name string
	args     []string
	value    ast.Expr
	adjs     []ast.Expr // one per input
}

func parseElementwise() ([]*ewOp, []*ewOp, error) {
	var un, bin []*ewOp
	for _, u := range opdef.Unaries() {
		o := &ewOp{op: u.Op, name: u.Name, args: []string{"x", "y", "g"}}
		var err error
		if o.value, err = parse(u.Value); err != nil {
			return nil, nil, fmt.Errorf("opdef %s: %v", u.Op, err)
		}
		a, err := parse(u.Adj)
		if err != nil {
			return nil, nil, fmt.Errorf("opdef %s: %v", u.Op, err)
		}
		o.adjs = []ast.Expr{a}
		un = append(un, o)
	}
	for _, bo := range opdef.Binaries() {
		o := &ewOp{op: bo.Op, name: bo.Name, args: []string{"a", "b", "y", "g"}}
		var err error
		if o.value, err = parse(bo.Value); err != nil {
			return nil, nil, fmt.Errorf("opdef %s: %v", bo.Op, err)
		}
		for _, s := range []string{bo.AdjA, bo.AdjB} {
			a, err := parse(s)
			if err != nil {
				return nil, nil, fmt.Errorf("opdef %s: %v", bo.Op, err)
			}
			o.adjs = append(o.adjs, a)
		}
		bin = append(bin, o)
	}
	// Every formula must print in both languages.
	for _, o := range append(append([]*ewOp(nil), un...), bin...) {
		for _, e := range append([]ast.Expr{o.value}, o.adjs...) {
			for _, t := range []target{goLang, cLang} {
				if _, err := o.scope(nil, false, o.args...).print(e, t); err != nil {
					return nil, nil, fmt.Errorf("opdef %s: %v", o.op, err)
				}
			}
		}
	}
	return un, bin, nil
}

// scope spells o's names as vars (in the order of o.args); pre, when set,
// receives the lazy where statements.
func (o *ewOp) scope(pre *[]string, outside bool, vars ...string) *scope {
	n := 0
	return &scope{args: o.args, argVar: func(i int) string { return vars[i] }, pre: pre, nw: &n, outside: outside}
}

// stmt is the Go statements computing e (lazy wheres first) and the
// expression that then holds its value, with o's names spelled vars.
func (o *ewOp) stmt(e ast.Expr, outside bool, vars ...string) (pre, val string, err error) {
	var ps []string
	val, err = o.scope(&ps, outside, vars...).print(e, goLang)
	if len(ps) > 0 {
		pre = strings.Join(ps, "\n") + "\n"
	}
	return pre, val, err
}

// stmts is stmt for several formulas sharing the where temporaries'
// numbering.
func (o *ewOp) stmts(es []ast.Expr, outside bool, vars ...string) (pre string, vals []string, err error) {
	var ps []string
	s := o.scope(&ps, outside, vars...)
	for _, e := range es {
		v, err := s.print(e, goLang)
		if err != nil {
			return "", nil, err
		}
		vals = append(vals, v)
	}
	if len(ps) > 0 {
		pre = strings.Join(ps, "\n") + "\n"
	}
	return pre, vals, nil
}

// readsName reports whether e reads name.
func readsName(e ast.Expr, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

const ewImports = "import (\n\t\"math\"\n\n\t\"github.com/gobayes/gobayes/accel/opdef\"\n)\n\nvar (\n\t_ = math.Abs\n\t_ = opdef.Inv\n)\n\n"

// irElementwiseFile writes accel/ir's elementwise ops: the registered
// loops (a binary op's in its three broadcast cases, a broadcast input's
// adjoint summed before it is added) and the scalar fast path's
// forward and backward.
func irElementwiseFile(un, bin []*ewOp) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("package ir\n\n" + ewImports)
	b.WriteString("func init() {\n")
	for _, o := range un {
		pre, v, err := o.stmt(o.value, false, "x[i]", "y[i]", "g[i]")
		if err != nil {
			return nil, err
		}
		apre, adj, err := o.stmt(o.adjs[0], false, "x[i]", "y[i]", "g[i]")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\tunary(Op%s, %q,\n\t\tfunc(x, y []float64) {\n\t\t\tx = x[:len(y)]\n\t\t\tfor i := range y {\n%s\t\t\t\ty[i] = %s\n\t\t\t}\n\t\t},\n", o.op, o.name, pre, v)
		fmt.Fprintf(&b, "\t\tfunc(x, y, g, gx []float64) {\n\t\t\tx, y, g = x[:len(gx)], y[:len(gx)], g[:len(gx)]\n\t\t\tfor i := range gx {\n%s\t\t\t\tgx[i] += %s\n\t\t\t}\n\t\t})\n", apre, adj)
	}
	for _, o := range bin {
		fmt.Fprintf(&b, "\tregister(Op%s, OpDef{Name: %q, Arity: 2, Shape: broadcastShape, Forward: %sForward, Backward: %sBackward})\n", o.op, o.name, o.name, o.name)
	}
	b.WriteString("}\n")
	for _, o := range bin {
		// Forward: both inputs full, a broadcast, b broadcast.
		fmt.Fprintf(&b, "\nfunc %sForward(f *Frame, in *Instr) {\n\ta, b, y := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.Out)\n\tswitch {\n", o.name)
		for _, c := range []struct{ cond, setup, a, b string }{
			{"len(a) == len(y) && len(b) == len(y)", "a, b = a[:len(y)], b[:len(y)]", "a[i]", "b[i]"},
			{"len(a) == 1", "av := a[0]\nb = b[:len(y)]", "av", "b[i]"},
			{"", "bv := b[0]\na = a[:len(y)]", "a[i]", "bv"},
		} {
			pre, v, err := o.stmt(o.value, false, c.a, c.b, "y[i]", "g[i]")
			if err != nil {
				return nil, err
			}
			if c.cond == "" {
				b.WriteString("\tdefault:\n")
			} else {
				fmt.Fprintf(&b, "\tcase %s:\n", c.cond)
			}
			fmt.Fprintf(&b, "%s\n\t\tfor i := range y {\n%s\t\t\ty[i] = %s\n\t\t}\n", c.setup, pre, v)
		}
		b.WriteString("\t}\n}\n")
		// Backward: each input's adjoint, a broadcast one summed first.
		fmt.Fprintf(&b, "\nfunc %sBackward(f *Frame, in *Instr) {\n\ta, b, y, g := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.Out), f.AdjOf(in.Out)\n\ty = y[:len(g)]\n", o.name)
		for k, target := range []string{"ga", "gb"} {
			fmt.Fprintf(&b, "\tif %s := gradOrNil(f, in.In[%d]); %s != nil {\n\t\tswitch {\n", target, k, target)
			self, other := "a", "b"
			if k == 1 {
				self, other = "b", "a"
			}
			for _, c := range []struct {
				cond, setup string
				full        bool // the target is full length
				selfV, othV string
			}{
				{fmt.Sprintf("len(%s) == len(g) && len(%s) == len(g)", self, other), fmt.Sprintf("%s, %s, %s = %s[:len(g)], %s[:len(g)], %s[:len(g)]", self, other, target, self, other, target), true, self + "[i]", other + "[i]"},
				{fmt.Sprintf("len(%s) == len(g)", self), fmt.Sprintf("%sv := %s[0]\n_ = %sv\n%s, %s = %s[:len(g)], %s[:len(g)]", other, other, other, self, target, self, target), true, self + "[i]", other + "v"},
				{"", fmt.Sprintf("%sv := %s[0]\n_ = %sv\n%s = %s[:len(g)]\nt := 0.0", self, self, self, other, other), false, self + "v", other + "[i]"},
			} {
				av, bv := c.selfV, c.othV
				if k == 1 {
					av, bv = c.othV, c.selfV
				}
				pre, v, err := o.stmt(o.adjs[k], false, av, bv, "y[i]", "g[i]")
				if err != nil {
					return nil, err
				}
				if c.cond == "" {
					b.WriteString("\t\tdefault:\n")
				} else {
					fmt.Fprintf(&b, "\t\tcase %s:\n", c.cond)
				}
				if c.full {
					fmt.Fprintf(&b, "%s\n\t\t\tfor i := range g {\n%s\t\t\t\t%s[i] += %s\n\t\t\t}\n", c.setup, pre, target, v)
				} else {
					fmt.Fprintf(&b, "%s\n\t\t\tfor i := range g {\n%s\t\t\t\tt += %s\n\t\t\t}\n\t\t\t%s[0] += t\n", c.setup, pre, v, target)
				}
			}
			b.WriteString("\t\t}\n\t}\n")
		}
		b.WriteString("}\n")
	}
	// The scalar fast path.
	b.WriteString("\n// forward computes the instruction's output from the frame's values.\nfunc (t *fastInstr) forward(v []float64) {\n\tx := v[t.a]\n\tvar y float64\n\tswitch t.op {\n")
	for _, o := range un {
		pre, val, err := o.stmt(o.value, false, "x", "y", "g")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\tcase Op%s:\n%s\t\ty = %s\n", o.op, pre, val)
	}
	for _, o := range bin {
		pre, val, err := o.stmt(o.value, false, "x", "v[t.b]", "y", "g")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\tcase Op%s:\n%s\t\ty = %s\n", o.op, pre, val)
	}
	b.WriteString("\t}\n\tv[t.out] = y\n}\n")
	b.WriteString("\n// backward adds the adjoint of out into the adjoints of the inputs that\n// carry gradients.\nfunc (t *fastInstr) backward(v, adj []float64) {\n\tg := adj[t.out]\n\tx, y := v[t.a], v[t.out]\n\tvar da, db float64 // ∂y/∂a·g, ∂y/∂b·g\n\tswitch t.op {\n")
	for _, o := range un {
		pre, val, err := o.stmt(o.adjs[0], false, "x", "y", "g")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\tcase Op%s:\n%s\t\tda = %s\n", o.op, pre, val)
	}
	for _, o := range bin {
		pre, vals, err := o.stmts(o.adjs, false, "x", "bv", "y", "g")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\tcase Op%s:\n", o.op)
		if readsName(o.adjs[0], "b") || readsName(o.adjs[1], "b") {
			b.WriteString("\t\tbv := v[t.b]\n")
		}
		fmt.Fprintf(&b, "%s\t\tda, db = %s, %s\n", pre, vals[0], vals[1])
	}
	b.WriteString("\t}\n\tif t.ga {\n\t\tadj[t.a] += da\n\t}\n\tif t.twoOperand && t.gb {\n\t\tadj[t.b] += db\n\t}\n}\n")
	return goFile("elementwise_gen.go", &b)
}

// vecElementwiseFile writes accel/vec's lockstep kernels of the
// elementwise ops: per element, one loop over the chains (a shared input
// computed once).
func vecElementwiseFile(un, bin []*ewOp) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("package vec\n\n" + strings.Replace(ewImports, "\t\"github.com/gobayes/gobayes/accel/opdef\"\n", "\t\"github.com/gobayes/gobayes/accel/ir\"\n\t\"github.com/gobayes/gobayes/accel/opdef\"\n", 1))
	b.WriteString("// elementwiseKernel is the kernel of a generated elementwise op.\nfunc elementwiseKernel(op ir.Op) (kernel, bool) {\n\tswitch op {\n\tcase ")
	var names []string
	for _, o := range un {
		names = append(names, "ir.Op"+o.op)
	}
	fmt.Fprintf(&b, "%s:\n\t\treturn kUnary, true\n\tcase ", strings.Join(names, ", "))
	names = nil
	for _, o := range bin {
		names = append(names, "ir.Op"+o.op)
	}
	fmt.Fprintf(&b, "%s:\n\t\treturn kBinary, true\n\t}\n\treturn 0, false\n}\n", strings.Join(names, ", "))

	// unaryValue and binaryValue: one value (a shared input's).
	b.WriteString("\nfunc unaryValue(op ir.Op, x float64) float64 {\n\tswitch op {\n")
	for _, o := range un {
		pre, v, err := o.stmt(o.value, true, "x", "y", "g")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\tcase ir.Op%s:\n%s\t\treturn %s\n", o.op, pre, v)
	}
	b.WriteString("\t}\n\tpanic(\"vec: not a unary op: \" + op.String())\n}\n")
	b.WriteString("\nfunc binaryValue(op ir.Op, a, b float64) float64 {\n\tswitch op {\n")
	for _, o := range bin {
		pre, v, err := o.stmt(o.value, true, "a", "b", "y", "g")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\tcase ir.Op%s:\n%s\t\treturn %s\n", o.op, pre, v)
	}
	b.WriteString("\t}\n\tpanic(\"vec: not a binary op: \" + op.String())\n}\n")

	b.WriteString(`
func (b *Batch) unaryForward(in *ir.Instr) {
	v, o, x := b.V, b.loc[in.Out], b.elem(in.In[0])
	for i := 0; i < o.n; i++ {
		oo, xo := o.off+i*b.B, x.off+i*x.es
		out := v[oo : oo+b.B]
		if x.cs == 0 {
			r := unaryValue(in.Op, v[xo])
			for c := range out {
				out[c] = r
			}
			continue
		}
		xs := v[xo : xo+b.B]
		xs = xs[:len(out)]
		switch in.Op {
`)
	for _, o := range un {
		pre, v, err := o.stmt(o.value, true, "xs[c]", "out[c]", "0")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\t\tcase ir.Op%s:\n\t\t\tfor c := range out {\n%s\t\t\t\tout[c] = %s\n\t\t\t}\n", o.op, pre, v)
	}
	b.WriteString(`		}
	}
}

// unaryBackward adds the adjoint of the output into x's (x carries a
// gradient, so it is per chain).
func (b *Batch) unaryBackward(in *ir.Instr) {
	v, a, o, x := b.V, b.Adj, b.loc[in.Out], b.elem(in.In[0])
	if !x.grad {
		return
	}
	for i := 0; i < o.n; i++ {
		oo, xo := o.off+i*b.B, x.off+i*x.es
		g, ys := a[oo:oo+b.B], v[oo:oo+b.B]
		xs, gx := v[xo:xo+b.B], a[xo:xo+b.B]
		ys, xs, gx = ys[:len(g)], xs[:len(g)], gx[:len(g)]
		switch in.Op {
`)
	for _, o := range un {
		pre, v, err := o.stmt(o.adjs[0], true, "xs[c]", "ys[c]", "g[c]")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\t\tcase ir.Op%s:\n\t\t\tfor c := range g {\n%s\t\t\t\tgx[c] += %s\n\t\t\t}\n", o.op, pre, v)
	}
	b.WriteString(`		}
	}
}

func (b *Batch) binaryForward(in *ir.Instr) {
	v, o, x, y := b.V, b.loc[in.Out], b.elem(in.In[0]), b.elem(in.In[1])
	for i := 0; i < o.n; i++ {
		oo, xo, yo := o.off+i*b.B, x.off+i*x.es, y.off+i*y.es
		out := v[oo : oo+b.B]
		switch {
`)
	for _, c := range []struct{ cond, setup, a, b string }{
		{"x.cs == 1 && y.cs == 1", "xs, ys := v[xo:xo+b.B], v[yo:yo+b.B]\nxs, ys = xs[:len(out)], ys[:len(out)]", "xs[c]", "ys[c]"},
		{"x.cs == 1", "xs, yv := v[xo:xo+b.B], v[yo]\nxs = xs[:len(out)]", "xs[c]", "yv"},
		{"y.cs == 1", "xv, ys := v[xo], v[yo:yo+b.B]\nys = ys[:len(out)]", "xv", "ys[c]"},
	} {
		fmt.Fprintf(&b, "\t\tcase %s:\n%s\n\t\t\tswitch in.Op {\n", c.cond, c.setup)
		for _, o := range bin {
			pre, val, err := o.stmt(o.value, true, c.a, c.b, "out[c]", "0")
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(&b, "\t\t\tcase ir.Op%s:\n\t\t\t\tfor c := range out {\n%s\t\t\t\t\tout[c] = %s\n\t\t\t\t}\n", o.op, pre, val)
		}
		b.WriteString("\t\t\t}\n")
	}
	b.WriteString(`		default:
			r := binaryValue(in.Op, v[xo], v[yo])
			for c := range out {
				out[c] = r
			}
		}
	}
}

// binaryBackward runs over rows of one value per chain (row, adjRow):
// an input without a gradient adds into a row nothing reads.
func (b *Batch) binaryBackward(in *ir.Instr) {
	v, a, o, x, y := b.V, b.Adj, b.loc[in.Out], b.elem(in.In[0]), b.elem(in.In[1])
	if !x.grad && !y.grad {
		return
	}
	nb := b.B
	for i := 0; i < o.n; i++ {
		g, ys := a[o.off+i*nb:o.off+(i+1)*nb], v[o.off+i*nb:o.off+(i+1)*nb]
		gx, gy := b.adjRow(x, i, true), b.adjRow(y, i, true)
		gx, gy, ys = gx[:len(g)], gy[:len(g)], ys[:len(g)]
		switch in.Op {
`)
	for _, o := range bin {
		pre, vals, err := o.stmts(o.adjs, true, "xr[c]", "yr[c]", "ys[c]", "g[c]")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\t\tcase ir.Op%s:\n", o.op)
		needA := readsName(o.adjs[0], "a") || readsName(o.adjs[1], "a")
		needB := readsName(o.adjs[0], "b") || readsName(o.adjs[1], "b")
		if needA {
			b.WriteString("\t\t\txr := b.row(x, i, b.rows[2])\n\t\t\txr = xr[:len(g)]\n")
		}
		if needB {
			b.WriteString("\t\t\tyr := b.row(y, i, b.rows[3])\n\t\t\tyr = yr[:len(g)]\n")
		}
		fmt.Fprintf(&b, "\t\t\tfor c := range g {\n%s\t\t\t\tgx[c] += %s\n\t\t\t\tgy[c] += %s\n\t\t\t}\n", pre, vals[0], vals[1])
	}
	b.WriteString("\t\t}\n\t}\n}\n")
	return goFile("elementwise_gen.go", &b)
}

// cgenElementwiseFile writes accel/cuda/cgen's C templates of the
// elementwise ops (X, Y, G; A, B), as its substitution reads them.
func cgenElementwiseFile(un, bin []*ewOp) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("package cgen\n\nimport \"github.com/gobayes/gobayes/accel/ir\"\n\n")
	b.WriteString("// unaryOps are the elementwise unary ops: forward Y from X, and the\n// increment of the input's adjoint from G (out adjoint), X and Y.\nvar unaryOps = map[ir.Op][2]string{\n")
	for _, o := range un {
		s := o.scope(nil, false, "X", "Y", "G")
		v, err := s.print(o.value, cLang)
		if err != nil {
			return nil, err
		}
		a, err := s.print(o.adjs[0], cLang)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\tir.Op%s: {%q, %q},\n", o.op, v, a)
	}
	b.WriteString("}\n\n// binaryOps: forward from A and B; increments of a's and b's adjoints\n// from G, A, B and Y.\nvar binaryOps = map[ir.Op][3]string{\n")
	for _, o := range bin {
		s := o.scope(nil, false, "A", "B", "Y", "G")
		var parts []string
		for _, e := range append([]ast.Expr{o.value}, o.adjs...) {
			v, err := s.print(e, cLang)
			if err != nil {
				return nil, err
			}
			parts = append(parts, fmt.Sprintf("%q", v))
		}
		fmt.Fprintf(&b, "\tir.Op%s: {%s},\n", o.op, strings.Join(parts, ", "))
	}
	b.WriteString("}\n")
	return goFile("elementwise_gen.go", &b)
}
