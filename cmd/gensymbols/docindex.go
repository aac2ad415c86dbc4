package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/doc"
	"go/format"
	"go/parser"
	"go/token"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/traefik/yaegi/stdlib"

	"github.com/gobayes/gobayes/interp/symbols"
)

// maxDecl bounds a declaration's text in the index: a group of hundreds
// of constants is shown cut short rather than bloating the binary.
const maxDecl = 1500

// buildDocIndex documents the standard packages yaegi exposes and pkgs,
// keeping only names present in their symbol tables (yaegi's standard
// library stops at Go 1.22, and extract skips generic functions).
func buildDocIndex(pkgs []string) ([]byte, error) {
	exported := map[string]map[string]bool{} // path → names in the symbol table
	for key, syms := range stdlib.Symbols {
		dir := path.Dir(key)
		if dir == "." || strings.Contains(dir, "internal") || strings.HasPrefix(dir, "github.com/traefik/yaegi") {
			continue
		}
		names := map[string]bool{}
		for n := range syms {
			names[n] = true
		}
		exported[dir] = names
	}
	for _, p := range pkgs {
		exported[p] = nil // every exported name
	}
	// The predeclared identifiers (len, append, error, ...) are documented
	// in the pseudo-package builtin.
	exported["builtin"] = nil
	paths := make([]string, 0, len(exported))
	for p := range exported {
		paths = append(paths, p)
	}
	sort.Strings(paths)

	files, err := listGoFiles(paths)
	if err != nil {
		return nil, err
	}
	idx := symbols.DocIndex{}
	for _, p := range paths {
		if len(files[p]) == 0 {
			continue
		}
		dp, err := documentPackage(p, files[p], exported[p])
		if err != nil {
			return nil, err
		}
		idx[p] = dp
	}
	raw, err := json.Marshal(idx)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// listGoFiles asks the go command for each package's source files on
// this platform.
func listGoFiles(paths []string) (map[string][]string, error) {
	args := append([]string{"list", "-e", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}}"}, paths...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	files := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 || f[2] == "" {
			continue
		}
		for _, name := range strings.Fields(f[2]) {
			files[f[0]] = append(files[f[0]], filepath.Join(f[1], name))
		}
	}
	return files, nil
}

func documentPackage(importPath string, files []string, keep map[string]bool) (symbols.DocPackage, error) {
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			return symbols.DocPackage{}, fmt.Errorf("parsing %s: %w", f, err)
		}
		parsed = append(parsed, af)
	}
	var mode doc.Mode
	if importPath == "builtin" {
		mode = doc.AllDecls // its names are lower case
	}
	d, err := doc.NewFromFiles(fset, parsed, importPath, mode)
	if err != nil {
		return symbols.DocPackage{}, fmt.Errorf("documenting %s: %w", importPath, err)
	}
	dp := symbols.DocPackage{Name: d.Name, Doc: d.Doc, Entries: map[string]symbols.DocEntry{}}
	wanted := func(name string) bool { return keep == nil || keep[name] }

	addValues := func(values []*doc.Value) {
		for _, v := range values {
			decl := nodeText(fset, v.Decl)
			for _, n := range v.Names {
				if wanted(n) {
					dp.Entries[n] = symbols.DocEntry{Decl: decl, Doc: v.Doc}
				}
			}
		}
	}
	addFuncs := func(funcs []*doc.Func, recv string) {
		for _, f := range funcs {
			name := f.Name
			if recv != "" {
				name = recv + "." + f.Name
			} else if !wanted(name) {
				continue
			}
			f.Decl.Body = nil
			dp.Entries[name] = symbols.DocEntry{Decl: nodeText(fset, f.Decl), Doc: f.Doc}
		}
	}
	addValues(d.Consts)
	addValues(d.Vars)
	addFuncs(d.Funcs, "")
	for _, t := range d.Types {
		addValues(t.Consts)
		addValues(t.Vars)
		addFuncs(t.Funcs, "")
		if !wanted(t.Name) {
			continue
		}
		dp.Entries[t.Name] = symbols.DocEntry{Decl: nodeText(fset, t.Decl), Doc: t.Doc}
		addFuncs(t.Methods, t.Name)
	}
	return dp, nil
}

func nodeText(fset *token.FileSet, n any) string {
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, n); err != nil {
		return ""
	}
	s := buf.String()
	if len(s) > maxDecl {
		cut := strings.LastIndexByte(s[:maxDecl], '\n')
		if cut < 0 {
			cut = maxDecl
		}
		s = s[:cut] + "\n\t// …"
	}
	return s
}
