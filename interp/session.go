package interp

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"

	yaegi "github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp/symbols"
)

// Options configures a Session. The zero value is ready to use.
type Options struct {
	// Symbols are symbol tables to offer besides the standard library and
	// the tables in interp/symbols (yaegi's Exports shape: import path
	// "/" package name → symbol → value).
	Symbols []map[string]map[string]reflect.Value
	// Env is the environment cells see through os.Getenv; nil means the
	// process's environment.
	Env []string
}

// Session is a yaegi interpreter that keeps its state across cells. It is
// safe for concurrent use: cells run one at a time, and Complete, Inspect
// and IsComplete may run while a cell does.
type Session struct {
	opts Options
	out  *output

	cell sync.Mutex // held while a cell runs

	mu            sync.Mutex // guards the fields below
	it            *yaegi.Interpreter
	imports       map[string]string // local name → import path, as the cells imported them
	defs          map[string]string // identifier defined by a cell → "var", "func", "type", "const"
	types         map[string]string // type name → the source of its definition
	index         *packageIndex     // importable packages when Options.Symbols adds any
	defSrc        map[string]string // func or type name → its declaration (signature and doc), for Inspect
	probeDeclared bool              // renderProbe is declared in it
	funcResults   map[string]int    // cell function → number of results
	dotImport     bool              // a cell imported a package with "."
}

var _ Engine = (*Session)(nil)

// specialStdio must be set before any interpreter exists: with it yaegi
// sends os.Stdout and os.Stderr writes of a cell to the interpreter's
// writers instead of the process's file descriptors.
func init() { os.Setenv("YAEGI_SPECIAL_STDIO", "1") }

// NewSession returns a session with the standard library and the symbol
// tables of interp/symbols importable.
func NewSession(opts Options) (*Session, error) {
	s := &Session{opts: opts, out: &output{}}
	if err := s.reset(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Session) reset() error {
	env := s.opts.Env
	if env == nil {
		env = os.Environ()
	}
	it := yaegi.New(yaegi.Options{
		Stdout: streamWriter{s.out, "stdout"},
		Stderr: streamWriter{s.out, "stderr"},
		Stdin:  strings.NewReader(""),
		Env:    env,
		Args:   []string{"gobayes"},
	})
	if err := it.Use(stdlib.Symbols); err != nil {
		return fmt.Errorf("interp: loading the standard library: %w", err)
	}
	if err := it.Use(symbols.Symbols); err != nil {
		return fmt.Errorf("interp: loading generated symbols: %w", err)
	}
	for _, syms := range s.opts.Symbols {
		if err := it.Use(syms); err != nil {
			return fmt.Errorf("interp: loading symbols: %w", err)
		}
	}
	s.mu.Lock()
	s.it = it
	s.imports = map[string]string{}
	s.defs = map[string]string{}
	s.types = map[string]string{}
	s.defSrc = map[string]string{}
	s.probeDeclared = false
	s.funcResults = map[string]int{}
	s.dotImport = false
	s.mu.Unlock()
	return nil
}

// Reset drops every variable, function, type and import.
func (s *Session) Reset() error {
	s.cell.Lock()
	defer s.cell.Unlock()
	return s.reset()
}

// Close releases the session. A running cell is not stopped; cancel its
// context first.
func (s *Session) Close() error { return nil }

// Execute runs one cell. See Engine.
func (s *Session) Execute(ctx context.Context, code string, ev Events) Result {
	s.cell.Lock()
	defer s.cell.Unlock()
	if ev == nil {
		ev = discardEvents{}
	}
	s.out.setEvents(ev)
	prev := display.SetPublisher(s.out)
	prevCtx := display.SetContext(ctx)
	defer func() {
		s.out.flush()
		display.SetPublisher(prev)
		display.SetContext(prevCtx)
	}()
	return s.executeMagic(ctx, code)
}

// Evaluate computes one expression (user_expressions). Printed output is
// dropped.
func (s *Session) Evaluate(ctx context.Context, expr string) (display.Bundle, *Error) {
	if _, err := parser.ParseExpr(expr); err != nil {
		return display.Bundle{}, &Error{Name: "SyntaxError", Value: "interp: not an expression: " + err.Error()}
	}
	s.cell.Lock()
	defer s.cell.Unlock()
	s.out.setEvents(discardEvents{})
	defer s.out.setEvents(nil)
	r := s.execute(ctx, expr)
	if r.Err != nil {
		return display.Bundle{}, r.Err
	}
	if r.Value == nil {
		return display.Render(nil), nil
	}
	return *r.Value, nil
}

// execute runs a cell without magics.
func (s *Session) execute(ctx context.Context, code string) Result {
	if err := checkSupported(code); err != nil {
		return Result{Err: err}
	}
	runs := groupRuns(splitCell(code))
	if err := s.precheckUndefined(code, runs); err != nil {
		return Result{Err: err} // nothing runs when a name is undefined
	}
	var res Result
	for i, r := range runs {
		last := i == len(runs)-1
		if r.Kind != kindStmt {
			src := runSource(code, r)
			if r.Kind == kindImport {
				if src = s.dropReimports(src); strings.TrimSpace(src) == "" {
					continue
				}
			}
			if r.Kind == kindDecl {
				if err := s.checkTypeRedefinition(code, src); err != nil {
					return Result{Err: err}
				}
			}
			prog, err := s.compile(code, src)
			if err != nil {
				return Result{Err: err}
			}
			if _, err := s.run(ctx, code, prog, r.Items[0]); err != nil {
				return Result{Err: err}
			}
			s.record(src, r.Kind)
			continue
		}
		// Statements compile and run one by one, as a notebook user expects
		// (what ran before an error keeps its effect), and so that a panic
		// names its statement's line: yaegi reports runtime panics at the
		// start of the code it was given. Compiling one statement ahead
		// would be worse: a failed compile leaves the names the compiled
		// statements declared without values.
		for j, at := range r.Items {
			src := itemSource(code, at)
			if err := s.undefinedError(code, src); err != nil {
				return Result{Err: err}
			}
			prog, err := s.compile(code, src)
			if err != nil {
				return Result{Err: err}
			}
			final := last && j == len(r.Items)-1
			expr := code[at.Start:at.End]
			wantValue := final && isValueExpr(expr, s.importedAs("fmt")) && s.hasValue(expr)
			v, err := s.run(ctx, code, prog, at)
			if err != nil {
				return Result{Err: err}
			}
			s.record(src, kindStmt)
			if wantValue {
				res.Value = renderValue(v)
				if res.Value != nil && s.mayBeCellType(v) {
					s.renderCellType(ctx, expr, res.Value)
				}
			}
		}
	}
	return res
}

// itemSource is one item's text placed as runSource places a run.
func itemSource(cell string, it item) string {
	return runSource(cell, run{Kind: it.Kind, Start: it.Start, End: it.End, Items: []item{it}})
}

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

// compile compiles one run or item, mapping errors to cell lines.
func (s *Session) compile(cell, src string) (*yaegi.Program, *Error) {
	s.mu.Lock()
	it := s.it
	s.mu.Unlock()
	prog, err := compile(it, src)
	if err == nil {
		return prog, nil
	}
	if strings.Contains(err.Error(), "constant definition loop") {
		// yaegi's message for an undefined name in a statement.
		if e := s.undefinedError(cell, src); e != nil {
			return nil, e
		}
	}
	if strings.Contains(err.Error(), "cannot compile this cell") && strings.Contains(src, "range") {
		const msg = "interp: the interpreter cannot compile this cell; if it ranges over an integer (for i := range n) write for i := 0; i < n; i++ { ... }, and over a function (Go 1.23 iterators) call the function with a callback instead"
		return nil, &Error{Name: "UnsupportedSyntax", Value: msg, Traceback: []string{msg}}
	}
	return nil, compileError(cell, err)
}

// run executes a compiled run or item; a panic is reported at the
// position of the item it happened in (yaegi's own position for the
// top-level frame is the start of the code) and of the cell functions it
// went through.
func (s *Session) run(ctx context.Context, cell string, prog *yaegi.Program, at item) (reflect.Value, *Error) {
	s.mu.Lock()
	it := s.it
	s.mu.Unlock()
	s.out.takeFrames()
	v, err := it.ExecuteWithContext(ctx, prog)
	if err == nil {
		return v, nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return v, &Error{Name: "Interrupted", Value: "interp: the cell was interrupted; variables keep the values they had when it stopped",
			Traceback: []string{"Interrupted: the cell was interrupted"}}
	}
	var p yaegi.Panic
	if errors.As(err, &p) {
		line := 1 + strings.Count(cell[:at.Start], "\n")
		col := at.Start - (strings.LastIndex(cell[:at.Start], "\n") + 1) + 1
		return v, panicError(cell, p.Value, s.out.takeFrames(), line, col)
	}
	return v, compileError(cell, err)
}

// globals is it.Globals(), which panics after a failed compile defined
// names it never ran (their frame slots do not exist yet); then it is empty.
func globals(it *yaegi.Interpreter) (g map[string]reflect.Value) {
	defer func() {
		if recover() != nil {
			g = map[string]reflect.Value{}
		}
	}()
	return it.Globals()
}

// compile runs yaegi's compiler, turning a panic inside yaegi (it has a few
// on syntax it does not support) into an error.
func compile(it *yaegi.Interpreter, src string) (prog *yaegi.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the interpreter cannot compile this cell (%v); it may use syntax yaegi does not support (generics with several type parameters, range over an int or a function)", r)
			_ = debug.Stack
		}
	}()
	return it.Compile(src)
}

// renderValue renders the value of a final expression; nil and invalid
// values give no result.
func renderValue(v reflect.Value) *display.Bundle {
	if !v.IsValid() || !v.CanInterface() {
		return nil
	}
	if v.Type() == voidType {
		return nil // yaegi's result for a call of a function without results
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
		if v.IsNil() {
			return nil
		}
	}
	x := v.Interface()
	if x == nil {
		return nil
	}
	b := display.Render(x)
	return &b
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

// precheckUndefined reports the first name a statement of the cell uses
// that neither the session nor the cell defines, before anything runs.
func (s *Session) precheckUndefined(cell string, runs []run) *Error {
	s.mu.Lock()
	if s.dotImport {
		s.mu.Unlock()
		return nil
	}
	known := map[string]bool{}
	for k := range s.defs {
		known[k] = true
	}
	for k := range s.imports {
		known[k] = true
	}
	it := s.it
	s.mu.Unlock()
	for k := range globals(it) {
		known[k] = true
	}
	for _, r := range runs {
		src := runSource(cell, r)
		if r.Kind == kindStmt {
			if e := undefinedIn(cell, src, known); e != nil {
				return e
			}
		}
		names, dot := declaredNames(src, r.Kind)
		if dot {
			return nil
		}
		for _, n := range names {
			known[n] = true
		}
	}
	return nil
}

// declaredNames lists the names a run declares at the top level (and
// whether it dot-imports a package).
func declaredNames(src string, kind itemKind) (names []string, dot bool) {
	var f *ast.File
	var err error
	if kind == kindStmt {
		f, err = parser.ParseFile(token.NewFileSet(), "", "package main; func main() {"+src+"\n}", parser.SkipObjectResolution)
	} else {
		f, err = parser.ParseFile(token.NewFileSet(), "", "package main;"+src, parser.SkipObjectResolution)
	}
	if err != nil {
		return nil, false
	}
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		if n := importName(spec, path); n == "." {
			dot = true
		} else {
			names = append(names, n)
		}
	}
	gen := func(d *ast.GenDecl) {
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					names = append(names, n.Name)
				}
			case *ast.TypeSpec:
				names = append(names, sp.Name.Name)
			}
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			gen(d)
		case *ast.FuncDecl:
			if kind != kindStmt {
				if d.Recv == nil {
					names = append(names, d.Name.Name)
				}
				continue
			}
			for _, st := range d.Body.List {
				switch st := st.(type) {
				case *ast.AssignStmt:
					if st.Tok == token.DEFINE {
						for _, l := range st.Lhs {
							if id, ok := l.(*ast.Ident); ok {
								names = append(names, id.Name)
							}
						}
					}
				case *ast.DeclStmt:
					if g, ok := st.Decl.(*ast.GenDecl); ok {
						gen(g)
					}
				}
			}
		}
	}
	return names, dot
}

// undefinedIn reports the first identifier of a statement run that the
// parser cannot resolve and that is neither known nor predeclared.
func undefinedIn(cell, src string, known map[string]bool) *Error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package main; func main() {"+src+"\n}", 0)
	if err != nil {
		return nil
	}
	for _, id := range f.Unresolved {
		if known[id.Name] || types.Universe.Lookup(id.Name) != nil {
			continue
		}
		p := fset.Position(id.Pos())
		msg := fmt.Sprintf("cell:%d:%d: undefined: %s", cellLine(p.Line), p.Column, id.Name)
		return &Error{Name: "CompileError", Value: msg, Traceback: append([]string{"\x1b[0;31m" + msg + "\x1b[0m"}, quoteLine(cell, cellLine(p.Line), p.Column)...)}
	}
	return nil
}

// undefinedError finds the first name a statement uses that nothing
// defines. It runs before yaegi compiles the statement, since a failed
// compile leaves the names the statement declares without their values,
// and it replaces yaegi's misleading "constant definition loop".
func (s *Session) undefinedError(cell, src string) *Error {
	s.mu.Lock()
	it, dot := s.it, s.dotImport
	known := map[string]bool{}
	for k := range s.defs {
		known[k] = true
	}
	for k := range s.imports {
		known[k] = true
	}
	s.mu.Unlock()
	if dot {
		return nil // names of a dot-imported package are not tracked
	}
	for k := range globals(it) {
		known[k] = true
	}
	return undefinedIn(cell, src, known)
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

// dropReimports blanks out import specs the session already has under the
// same name, since yaegi rejects a second import of a package; a
// declaration whose specs are all known is blanked whole. Blanking (rather
// than deleting) keeps every other position in place.
func (s *Session) dropReimports(src string) string {
	const prefix = "package main;"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", prefix+src, parser.ImportsOnly)
	if err != nil {
		return src // let yaegi report the syntax error
	}
	b := []byte(src)
	blank := func(from, to token.Pos) {
		for i := fset.Position(from).Offset - len(prefix); i < fset.Position(to).Offset-len(prefix); i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		var known []*ast.ImportSpec
		for _, sp := range g.Specs {
			spec := sp.(*ast.ImportSpec)
			path, _ := strconv.Unquote(spec.Path.Value)
			if s.imports[importName(spec, path)] == path {
				known = append(known, spec)
			}
		}
		if len(known) == len(g.Specs) {
			blank(g.Pos(), g.End())
			continue
		}
		for _, spec := range known {
			blank(spec.Pos(), spec.End())
		}
	}
	return string(b)
}

func importName(spec *ast.ImportSpec, path string) string {
	if spec.Name != nil {
		return spec.Name.Name
	}
	return path[strings.LastIndex(path, "/")+1:]
}

// record notes the names a run defined and imported, for completion.
func (s *Session) record(src string, kind itemKind) {
	fset := token.NewFileSet()
	var f *ast.File
	var err error
	if kind == kindStmt {
		f, err = parser.ParseFile(fset, "", "package main; func main() {"+src+"\n}", 0)
	} else {
		f, err = parser.ParseFile(fset, "", "package main;"+src, parser.ParseComments)
	}
	if err != nil {
		return
	}
	text := func(from, to token.Pos) string {
		off := len("package main;")
		a, b := fset.Position(from).Offset-off, fset.Position(to).Offset-off
		if a < 0 || b > len(src) || a > b {
			return ""
		}
		return strings.TrimSpace(src[a:b])
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		switch name := importName(spec, path); name {
		case "_":
		case ".":
			s.dotImport = true
		default:
			s.imports[name] = path
		}
	}
	addGen := func(d *ast.GenDecl) {
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					s.defs[n.Name] = d.Tok.String()
				}
			case *ast.TypeSpec:
				s.defs[sp.Name.Name] = "type"
				s.types[sp.Name.Name] = typeSource(fset, src, sp, kind)
				if kind != kindStmt {
					s.defSrc[sp.Name.Name] = docPrefix(d.Doc) + "type " + text(sp.Pos(), sp.End())
				}
			}
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if kind == kindStmt {
				for _, st := range d.Body.List {
					switch st := st.(type) {
					case *ast.AssignStmt:
						if st.Tok == token.DEFINE {
							for _, l := range st.Lhs {
								if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
									s.defs[id.Name] = "var"
								}
							}
						}
					case *ast.DeclStmt:
						if g, ok := st.Decl.(*ast.GenDecl); ok {
							addGen(g)
						}
					}
				}
			} else if d.Recv == nil {
				s.defs[d.Name.Name] = "func"
				end := d.End()
				if d.Body != nil {
					end = d.Body.Lbrace
				}
				s.defSrc[d.Name.Name] = docPrefix(d.Doc) + text(d.Pos(), end)
				s.funcResults[d.Name.Name] = d.Type.Results.NumFields()
			}
		case *ast.GenDecl:
			addGen(d)
		}
	}
}

// docPrefix is a declaration's doc comment as comment lines.
func docPrefix(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(g.Text()), "\n") {
		b.WriteString("// " + line + "\n")
	}
	return b.String()
}

// typeSource is the text of a type spec, white space normalised.
func typeSource(fset *token.FileSet, src string, sp *ast.TypeSpec, kind itemKind) string {
	off := len("package main;")
	if kind == kindStmt {
		off = len("package main; func main() {")
	}
	from, to := fset.Position(sp.Pos()).Offset-off, fset.Position(sp.End()).Offset-off
	if from < 0 || to > len(src) {
		return ""
	}
	return strings.Join(strings.Fields(src[from:to]), " ")
}

// checkTypeRedefinition refuses a type defined again with a different
// definition: yaegi would silently keep the old one.
func (s *Session) checkTypeRedefinition(cell, src string) *Error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package main;"+src, 0)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, sp := range g.Specs {
			ts := sp.(*ast.TypeSpec)
			old, had := s.types[ts.Name.Name]
			if had && old != typeSource(fset, src, ts, kindDecl) {
				p := fset.Position(ts.Pos())
				msg := fmt.Sprintf("cell:%d:%d: type %s is already defined with another definition; the interpreter cannot change a type: give the new type another name, or run %%reset and the cells again", cellLine(p.Line), p.Column, ts.Name.Name)
				return &Error{Name: "CompileError", Value: msg, Traceback: append([]string{"\x1b[0;31m" + msg + "\x1b[0m"}, quoteLine(cell, cellLine(p.Line), p.Column)...)}
			}
		}
	}
	return nil
}

// definedNames lists what the cells defined, sorted.
func (s *Session) definedNames() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(s.defs)+len(s.imports))
	for k, v := range s.defs {
		out[k] = v
	}
	for k := range s.imports {
		out[k] = "package"
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// discardEvents drops what a cell produces.
type discardEvents struct{}

func (discardEvents) Stream(string, string)                {}
func (discardEvents) Display(display.Bundle, string, bool) {}
func (discardEvents) Clear(bool)                           {}
