package interp

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/gobayes/gobayes/interp/rewrite"
)

// precheckUndefined reports the first name a statement of the cell uses
// that neither the session nor the cell defines, before anything runs.
func (s *Session) precheckUndefined(cell string, runs []rewrite.Run) *Error {
	s.mu.Lock()
	dot := s.dotImport
	s.mu.Unlock()
	if dot {
		return nil
	}
	declared := map[string]bool{} // by the cell's runs so far
	known := s.knownName(declared)
	for _, r := range runs {
		src := r.Source(cell)
		if r.Kind == rewrite.Stmt {
			if e := undefinedIn(cell, src, known); e != nil {
				return e
			}
		} else if e := undefinedPackageIn(cell, src, known); e != nil {
			return e
		}
		names, dot := declaredNames(src, r.Kind)
		if dot {
			return nil
		}
		for _, n := range names {
			declared[n] = true
		}
	}
	return nil
}

// knownName reports whether a name is defined: in extra, by an earlier
// cell, or in the interpreter (looked up, once, only when the cheaper
// sources do not know the name).
func (s *Session) knownName(extra map[string]bool) func(string) bool {
	var interpreted map[string]reflect.Value
	return func(name string) bool {
		if extra[name] {
			return true
		}
		s.mu.Lock()
		_, def := s.defs[name]
		_, imp := s.imports[name]
		it := s.it
		s.mu.Unlock()
		if def || imp {
			return true
		}
		if interpreted == nil {
			interpreted = globals(it)
		}
		_, ok := interpreted[name]
		return ok
	}
}

// declaredNames lists the names a run declares at the top level (and
// whether it dot-imports a package).
func declaredNames(src string, kind rewrite.Kind) (names []string, dot bool) {
	var f *ast.File
	var err error
	if kind == rewrite.Stmt {
		_, f, err = parseStmtRun(src)
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
			if kind != rewrite.Stmt {
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
func undefinedIn(cell, src string, known func(string) bool) *Error {
	fset, f, err := parseStmtRun(src)
	if err != nil {
		return nil
	}
	for _, id := range f.Unresolved {
		if types.Universe.Lookup(id.Name) != nil || known(id.Name) {
			continue
		}
		p := fset.Position(id.Pos())
		msg := fmt.Sprintf("cell:%d:%d: undefined: %s", cellLine(p.Line), p.Column, id.Name)
		return &Error{Name: "CompileError", Value: msg, Traceback: append([]string{"\x1b[0;31m" + msg + "\x1b[0m"}, quoteLine(cell, cellLine(p.Line), p.Column)...)}
	}
	return nil
}

// undefinedPackageIn reports the first package a declaration run
// qualifies a name with (posterior.Posterior) that is neither imported
// nor otherwise known: yaegi crashes compiling such a declaration instead
// of saying so. (Other names of a declaration may be declared later in
// the cell, as Go allows.)
func undefinedPackageIn(cell, src string, known func(string) bool) *Error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package main;"+src, 0)
	if err != nil {
		return nil
	}
	unresolved := map[*ast.Ident]bool{}
	for _, id := range f.Unresolved {
		unresolved[id] = true
	}
	var bad *ast.Ident
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && bad == nil {
			if id, ok := sel.X.(*ast.Ident); ok && unresolved[id] && types.Universe.Lookup(id.Name) == nil && !known(id.Name) {
				bad = id
			}
		}
		return bad == nil
	})
	if bad == nil {
		return nil
	}
	p := fset.Position(bad.Pos())
	msg := withHint(fmt.Sprintf("cell:%d:%d: undefined: %s", cellLine(p.Line), p.Column, bad.Name))
	return &Error{Name: "CompileError", Value: msg, Traceback: append([]string{"\x1b[0;31m" + msg + "\x1b[0m"}, quoteLine(cell, cellLine(p.Line), p.Column)...)}
}

// undefinedError finds the first name a statement uses that nothing
// defines. It runs before yaegi compiles the statement, since a failed
// compile leaves the names the statement declares without their values,
// and it replaces yaegi's misleading "constant definition loop".
func (s *Session) undefinedError(cell, src string) *Error {
	s.mu.Lock()
	dot := s.dotImport
	s.mu.Unlock()
	if dot {
		return nil // names of a dot-imported package are not tracked
	}
	return undefinedIn(cell, src, s.knownName(nil))
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
			// With the ';' after it on its line (import ("fmt"; "os")):
			// a lone ';' is a missing import path to the parser.
			end := spec.End()
			rest := b[fset.Position(end).Offset-len(prefix):]
			if skip := len(rest) - len(bytes.TrimLeft(rest, " \t")); skip < len(rest) && rest[skip] == ';' {
				end += token.Pos(skip + 1)
			}
			blank(spec.Pos(), end)
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
func (s *Session) record(src string, kind rewrite.Kind) {
	var fset *token.FileSet
	var f *ast.File
	var err error
	if kind == rewrite.Stmt {
		fset, f, err = parseStmtRun(src)
	} else {
		fset = token.NewFileSet()
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
				if kind != rewrite.Stmt {
					s.defSrc[sp.Name.Name] = docPrefix(d.Doc) + "type " + text(sp.Pos(), sp.End())
				}
			}
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if kind == rewrite.Stmt {
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
			} else if d.Recv != nil {
				s.methods[d.Name.Name] = true
				end := d.End()
				if d.Body != nil {
					end = d.Body.Lbrace
				}
				s.methodSrc[d.Name.Name] = docPrefix(d.Doc) + text(d.Pos(), end)
			} else {
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
func typeSource(fset *token.FileSet, src string, sp *ast.TypeSpec, kind rewrite.Kind) string {
	off := len("package main;")
	if kind == rewrite.Stmt {
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
			if had && old != typeSource(fset, src, ts, rewrite.Decl) {
				p := fset.Position(ts.Pos())
				msg := fmt.Sprintf("cell:%d:%d: type %s is already defined with another definition; the interpreter cannot change a type: give the new type another name, or run %%reset and the cells again", cellLine(p.Line), p.Column, ts.Name.Name)
				return &Error{Name: "CompileError", Value: msg, Traceback: append([]string{"\x1b[0;31m" + msg + "\x1b[0m"}, quoteLine(cell, cellLine(p.Line), p.Column)...)}
			}
		}
	}
	return nil
}

// definedNames maps what the cells defined (and imported) to its kind.
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

// stmtParse is the last statement run parsed as the body of a function
// (with object resolution): a cell's precheck, its declared names and its
// record each need that parse of the same source.
var stmtParse struct {
	sync.Mutex
	src  string
	fset *token.FileSet
	f    *ast.File
	err  error
}

// parseStmtRun parses a statement run as the body of main, as
// "package main; func main() {" + src + "\n}". The result is shared:
// callers only read it.
func parseStmtRun(src string) (*token.FileSet, *ast.File, error) {
	stmtParse.Lock()
	defer stmtParse.Unlock()
	if stmtParse.fset != nil && stmtParse.src == src {
		return stmtParse.fset, stmtParse.f, stmtParse.err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package main; func main() {"+src+"\n}", 0)
	stmtParse.src, stmtParse.fset, stmtParse.f, stmtParse.err = src, fset, f, err
	return fset, f, err
}
