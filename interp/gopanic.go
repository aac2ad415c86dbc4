package interp

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"
)

// goPanic gives a panic that yaegi raised through package reflect the
// message Go itself would have printed: "runtime error: index out of
// range [5] with length 1" for reflect's "slice index out of range" (with
// the index and length where the statement's index expressions are names
// and literals the session can read), and "runtime error: invalid memory
// address or nil pointer dereference" for a field or element read through
// nil. Other values pass unchanged.
func goPanic(value any, stmt string, globals func() map[string]reflect.Value) any {
	msg := fmt.Sprint(value)
	if err, ok := value.(error); ok {
		msg = err.Error()
	}
	switch {
	case strings.HasPrefix(msg, "reflect: ") && strings.HasSuffix(msg, "index out of range"):
		if m := indexMessage(stmt, globals()); m != "" {
			return m
		}
		return "runtime error: index out of range (an index is outside its slice, array or string)"
	case strings.HasPrefix(msg, "reflect: call of reflect.Value.") && strings.HasSuffix(msg, "on zero Value"):
		return "runtime error: invalid memory address or nil pointer dereference"
	}
	return value
}

// indexMessage finds, among the index expressions of stmt, one whose
// operand and index the session can read without running anything (names
// and integer literals) and whose index is out of range: Go's message for
// it, or "" when none is found.
func indexMessage(stmt string, g map[string]reflect.Value) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package main; func main() {"+stmt+"\n}", 0)
	if err != nil {
		return ""
	}
	var value func(e ast.Expr) (reflect.Value, bool)
	value = func(e ast.Expr) (reflect.Value, bool) {
		switch x := e.(type) {
		case *ast.Ident:
			v, ok := g[x.Name]
			for ok && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && !v.IsNil() {
				v = v.Elem()
			}
			return v, ok && v.IsValid()
		case *ast.BasicLit:
			if x.Kind == token.INT {
				if n, err := strconv.ParseInt(x.Value, 0, 64); err == nil {
					return reflect.ValueOf(n), true
				}
			}
		case *ast.ParenExpr:
			return value(x.X)
		}
		return reflect.Value{}, false
	}
	var out string
	ast.Inspect(f, func(n ast.Node) bool {
		ix, ok := n.(*ast.IndexExpr)
		if !ok || out != "" {
			return out == ""
		}
		x, okX := value(ix.X)
		i, okI := value(ix.Index)
		if !okX || !okI || !i.CanInt() {
			return true
		}
		switch x.Kind() {
		case reflect.Slice, reflect.Array, reflect.String:
			if k := i.Int(); k < 0 || k >= int64(x.Len()) {
				out = fmt.Sprintf("runtime error: index out of range [%d] with length %d", k, x.Len())
			}
		}
		return true
	})
	return out
}
