package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The translator's types come from go/types: every marked package is
// type-checked from its source, its imports from the compiler's export
// data (which `go list -export` builds), and each expression's C type is
// the C of its Go type. Untyped constants have the type their context
// gives them, and constant expressions are folded as the compiler folds
// them.

// exportFiles caches, by import path, the export data files `go list
// -export` names: the tests translate many small sources.
var exportFiles = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

// exportData finds the export data of paths (and their dependencies),
// building them if needed, with `go list` run in dir.
func exportData(dir string, paths []string) error {
	exportFiles.Lock()
	defer exportFiles.Unlock()
	var missing []string
	for _, p := range paths {
		if _, ok := exportFiles.m[p]; !ok && p != "unsafe" && p != "C" {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	cmd := exec.Command("go", append([]string{"list", "-e", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{if .Error}}{{.Error}}{{end}}"}, missing...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("device: go list -export %s: %v: %s", strings.Join(missing, " "), err, stderr.String())
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) >= 2 && f[1] != "" {
			exportFiles.m[f[0]] = f[1]
		}
	}
	return nil
}

// devImporter gives the marked packages already checked from source, and
// every other package from its export data.
type devImporter struct {
	d  *device
	gc types.Importer
}

func newDevImporter(d *device) *devImporter {
	lookup := func(path string) (io.ReadCloser, error) {
		exportFiles.Lock()
		f, ok := exportFiles.m[path]
		exportFiles.Unlock()
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	}
	return &devImporter{d: d, gc: importer.ForCompiler(d.fset, "gc", lookup)}
}

func (im *devImporter) Import(path string) (*types.Package, error) {
	if p := im.d.checked[path]; p != nil {
		return p, nil
	}
	return im.gc.Import(path)
}

// imports lists the import paths of files.
func imports(files []*ast.File) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// typecheck checks one package's files. An error inside a marked
// function or struct is the translator's error, named like its own; an
// error elsewhere in the package (a generated file that is being
// rewritten) is left to the compiler.
func (d *device) typecheck(path string, p *devPkg, files []*ast.File) error {
	var errs []types.Error
	conf := types.Config{
		Importer: d.importer,
		Error:    func(err error) { errs = append(errs, err.(types.Error)) },
	}
	pkg, _ := conf.Check(path, d.fset, files, d.info)
	d.checked[path] = pkg
	p.tpkg = pkg
	for _, e := range errs {
		if strings.HasPrefix(e.Msg, "could not import") {
			p := d.fset.Position(e.Pos)
			return fmt.Errorf("device: %s:%d: %s", p.Filename, p.Line, e.Msg)
		}
		if e.Soft && strings.Contains(e.Msg, "declared and not used") {
			// The compiler reports it; the translation is unaffected.
			continue
		}
		for _, fn := range d.order {
			if fn.file.pkg == p && fn.decl.Pos() <= e.Pos && e.Pos < fn.decl.End() {
				return d.errAt(posNode(e.Pos), fn.key, "%s", e.Msg)
			}
		}
		for _, s := range d.structs {
			if s.file.pkg == p && s.spec.Pos() <= e.Pos && e.Pos < s.spec.End() {
				return d.errAt(posNode(e.Pos), p.name+"."+s.goName, "%s", e.Msg)
			}
		}
	}
	return nil
}

// posNode is a node at pos, for errAt.
type posNode token.Pos

func (p posNode) Pos() token.Pos { return token.Pos(p) }
func (p posNode) End() token.Pos { return token.Pos(p) }

// ctypeOf is the C type of a Go type.
func (d *device) ctypeOf(t types.Type) (ctype, error) {
	switch u := types.Unalias(t).(type) {
	case *types.Basic:
		switch u.Kind() {
		case types.Float64, types.UntypedFloat:
			return ctype{k: kFloat}, nil
		case types.Int, types.UntypedInt, types.UntypedRune:
			return ctype{k: kInt}, nil
		case types.Uint32:
			return ctype{k: kU32}, nil
		case types.Uint64:
			return ctype{k: kU64}, nil
		case types.Bool, types.UntypedBool:
			return ctype{k: kBool}, nil
		case types.UntypedNil:
			// nil is compared with slices only.
			return ctype{k: kSlice}, nil
		}
	case *types.Slice:
		if b, ok := u.Elem().(*types.Basic); ok {
			switch b.Kind() {
			case types.Float64:
				return ctype{k: kSlice}, nil
			case types.Int:
				return ctype{k: kSlice, ints: true}, nil
			}
		}
	case *types.Array:
		if b, ok := u.Elem().(*types.Basic); ok && b.Kind() == types.Float64 && u.Len() > 0 && u.Len() < 1<<16 {
			return ctype{k: kArray, n: int(u.Len())}, nil
		}
	case *types.Named:
		if s := d.markedStruct(u); s != nil {
			return ctype{k: kStruct, s: s}, nil
		}
	case *types.Pointer:
		if n, ok := types.Unalias(u.Elem()).(*types.Named); ok {
			if s := d.markedStruct(n); s != nil {
				return ctype{k: kPtr, s: s}, nil
			}
		}
	}
	return ctype{}, fmt.Errorf("type %s is not supported in device code", types.TypeString(t, func(p *types.Package) string { return p.Name() }))
}

func (d *device) markedStruct(n *types.Named) *cstruct {
	obj := n.Obj()
	if obj.Pkg() == nil {
		return nil
	}
	if p := d.pkgs[obj.Pkg().Name()]; p != nil && p.tpkg == obj.Pkg() {
		return p.types[obj.Name()]
	}
	return nil
}

// typeOf is the C type of a type expression.
func (d *device) typeOf(e ast.Expr) (ctype, error) {
	tv, ok := d.info.Types[e]
	if !ok || !tv.IsType() {
		return ctype{}, fmt.Errorf("%s is not a type", exprString(e))
	}
	return d.ctypeOf(tv.Type)
}
