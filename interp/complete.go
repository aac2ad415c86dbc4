package interp

import (
	"go/scanner"
	"go/token"
	"path"
	"reflect"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/traefik/yaegi/stdlib"

	"github.com/gobayes/gobayes/interp/rewrite"
	"github.com/gobayes/gobayes/interp/symbols"
)

// packageIndex knows every package a cell can import.
type packageIndex struct {
	byPath map[string]map[string]reflect.Value // import path → exported symbols
	byName map[string][]string                 // package name → import paths
}

var (
	stdIndexOnce sync.Once
	stdIndex     *packageIndex
)

// importable is the index of the standard library and interp/symbols plus
// the session's own extra tables.
func (s *Session) importable() *packageIndex {
	stdIndexOnce.Do(func() {
		stdIndex = newPackageIndex(stdlib.Symbols, symbols.Symbols)
	})
	if len(s.opts.Symbols) == 0 {
		return stdIndex
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.index == nil {
		all := []map[string]map[string]reflect.Value{stdlib.Symbols, symbols.Symbols}
		s.index = newPackageIndex(append(all, s.opts.Symbols...)...)
	}
	return s.index
}

func newPackageIndex(tables ...map[string]map[string]reflect.Value) *packageIndex {
	idx := &packageIndex{byPath: map[string]map[string]reflect.Value{}, byName: map[string][]string{}}
	for _, t := range tables {
		for key, syms := range t {
			dir, name := path.Split(key)
			dir = strings.TrimSuffix(dir, "/")
			if dir == "" || dir == "." || strings.Contains(dir, "internal") || strings.HasPrefix(dir, "github.com/traefik/yaegi") {
				continue
			}
			if _, seen := idx.byPath[dir]; !seen {
				idx.byName[name] = append(idx.byName[name], dir)
			}
			idx.byPath[dir] = syms
		}
	}
	for _, paths := range idx.byName {
		sort.Strings(paths)
	}
	return idx
}

// members lists the exported names of the package a cell calls name:
// the package it imported under that name, or else every importable
// package with that name.
func (s *Session) members(name string) []string {
	idx := s.importable()
	var paths []string
	s.mu.Lock()
	if p, ok := s.imports[name]; ok {
		paths = []string{p}
	}
	s.mu.Unlock()
	if paths == nil {
		paths = idx.byName[name]
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		for sym := range idx.byPath[p] {
			if !seen[sym] && token.IsExported(sym) {
				seen[sym] = true
				out = append(out, sym)
			}
		}
	}
	return out
}

// goKeywords and goBuiltins complete bare identifiers.
var goKeywords = []string{"break", "case", "chan", "const", "continue", "default", "defer", "else",
	"fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
	"return", "select", "struct", "switch", "type", "var"}

// min, max and clear (Go 1.21) are left out: yaegi v0.16 lacks them.
var goBuiltins = []string{"any", "append", "bool", "byte", "cap", "close", "complex", "complex128",
	"complex64", "copy", "delete", "error", "false", "float32", "float64", "imag", "int", "int16", "int32",
	"int64", "int8", "iota", "len", "make", "new", "nil", "panic", "print", "println", "real",
	"recover", "rune", "string", "true", "uint", "uint16", "uint32", "uint64", "uint8", "uintptr"}

// Complete returns completions for the identifier before cursor (a count
// of code points): names the cells defined, imported packages, keywords
// and builtins; after "pkg." the package's members; after "x." the
// fields and methods of x's value; inside an import path, import paths.
func (s *Session) Complete(code string, cursor int) (c Completion) {
	defer func() {
		// As in Inspect: reflection on interpreter values may panic.
		if recover() != nil {
			c = Completion{Start: cursor, End: cursor}
		}
	}()
	off := byteOffset(code, cursor)
	before := code[:off]

	// Inside an import path: complete the path.
	if prefix, ok := importPathPrefix(before); ok {
		var matches []string
		for p := range s.importable().byPath {
			if strings.HasPrefix(p, prefix) {
				matches = append(matches, p)
			}
		}
		sort.Strings(matches)
		return Completion{Matches: matches, Start: cursor - utf8.RuneCountInString(prefix), End: cursor}
	}

	if inLiteralOrComment(code, off) {
		return Completion{Start: cursor, End: cursor}
	}

	start := len(before)
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(before[:start])
		if !isIdentRune(r) {
			break
		}
		start -= size
	}
	prefix := before[start:]
	startCP := cursor - utf8.RuneCountInString(prefix)

	var candidates []string
	if start > 0 && before[start-1] == '.' {
		recv := identBefore(before[:start-1])
		if recv == "" {
			return Completion{Start: startCP, End: cursor}
		}
		candidates = s.selectorCandidates(recv)
	} else {
		if prefix == "" {
			return Completion{Start: cursor, End: cursor}
		}
		for name := range s.definedNames() {
			candidates = append(candidates, name)
		}
		candidates = append(candidates, goKeywords...)
		candidates = append(candidates, goBuiltins...)
		// Names used elsewhere in the cell, but not the word being typed:
		// offering "zebr" for "zebr" is noise.
		end := off
		for end < len(code) {
			r, size := utf8.DecodeRuneInString(code[end:])
			if !isIdentRune(r) {
				break
			}
			end += size
		}
		candidates = append(candidates, identsIn(code[:start]+" "+code[end:])...)
		for name := range s.importable().byName {
			candidates = append(candidates, name)
		}
	}
	seen := map[string]bool{}
	var matches []string
	for _, c := range candidates {
		if strings.HasPrefix(c, prefix) && !seen[c] {
			seen[c] = true
			matches = append(matches, c)
		}
	}
	sort.Strings(matches)
	return Completion{Matches: matches, Start: startCP, End: cursor}
}

// selectorCandidates lists what may follow "recv.": a package's members,
// or the fields and methods of a session variable.
func (s *Session) selectorCandidates(recv string) []string {
	s.mu.Lock()
	_, isImport := s.imports[recv]
	kind, isDef := s.defs[recv]
	it := s.it
	s.mu.Unlock()
	if isDef && kind != "type" {
		if v, ok := globals(it)[recv]; ok {
			return append(valueMembers(v), s.cellMethodsOf(recv)...)
		}
	}
	if isImport || !isDef {
		return s.members(recv)
	}
	return nil
}

// cellMethodsOf lists the methods, declared in cells, that the value of
// recv has. Reflection does not show them, so each is tried with a trial
// compile of "_ = recv.Method", which declares nothing.
func (s *Session) cellMethodsOf(recv string) []string {
	s.mu.Lock()
	var names []string
	for m := range s.methods {
		names = append(names, m)
	}
	it := s.it
	s.mu.Unlock()
	var out []string
	for _, m := range names {
		if _, err := compile(it, rewrite.StmtPrefix+"_ = "+recv+"."+m); err == nil {
			out = append(out, m)
		}
	}
	return out
}

// valueMembers lists the exported fields and methods of a value.
func valueMembers(v reflect.Value) []string {
	if !v.IsValid() {
		return nil
	}
	var out []string
	t := v.Type()
	for i := 0; i < t.NumMethod(); i++ {
		out = append(out, t.Method(i).Name)
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		pt := reflect.PointerTo(t)
		for i := 0; i < pt.NumMethod(); i++ {
			out = append(out, pt.Method(i).Name)
		}
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() == reflect.Struct {
		for i := 0; i < st.NumField(); i++ {
			if f := st.Field(i); f.IsExported() {
				out = append(out, f.Name)
			}
		}
	}
	return out
}

// inLiteralOrComment reports whether byte offset off of code lies inside
// a string, rune literal or comment, where identifiers do not complete.
func inLiteralOrComment(code string, off int) bool {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(code))
	var sc scanner.Scanner
	sc.Init(file, []byte(code), func(token.Position, string) {}, scanner.ScanComments)
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			return false
		}
		start := file.Offset(pos)
		if start >= off {
			return false
		}
		if tok == token.STRING || tok == token.CHAR || tok == token.COMMENT {
			end := start + len(lit)
			// An unterminated literal runs to the end; a line comment
			// includes the cursor at its end.
			if off < end || (off == end && (tok == token.COMMENT && strings.HasPrefix(lit, "//") || !closed(tok, lit))) {
				return true
			}
		}
	}
}

// closed reports whether a string or rune literal has its closing quote.
func closed(tok token.Token, lit string) bool {
	if len(lit) < 2 {
		return false
	}
	q := lit[0]
	return lit[len(lit)-1] == q && (tok != token.STRING || q == '`' || !strings.HasSuffix(lit, "\\"+string(q)) || strings.HasSuffix(lit, "\\\\"+string(q)))
}

// identBefore returns the identifier that ends text, "" when there is none.
func identBefore(text string) string {
	end := len(text)
	start := end
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:start])
		if !isIdentRune(r) {
			break
		}
		start -= size
	}
	return text[start:end]
}

func isIdentRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// identsIn lists the identifiers a cell's text uses, so a name declared
// earlier in the same cell completes before it has run.
func identsIn(code string) []string {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(code))
	var sc scanner.Scanner
	sc.Init(file, []byte(code), func(token.Position, string) {}, 0)
	var out []string
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.IDENT {
			out = append(out, lit)
		}
	}
}

// importPathPrefix reports whether the text ends inside the quoted path of
// an import, and the part of the path typed so far.
func importPathPrefix(before string) (string, bool) {
	q := strings.LastIndexByte(before, '"')
	if q < 0 || strings.ContainsAny(before[q+1:], " \t\n\"") {
		return "", false
	}
	head := strings.TrimRight(before[:q], " \t")
	lineStart := strings.LastIndexByte(head, '\n') + 1
	line := strings.TrimSpace(head[lineStart:])
	if line == "import" || (strings.HasPrefix(line, "import") && isIdent(strings.TrimSpace(strings.TrimPrefix(line, "import")))) {
		return before[q+1:], true
	}
	// A line of an import group: only white space (or a name) before the
	// quote, and an open "import (" above.
	if (line == "" || isIdent(line)) && inImportGroup(before[:lineStart]) {
		return before[q+1:], true
	}
	return "", false
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !isIdentRune(r) && r != '.' {
			return false
		}
	}
	return true
}

func inImportGroup(text string) bool {
	i := strings.LastIndex(text, "import (")
	return i >= 0 && !strings.Contains(text[i:], ")")
}

// byteOffset converts a count of code points into a byte offset of s,
// clamped to s.
func byteOffset(s string, cp int) int {
	if cp <= 0 {
		return 0
	}
	n := 0
	for i := range s {
		if n == cp {
			return i
		}
		n++
	}
	return len(s)
}
