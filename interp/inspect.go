package interp

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp/symbols"
)

var (
	docsOnce sync.Once
	docs     symbols.DocIndex
	docsErr  error
)

// docIndex decodes the embedded documentation index once.
func docIndex() (symbols.DocIndex, error) {
	docsOnce.Do(func() { docs, docsErr = symbols.LoadDocIndex() })
	return docs, docsErr
}

// PreloadDocs decodes the documentation index that Inspect and %doc read
// (about 0.1 s), so that the first of them does not wait for it; a worker
// process calls it in the background as it starts.
func PreloadDocs() { _, _ = docIndex() }

// Inspect returns documentation for the name at cursor (or the function
// whose call the cursor is in, right after its "("). See Engine.
func (s *Session) Inspect(code string, cursor int, detail int) (b display.Bundle, found bool) {
	defer func() {
		// Reflection on interpreter values can panic in ways yaegi does
		// not document; no documentation beats a dead kernel.
		if recover() != nil {
			b, found = display.Bundle{}, false
		}
	}()
	name := dottedNameAt(code, byteOffset(code, cursor))
	if name == "" {
		return display.Bundle{}, false
	}
	return s.inspectName(name, detail)
}

// dottedNameAt returns the dotted identifier (a, a.b, a.b.c) around off.
func dottedNameAt(code string, off int) string {
	isPart := func(r rune) bool { return isIdentRune(r) || r == '.' }
	// Right after "name(" (or "name( "), document name.
	back := strings.TrimRight(code[:off], " \t")
	if strings.HasSuffix(back, "(") && (off == len(code) || !isIdentRune(firstRune(code[off:]))) {
		off = len(back) - 1
	}
	start := off
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(code[:start])
		if !isPart(r) {
			break
		}
		start -= size
	}
	end := off
	for end < len(code) {
		r, size := utf8.DecodeRuneInString(code[end:])
		if !isIdentRune(r) {
			break
		}
		end += size
	}
	return strings.Trim(code[start:end], ".")
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// inspectName documents a (possibly qualified) name: a session variable's
// type and value, a cell's function or type, a package or its member.
func (s *Session) inspectName(name string, detail int) (display.Bundle, bool) {
	parts := strings.Split(name, ".")
	s.mu.Lock()
	kind, isDef := s.defs[parts[0]]
	src := s.defSrc[parts[0]]
	importPath, isImport := s.imports[parts[0]]
	it := s.it
	s.mu.Unlock()

	if isDef && (kind == "var" || kind == "const") {
		v, ok := globals(it)[parts[0]]
		if !ok {
			return display.Bundle{}, false
		}
		if len(parts) == 1 {
			return textBundle(describeValue(parts[0], v)), true
		}
		if b, ok := s.memberDoc(v, parts[1]); ok {
			return b, true
		}
		// A method declared in a cell, which reflection does not show.
		s.mu.Lock()
		src, ok := s.methodSrc[parts[1]]
		s.mu.Unlock()
		if ok {
			for _, m := range s.cellMethodsOf(parts[0]) {
				if m == parts[1] {
					return textBundle(src), true
				}
			}
		}
		return display.Bundle{}, false
	}
	if isDef && len(parts) == 1 && src != "" {
		return textBundle(src), true
	}
	var paths []string
	if isImport {
		paths = []string{importPath}
	} else {
		paths = s.importable().byName[parts[0]]
	}
	idx, err := docIndex()
	if err != nil {
		return textBundle(err.Error()), true
	}
	var out []string
	for _, p := range paths {
		pkg, ok := idx[p]
		if !ok {
			continue
		}
		switch len(parts) {
		case 1:
			text := fmt.Sprintf("package %s // import %q\n\n%s", pkg.Name, p, pkg.Doc)
			if detail == 0 {
				text = fmt.Sprintf("package %s // import %q\n\n%s", pkg.Name, p, firstParagraph(pkg.Doc))
			}
			out = append(out, text)
		case 2, 3:
			if e, ok := pkg.Entries[strings.Join(parts[1:], ".")]; ok {
				out = append(out, entryText(p, e))
			} else if len(parts) == 2 {
				out = append(out, methodsNamed(parts[0], p, pkg, parts[1])...)
			}
		}
	}
	if len(out) == 0 && len(parts) == 1 && !isDef {
		// A predeclared identifier: len, append, error, ...
		if e, ok := idx["builtin"].Entries[parts[0]]; ok {
			out = append(out, entryText("builtin", e))
		}
	}
	if len(out) == 0 {
		return display.Bundle{}, false
	}
	return textBundle(strings.Join(out, "\n\n")), true
}

// maxMethodsShown bounds the methods methodsNamed lists for one name
// (Reset, String: many types have one).
const maxMethodsShown = 4

// methodsNamed documents the methods called name of pkg's exported types,
// for a name that is not one of pkg's own (ppl.HalfCauchy is the method
// Model.HalfCauchy), each saying how it is called. local is the name the
// cell knows the package by.
func methodsNamed(local, path string, pkg symbols.DocPackage, name string) []string {
	var keys []string
	for k := range pkg.Entries {
		if typ, method, ok := strings.Cut(k, "."); ok && method == name && typ != "" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []string
	for i, k := range keys {
		if i == maxMethodsShown {
			out = append(out, fmt.Sprintf("(and %d more methods called %s)", len(keys)-i, name))
			break
		}
		e := pkg.Entries[k]
		typ, _, _ := strings.Cut(k, ".")
		recv, star := receiverOf(e.Decl)
		if recv == "" || recv == "_" {
			recv = strings.ToLower(typ[:1])
		}
		t := star + local + "." + typ
		hint := fmt.Sprintf("%s.%s is not a name in package %s: %s is a method of %s; call it on a %s %s, as %s.%s(...)",
			local, name, local, name, t, t, recv, recv, name)
		out = append(out, hint+"\n\n"+entryText(path, e))
	}
	return out
}

// receiverOf is the receiver's name and "*" for a pointer receiver in a
// method's declaration ("func (m *Model) HalfCauchy(...)" gives "m", "*").
func receiverOf(decl string) (name, star string) {
	rest, ok := strings.CutPrefix(decl, "func (")
	if !ok {
		return "", ""
	}
	recv, _, ok := strings.Cut(rest, ")")
	f := strings.Fields(recv)
	if !ok || len(f) == 0 {
		return "", ""
	}
	if len(f) == 2 {
		name = f[0]
	}
	if strings.HasPrefix(f[len(f)-1], "*") {
		star = "*"
	}
	return name, star
}

// memberDoc documents a field or method of a session variable: from the
// index when its type comes from a compiled package, else its Go type.
func (s *Session) memberDoc(v reflect.Value, member string) (display.Bundle, bool) {
	if !v.IsValid() {
		return display.Bundle{}, false
	}
	t := v.Type()
	if v.Kind() == reflect.Interface && !v.IsNil() {
		t = v.Elem().Type()
	}
	base := t
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	if base.PkgPath() != "" && base.Name() != "" {
		if idx, err := docIndex(); err == nil {
			if e, ok := idx[base.PkgPath()].Entries[base.Name()+"."+member]; ok {
				return textBundle(entryText(base.PkgPath(), e)), true
			}
		}
	}
	if m, ok := t.MethodByName(member); ok {
		return textBundle(fmt.Sprintf("method %s.%s %s", t, member, m.Type)), true
	}
	if base.Kind() == reflect.Struct {
		if f, ok := base.FieldByName(member); ok {
			return textBundle(fmt.Sprintf("field %s %s", f.Name, f.Type)), true
		}
	}
	return display.Bundle{}, false
}

func entryText(importPath string, e symbols.DocEntry) string {
	text := e.Decl
	if e.Doc != "" {
		text += "\n\n" + strings.TrimSpace(e.Doc)
	}
	return text + "\n\n(package " + importPath + ")"
}

// describeValue is the type and value of a session variable.
func describeValue(name string, v reflect.Value) string {
	if !v.IsValid() {
		return name + ": no value"
	}
	typ := v.Type().String()
	var val string
	if v.CanInterface() {
		val = display.Text(v.Interface())
	}
	const maxValue = 2000
	if len(val) > maxValue {
		val = val[:maxValue] + "…"
	}
	return fmt.Sprintf("%s: %s\nvalue: %s", name, typ, val)
}

func firstParagraph(doc string) string {
	if i := strings.Index(doc, "\n\n"); i >= 0 {
		return doc[:i]
	}
	return doc
}

func textBundle(text string) display.Bundle {
	return display.Bundle{Data: map[string]any{display.MIMEText: text}, Metadata: map[string]any{}}
}
