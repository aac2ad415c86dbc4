package interp

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"html"
	"reflect"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp/rewrite"
)

// hasValue reports whether an expression statement yields a value: a call
// of a function without results does not (yaegi then returns whatever its
// frame held), which a trial compile of "_ = expr" tells.
func (s *Session) hasValue(expr string) bool {
	e, err := parser.ParseExpr(expr)
	if err != nil {
		return false
	}
	call, isCall := ast.Unparen(e).(*ast.CallExpr)
	if !isCall {
		return true
	}
	if n, known := s.resultCount(call.Fun); known {
		return n > 0
	}
	s.mu.Lock()
	it := s.it
	s.mu.Unlock()
	_, err = compile(it, "_ = "+expr)
	return err == nil || strings.Contains(err.Error(), "mismatch")
}

// builtinResults is the number of results of Go's builtin functions.
var builtinResults = map[string]int{
	"append": 1, "cap": 1, "complex": 1, "imag": 1, "len": 1, "make": 1, "new": 1, "real": 1, "recover": 1,
	"close": 0, "copy": 1, "delete": 0, "panic": 0, "print": 0, "println": 0,
}

// resultCount is the number of results of the function fun names, when
// it is a compiled package's function, a cell's function or a method of a
// session variable's compiled type.
func (s *Session) resultCount(fun ast.Expr) (n int, known bool) {
	s.mu.Lock()
	imports, it := s.imports, s.it
	cellFunc, isCellFunc := -1, false
	if id, ok := fun.(*ast.Ident); ok {
		cellFunc, isCellFunc = s.funcResults[id.Name]
	}
	var pkgPath string
	var sel *ast.SelectorExpr
	if x, ok := fun.(*ast.SelectorExpr); ok {
		sel = x
		if id, ok := x.X.(*ast.Ident); ok {
			pkgPath = imports[id.Name]
		}
	}
	s.mu.Unlock()
	if isCellFunc {
		return cellFunc, true
	}
	if id, ok := fun.(*ast.Ident); ok {
		if n, ok := builtinResults[id.Name]; ok {
			return n, true
		}
		// A variable holding a function.
		if v, ok := globals(it)[id.Name]; ok && v.IsValid() && v.Kind() == reflect.Func {
			return v.Type().NumOut(), true
		}
	}
	if sel == nil {
		return 0, false
	}
	if pkgPath != "" {
		if f, ok := s.importable().byPath[pkgPath][sel.Sel.Name]; ok && f.Kind() == reflect.Func {
			return f.Type().NumOut(), true
		}
		return 0, false
	}
	if id, ok := sel.X.(*ast.Ident); ok {
		if v, ok := globals(it)[id.Name]; ok && v.IsValid() {
			if m, ok := v.Type().MethodByName(sel.Sel.Name); ok {
				return m.Type.NumOut(), true
			}
			if m, ok := reflect.PointerTo(v.Type()).MethodByName(sel.Sel.Name); ok {
				return m.Type.NumOut(), true
			}
		}
	}
	return 0, false
}

// renderValue renders the value of a final expression; nil and invalid
// values give no result. A value whose renderer fails (see
// display.RenderStrict) gives the error.
func renderValue(v reflect.Value) (*display.Bundle, error) {
	if !v.IsValid() || !v.CanInterface() {
		return nil, nil
	}
	if v.Type() == voidType {
		return nil, nil // yaegi's result for a call of a function without results
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
		if v.IsNil() {
			return nil, nil
		}
	}
	x := v.Interface()
	if x == nil {
		return nil, nil
	}
	stop := noteSlowRender(x)
	b, err := display.RenderStrict(x)
	stop()
	if err != nil {
		return nil, err
	}
	if m, ok := x.(mat.Matrix); ok {
		if _, rich := b.Data[display.MIMEHTML]; !rich {
			renderMatrix(m, &b)
		}
	}
	return &b, nil
}

// slowRender is how long rendering a cell's value may run before the
// cell says what it is doing (a variable so that tests can shorten it).
var slowRender = time.Second

// noteSlowRender shows, once rendering x has taken slowRender, a line
// saying what it does (x's display.Preparer words, or its type), and
// returns the function to call when rendering ends, which turns that line
// into how long it took. A fast render shows nothing.
func noteSlowRender(x any) (stop func()) {
	what := fmt.Sprintf("preparing the display of the cell's value (%T)", x)
	if p, ok := x.(display.Preparer); ok {
		what = p.Preparing()
	}
	start := time.Now()
	var mu sync.Mutex
	var h *display.Handle
	ended := false
	timer := time.AfterFunc(slowRender, func() {
		mu.Lock()
		defer mu.Unlock()
		if !ended {
			h = display.NewHandle()
			h.Show(renderNote(what + " …"))
		}
	})
	return func() {
		timer.Stop()
		mu.Lock()
		defer mu.Unlock()
		ended = true
		if h != nil {
			h.Update(renderNote(fmt.Sprintf("%s: done in %.1f s", what, time.Since(start).Seconds())))
		}
	}
}

// renderNote is the bundle of the line noteSlowRender shows.
func renderNote(s string) display.Bundle {
	return display.Bundle{Data: map[string]any{display.MIMEText: s, display.MIMEHTML: `<span style="color:#666">` + html.EscapeString(s) + "</span>"}, Metadata: map[string]any{}}
}

// displayError is the cell's error when its final value, the expression at
// item at, cannot be rendered: the renderer's own message, which names the
// package and what is wrong, at the expression's cell line.
func displayError(cell string, at rewrite.Item, err error) *Error {
	line, col := at.Pos(cell)
	msg := err.Error()
	tb := []string{"\x1b[0;31mDisplayError: " + msg + "\x1b[0m", fmt.Sprintf("  showing the value of the cell's last line, cell:%d:%d", line, col)}
	return &Error{Name: "DisplayError", Value: msg, Traceback: append(tb, quoteLine(cell, line, col)...)}
}

var voidType = reflect.TypeOf((*any)(nil))

// mayBeCellType reports whether v may be of a type a cell defined: yaegi
// builds such types with reflect, without their methods.
func (s *Session) mayBeCellType(v reflect.Value) bool {
	s.mu.Lock()
	n := len(s.types)
	s.mu.Unlock()
	t := v.Type()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return n > 0 && t.PkgPath() == "" && v.Type().NumMethod() == 0
}

// renderProbe asks the interpreter which render methods the value of an
// expression has, since yaegi's reflection does not show methods of types
// defined in cells. It is declared once per interpreter. (yaegi v0.16
// mishandles "x, ok := v.(T)" on such values, type switches in function
// literals, and checks a type switch's cases against the argument's type
// when it compiles a call, so each method has its own function, and a call
// that does not compile means the method is absent.)
const renderProbe = `func _gobayesHTML(v interface{}) (s string) { switch x := v.(type) { case interface{ HTML() string }: s = x.HTML() }; return }
func _gobayesMarkdown(v interface{}) (s string) { switch x := v.(type) { case interface{ Markdown() string }: s = x.Markdown() }; return }
func _gobayesSVG(v interface{}) (s string) { switch x := v.(type) { case interface{ SVG() string }: s = x.SVG() }; return }
func _gobayesString(v interface{}) (s string) { switch x := v.(type) { case interface{ String() string }: s = x.String() }; return }`

// probes are the functions of renderProbe and the MIME type each gives.
var probes = []struct{ fn, mime string }{
	{"_gobayesHTML", display.MIMEHTML},
	{"_gobayesMarkdown", display.MIMEMarkdown},
	{"_gobayesSVG", display.MIMESVG},
	{"_gobayesString", display.MIMEText},
}

// renderCellType adds the representations a cell-defined type's methods
// give to b. The expression is evaluated a second time, so only
// expressions without calls or channel receives are probed.
func (s *Session) renderCellType(ctx context.Context, expr string, b *display.Bundle) {
	e, err := parser.ParseExpr(expr)
	if err != nil {
		return
	}
	pure := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr, *ast.FuncLit:
			pure = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				pure = false
			}
		}
		return pure
	})
	if !pure {
		return
	}
	s.mu.Lock()
	it, declared := s.it, s.probeDeclared
	s.mu.Unlock()
	if !declared {
		if _, err := it.Eval(renderProbe); err != nil {
			return
		}
		s.mu.Lock()
		s.probeDeclared = true
		s.mu.Unlock()
	}
	for _, p := range probes {
		prog, err := compile(it, p.fn+"("+expr+")")
		if err != nil {
			continue
		}
		v, err := it.ExecuteWithContext(ctx, prog)
		if err != nil || !v.IsValid() || v.Kind() != reflect.String || v.String() == "" {
			continue
		}
		b.Data[p.mime] = v.String()
	}
}

// isValueExpr reports whether the last item of a cell is an expression
// whose value the cell shows: not a call of fmt's Print functions, whose
// byte counts nobody wants to see.
func isValueExpr(text, fmtName string) bool {
	e, err := parser.ParseExpr(text)
	if err != nil {
		return false
	}
	if call, ok := e.(*ast.CallExpr); ok {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && fmtName != "" && id.Name == fmtName &&
				(strings.HasPrefix(sel.Sel.Name, "Print") || strings.HasPrefix(sel.Sel.Name, "Fprint")) {
				return false
			}
		}
	}
	return true
}

func (s *Session) importedAs(path string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, p := range s.imports {
		if p == path {
			return name
		}
	}
	return ""
}

// shownVar holds the value of a display.Show call's argument while the
// session renders it.
const shownVar = "_gobayesShown"

// showCall reports whether a statement is display.Show(x) (under the name
// the cells imported display as) and returns x's text.
func (s *Session) showCall(stmt string) (arg string, ok bool) {
	name := s.importedAs("github.com/gobayes/gobayes/display")
	if name == "" || !strings.Contains(stmt, name+".Show") {
		return "", false
	}
	e, err := parser.ParseExpr(stmt)
	if err != nil {
		return "", false
	}
	call, isCall := e.(*ast.CallExpr)
	if !isCall || len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return "", false
	}
	sel, isSel := call.Fun.(*ast.SelectorExpr)
	if !isSel || sel.Sel.Name != "Show" {
		return "", false
	}
	if id, isIdent := sel.X.(*ast.Ident); !isIdent || id.Name != name {
		return "", false
	}
	return stmt[call.Args[0].Pos()-1 : call.Args[0].End()-1], true
}

// show runs display.Show(arg) for a type defined in a cell as well as for
// compiled ones: compiled code cannot see the methods of cell types, so
// the value is kept in shownVar and rendered as a final value is.
// It reports false, having run nothing, when the argument cannot be held
// in a variable (an untyped nil, say); the call then runs as written.
func (s *Session) show(ctx context.Context, cell string, at rewrite.Item, arg string) (bool, *Error) {
	prog, err := s.compile(cell, rewrite.StmtAt(cell, at, shownVar+" := "+arg))
	if err != nil {
		return false, nil
	}
	if _, err := s.run(ctx, cell, prog, at); err != nil {
		return true, err
	}
	s.mu.Lock()
	it := s.it
	s.mu.Unlock()
	v := globals(it)[shownVar]
	if v.IsValid() && v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	b, rerr := renderValue(v)
	if rerr != nil {
		display.ShowError(rerr)
		return true, nil
	}
	if b == nil {
		b = &display.Bundle{Data: map[string]any{display.MIMEText: "<nil>"}, Metadata: map[string]any{}}
	} else if s.mayBeCellType(v) {
		s.renderCellType(ctx, shownVar, b)
	}
	display.Publish(*b)
	return true, nil
}
