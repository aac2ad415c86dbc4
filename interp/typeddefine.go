package interp

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"

	"github.com/gobayes/gobayes/interp/rewrite"
)

// typedDefine runs a top-level x := E that yaegi refuses with "constant
// definition loop" although every name in it is defined: yaegi's pass over
// global declarations cannot type an index of a string, or of a value
// whose type comes from a compiled package (first := strings.Fields(s)[0],
// b0 := fit.Flat("beta")[0], m := fit.Array("a").Mean()[0];
// traefik/yaegi#1437), nor an expression built on one (w[1] + "!").
//
// The statements of a cell run one by one, so the value is computed
// first, once, where yaegi can type it, and its type read off the value:
// E = X[i] computes X into a hidden variable (X alone is typed fine) and
// takes the element type of its value; another E is computed inside a
// function literal, as an interface, and keeps its dynamic type (the
// static type of an arithmetic or comparison result). The cell then runs
// var x T and x = …, which yaegi accepts. ok is false (and the caller
// reports yaegi's own error) when the statement is not of this form or
// the type cannot be written in the cell's terms (a package it did not
// import, a type of its own).
func (s *Session) typedDefine(ctx context.Context, cell string, at rewrite.Item) (ok bool, err *Error) {
	src := at.Source(cell)
	const head = "package main; func main() {"
	fset := token.NewFileSet()
	f, perr := parser.ParseFile(fset, "", head+src+"\n}", 0)
	if perr != nil {
		return false, nil
	}
	var body []ast.Stmt
	for _, st := range f.Decls[0].(*ast.FuncDecl).Body.List {
		if _, empty := st.(*ast.EmptyStmt); !empty {
			body = append(body, st)
		}
	}
	if len(body) != 1 {
		return false, nil
	}
	as, isAssign := body[0].(*ast.AssignStmt)
	if !isAssign || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return false, nil
	}
	name, isIdent := as.Lhs[0].(*ast.Ident)
	if !isIdent || name.Name == "_" {
		return false, nil
	}
	text := func(n ast.Node) string {
		a, b := fset.Position(n.Pos()).Offset-len(head), fset.Position(n.End()).Offset-len(head)
		return src[a:b]
	}
	rhs := ast.Unparen(as.Rhs[0])
	run := func(code string) *Error {
		prog, err := s.compile(cell, code)
		if err != nil {
			return err
		}
		_, err = s.run(ctx, cell, prog, at)
		return err
	}
	global := func(n string) (reflect.Value, bool) {
		s.mu.Lock()
		it := s.it
		s.mu.Unlock()
		v, ok := globals(it)[n]
		return v, ok && v.IsValid()
	}
	s.mu.Lock()
	s.tmpSeq++
	tmp := fmt.Sprintf("_gobayesValue%d", s.tmpSeq)
	s.mu.Unlock()

	var typ reflect.Type
	var value string
	switch e := rhs.(type) {
	case *ast.IndexExpr:
		base := text(e.X)
		v, isGlobal := reflect.Value{}, false
		if id, ok := e.X.(*ast.Ident); ok {
			v, isGlobal = global(id.Name)
		}
		if !isGlobal {
			if err := run(tmp + " := " + base); err != nil {
				return true, err
			}
			base = tmp
			if v, isGlobal = global(tmp); !isGlobal {
				return false, nil
			}
		}
		typ = elemType(v.Type())
		value = base + "[" + text(e.Index) + "]"
	case *ast.BinaryExpr, *ast.UnaryExpr:
		if err := run(tmp + " := func() interface{} { return " + text(e) + " }()"); err != nil {
			return true, err
		}
		v, isGlobal := global(tmp)
		if !isGlobal {
			return false, nil
		}
		if v.Kind() == reflect.Interface {
			v = v.Elem()
		}
		if !v.IsValid() {
			return false, nil
		}
		typ = v.Type()
		value = tmp // asserted to the type below
	default:
		return false, nil
	}
	if typ == nil {
		return false, nil
	}
	t, known := s.typeSource(typ)
	if !known {
		return false, nil
	}
	if value == tmp {
		value = tmp + ".(" + t + ")"
	}
	if err := run("var " + name.Name + " " + t); err != nil {
		return true, err
	}
	if err := run(name.Name + " = " + value); err != nil {
		return true, err
	}
	if v, ok := global(tmp); ok {
		switch v.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
			_ = run(tmp + " = nil") // let the computed value go
		}
	}
	return true, nil
}

// elemType is the type of an element of a value of type t (an index
// expression's type), nil when t has none.
func elemType(t reflect.Type) reflect.Type {
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return t.Elem()
	case reflect.String:
		return reflect.TypeFor[byte]()
	case reflect.Pointer:
		if t.Elem().Kind() == reflect.Array {
			return t.Elem().Elem()
		}
	}
	return nil
}

// typeSource writes t as the cell would (float64, []string,
// *posterior.Array); known is false when it names a package the cells
// did not import under that name, or is not a type yaegi's cells can
// write (an interpreted type shows as a struct of its fields).
func (s *Session) typeSource(t reflect.Type) (src string, known bool) {
	src = t.String()
	if t.Kind() == reflect.Uint8 && t.PkgPath() == "" {
		src = "byte"
	}
	expr, err := parser.ParseExpr(src)
	if err != nil || strings.Contains(src, "struct {") || strings.Contains(src, "func(") {
		return "", false
	}
	known = true
	s.mu.Lock()
	defer s.mu.Unlock()
	ast.Inspect(expr, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); !ok || s.imports[id.Name] == "" {
				known = false
			}
			return false
		}
		return true
	})
	return src, known
}
