package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The device library's functions with loops and helpers (the incomplete
// gamma and beta functions, the normal CDF's log, Cholesky and its
// reverse, the substitutions, log-sum-exp, the correlation-Cholesky
// transform, Philox4x32-10's rounds) are written once, in Go, where the
// CPU evaluator and samplers call them, and translated here into the CUDA
// C of accel/cuda/cgen/device_gen.cu. A function (or a struct type) is
// marked by a last doc-comment line
//
//	//gb:cuda gb_name
//
// naming its C function. Only devicePackages are read: the op
// definitions' helpers (accel/opdef), the dense matrix routines
// (accel/dense), the reference evaluator's loops (accel/ir) and the
// random number generator (accel/philox).
//
// Types. The marked packages are type-checked with go/types
// (devicetypes.go): from source, their imports from the compiler's
// export data. Names resolve to go/types objects, each expression's C
// type is the C of its Go type, untyped constants take the type their
// context gives them, and constant expressions are folded as the
// compiler folds them (exactly). A Go type error inside a marked
// function is the translator's error.
//
// The subset; anything outside it is refused with an error naming the
// file, the line, the function and the construct, rather than written as
// C that means something else:
//
//   - types: float64 (double), int (long long), bool (int), uint32
//     (unsigned int), uint64 (unsigned long long), []float64 and []int (a
//     pointer, const when the function writes through it nowhere,
//     followed by its length where the function reads len, ranges over
//     it or slices it without an upper bound; the []int are read-only
//     index tables), [N]float64 (a local array, zeroed), a marked struct
//     of scalars and a pointer to one; package-level [...]float64 tables
//     become local const arrays;
//   - results: one is the C return value; several become out-pointers
//     after the parameters (a call assigns them through &v);
//   - a branch on OnHost() (if OnHost() && … { … }: the CPU's shortcut,
//     such as gonum's assembly for a long dot product, computing what the
//     code after it computes) is left out, its else kept;
//   - statements: :=, =, op= (the bitwise and shift ones on integers),
//     ++, --, var, if/else, for (three-clause, condition only, range over
//     a slice, an array or an int), switch (tagged or not, no
//     fallthrough, no break out of it), return, break, continue, clear
//     and copy (a memmove, as Go's), and calls;
//   - expressions: arithmetic (uint32 and uint64 wrap as in Go; / and %
//     of integers truncate as in Go), comparisons, && || !, & | ^ &^ and
//     unary ^ of integers, shifts of uint32 and uint64 (by a constant, or
//     by a variable count guarded so that every bit is shifted out from
//     the width on, as in Go; a count expression must be assigned to a
//     local first; an in-place shift takes a constant), indexing,
//     slicing (s[a:b], s[:b], s[a:]), len, conversions between float64,
//     int, uint32 and uint64 (integers truncate or extend as in Go; a
//     float64 out of an integer's range is undefined in C and
//     implementation-defined in Go), min and max of two float64s, math's
//     functions and constants (see mathFuncs), the marked functions and
//     methods, and the hand-written C twins of a few functions from
//     elsewhere (deviceExterns).
//
// Refused: closures, maps, strings, interfaces and type switches,
// pointers other than to a marked struct, float32 and the other integer
// types, array parameters and struct parameters by value, results other
// than scalars, goto and labels, defer, go, append, make and new,
// three-index slices, multiple results used inside an expression, min
// and max of more than two arguments, shifts of signed integers.
//
// Tests. TestDeviceTranslation and TestDeviceConstructs check the C of
// each construct; TestDeviceConstructs also compiles the functions of
// internal/devcases (one per construct) with gcc as host code and
// compares them with the Go, bit for bit, on random and edge arguments.
// TestDeviceRefusals and TestDeviceSignatureRefusals give one refusal
// each. TestTranslatedScalarFuncs does the same comparison for every
// marked function of scalars of devicePackages (bit for bit where the C
// calls no inexact C library function; to 1e-12 elsewhere, its doc says
// where Go's math and glibc differ); TestPhiloxTranslated compares
// Philox4x32-10 word for word. accel/cuda/cgen's tests compile
// device_gen.cu as C, C++ and CUDA and check the functions that take
// slices against their Go.

const deviceDirective = "//gb:cuda"

// devicePackages are the directories whose marked functions are
// translated.
var devicePackages = []string{"accel/opdef", "accel/dense", "accel/ir", "accel/philox"}

// deviceExterns are the functions marked code may call that are not
// translated, with their C: hand-written twins in device.cu (ir's scalar
// exp is the C library's), by package and name.
var deviceExterns = map[string]extern{
	"opdef.LGamma":  {"gb_lgamma", 1, kFloat},
	"opdef.IsCount": {"gb_is_count", 1, kBool},
	"mathext.Lbeta": {"gb_lbeta", 2, kFloat},
	"ir.Exp":        {"exp", 1, kFloat},
	"ir.log1p":      {"log1p", 1, kFloat},
	"ir.lgamma":     {"gb_lgamma", 1, kFloat},
	"ir.isCount":    {"gb_is_count", 1, kBool},
}

type extern struct {
	c      string
	arity  int
	result cKind
}

// mathFuncs are package math's functions of float64s with the same
// meaning in C (math.Max and math.Min are Go's, NaN in NaN out, through
// gb_max and gb_min; math.IsNaN, IsInf, Inf and NaN are handled apart).
var mathFuncs = map[string]struct {
	c     string
	arity int
}{
	"Abs": {"fabs", 1}, "Sqrt": {"sqrt", 1}, "Cbrt": {"cbrt", 1},
	"Exp": {"exp", 1}, "Expm1": {"expm1", 1}, "Exp2": {"exp2", 1},
	"Log": {"log", 1}, "Log1p": {"log1p", 1}, "Log2": {"log2", 1}, "Log10": {"log10", 1},
	"Sin": {"sin", 1}, "Cos": {"cos", 1}, "Tan": {"tan", 1},
	"Asin": {"asin", 1}, "Acos": {"acos", 1}, "Atan": {"atan", 1},
	"Sinh": {"sinh", 1}, "Cosh": {"cosh", 1}, "Tanh": {"tanh", 1},
	"Asinh": {"asinh", 1}, "Acosh": {"acosh", 1}, "Atanh": {"atanh", 1},
	"Erf": {"erf", 1}, "Erfc": {"erfc", 1},
	"Floor": {"floor", 1}, "Ceil": {"ceil", 1}, "Trunc": {"trunc", 1}, "Round": {"round", 1},
	"Atan2": {"atan2", 2}, "Pow": {"pow", 2}, "Hypot": {"hypot", 2}, "Mod": {"fmod", 2},
	"Copysign": {"copysign", 2}, "Max": {"gb_max", 2}, "Min": {"gb_min", 2},
}

// cKeywords are C and C++ words a Go name may not be in device code.
var cKeywords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`auto break case char const continue default do double else enum extern
		float for goto if inline int long register restrict return short signed sizeof static struct switch
		typedef union unsigned void volatile while bool class delete new this template typename namespace
		operator private protected public virtual friend throw try catch using explicit mutable asm
		NAN INFINITY signbit isnan isinf`) {
		cKeywords[w] = true
	}
	for _, f := range mathFuncs {
		cKeywords[f.c] = true
	}
	for _, e := range deviceExterns {
		cKeywords[e.c] = true
	}
}

type cKind int

const (
	kVoid cKind = iota
	kFloat
	kInt
	kBool
	kSlice  // []float64
	kArray  // [n]float64
	kStruct // a marked struct
	kPtr    // a pointer to a marked struct
	kU32    // uint32 (unsigned int)
	kU64    // uint64 (unsigned long long)
)

type ctype struct {
	k    cKind
	n    int      // kArray: the length
	s    *cstruct // kStruct, kPtr
	ints bool     // kSlice: []int (long long *), not []float64
}

// elem is the C of a slice's element type.
func (t ctype) elem() string {
	if t.ints {
		return "long long"
	}
	return "double"
}

// elemKind is the kind of a slice's or array's element.
func (t ctype) elemKind() cKind {
	if t.ints {
		return kInt
	}
	return kFloat
}

func (t ctype) scalar() bool { return t.k == kFloat || t.k == kInt || t.k == kBool || t.unsigned() }

// unsigned reports whether t is uint32 or uint64, whose arithmetic wraps
// in C as in Go.
func (t ctype) unsigned() bool { return t.k == kU32 || t.k == kU64 }

// integer reports whether t is int, uint32 or uint64.
func (t ctype) integer() bool { return t.k == kInt || t.unsigned() }

// bits is the width of an integer type.
func (t ctype) bits() int {
	if t.k == kU32 {
		return 32
	}
	return 64
}

func (t ctype) c() string {
	switch t.k {
	case kFloat:
		return "double"
	case kInt:
		return "long long"
	case kBool:
		return "int"
	case kU32:
		return "unsigned int"
	case kU64:
		return "unsigned long long"
	case kStruct:
		return t.s.cName
	case kPtr:
		return t.s.cName + " *"
	}
	return "?"
}

func (t ctype) String() string {
	switch t.k {
	case kFloat:
		return "float64"
	case kInt:
		return "int"
	case kBool:
		return "bool"
	case kU32:
		return "uint32"
	case kU64:
		return "uint64"
	case kSlice:
		if t.ints {
			return "[]int"
		}
		return "[]float64"
	case kArray:
		return fmt.Sprintf("[%d]float64", t.n)
	case kStruct:
		return t.s.goName
	case kPtr:
		return "*" + t.s.goName
	}
	return "void"
}

// devPkg is one scanned package: its constants, tables, marked structs
// and functions.
type devPkg struct {
	name   string
	dir    string
	consts map[string]constDef
	tables map[string]tableDef
	types  map[string]*cstruct
	tpkg   *types.Package
}

type constDef struct {
	expr ast.Expr
	file *devFile
	val  constant.Value
	busy bool
}

type tableDef struct {
	lit  *ast.CompositeLit
	file *devFile
}

type devFile struct {
	pkg  *devPkg
	path string // relative to the root
}

type cstruct struct {
	goName, cName string
	fields        []cfield
	spec          *ast.StructType
	file          *devFile
}

type cfield struct {
	name string
	t    ctype
}

type cparam struct {
	name             string
	obj              types.Object // nil for _
	t                ctype
	written, needLen bool
}

type cfunc struct {
	key   string // pkg.Name or pkg.Type.Name
	goPos string // file: Go name, for the generated comment
	cName string
	decl  *ast.FuncDecl
	file  *devFile
	// params has the receiver first; results the result types, names
	// their Go names ("" when unnamed).
	params    []*cparam
	results   []ctype
	names     []string
	resultIDs []*ast.Ident
}

// device is the translator's state over all scanned packages.
type device struct {
	fset    *token.FileSet
	pkgs    map[string]*devPkg
	funcs   map[string]*cfunc
	order   []*cfunc
	structs []*cstruct
	changed bool // a parameter's facts changed during the pass
	// localLens records, per function, the local slices whose length is
	// read (by the position of their declaration).
	localLens map[*cfunc]map[token.Pos]bool
	// info holds go/types' facts of every checked package, checked their
	// packages by import path.
	info     *types.Info
	checked  map[string]*types.Package
	importer types.Importer
}

// deviceFile reads the marked functions of devicePackages under root and
// writes their C.
func deviceFile(root string) ([]byte, error) {
	d, err := loadDevice(root, devicePackages)
	if err != nil {
		return nil, err
	}
	return d.translate()
}

// loadDevice parses and type-checks the packages in dirs (relative to
// root, each after those it imports) and registers their marked
// functions and structs.
func loadDevice(root string, devicePackages []string) (*device, error) {
	mod, err := modulePath(root)
	if err != nil {
		return nil, err
	}
	d := newDevice()
	type parsedDir struct {
		dir   string
		files []*ast.File
		paths []string
	}
	var dirs []parsedDir
	var all []*ast.File
	own := map[string]bool{}
	for _, dir := range devicePackages {
		files, paths, err := d.parseDir(root, dir)
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, parsedDir{dir, files, paths})
		all = append(all, files...)
		own[mod+"/"+dir] = true
	}
	var deps []string
	for _, p := range imports(all) {
		if !own[p] {
			deps = append(deps, p)
		}
	}
	if err := exportData(root, deps); err != nil {
		return nil, err
	}
	for _, pd := range dirs {
		if err := d.addFiles(pd.dir, mod+"/"+pd.dir, pd.files, pd.paths); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// modulePath is the module line of root's go.mod.
func modulePath(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "module" {
			return f[1], nil
		}
	}
	return "", fmt.Errorf("device: no module line in %s/go.mod", root)
}

func newDevice() *device {
	d := &device{fset: token.NewFileSet(), pkgs: map[string]*devPkg{}, funcs: map[string]*cfunc{}, localLens: map[*cfunc]map[token.Pos]bool{},
		checked: map[string]*types.Package{},
		info: &types.Info{
			Types:      map[ast.Expr]types.TypeAndValue{},
			Defs:       map[*ast.Ident]types.Object{},
			Uses:       map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
		}}
	d.importer = newDevImporter(d)
	return d
}

// parseDir parses the non-test Go files of dir.
func (d *device) parseDir(root, dir string) ([]*ast.File, []string, error) {
	names, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(names)
	var files []*ast.File
	var paths []string
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		// The files of this platform's build, as go/types checks one
		// package (philox has an amd64 file and an other one).
		if ok, err := build.Default.MatchFile(filepath.Dir(n), filepath.Base(n)); err != nil || !ok {
			if err != nil {
				return nil, nil, err
			}
			continue
		}
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, nil, err
		}
		f, err := parser.ParseFile(d.fset, filepath.ToSlash(filepath.Join(dir, filepath.Base(n))), src, parser.ParseComments)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
		paths = append(paths, filepath.ToSlash(filepath.Join(dir, filepath.Base(n))))
	}
	return files, paths, nil
}

// addFiles registers one package's files (of import path path) and
// type-checks them.
func (d *device) addFiles(dir, path string, files []*ast.File, paths []string) error {
	if len(files) == 0 {
		return fmt.Errorf("device: no Go files in %s", dir)
	}
	p := &devPkg{name: files[0].Name.Name, dir: dir, consts: map[string]constDef{}, tables: map[string]tableDef{}, types: map[string]*cstruct{}}
	if d.pkgs[p.name] != nil {
		return fmt.Errorf("device: two packages named %s", p.name)
	}
	d.pkgs[p.name] = p
	for i, f := range files {
		df := &devFile{pkg: p, path: paths[i]}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.GenDecl:
				if err := d.genDecl(p, df, decl); err != nil {
					return err
				}
			case *ast.FuncDecl:
				name, ok, err := d.directive(decl.Doc, decl.Name.Name)
				if err != nil || !ok {
					if err != nil {
						return err
					}
					continue
				}
				fn := &cfunc{key: p.name + "." + decl.Name.Name, cName: name, decl: decl, file: df,
					goPos: df.path + ": " + decl.Name.Name}
				if decl.Recv != nil {
					fn.key = ""
				}
				d.order = append(d.order, fn)
				if fn.key != "" {
					d.funcs[fn.key] = fn
				}
			}
		}
	}
	// Methods need their receiver's struct, which may sit in a later file.
	for _, fn := range d.order {
		if fn.key != "" || fn.file.pkg != p {
			continue
		}
		recv := fn.decl.Recv.List[0].Type
		if st, ok := recv.(*ast.StarExpr); ok {
			recv = st.X
		}
		id, ok := recv.(*ast.Ident)
		if !ok || p.types[id.Name] == nil {
			return d.errAt(fn.decl, fn.decl.Name.Name, "the receiver is not a //gb:cuda struct")
		}
		fn.key = p.name + "." + id.Name + "." + fn.decl.Name.Name
		fn.goPos = fn.file.path + ": " + id.Name + "." + fn.decl.Name.Name
		d.funcs[fn.key] = fn
	}
	return d.typecheck(path, p, files)
}

func (d *device) genDecl(p *devPkg, df *devFile, decl *ast.GenDecl) error {
	switch decl.Tok {
	case token.CONST:
		for _, s := range decl.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if i < len(vs.Values) {
					p.consts[n.Name] = constDef{expr: vs.Values[i], file: df}
				}
			}
		}
	case token.VAR:
		for _, s := range decl.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.CompositeLit); ok {
					if at, ok := lit.Type.(*ast.ArrayType); ok {
						if el, ok := at.Elt.(*ast.Ident); ok && el.Name == "float64" {
							p.tables[n.Name] = tableDef{lit, df}
						}
					}
				}
			}
		}
	case token.TYPE:
		for _, s := range decl.Specs {
			ts := s.(*ast.TypeSpec)
			doc := ts.Doc
			if doc == nil && len(decl.Specs) == 1 {
				doc = decl.Doc
			}
			name, ok, err := d.directive(doc, ts.Name.Name)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			st, isStruct := ts.Type.(*ast.StructType)
			if !isStruct {
				return d.errAt(ts, ts.Name.Name, "only struct types can be marked")
			}
			cs := &cstruct{goName: ts.Name.Name, cName: name, spec: st, file: df}
			p.types[ts.Name.Name] = cs
			d.structs = append(d.structs, cs)
		}
	}
	return nil
}

// directive is the C name of a //gb:cuda line in doc.
func (d *device) directive(doc *ast.CommentGroup, goName string) (string, bool, error) {
	if doc == nil {
		return "", false, nil
	}
	for _, c := range doc.List {
		if !strings.HasPrefix(c.Text, deviceDirective) {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(c.Text, deviceDirective))
		if len(f) != 1 || !token.IsIdentifier(f[0]) || !strings.HasPrefix(f[0], "gb_") {
			return "", false, fmt.Errorf("%s: %s: want %s gb_<name>", d.fset.Position(c.Pos()), goName, deviceDirective)
		}
		return f[0], true, nil
	}
	return "", false, nil
}

func (d *device) errAt(n ast.Node, fn, format string, args ...any) error {
	pos := d.fset.Position(n.Pos())
	return fmt.Errorf("device: %s:%d: %s: %s", pos.Filename, pos.Line, fn, fmt.Sprintf(format, args...))
}

// translate writes the C: the structs, every prototype, then every
// definition. The parameters' facts (written, length needed) flow from
// callees to callers, so the functions are translated until they settle.
func (d *device) translate() ([]byte, error) {
	names := map[string]string{}
	for _, s := range d.structs {
		if err := d.structFields(s); err != nil {
			return nil, err
		}
		if prev, dup := names[s.cName]; dup {
			return nil, fmt.Errorf("device: %s names both %s and %s", s.cName, prev, s.goName)
		}
		names[s.cName] = s.goName
	}
	for _, fn := range d.order {
		if err := d.signature(fn); err != nil {
			return nil, err
		}
		if prev, dup := names[fn.cName]; dup {
			return nil, fmt.Errorf("device: %s names both %s and %s", fn.cName, prev, fn.key)
		}
		names[fn.cName] = fn.key
	}
	var bodies []string
	for pass := 0; ; pass++ {
		if pass == 20 {
			return nil, fmt.Errorf("device: the parameters' facts do not settle")
		}
		d.changed = false
		bodies = bodies[:0]
		for _, fn := range d.order {
			b, err := d.body(fn)
			if err != nil {
				return nil, err
			}
			bodies = append(bodies, b)
		}
		if !d.changed {
			break
		}
	}
	var b bytes.Buffer
	b.WriteString("/* Code generated by cmd/genops from the //gb:cuda functions of accel/opdef,\n * accel/dense, accel/ir and accel/philox. DO NOT EDIT. */\n")
	for _, s := range d.structs {
		fmt.Fprintf(&b, "\n/* %s: %s. */\ntypedef struct {\n", s.file.path, s.goName)
		for _, f := range s.fields {
			fmt.Fprintf(&b, "\t%s %s;\n", f.t.c(), f.name)
		}
		fmt.Fprintf(&b, "} %s;\n", s.cName)
	}
	b.WriteString("\n")
	for _, fn := range d.order {
		fmt.Fprintf(&b, "%s;\n", d.prototype(fn))
	}
	for i, fn := range d.order {
		fmt.Fprintf(&b, "\n/* %s */\n%s {\n%s}\n", fn.goPos, d.prototype(fn), bodies[i])
	}
	return b.Bytes(), nil
}

func (d *device) structFields(s *cstruct) error {
	for _, f := range s.spec.Fields.List {
		t, err := d.typeOf(f.Type)
		if err != nil {
			return d.errAt(f, s.goName, "%v", err)
		}
		if !t.scalar() {
			return d.errAt(f, s.goName, "a field of type %s (only float64, int, uint32, uint64 and bool)", t)
		}
		for _, n := range f.Names {
			s.fields = append(s.fields, cfield{n.Name, t})
		}
	}
	return nil
}

func exprString(e ast.Expr) string {
	var b bytes.Buffer
	writeExpr(&b, e)
	return b.String()
}

// writeExpr prints a type or short expression for an error message.
func writeExpr(b *bytes.Buffer, e ast.Expr) {
	switch e := e.(type) {
	case *ast.Ident:
		b.WriteString(e.Name)
	case *ast.StarExpr:
		b.WriteString("*")
		writeExpr(b, e.X)
	case *ast.SelectorExpr:
		writeExpr(b, e.X)
		b.WriteString("." + e.Sel.Name)
	case *ast.ArrayType:
		b.WriteString("[")
		if e.Len != nil {
			writeExpr(b, e.Len)
		}
		b.WriteString("]")
		writeExpr(b, e.Elt)
	case *ast.BasicLit:
		b.WriteString(e.Value)
	default:
		fmt.Fprintf(b, "%T", e)
	}
}

// signature reads a function's parameters and results.
func (d *device) signature(fn *cfunc) error {
	decl := fn.decl
	if decl.Type.TypeParams != nil {
		return d.errAt(decl, fn.key, "type parameters are not supported")
	}
	var fields []*ast.Field
	if decl.Recv != nil {
		fields = append(fields, decl.Recv.List...)
	}
	fields = append(fields, decl.Type.Params.List...)
	for _, f := range fields {
		t, err := d.typeOf(f.Type)
		if err == nil && t.k == kArray {
			err = fmt.Errorf("an array parameter is not supported (pass a slice)")
		}
		if err != nil {
			return d.errAt(f, fn.key, "parameter: %v", err)
		}
		if t.k == kStruct {
			return d.errAt(f, fn.key, "a struct parameter is passed by pointer in device code (*%s)", t.s.goName)
		}
		names := f.Names
		if len(names) == 0 {
			names = []*ast.Ident{{Name: "_"}}
		}
		for _, n := range names {
			name := n.Name
			if name == "_" {
				name = fmt.Sprintf("gb_unused%d", len(fn.params))
			} else if err := checkName(name); err != nil {
				return d.errAt(n, fn.key, "%v", err)
			}
			fn.params = append(fn.params, &cparam{name: name, t: t, obj: d.info.Defs[n]})
		}
	}
	if decl.Type.Results != nil {
		for _, f := range decl.Type.Results.List {
			t, err := d.typeOf(f.Type)
			if err != nil || !t.scalar() {
				if err == nil {
					err = fmt.Errorf("type %s", t)
				}
				return d.errAt(f, fn.key, "result: %v (only float64, int, uint32, uint64 and bool)", err)
			}
			if len(f.Names) == 0 {
				fn.results = append(fn.results, t)
				fn.names = append(fn.names, "")
				fn.resultIDs = append(fn.resultIDs, nil)
			}
			for _, n := range f.Names {
				if err := checkName(n.Name); err != nil && n.Name != "_" {
					return d.errAt(n, fn.key, "%v", err)
				}
				fn.results = append(fn.results, t)
				fn.names = append(fn.names, n.Name)
				fn.resultIDs = append(fn.resultIDs, n)
			}
		}
	}
	return nil
}

func checkName(name string) error {
	if cKeywords[name] || strings.HasPrefix(name, "gb_") || strings.HasPrefix(name, "GB_") {
		return fmt.Errorf("the name %q is taken in C", name)
	}
	return nil
}

// outName is the C name of result i's out-pointer.
func (fn *cfunc) outName(i int) string {
	if fn.names[i] != "" && fn.names[i] != "_" {
		return "gb_out_" + fn.names[i]
	}
	return fmt.Sprintf("gb_out%d", i)
}

func (d *device) prototype(fn *cfunc) string {
	ret := "void"
	if len(fn.results) == 1 {
		ret = fn.results[0].c()
	}
	var ps []string
	for _, p := range fn.params {
		switch p.t.k {
		case kSlice:
			if p.written {
				ps = append(ps, p.t.elem()+" *"+p.name)
			} else {
				ps = append(ps, "const "+p.t.elem()+" *"+p.name)
			}
			if p.needLen {
				ps = append(ps, "long long "+p.name+"_len")
			}
		case kPtr:
			ps = append(ps, p.t.c()+p.name)
		default:
			ps = append(ps, p.t.c()+" "+p.name)
		}
	}
	if len(fn.results) > 1 {
		for i, t := range fn.results {
			ps = append(ps, t.c()+" *"+fn.outName(i))
		}
	}
	if len(ps) == 0 {
		ps = []string{"void"}
	}
	return fmt.Sprintf("__device__ static %s %s(%s)", ret, fn.cName, strings.Join(ps, ", "))
}

// constOf is the value go/types gives the constant expression e.
func (d *device) constOf(e ast.Expr) (constant.Value, bool) {
	tv, ok := d.info.Types[e]
	if !ok || tv.Value == nil {
		return nil, false
	}
	return tv.Value, true
}

// cConst prints a constant for type t.
func cConst(v constant.Value, t cKind) (string, error) {
	switch t {
	case kU32, kU64:
		iv := constant.ToInt(v)
		n, exact := constant.Uint64Val(iv)
		if iv.Kind() != constant.Int || !exact || t == kU32 && n > 1<<32-1 {
			return "", fmt.Errorf("constant %s overflows %s", v, ctype{k: t})
		}
		if t == kU32 {
			return strconv.FormatUint(n, 10) + "u", nil
		}
		return strconv.FormatUint(n, 10) + "ull", nil
	case kInt:
		iv := constant.ToInt(v)
		if iv.Kind() != constant.Int {
			return "", fmt.Errorf("constant %s is not an integer", v)
		}
		n, exact := constant.Int64Val(iv)
		if !exact {
			return "", fmt.Errorf("constant %s overflows int", v)
		}
		return strconv.FormatInt(n, 10), nil
	case kBool:
		if v.Kind() != constant.Bool {
			return "", fmt.Errorf("constant %s is not a bool", v)
		}
		if constant.BoolVal(v) {
			return "1", nil
		}
		return "0", nil
	case kFloat:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if strings.ContainsAny(s, "IN") {
			return "", fmt.Errorf("constant %s overflows float64", v)
		}
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return s, nil
	}
	return "", fmt.Errorf("constant %s used as %v", v, ctype{k: t})
}
