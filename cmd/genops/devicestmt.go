package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

func (t *fnTrans) stmts(list []ast.Stmt) error {
	for _, s := range list {
		if err := t.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

// block writes a braced body in a scope of its own; open is the line
// before it ("if (…) {").
func (t *fnTrans) block(list []ast.Stmt) error {
	t.ind++
	t.push()
	err := t.stmts(list)
	t.pop()
	t.ind--
	return err
}

func (t *fnTrans) stmt(s ast.Stmt) error {
	switch s := s.(type) {
	case *ast.DeclStmt:
		return t.declStmt(s)
	case *ast.AssignStmt:
		return t.assign(s)
	case *ast.IncDecStmt:
		c, err := t.simple(s)
		if err != nil {
			return err
		}
		t.line("%s;", c)
		return nil
	case *ast.ExprStmt:
		return t.exprStmt(s)
	case *ast.IfStmt:
		return t.ifStmt(s)
	case *ast.ForStmt:
		return t.forStmt(s)
	case *ast.RangeStmt:
		return t.rangeStmt(s)
	case *ast.SwitchStmt:
		return t.switchStmt(s)
	case *ast.ReturnStmt:
		return t.returnStmt(s)
	case *ast.BlockStmt:
		t.line("{")
		if err := t.block(s.List); err != nil {
			return err
		}
		t.line("}")
		return nil
	case *ast.BranchStmt:
		if s.Label != nil {
			return t.errAt(s, "labels are not supported")
		}
		switch s.Tok {
		case token.BREAK:
			if !t.breakOK {
				return t.errAt(s, "break outside a loop, or out of a switch, is not supported")
			}
			t.line("break;")
			return nil
		case token.CONTINUE:
			t.line("continue;")
			return nil
		}
		return t.errAt(s, "%s is not supported", s.Tok)
	case *ast.EmptyStmt:
		return nil
	}
	return t.errAt(s, "statement %T is not supported", s)
}

// stripParens drops one pair of parentheses around all of c.
func stripParens(c string) string {
	if len(c) < 2 || c[0] != '(' || c[len(c)-1] != ')' {
		return c
	}
	depth := 0
	for i, r := range c {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(c)-1 {
				return c
			}
		}
	}
	return c[1 : len(c)-1]
}

func (t *fnTrans) declStmt(s *ast.DeclStmt) error {
	g := s.Decl.(*ast.GenDecl)
	if g.Tok != token.VAR {
		return t.errAt(s, "local %s declarations are not supported", g.Tok)
	}
	for _, sp := range g.Specs {
		vs := sp.(*ast.ValueSpec)
		if len(vs.Values) > 0 {
			if vs.Type != nil {
				want, err := t.d.typeOf(vs.Type)
				if err != nil {
					return t.errAt(vs, "%v", err)
				}
				if !want.scalar() {
					return t.errAt(vs, "var of type %s with a value is not supported", want)
				}
				for i, v := range vs.Values {
					c, err := t.scalarExpr(v, want.k)
					if err != nil {
						return err
					}
					if err := t.declareScalar(vs.Names[i], want, c); err != nil {
						return err
					}
				}
				continue
			}
			lhs := make([]ast.Expr, len(vs.Names))
			for i, n := range vs.Names {
				lhs[i] = n
			}
			if err := t.assign(&ast.AssignStmt{Lhs: lhs, TokPos: vs.Pos(), Tok: token.DEFINE, Rhs: vs.Values}); err != nil {
				return err
			}
			continue
		}
		typ, err := t.d.typeOf(vs.Type)
		if err != nil {
			return t.errAt(vs, "%v", err)
		}
		for _, n := range vs.Names {
			if err := checkName(n.Name); err != nil {
				return t.errAt(n, "%v", err)
			}
			switch typ.k {
			case kArray:
				t.line("double %s[%d] = {0};", n.Name, typ.n)
				t.declare(n, &cvar{c: n.Name, t: typ})
			case kSlice:
				t.line("%s *%s = 0;", typ.elem(), n.Name)
				if t.d.localLens[t.fn][n.Pos()] {
					t.line("long long %s_len = 0;", n.Name)
				}
				t.declare(n, &cvar{c: n.Name, t: typ, local: n.Pos()})
			case kStruct:
				t.line("%s %s = {0};", typ.c(), n.Name)
				t.declare(n, &cvar{c: n.Name, t: typ})
			case kPtr:
				return t.errAt(n, "a local pointer is not supported")
			default:
				if err := t.declareScalar(n, typ, "0"); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (t *fnTrans) declareScalar(n *ast.Ident, typ ctype, c string) error {
	if n.Name == "_" {
		t.line("(void)%s;", c)
		return nil
	}
	if err := checkName(n.Name); err != nil {
		return t.errAt(n, "%v", err)
	}
	t.line("%s %s = %s;", typ.c(), n.Name, stripParens(c))
	t.declare(n, &cvar{c: n.Name, t: typ})
	return nil
}

// declareSlice declares a local slice from x.
func (t *fnTrans) declareSlice(n *ast.Ident, x texpr) error {
	if err := checkName(n.Name); err != nil {
		return t.errAt(n, "%v", err)
	}
	q := x.t.elem() + " *"
	if x.constPtr {
		q = "const " + q
	}
	t.line("%s%s = %s;", q, n.Name, stripParens(x.c))
	if t.d.localLens[t.fn][n.Pos()] {
		l, err := sliceLen(x)
		if err != nil {
			return err
		}
		t.line("long long %s_len = %s;", n.Name, stripParens(l))
	}
	t.declare(n, &cvar{c: n.Name, t: ctype{k: kSlice, ints: x.t.ints}, roots: x.roots, constPtr: x.constPtr, local: n.Pos()})
	return nil
}

// mentions reports whether e reads one of names.
func mentions(e ast.Expr, names map[string]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			ast.Inspect(sel.X, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && names[id.Name] {
					found = true
				}
				return !found
			})
			return false
		}
		if id, ok := n.(*ast.Ident); ok && names[id.Name] {
			found = true
		}
		return !found
	})
	return found
}

func (t *fnTrans) assign(s *ast.AssignStmt) error {
	switch s.Tok {
	case token.DEFINE, token.ASSIGN:
	case token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN, token.QUO_ASSIGN, token.REM_ASSIGN,
		token.AND_ASSIGN, token.OR_ASSIGN, token.XOR_ASSIGN, token.AND_NOT_ASSIGN, token.SHL_ASSIGN, token.SHR_ASSIGN:
		c, err := t.simple(s)
		if err != nil {
			return err
		}
		t.line("%s;", c)
		return nil
	default:
		return t.errAt(s, "assignment %s is not supported", s.Tok)
	}
	if len(s.Rhs) == 1 && len(s.Lhs) > 1 {
		return t.assignCall(s)
	}
	if len(s.Lhs) != len(s.Rhs) {
		return t.errAt(s, "assignment of %d values to %d names", len(s.Rhs), len(s.Lhs))
	}
	names := map[string]bool{}
	for _, l := range s.Lhs {
		if id, ok := l.(*ast.Ident); ok {
			names[id.Name] = true
		} else {
			ast.Inspect(l, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					names[id.Name] = true
				}
				return true
			})
		}
	}
	useTemps := false
	for _, r := range s.Rhs {
		if mentions(r, names) {
			useTemps = true
		}
	}
	if len(s.Lhs) == 1 && s.Tok == token.ASSIGN {
		useTemps = false // x = f(x) reads x before it writes it
	}
	xs := make([]texpr, len(s.Rhs))
	for i, r := range s.Rhs {
		if t.multiCall(r) != nil {
			return t.errAt(r, "a call with several results in a list")
		}
		x, err := t.expr(r)
		if err != nil {
			return err
		}
		if x.cv == nil && x.t.k == kVoid {
			return t.errAt(r, "a call with no result used as a value")
		}
		xs[i] = x
	}
	if useTemps {
		for i, x := range xs {
			k := x.t
			if !k.scalar() {
				return t.errAt(s.Rhs[i], "a %s in a parallel assignment that reads its own names", k)
			}
			if s.Tok == token.ASSIGN {
				if lt, err := t.lvalueType(s.Lhs[i]); err == nil && lt.scalar() {
					k = lt
				}
			}
			c, err := t.val(s.Rhs[i], x, k.k)
			if err != nil {
				return err
			}
			tmp := t.temp()
			t.line("%s %s = %s;", k.c(), tmp, stripParens(c))
			xs[i] = texpr{c: tmp, t: k}
		}
	}
	for i, l := range s.Lhs {
		if err := t.assignOne(s, l, xs[i], s.Rhs[i]); err != nil {
			return err
		}
	}
	return nil
}

// assignOne assigns (or, for :=, declares) one name.
func (t *fnTrans) assignOne(s *ast.AssignStmt, l ast.Expr, x texpr, r ast.Expr) error {
	id, isID := l.(*ast.Ident)
	if isID && id.Name == "_" {
		if x.cv == nil && strings.Contains(x.c, "(") {
			t.line("(void)%s;", x.c)
		}
		return nil
	}
	if s.Tok == token.DEFINE {
		if !isID {
			return t.errAt(l, "non-name on the left of :=")
		}
		if t.isNew(id) {
			k := x.t
			switch {
			case k.scalar():
				c, err := t.val(r, x, k.k)
				if err != nil {
					return err
				}
				return t.declareScalar(id, k, c)
			case k.k == kSlice:
				return t.declareSlice(id, x)
			}
			return t.errAt(l, "a local of type %s is not supported (declare it with var)", k)
		}
	}
	if isID {
		if v := t.lookup(id); v != nil && v.t.k == kSlice {
			return t.assignSlice(l, v, x)
		}
	}
	lv, lt, err := t.lvalue(l)
	if err != nil {
		return err
	}
	if !lt.scalar() {
		return t.errAt(l, "assignment of a %s is not supported", lt)
	}
	if x.cv == nil && x.t.k != lt.k {
		return t.errAt(r, "%s assigned to %s", x.t, lt)
	}
	c, err := t.val(r, x, lt.k)
	if err != nil {
		return err
	}
	t.line("%s = %s;", lv, stripParens(c))
	return nil
}

func (t *fnTrans) assignSlice(l ast.Expr, v *cvar, x texpr) error {
	if x.t.k != kSlice && x.t.k != kArray {
		return t.errAt(l, "%s assigned to a slice", x.t)
	}
	if x.constPtr && !v.constPtr && v.param == nil {
		return t.errAt(l, "a read-only slice assigned to %s, which is written (declare it from its source)", v.c)
	}
	if x.c != v.c {
		t.line("%s = %s;", v.c, stripParens(x.c))
	}
	used := v.param != nil && v.param.needLen || v.param == nil && t.d.localLens[t.fn][v.local]
	if used {
		n, err := sliceLen(x)
		if err != nil {
			return err
		}
		if n != v.c+"_len" {
			t.line("%s_len = %s;", v.c, stripParens(n))
		}
	}
	if v.param == nil {
		v.roots = append(v.roots, x.roots...)
	} else if len(x.roots) != 1 || x.roots[0] != v.param {
		return t.errAt(l, "a slice parameter may only be resliced")
	}
	return nil
}

// lvalue is the C of an assignable scalar: a local, an element or a
// field.
func (t *fnTrans) lvalue(e ast.Expr) (string, ctype, error) {
	switch e := e.(type) {
	case *ast.Ident:
		v := t.lookup(e)
		if v == nil {
			return "", ctype{}, t.errAt(e, "assignment to %s, which is not a local", e.Name)
		}
		return v.c, v.t, nil
	case *ast.IndexExpr:
		x, err := t.expr(e.X)
		if err != nil {
			return "", ctype{}, err
		}
		if x.t.k != kSlice && x.t.k != kArray {
			return "", ctype{}, t.errAt(e, "indexing %s", x.t)
		}
		if x.t.ints {
			return "", ctype{}, t.errAt(e, "a write to an index table ([]int is read-only in device code)")
		}
		if x.constPtr && len(x.roots) == 0 {
			return "", ctype{}, t.errAt(e, "a write to a read-only table")
		}
		t.markWritten(x.roots)
		i, err := t.scalarExpr(e.Index, kInt)
		if err != nil {
			return "", ctype{}, err
		}
		return x.c + "[" + stripParens(i) + "]", ctype{k: kFloat}, nil
	case *ast.SelectorExpr:
		x, err := t.field(e)
		return x.c, x.t, err
	case *ast.ParenExpr:
		return t.lvalue(e.X)
	}
	return "", ctype{}, t.errAt(e, "assignment to %T is not supported", e)
}

func (t *fnTrans) lvalueType(e ast.Expr) (ctype, error) {
	switch e := e.(type) {
	case *ast.Ident:
		if v := t.lookup(e); v != nil {
			return v.t, nil
		}
	case *ast.IndexExpr:
		return ctype{k: kFloat}, nil
	case *ast.SelectorExpr:
		x, err := t.field(e)
		return x.t, err
	}
	return ctype{}, fmt.Errorf("not an lvalue")
}

// assignCall assigns the results of a multi-result call.
func (t *fnTrans) assignCall(s *ast.AssignStmt) error {
	fn := t.multiCall(s.Rhs[0])
	if fn == nil {
		return t.errAt(s, "assignment of 1 value to %d names", len(s.Lhs))
	}
	if len(fn.results) != len(s.Lhs) {
		return t.errAt(s, "%s has %d results, assigned to %d", fn.key, len(fn.results), len(s.Lhs))
	}
	newNames := map[string]bool{}
	var outs []string
	type decl struct {
		id *ast.Ident
		t  ctype
	}
	var decls []decl
	for i, l := range s.Lhs {
		id, isID := l.(*ast.Ident)
		switch {
		case isID && id.Name == "_":
			tmp := t.temp()
			t.line("%s %s;", fn.results[i].c(), tmp)
			outs = append(outs, "&"+tmp)
		case s.Tok == token.DEFINE && isID && t.isNew(id):
			if err := checkName(id.Name); err != nil {
				return t.errAt(id, "%v", err)
			}
			newNames[id.Name] = true
			decls = append(decls, decl{id, fn.results[i]})
			outs = append(outs, "&"+id.Name)
		default:
			lv, lt, err := t.lvalue(l)
			if err != nil {
				return err
			}
			if lt.k != fn.results[i].k {
				return t.errAt(l, "result %d of %s is %s, assigned to %s", i+1, fn.key, fn.results[i], lt)
			}
			outs = append(outs, "&"+lv)
		}
	}
	if mentions(s.Rhs[0], newNames) {
		return t.errAt(s, "a call whose arguments read the names it declares")
	}
	xs, err := t.call(s.Rhs[0].(*ast.CallExpr), outs)
	if err != nil {
		return err
	}
	for _, d := range decls {
		t.line("%s %s;", d.t.c(), d.id.Name)
		t.declare(d.id, &cvar{c: d.id.Name, t: d.t})
	}
	t.line("%s;", xs[0].c)
	return nil
}

// simple translates a statement that fits a for clause: ++, --, op=, a
// single = or a single := of a scalar (declared in the current scope).
func (t *fnTrans) simple(s ast.Stmt) (string, error) {
	switch s := s.(type) {
	case *ast.IncDecStmt:
		lv, lt, err := t.lvalue(s.X)
		if err != nil {
			return "", err
		}
		if !lt.integer() && lt.k != kFloat {
			return "", t.errAt(s, "%s of %s", s.Tok, lt)
		}
		return lv + s.Tok.String(), nil
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			break
		}
		x, err := t.expr(s.Rhs[0])
		if err != nil {
			return "", err
		}
		if s.Tok == token.DEFINE {
			id, ok := s.Lhs[0].(*ast.Ident)
			k := x.t
			if !ok || !k.scalar() || !t.isNew(id) || mentions(s.Rhs[0], map[string]bool{id.Name: true}) {
				break
			}
			if err := checkName(id.Name); err != nil {
				return "", t.errAt(id, "%v", err)
			}
			c, err := t.val(s.Rhs[0], x, k.k)
			if err != nil {
				return "", err
			}
			t.declare(id, &cvar{c: id.Name, t: k})
			return k.c() + " " + id.Name + " = " + stripParens(c), nil
		}
		lv, lt, err := t.lvalue(s.Lhs[0])
		if err != nil {
			return "", err
		}
		switch s.Tok {
		case token.SHL_ASSIGN, token.SHR_ASSIGN:
			if !lt.unsigned() || x.cv == nil {
				return "", t.errAt(s, "%s of %s by a variable count (device code shifts uint32 and uint64 in place by constants)", s.Tok, lt)
			}
			op := strings.TrimSuffix(s.Tok.String(), "=")
			return lv + " = " + stripParens(shiftC(lt, lv, op, x.cv.ExactString(), x.cv)), nil
		case token.AND_ASSIGN, token.OR_ASSIGN, token.XOR_ASSIGN, token.AND_NOT_ASSIGN:
			if !lt.integer() {
				return "", t.errAt(s, "%s of %s", s.Tok, lt)
			}
		}
		if !lt.scalar() || x.cv == nil && x.t.k != lt.k {
			return "", t.errAt(s, "%s %s %s", lt, s.Tok, x.t)
		}
		if s.Tok == token.REM_ASSIGN && !lt.integer() {
			return "", t.errAt(s, "%% of %s", lt)
		}
		c, err := t.val(s.Rhs[0], x, lt.k)
		if err != nil {
			return "", err
		}
		if s.Tok == token.AND_NOT_ASSIGN {
			return lv + " &= ~" + c, nil
		}
		return lv + " " + s.Tok.String() + " " + stripParens(c), nil
	}
	return "", t.errAt(s, "this statement does not fit a for clause")
}

func (t *fnTrans) exprStmt(s *ast.ExprStmt) error {
	call, ok := s.X.(*ast.CallExpr)
	if !ok {
		return t.errAt(s, "expression statement %T", s.X)
	}
	if id, ok := call.Fun.(*ast.Ident); ok {
		switch t.d.info.Uses[id] {
		case types.Universe.Lookup("clear"):
			return t.clear(call)
		case types.Universe.Lookup("copy"):
			return t.copyStmt(call)
		}
	}
	if fn := t.multiCall(call); fn != nil {
		var outs []string
		for _, r := range fn.results {
			tmp := t.temp()
			t.line("%s %s;", r.c(), tmp)
			outs = append(outs, "&"+tmp)
		}
		xs, err := t.call(call, outs)
		if err != nil {
			return err
		}
		t.line("%s;", xs[0].c)
		return nil
	}
	xs, err := t.call(call, nil)
	if err != nil {
		return err
	}
	if xs[0].t.k == kVoid {
		t.line("%s;", xs[0].c)
	} else {
		t.line("(void)%s;", xs[0].c)
	}
	return nil
}

func (t *fnTrans) writableSlice(e ast.Expr) (texpr, string, error) {
	x, err := t.expr(e)
	if err != nil {
		return x, "", err
	}
	if x.t.k != kSlice && x.t.k != kArray || x.t.ints {
		return x, "", t.errAt(e, "%s is not a []float64", exprString(e))
	}
	if x.constPtr && len(x.roots) == 0 {
		return x, "", t.errAt(e, "a write to a read-only table")
	}
	t.markWritten(x.roots)
	n, err := sliceLen(x)
	return x, n, err
}

func (t *fnTrans) clear(call *ast.CallExpr) error {
	if len(call.Args) != 1 {
		return t.errAt(call, "clear takes one argument")
	}
	x, n, err := t.writableSlice(call.Args[0])
	if err != nil {
		return err
	}
	i := t.temp()
	t.line("for (long long %s = 0; %s < %s; %s++) %s[%s] = 0;", i, i, n, i, x.c, i)
	return nil
}

func (t *fnTrans) copyStmt(call *ast.CallExpr) error {
	if len(call.Args) != 2 {
		return t.errAt(call, "copy takes two arguments")
	}
	dst, dn, err := t.writableSlice(call.Args[0])
	if err != nil {
		return err
	}
	src, err := t.expr(call.Args[1])
	if err != nil {
		return err
	}
	if src.t.k != kSlice && src.t.k != kArray || src.t.ints {
		return t.errAt(call, "copy from %s", src.t)
	}
	sn, err := sliceLen(src)
	if err != nil {
		return err
	}
	// Go's copy is a memmove: overlapping slices copy backwards when the
	// destination lies above the source.
	n, i := t.temp(), t.temp()
	t.line("{")
	t.line("\tlong long %s = %s < %s ? %s : %s;", n, dn, sn, dn, sn)
	t.line("\tif (%s <= %s) for (long long %s = 0; %s < %s; %s++) %s[%s] = %s[%s];", stripParens(dst.c), stripParens(src.c), i, i, n, i, dst.c, i, src.c, i)
	t.line("\telse for (long long %s = %s - 1; %s >= 0; %s--) %s[%s] = %s[%s];", i, n, i, i, dst.c, i, src.c, i)
	t.line("}")
	return nil
}

func (t *fnTrans) ifStmt(s *ast.IfStmt) error {
	if hostOnly(s.Cond) {
		// The branch is the CPU's shortcut (gonum's assembly for a long
		// dot product): the device runs what follows it, or its else.
		if s.Init != nil {
			return t.errAt(s, "a host-only branch (OnHost()) may not have an init statement")
		}
		switch e := s.Else.(type) {
		case nil:
			return nil
		case *ast.BlockStmt:
			t.line("{")
			if err := t.block(e.List); err != nil {
				return err
			}
			t.line("}")
			return nil
		case *ast.IfStmt:
			return t.ifStmt(e)
		}
	}
	if s.Init != nil {
		t.line("{")
		t.ind++
		t.push()
		if err := t.stmt(s.Init); err != nil {
			return err
		}
	}
	cond, err := t.scalarExpr(s.Cond, kBool)
	if err != nil {
		return err
	}
	t.line("if (%s) {", stripParens(cond))
	if err := t.block(s.Body.List); err != nil {
		return err
	}
	for els := s.Else; els != nil; {
		switch e := els.(type) {
		case *ast.IfStmt:
			if e.Init != nil {
				t.line("} else {")
				t.ind++
				t.push()
				err := t.ifStmt(e)
				t.pop()
				t.ind--
				if err != nil {
					return err
				}
				els = nil
				continue
			}
			c, err := t.scalarExpr(e.Cond, kBool)
			if err != nil {
				return err
			}
			t.line("} else if (%s) {", stripParens(c))
			if err := t.block(e.Body.List); err != nil {
				return err
			}
			els = e.Else
		case *ast.BlockStmt:
			t.line("} else {")
			if err := t.block(e.List); err != nil {
				return err
			}
			els = nil
		}
	}
	t.line("}")
	if s.Init != nil {
		t.pop()
		t.ind--
		t.line("}")
	}
	return nil
}

func (t *fnTrans) loopBody(list []ast.Stmt) error {
	saved := t.breakOK
	t.breakOK = true
	err := t.block(list)
	t.breakOK = saved
	return err
}

func (t *fnTrans) forStmt(s *ast.ForStmt) error {
	t.push()
	defer t.pop()
	var init, cond, post string
	var err error
	if s.Init != nil {
		if init, err = t.simple(s.Init); err != nil {
			return err
		}
	}
	if s.Cond != nil {
		if cond, err = t.scalarExpr(s.Cond, kBool); err != nil {
			return err
		}
		cond = stripParens(cond)
	}
	if s.Post != nil {
		if p, ok := s.Post.(*ast.AssignStmt); ok && p.Tok == token.DEFINE {
			return t.errAt(s.Post, ":= in a for clause's post statement")
		}
		if post, err = t.simple(s.Post); err != nil {
			return err
		}
	}
	if init == "" && post == "" {
		if cond == "" {
			t.line("for (;;) {")
		} else {
			t.line("while (%s) {", cond)
		}
	} else {
		t.line("for (%s; %s; %s) {", init, cond, post)
	}
	if err := t.loopBody(s.Body.List); err != nil {
		return err
	}
	t.line("}")
	return nil
}

func (t *fnTrans) rangeStmt(s *ast.RangeStmt) error {
	if s.Tok == token.ASSIGN {
		return t.errAt(s, "range with = is not supported (use :=)")
	}
	x, err := t.expr(s.X)
	if err != nil {
		return err
	}
	// Go evaluates the range expression once: a body that reassigns the
	// slice it ranges over would range over the new one in C.
	if id, ok := s.X.(*ast.Ident); ok && x.t.k == kSlice && assigns(s.Body, id.Name) {
		return t.errAt(s, "the loop reassigns %s, which it ranges over", id.Name)
	}
	t.push()
	defer t.pop()
	key := ""
	if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
		if err := checkName(id.Name); err != nil {
			return t.errAt(id, "%v", err)
		}
		key = id.Name
		t.declare(id, &cvar{c: key, t: ctype{k: kInt}})
	} else {
		key = t.temp()
	}
	n := t.temp()
	switch {
	case x.cv != nil || x.t.k == kInt:
		if s.Value != nil {
			return t.errAt(s, "range over an int has no value")
		}
		c, err := t.val(s.X, x, kInt)
		if err != nil {
			return err
		}
		t.line("for (long long %s = 0, %s = %s; %s < %s; %s++) {", key, n, stripParens(c), key, n, key)
		if err := t.loopBody(s.Body.List); err != nil {
			return err
		}
	case x.t.k == kSlice || x.t.k == kArray:
		l, err := sliceLen(x)
		if err != nil {
			return err
		}
		t.line("for (long long %s = 0, %s = %s; %s < %s; %s++) {", key, n, stripParens(l), key, n, key)
		var body []ast.Stmt
		if id, ok := s.Value.(*ast.Ident); ok && id.Name != "_" {
			if err := checkName(id.Name); err != nil {
				return t.errAt(id, "%v", err)
			}
			t.ind++
			t.line("%s %s = %s[%s];", x.t.elem(), id.Name, x.c, key)
			t.ind--
			t.declare(id, &cvar{c: id.Name, t: ctype{k: x.t.elemKind()}})
		}
		body = s.Body.List
		if err := t.loopBody(body); err != nil {
			return err
		}
	default:
		return t.errAt(s, "range over %s is not supported", x.t)
	}
	t.line("}")
	return nil
}

func (t *fnTrans) switchStmt(s *ast.SwitchStmt) error {
	if s.Init != nil {
		t.line("{")
		t.ind++
		t.push()
		defer func() {
			t.pop()
			t.ind--
			t.line("}")
		}()
		if err := t.stmt(s.Init); err != nil {
			return err
		}
	}
	var tag texpr
	if s.Tag != nil {
		var err error
		if tag, err = t.expr(s.Tag); err != nil {
			return err
		}
		if !tag.t.scalar() {
			return t.errAt(s.Tag, "switch on %s", tag.t)
		}
	}
	saved := t.breakOK
	t.breakOK = false
	defer func() { t.breakOK = saved }()
	var def *ast.CaseClause
	first := true
	for _, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			def = cc
			continue
		}
		var conds []string
		for _, e := range cc.List {
			if s.Tag == nil {
				c, err := t.scalarExpr(e, kBool)
				if err != nil {
					return err
				}
				conds = append(conds, c)
				continue
			}
			eq, err := t.binary(&ast.BinaryExpr{X: s.Tag, OpPos: e.Pos(), Op: token.EQL, Y: e})
			if err != nil {
				return err
			}
			conds = append(conds, eq.c)
		}
		cond := strings.Join(conds, " || ")
		if len(conds) == 1 {
			cond = stripParens(cond)
		}
		if first {
			t.line("if (%s) {", cond)
		} else {
			t.line("} else if (%s) {", cond)
		}
		first = false
		if err := t.caseBody(cc); err != nil {
			return err
		}
	}
	if def != nil {
		if first {
			t.line("{")
		} else {
			t.line("} else {")
		}
		first = false
		if err := t.caseBody(def); err != nil {
			return err
		}
	}
	if !first {
		t.line("}")
	}
	return nil
}

func (t *fnTrans) caseBody(cc *ast.CaseClause) error {
	for _, s := range cc.Body {
		if b, ok := s.(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
			return t.errAt(s, "fallthrough is not supported")
		}
	}
	return t.block(cc.Body)
}

func (t *fnTrans) returnStmt(s *ast.ReturnStmt) error {
	fn := t.fn
	switch {
	case len(fn.results) == 0:
		if len(s.Results) != 0 {
			return t.errAt(s, "return with a value from a function without results")
		}
		t.line("return;")
		return nil
	case len(s.Results) == 0:
		if len(fn.results) == 1 {
			t.line("return %s;", fn.names[0])
			return nil
		}
		for i, n := range fn.names {
			t.line("*%s = %s;", fn.outName(i), n)
		}
		t.line("return;")
		return nil
	case len(fn.results) == 1:
		if len(s.Results) != 1 {
			return t.errAt(s, "return of %d values", len(s.Results))
		}
		c, err := t.scalarExpr(s.Results[0], fn.results[0].k)
		if err != nil {
			return err
		}
		t.line("return %s;", stripParens(c))
		return nil
	}
	if len(s.Results) == 1 {
		callee := t.multiCall(s.Results[0])
		if callee == nil || len(callee.results) != len(fn.results) {
			return t.errAt(s, "return of 1 value from a function with %d results", len(fn.results))
		}
		var outs []string
		for i, r := range callee.results {
			if r.k != fn.results[i].k {
				return t.errAt(s, "result %d: %s, want %s", i+1, r, fn.results[i])
			}
			outs = append(outs, fn.outName(i))
		}
		xs, err := t.call(s.Results[0].(*ast.CallExpr), outs)
		if err != nil {
			return err
		}
		t.line("%s;", xs[0].c)
		t.line("return;")
		return nil
	}
	if len(s.Results) != len(fn.results) {
		return t.errAt(s, "return of %d values from a function with %d results", len(s.Results), len(fn.results))
	}
	var cs []string
	for i, r := range s.Results {
		c, err := t.scalarExpr(r, fn.results[i].k)
		if err != nil {
			return err
		}
		cs = append(cs, c)
	}
	for i, c := range cs {
		t.line("*%s = %s;", fn.outName(i), stripParens(c))
	}
	t.line("return;")
	return nil
}

// assigns reports whether body assigns to the name (as a whole, not to an
// element).
func assigns(body *ast.BlockStmt, name string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok {
			for _, l := range a.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == name {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// hostOnly reports whether cond is OnHost() or onHost() (dense.OnHost,
// or a marked package's own), or an && chain that starts with it: true
// on the CPU, false in device code, where the branch is left out whole.
func hostOnly(cond ast.Expr) bool {
	switch c := cond.(type) {
	case *ast.ParenExpr:
		return hostOnly(c.X)
	case *ast.BinaryExpr:
		return c.Op == token.LAND && hostOnly(c.X)
	case *ast.CallExpr:
		if len(c.Args) != 0 {
			return false
		}
		switch f := c.Fun.(type) {
		case *ast.Ident:
			return f.Name == "OnHost" || f.Name == "onHost"
		case *ast.SelectorExpr:
			return f.Sel.Name == "OnHost"
		}
	}
	return false
}
