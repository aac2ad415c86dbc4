package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// cvar is a variable of translated code.
type cvar struct {
	c string
	t ctype
	// A slice: the parameter it is (param), the parameters it may point
	// into (roots), whether its pointer is const, and for a local slice
	// the key of its length's use.
	param    *cparam
	roots    []*cparam
	constPtr bool
	local    token.Pos
}

// texpr is a translated expression: its C and its go/types type, or, for
// a constant, its type and value (printed in the C type its use wants).
type texpr struct {
	c  string
	t  ctype
	cv constant.Value
	// A slice: its length (computed on demand: asking marks the length
	// as needed), the parameters it points into and whether it is const.
	lenFn    func() (string, error)
	roots    []*cparam
	constPtr bool
}

// fnTrans translates one function body.
type fnTrans struct {
	d       *device
	fn      *cfunc
	f       *devFile
	b       bytes.Buffer
	ind     int
	scopes  []map[types.Object]*cvar
	tmp     int
	breakOK bool
	tables  map[string]bool
}

func (d *device) body(fn *cfunc) (string, error) {
	t := &fnTrans{d: d, fn: fn, f: fn.file, ind: 1, tables: map[string]bool{}}
	if d.localLens[fn] == nil {
		d.localLens[fn] = map[token.Pos]bool{}
	}
	t.push()
	for _, p := range fn.params {
		v := &cvar{c: p.name, t: p.t}
		if p.t.k == kSlice {
			v.param = p
			v.roots = []*cparam{p}
		}
		if p.obj != nil {
			t.scopes[0][p.obj] = v
		}
	}
	for i, n := range fn.names {
		if n == "" || n == "_" {
			continue
		}
		t.declare(fn.resultIDs[i], &cvar{c: n, t: fn.results[i]})
		t.line("%s %s = 0;", fn.results[i].c(), n)
	}
	if err := t.stmts(fn.decl.Body.List); err != nil {
		return "", err
	}
	// Tables the body reads become local const arrays.
	var head bytes.Buffer
	names := make([]string, 0, len(t.tables))
	for n := range t.tables {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		td := fn.file.pkg.tables[n]
		var vals []string
		for _, e := range td.lit.Elts {
			v, ok := d.constOf(e)
			if !ok {
				return "", d.errAt(e, fn.key, "table %s: an element is not a constant", n)
			}
			s, err := cConst(v, kFloat)
			if err != nil {
				return "", d.errAt(e, fn.key, "table %s: %v", n, err)
			}
			vals = append(vals, s)
		}
		fmt.Fprintf(&head, "\tconst double %s[%d] = {%s};\n", n, len(vals), strings.Join(vals, ", "))
	}
	return head.String() + t.b.String(), nil
}

func (t *fnTrans) errAt(n ast.Node, format string, args ...any) error {
	return t.d.errAt(n, t.fn.key, format, args...)
}

func (t *fnTrans) push() { t.scopes = append(t.scopes, map[types.Object]*cvar{}) }
func (t *fnTrans) pop()  { t.scopes = t.scopes[:len(t.scopes)-1] }

// declare gives the variable id defines its C.
func (t *fnTrans) declare(id *ast.Ident, v *cvar) {
	if obj := t.d.info.ObjectOf(id); obj != nil {
		t.scopes[len(t.scopes)-1][obj] = v
	}
}

// lookup is the C of the local variable id names, or nil.
func (t *fnTrans) lookup(id *ast.Ident) *cvar {
	if id == nil {
		return nil
	}
	obj := t.d.info.ObjectOf(id)
	if obj == nil {
		return nil
	}
	for i := len(t.scopes) - 1; i >= 0; i-- {
		if v := t.scopes[i][obj]; v != nil {
			return v
		}
	}
	return nil
}

// isNew reports whether id, on the left of :=, declares a variable.
func (t *fnTrans) isNew(id *ast.Ident) bool { return t.d.info.Defs[id] != nil }

func (t *fnTrans) line(format string, args ...any) {
	t.b.WriteString(strings.Repeat("\t", t.ind))
	fmt.Fprintf(&t.b, format, args...)
	t.b.WriteString("\n")
}

func (t *fnTrans) temp() string {
	t.tmp++
	return fmt.Sprintf("gb_t%d", t.tmp)
}

// markWritten records that code writes through the slice x.
func (t *fnTrans) markWritten(roots []*cparam) {
	for _, p := range roots {
		if !p.written {
			p.written = true
			t.d.changed = true
		}
	}
}

// val prints x for a context of kind k (an untyped constant takes it).
func (t *fnTrans) val(n ast.Node, x texpr, k cKind) (string, error) {
	if x.cv != nil {
		s, err := cConst(x.cv, k)
		if err != nil {
			return "", t.errAt(n, "%v", err)
		}
		return s, nil
	}
	return x.c, nil
}

// floatArgs translates a call's arguments as doubles, without outer
// parentheses.
func (t *fnTrans) floatArgs(es []ast.Expr) ([]string, error) {
	var args []string
	for _, a := range es {
		s, err := t.scalarExpr(a, kFloat)
		if err != nil {
			return nil, err
		}
		args = append(args, stripParens(s))
	}
	return args, nil
}

// scalarExpr translates e, which must be a scalar of kind k.
func (t *fnTrans) scalarExpr(e ast.Expr, k cKind) (string, error) {
	x, err := t.expr(e)
	if err != nil {
		return "", err
	}
	if x.cv == nil && x.t.k != k {
		return "", t.errAt(e, "%s is %s, want %s", exprString(e), x.t, ctype{k: k})
	}
	return t.val(e, x, k)
}

// typeAt is the C type go/types gives e (an untyped constant: the type
// its context converts it to, or its default type).
func (t *fnTrans) typeAt(e ast.Expr) (ctype, error) {
	tv, ok := t.d.info.Types[e]
	if !ok {
		return ctype{}, t.errAt(e, "%s has no type", exprString(e))
	}
	ct, err := t.d.ctypeOf(tv.Type)
	if err != nil {
		return ctype{}, t.errAt(e, "%s: %v", exprString(e), err)
	}
	return ct, nil
}

// expr translates e; its type is the one go/types gives it.
func (t *fnTrans) expr(e ast.Expr) (texpr, error) {
	// A constant expression is folded, as go/types folds it.
	if v, ok := t.d.constOf(e); ok {
		ct, err := t.typeAt(e)
		return texpr{cv: v, t: ct}, err
	}
	x, err := t.exprC(e)
	if err != nil {
		return x, err
	}
	if tv := t.d.info.Types[e]; tv.Type != nil {
		if _, tuple := tv.Type.(*types.Tuple); !tuple {
			if x.t, err = t.typeAt(e); err != nil {
				return x, err
			}
		}
	}
	return x, nil
}

// exprC writes the C of e.
func (t *fnTrans) exprC(e ast.Expr) (texpr, error) {
	switch e := e.(type) {
	case *ast.Ident:
		return t.ident(e)
	case *ast.ParenExpr:
		x, err := t.expr(e.X)
		if err != nil || x.cv != nil || !x.t.scalar() || stripParens(x.c) != x.c {
			return x, err
		}
		x.c = "(" + x.c + ")"
		return x, nil
	case *ast.UnaryExpr:
		return t.unary(e)
	case *ast.BinaryExpr:
		return t.binary(e)
	case *ast.CallExpr:
		xs, err := t.call(e, nil)
		if err != nil {
			return texpr{}, err
		}
		if len(xs) != 1 {
			return texpr{}, t.errAt(e, "a call with %d results used as a value", len(xs))
		}
		return xs[0], nil
	case *ast.IndexExpr:
		return t.index(e)
	case *ast.SelectorExpr:
		return t.field(e)
	case *ast.SliceExpr:
		return t.slice(e)
	case *ast.BasicLit:
		return texpr{}, t.errAt(e, "literal %s is not supported", e.Value)
	case *ast.FuncLit:
		return texpr{}, t.errAt(e, "closures are not supported")
	}
	return texpr{}, t.errAt(e, "%T is not supported", e)
}

func (t *fnTrans) ident(e *ast.Ident) (texpr, error) {
	if v := t.lookup(e); v != nil {
		return t.varExpr(v), nil
	}
	obj := t.d.info.Uses[e]
	if _, ok := obj.(*types.Nil); ok {
		return texpr{c: "0", t: ctype{k: kSlice}, lenFn: func() (string, error) { return "0", nil }}, nil
	}
	if td, ok := t.f.pkg.tables[e.Name]; ok && obj != nil && obj.Parent() == t.f.pkg.tpkg.Scope() {
		t.tables[e.Name] = true
		return texpr{c: e.Name, t: ctype{k: kArray, n: len(td.lit.Elts)}, constPtr: true}, nil
	}
	return texpr{}, t.errAt(e, "unknown name %s (device code reads its parameters, locals, constants and float64 tables)", e.Name)
}

func (t *fnTrans) varExpr(v *cvar) texpr {
	x := texpr{c: v.c, t: v.t, roots: v.roots, constPtr: v.constPtr}
	if v.t.k != kSlice {
		return x
	}
	if v.param != nil {
		p := v.param
		x.constPtr = !p.written
		x.lenFn = func() (string, error) {
			if !p.needLen {
				p.needLen = true
				t.d.changed = true
			}
			return p.name + "_len", nil
		}
		return x
	}
	lens, pos := t.d.localLens[t.fn], v.local
	x.lenFn = func() (string, error) {
		if !lens[pos] {
			lens[pos] = true
			t.d.changed = true
		}
		return v.c + "_len", nil
	}
	return x
}

func (t *fnTrans) unary(e *ast.UnaryExpr) (texpr, error) {
	if e.Op == token.AND {
		id, _ := e.X.(*ast.Ident)
		if v := t.lookup(id); v != nil && v.t.k == kStruct {
			return texpr{c: "&" + v.c, t: ctype{k: kPtr, s: v.t.s}}, nil
		}
		return texpr{}, t.errAt(e, "& of anything but a local struct is not supported")
	}
	x, err := t.expr(e.X)
	if err != nil {
		return x, err
	}
	switch {
	case e.Op == token.SUB && (x.t.k == kFloat || x.t.integer()):
		return texpr{c: "(-" + x.c + ")", t: x.t}, nil
	case e.Op == token.ADD && (x.t.k == kFloat || x.t.integer()):
		return x, nil
	case e.Op == token.XOR && x.t.integer():
		return texpr{c: "(~" + x.c + ")", t: x.t}, nil
	case e.Op == token.NOT && x.t.k == kBool:
		return texpr{c: "(!" + x.c + ")", t: x.t}, nil
	}
	return texpr{}, t.errAt(e, "operator %s on %s is not supported", e.Op, x.t)
}

func (t *fnTrans) binary(e *ast.BinaryExpr) (texpr, error) {
	x, err := t.expr(e.X)
	if err != nil {
		return x, err
	}
	y, err := t.expr(e.Y)
	if err != nil {
		return y, err
	}
	boolT := ctype{k: kBool}
	switch e.Op {
	case token.LAND, token.LOR:
		xs, err := t.val(e.X, x, kBool)
		if err != nil {
			return texpr{}, err
		}
		ys, err := t.val(e.Y, y, kBool)
		if err != nil {
			return texpr{}, err
		}
		if x.t.k != kBool || y.t.k != kBool {
			return texpr{}, t.errAt(e, "%s of non-booleans", e.Op)
		}
		return texpr{c: "(" + xs + " " + e.Op.String() + " " + ys + ")", t: boolT}, nil
	}
	// Slices compare with nil only.
	if x.t.k == kSlice || y.t.k == kSlice {
		if (e.Op == token.EQL || e.Op == token.NEQ) && x.t.k == kSlice && y.t.k == kSlice && (isNil(e.X) || isNil(e.Y)) {
			return texpr{c: "(" + x.c + " " + e.Op.String() + " " + y.c + ")", t: boolT}, nil
		}
		return texpr{}, t.errAt(e, "operator %s on slices is not supported", e.Op)
	}
	// The operands' type (go/types converts an untyped constant operand
	// to the other's).
	k := x.t
	if !k.scalar() {
		return texpr{}, t.errAt(e, "operator %s on %s is not supported", e.Op, k)
	}
	if e.Op == token.SHL || e.Op == token.SHR {
		return t.shift(e, x, y)
	}
	xs, err := t.val(e.X, x, k.k)
	if err != nil {
		return texpr{}, err
	}
	ys, err := t.val(e.Y, y, k.k)
	if err != nil {
		return texpr{}, err
	}
	c := "(" + xs + " " + e.Op.String() + " " + ys + ")"
	switch e.Op {
	case token.AND, token.OR, token.XOR:
		if !k.integer() {
			break
		}
		return texpr{c: c, t: k}, nil
	case token.AND_NOT:
		if !k.integer() {
			break
		}
		return texpr{c: "(" + xs + " & ~" + ys + ")", t: k}, nil
	case token.EQL, token.NEQ:
		return texpr{c: c, t: boolT}, nil
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		if k.k == kBool {
			break
		}
		return texpr{c: c, t: boolT}, nil
	case token.ADD, token.SUB, token.MUL, token.QUO:
		if k.k == kBool {
			break
		}
		return texpr{c: c, t: k}, nil
	case token.REM:
		if !k.integer() {
			break
		}
		return texpr{c: c, t: k}, nil
	}
	return texpr{}, t.errAt(e, "operator %s on %s is not supported", e.Op, k)
}

// shiftC is the C of x op n for an unsigned x of type k and an integer
// count n (cn its value when it is a constant): Go shifts every bit out
// from the width on, where C's shift is undefined.
func shiftC(k ctype, xs, op, ns string, cn constant.Value) string {
	zero := "0u"
	if k.k == kU64 {
		zero = "0ull"
	}
	if cn != nil {
		if n, ok := constant.Int64Val(constant.ToInt(cn)); !ok || n >= int64(k.bits()) {
			return zero
		}
		return "(" + xs + " " + op + " " + ns + ")"
	}
	return fmt.Sprintf("(%s < %d ? %s %s %s : %s)", ns, k.bits(), xs, op, ns, zero)
}

// shift translates x << n and x >> n, of an unsigned x.
func (t *fnTrans) shift(e *ast.BinaryExpr, x, y texpr) (texpr, error) {
	if !x.t.unsigned() {
		return texpr{}, t.errAt(e, "shift of %s (device code shifts uint32 and uint64)", x.t)
	}
	if !y.t.integer() {
		return texpr{}, t.errAt(e, "shift count of type %s", y.t)
	}
	xs, err := t.val(e.X, x, x.t.k)
	if err != nil {
		return texpr{}, err
	}
	ys, err := t.val(e.Y, y, y.t.k)
	if err != nil {
		return texpr{}, err
	}
	if y.cv == nil && strings.Contains(ys, "(") {
		// The count is read twice.
		return texpr{}, t.errAt(e.Y, "a shift count that is not a variable or a constant (assign it to a local first)")
	}
	return texpr{c: shiftC(x.t, xs, e.Op.String(), stripParens(ys), y.cv), t: x.t}, nil
}

func isNil(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "nil"
}

func (t *fnTrans) index(e *ast.IndexExpr) (texpr, error) {
	x, err := t.expr(e.X)
	if err != nil {
		return x, err
	}
	if x.t.k != kSlice && x.t.k != kArray {
		return texpr{}, t.errAt(e, "indexing %s is not supported", x.t)
	}
	i, err := t.scalarExpr(e.Index, kInt)
	if err != nil {
		return texpr{}, err
	}
	return texpr{c: x.c + "[" + stripParens(i) + "]", t: ctype{k: x.t.elemKind()}, roots: x.roots, constPtr: x.constPtr}, nil
}

func (t *fnTrans) field(e *ast.SelectorExpr) (texpr, error) {
	if id, ok := e.X.(*ast.Ident); ok && t.lookup(id) == nil {
		return texpr{}, t.errAt(e, "%s.%s is not supported in device code", id.Name, e.Sel.Name)
	}
	x, err := t.expr(e.X)
	if err != nil {
		return x, err
	}
	if x.t.k != kStruct && x.t.k != kPtr {
		return texpr{}, t.errAt(e, "selector on %s", x.t)
	}
	for _, f := range x.t.s.fields {
		if f.name == e.Sel.Name {
			op := "."
			if x.t.k == kPtr {
				op = "->"
			}
			return texpr{c: x.c + op + f.name, t: f.t}, nil
		}
	}
	return texpr{}, t.errAt(e, "%s has no field %s", x.t, e.Sel.Name)
}

func (t *fnTrans) slice(e *ast.SliceExpr) (texpr, error) {
	if e.Slice3 {
		return texpr{}, t.errAt(e, "three-index slices are not supported")
	}
	x, err := t.expr(e.X)
	if err != nil {
		return x, err
	}
	if x.t.k != kSlice && x.t.k != kArray {
		return texpr{}, t.errAt(e, "slicing %s is not supported", x.t)
	}
	lo, hi := "", ""
	if e.Low != nil {
		if lo, err = t.scalarExpr(e.Low, kInt); err != nil {
			return texpr{}, err
		}
	}
	if e.High != nil {
		if hi, err = t.scalarExpr(e.High, kInt); err != nil {
			return texpr{}, err
		}
	}
	base := x
	ptr := x.c
	if lo != "" && lo != "0" {
		ptr = "(" + x.c + " + " + lo + ")"
	}
	return texpr{c: ptr, t: ctype{k: kSlice, ints: x.t.ints}, roots: x.roots, constPtr: x.constPtr, lenFn: func() (string, error) {
		h := hi
		if h == "" {
			if base.t.k == kArray {
				h = fmt.Sprint(base.t.n)
			} else {
				var err error
				if h, err = base.lenFn(); err != nil {
					return "", err
				}
			}
		}
		if lo == "" || lo == "0" {
			return h, nil
		}
		return "(" + h + " - " + lo + ")", nil
	}}, nil
}

// sliceLen is the length of the slice or array x.
func sliceLen(x texpr) (string, error) {
	if x.t.k == kArray {
		return fmt.Sprint(x.t.n), nil
	}
	return x.lenFn()
}

// call translates a call; outs are the addresses its results go to when
// it has several (nil: a value is wanted).
func (t *fnTrans) call(e *ast.CallExpr, outs []string) ([]texpr, error) {
	one := func(x texpr, err error) ([]texpr, error) { return []texpr{x}, err }
	if tv := t.d.info.Types[e.Fun]; tv.IsType() {
		return one(t.conversion(e, tv.Type))
	}
	switch fun := e.Fun.(type) {
	case *ast.Ident:
		switch obj := t.d.info.Uses[fun].(type) {
		case *types.Builtin:
			switch fun.Name {
			case "len":
				if len(e.Args) != 1 {
					break
				}
				x, err := t.expr(e.Args[0])
				if err != nil {
					return nil, err
				}
				if x.t.k != kSlice && x.t.k != kArray {
					return nil, t.errAt(e, "len of %s", x.t)
				}
				n, err := sliceLen(x)
				return one(texpr{c: n, t: ctype{k: kInt}}, err)
			case "min", "max":
				return one(t.minMax(e, fun.Name))
			}
			return nil, t.errAt(e, "%s is not supported here", fun.Name)
		case *types.Func:
			if fn := t.callee(e); fn != nil {
				return t.callFunc(e, fn, nil, outs)
			}
			if ex, ok := deviceExterns[obj.Pkg().Name()+"."+obj.Name()]; ok {
				return one(t.callExtern(e, ex))
			}
		}
		return nil, t.errAt(e, "call of %s: not a //gb:cuda function, a builtin or an extern", fun.Name)
	case *ast.SelectorExpr:
		if id, ok := fun.X.(*ast.Ident); ok {
			if pn, ok := t.d.info.Uses[id].(*types.PkgName); ok {
				pkg := pn.Imported().Name()
				if pkg == "math" {
					return one(t.mathCall(e, fun.Sel.Name))
				}
				if fn := t.callee(e); fn != nil {
					return t.callFunc(e, fn, nil, outs)
				}
				if ex, ok := deviceExterns[pkg+"."+fun.Sel.Name]; ok {
					return one(t.callExtern(e, ex))
				}
				return nil, t.errAt(e, "call of %s.%s: not a //gb:cuda function or an extern", id.Name, fun.Sel.Name)
			}
		}
		// A method of a marked struct.
		x, err := t.expr(fun.X)
		if err != nil {
			return nil, err
		}
		if x.t.k != kStruct && x.t.k != kPtr {
			return nil, t.errAt(e, "method call on %s", x.t)
		}
		fn := t.d.funcs[t.f.pkg.name+"."+x.t.s.goName+"."+fun.Sel.Name]
		if fn == nil {
			return nil, t.errAt(e, "%s.%s is not a //gb:cuda method", x.t.s.goName, fun.Sel.Name)
		}
		recv := x.c
		if x.t.k == kStruct {
			recv = "&" + x.c
		}
		return t.callFunc(e, fn, &recv, outs)
	}
	return nil, t.errAt(e, "this call is not supported")
}

func (t *fnTrans) conversion(e *ast.CallExpr, typ types.Type) (texpr, error) {
	ct, err := t.d.ctypeOf(typ)
	if err != nil {
		return texpr{}, t.errAt(e, "%v", err)
	}
	to := ct.String()
	if len(e.Args) != 1 {
		return texpr{}, t.errAt(e, "%s takes one argument", to)
	}
	x, err := t.expr(e.Args[0])
	if err != nil {
		return x, err
	}
	if !ct.scalar() || ct.k == kBool {
		return texpr{}, t.errAt(e, "conversion to %s", to)
	}
	if x.cv != nil {
		s, err := t.val(e, x, ct.k)
		return texpr{c: s, t: ct}, err
	}
	switch {
	case x.t.k == ct.k:
		return x, nil
	case x.t.k == kFloat || x.t.integer():
		// Integers convert as Go's: truncated to the narrower width,
		// zero- or sign-extended to the wider; a float64 out of the
		// integer's range is undefined in C and implementation-defined
		// in Go.
		return texpr{c: "((" + ct.c() + ")" + x.c + ")", t: ct}, nil
	}
	return texpr{}, t.errAt(e, "conversion of %s to %s", x.t, to)
}

func (t *fnTrans) minMax(e *ast.CallExpr, name string) (texpr, error) {
	if len(e.Args) != 2 {
		return texpr{}, t.errAt(e, "%s of %d arguments (device code takes two)", name, len(e.Args))
	}
	args, err := t.floatArgs(e.Args)
	if err != nil {
		return texpr{}, err
	}
	return texpr{c: "gb_" + name + "(" + strings.Join(args, ", ") + ")", t: ctype{k: kFloat}}, nil
}

func (t *fnTrans) mathCall(e *ast.CallExpr, name string) (texpr, error) {
	f := ctype{k: kFloat}
	b := ctype{k: kBool}
	argc := func(n int) error {
		if len(e.Args) != n {
			return t.errAt(e, "math.%s takes %d arguments", name, n)
		}
		return nil
	}
	sign := func(a ast.Expr) (int64, error) {
		v, ok := t.d.constOf(a)
		if ok && v.Kind() == constant.Int {
			if n, exact := constant.Int64Val(v); exact {
				return n, nil
			}
		}
		return 0, t.errAt(e, "math.%s wants a constant sign", name)
	}
	switch name {
	case "NaN":
		if err := argc(0); err != nil {
			return texpr{}, err
		}
		return texpr{c: "GB_NAN", t: f}, nil
	case "Inf":
		if err := argc(1); err != nil {
			return texpr{}, err
		}
		s, err := sign(e.Args[0])
		if err != nil {
			return texpr{}, err
		}
		if s >= 0 {
			return texpr{c: "GB_INF", t: f}, nil
		}
		return texpr{c: "(-GB_INF)", t: f}, nil
	case "IsNaN":
		if err := argc(1); err != nil {
			return texpr{}, err
		}
		x, err := t.scalarExpr(e.Args[0], kFloat)
		return texpr{c: "gb_isnan(" + stripParens(x) + ")", t: b}, err
	case "IsInf":
		if err := argc(2); err != nil {
			return texpr{}, err
		}
		x, err := t.scalarExpr(e.Args[0], kFloat)
		if err != nil {
			return texpr{}, err
		}
		s, err := sign(e.Args[1])
		switch {
		case s > 0:
			return texpr{c: "(" + x + " == GB_INF)", t: b}, err
		case s < 0:
			return texpr{c: "(" + x + " == -GB_INF)", t: b}, err
		}
		return texpr{c: "gb_isinf(" + x + ")", t: b}, err
	case "Signbit":
		if err := argc(1); err != nil {
			return texpr{}, err
		}
		x, err := t.scalarExpr(e.Args[0], kFloat)
		return texpr{c: "(signbit(" + x + ") != 0)", t: b}, err
	}
	m, ok := mathFuncs[name]
	if !ok {
		return texpr{}, t.errAt(e, "math.%s is not supported in device code", name)
	}
	if err := argc(m.arity); err != nil {
		return texpr{}, err
	}
	args, err := t.floatArgs(e.Args)
	if err != nil {
		return texpr{}, err
	}
	return texpr{c: m.c + "(" + strings.Join(args, ", ") + ")", t: f}, nil
}

func (t *fnTrans) callExtern(e *ast.CallExpr, ex extern) (texpr, error) {
	if len(e.Args) != ex.arity {
		return texpr{}, t.errAt(e, "%s takes %d arguments", ex.c, ex.arity)
	}
	args, err := t.floatArgs(e.Args)
	if err != nil {
		return texpr{}, err
	}
	return texpr{c: ex.c + "(" + strings.Join(args, ", ") + ")", t: ctype{k: ex.result}}, nil
}

// callFunc calls a translated function (recv, when set, is its first
// argument). A function of several results writes them to outs.
func (t *fnTrans) callFunc(e *ast.CallExpr, fn *cfunc, recv *string, outs []string) ([]texpr, error) {
	params := fn.params
	var args []string
	if recv != nil {
		args = append(args, *recv)
		params = params[1:]
	}
	if len(e.Args) != len(params) {
		return nil, t.errAt(e, "%s takes %d arguments", fn.key, len(params))
	}
	for i, a := range e.Args {
		p := params[i]
		x, err := t.expr(a)
		if err != nil {
			return nil, err
		}
		switch p.t.k {
		case kSlice:
			if x.t.k != kSlice && x.t.k != kArray || x.t.ints != p.t.ints && x.c != "0" {
				return nil, t.errAt(a, "argument %d of %s: %s, want %s", i+1, fn.key, x.t, p.t)
			}
			if p.written {
				if x.constPtr && len(x.roots) == 0 {
					return nil, t.errAt(a, "argument %d of %s: a read-only table is written", i+1, fn.key)
				}
				t.markWritten(x.roots)
			}
			args = append(args, x.c)
			if p.needLen {
				n, err := sliceLen(x)
				if err != nil {
					return nil, err
				}
				args = append(args, n)
			}
		case kPtr:
			if x.t.k != kPtr || x.t.s != p.t.s {
				return nil, t.errAt(a, "argument %d of %s: %s, want %s", i+1, fn.key, x.t, p.t)
			}
			args = append(args, x.c)
		default:
			if x.cv == nil && x.t.k != p.t.k {
				return nil, t.errAt(a, "argument %d of %s: %s, want %s", i+1, fn.key, x.t, p.t)
			}
			s, err := t.val(a, x, p.t.k)
			if err != nil {
				return nil, err
			}
			args = append(args, stripParens(s))
		}
	}
	c := fn.cName + "(" + strings.Join(args, ", ")
	if len(fn.results) > 1 {
		if outs == nil {
			return nil, t.errAt(e, "%s has %d results: assign them", fn.key, len(fn.results))
		}
		c += ", " + strings.Join(outs, ", ") + ")"
		xs := make([]texpr, len(fn.results))
		for i, r := range fn.results {
			xs[i] = texpr{t: r}
		}
		xs[0].c = c
		return xs, nil
	}
	c += ")"
	if len(fn.results) == 0 {
		return []texpr{{c: c, t: ctype{k: kVoid}}}, nil
	}
	return []texpr{{c: c, t: fn.results[0]}}, nil
}

// callee is the translated function or method c calls, or nil.
func (t *fnTrans) callee(c *ast.CallExpr) *cfunc {
	var obj types.Object
	switch fun := c.Fun.(type) {
	case *ast.Ident:
		obj = t.d.info.Uses[fun]
	case *ast.SelectorExpr:
		obj = t.d.info.Uses[fun.Sel]
	}
	f, ok := obj.(*types.Func)
	if !ok || f.Pkg() == nil {
		return nil
	}
	key := f.Pkg().Name() + "." + f.Name()
	if recv := f.Signature().Recv(); recv != nil {
		rt := recv.Type()
		if p, ok := rt.(*types.Pointer); ok {
			rt = p.Elem()
		}
		n, ok := types.Unalias(rt).(*types.Named)
		if !ok {
			return nil
		}
		key = f.Pkg().Name() + "." + n.Obj().Name() + "." + f.Name()
	}
	fn := t.d.funcs[key]
	if fn == nil || t.d.pkgs[f.Pkg().Name()].tpkg != f.Pkg() {
		return nil
	}
	return fn
}

// multiCall is the translated function a multi-result call names, or
// nil.
func (t *fnTrans) multiCall(e ast.Expr) *cfunc {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return nil
	}
	if fn := t.callee(c); fn != nil && len(fn.results) > 1 {
		return fn
	}
	return nil
}
