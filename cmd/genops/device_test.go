package main

import (
	"go/ast"
	"go/parser"
	"strings"
	"testing"
)

// translateSource translates the marked functions of one Go file of
// package x (which may import math).
func translateSource(src string) (string, error) {
	d := newDevice()
	f, err := parser.ParseFile(d.fset, "x/x.go", "package x\n\nimport (\n\t\"fmt\"\n\t\"math\"\n)\n\nvar _, _ = math.Pi, fmt.Sprint\n\n"+src, parser.ParseComments)
	if err != nil {
		return "", err
	}
	if err := exportData(".", imports([]*ast.File{f})); err != nil {
		return "", err
	}
	if err := d.addFiles("x", "x", []*ast.File{f}, []string{"x/x.go"}); err != nil {
		return "", err
	}
	b, err := d.translate()
	return string(b), err
}

// TestDeviceTranslation: what the translator writes for each construct
// of the subset (the gcc tests in accel/cuda/cgen run the real library).
func TestDeviceTranslation(t *testing.T) {
	src := `
const half = 1 / 2
const third = 1.0 / 3

//gb:cuda gb_bounds
func bounds(x []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo, hi = min(lo, v), max(hi, v)
	}
	return
}

//gb:cuda gb_span
func span(x []float64, n int) float64 {
	lo, hi := bounds(x[:n])
	_, h := bounds(x)
	return (hi - lo) * third * float64(n/2+half) + h
}

//gb:cuda gb_swap
func swap(a, b float64) float64 {
	a, b = b, a
	return a - b
}

//gb:cuda gb_scale
func scale(y []float64, s float64) {
	for i := range y {
		y[i] *= s
	}
	clear(y[len(y)/2:])
}

// tab is a table.
var tab = [...]float64{1, 2.5}

// OnHost stands for dense.OnHost.
func OnHost() bool { return true }

//gb:cuda gb_gather
func gather(x []float64, tbl []int, y []float64) {
	if OnHost() && len(tbl) > 100 {
		panic("a host shortcut")
	}
	for i, k := range tbl {
		y[i] = x[k]
	}
	t := tbl[1:]
	y[0] += float64(t[0])
}

//gb:cuda gb_host_else
func hostElse(x float64) float64 {
	if OnHost() {
		return math.Sqrt(x)
	} else {
		x *= 2
	}
	return x
}

//gb:cuda gb_pick
func pick(i int) float64 {
	switch {
	case i < 0:
		return 0
	case i >= len(tab):
		return math.NaN()
	}
	return tab[i]
}

//gb:cuda gb_last
func last() float64 {
	s := 0.0
	for k := len(tab) - 1; k >= 0; k-- {
		s += tab[k]
	}
	return s
}
`
	got, err := translateSource(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"__device__ static void gb_bounds(const double *x, long long x_len, double *gb_out_lo, double *gb_out_hi);",
		"__device__ static double gb_span(const double *x, long long x_len, long long n)",
		"__device__ static void gb_scale(double *y, long long y_len, double s)",
		// one pass over the slice, both results assigned together
		"for (long long gb_t", "double v = x[gb_t",
		"double gb_t3 = gb_min(lo, v);",
		// several results go through out-pointers, _ to a temporary
		"gb_bounds(x, n, &lo, &hi);",
		"gb_bounds(x, x_len, &gb_t",
		"*gb_out_lo = lo;",
		// constants folded as Go folds them: 1/2 is 0, 1.0/3 rounded once
		"((hi - lo) * 0.3333333333333333) * ((double)((n / 2) + 0))",
		// a swap reads both before it writes
		"double gb_t1 = b;\n\tdouble gb_t2 = a;\n\ta = gb_t1;\n\tb = gb_t2;",
		"y[i] *= s;",
		"= 0;",
		"const double tab[2] = {1.0, 2.5};",
		"if (i < 0) {",
		"} else if (i >= 2) {",
		"return GB_NAN;",
		// len of an array is a constant in Go, folded as go/types folds it
		"for (long long k = 1; k >= 0; k--) {",
		// []int are read-only index tables; an OnHost() branch is the
		// CPU's alone
		"__device__ static void gb_gather(const double *x, const long long *tbl, long long tbl_len, double *y)",
		"long long k = tbl[i];",
		"const long long *t = tbl + 1;",
		"static double gb_host_else(double x) {\n\t{\n\t\tx *= 2.0;\n\t}\n\treturn x;",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the C lacks %q:\n%s", want, got)
		}
	}
}

// TestDeviceSignatureRefusals: a parameter or result outside the
// subset is an error naming the function, its line and the type.
func TestDeviceSignatureRefusals(t *testing.T) {
	for _, c := range []struct{ sig, want string }{
		{"(a [2]float64) float64", "an array parameter is not supported"},
		{"(x float32) float64", "type float32 is not supported"},
		{"(x uint) float64", "type uint is not supported"},
		{"(x float64) []float64", "result: type []float64 (only float64, int, uint32, uint64 and bool)"},
		{"(p *float64) float64", "type *float64 is not supported"},
		{"(m map[int]float64) float64", "type map[int]float64 is not supported"},
	} {
		src := "//gb:cuda gb_f\nfunc f" + c.sig + " {\n\tpanic(0)\n}\n"
		_, err := translateSource(src)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "x.f") || !strings.Contains(err.Error(), "x/x.go:") {
			t.Errorf("%s: error %v, want one naming x.f, its line and %q", c.sig, err, c.want)
		}
	}
}

// TestDeviceRefusals: a construct outside the subset is an error naming
// the function and the line, not C that means something else.
func TestDeviceRefusals(t *testing.T) {
	cases := []struct {
		body, want string
	}{
		{"g := func() float64 { return x }\n\treturn g()", "closures are not supported"},
		{"var m map[int]float64\n\treturn m[0]", "type map[int]float64 is not supported"},
		{"for {\n\t\tswitch {\n\t\tcase x > 0:\n\t\t\tbreak\n\t\t}\n\t}", "break outside a loop, or out of a switch"},
		{"switch {\n\tcase x > 0:\n\t\tfallthrough\n\tdefault:\n\t}\n\treturn x", "fallthrough"},
		{"return float64(len(fmt.Sprint(x)))", "call of fmt.Sprint: not a //gb:cuda function"},
		{"n := 2\n\treturn x * n", "mismatched types float64 and int"},
		{"return two(x) + 1", "multiple-value two(x)"},
		{"tab[0] = x\n\treturn x", "a write to a read-only table"},
		{"s := []float64{x}\n\treturn s[0]", "CompositeLit is not supported"},
		{"for i := 0; i < 3; i++ {\n\t\tgoto end\n\t}\nend:\n\treturn x", "labels are not supported"},
		{"p := &x\n\treturn *p", "& of anything but a local struct"},
		{"double := x\n\treturn double", `the name "double" is taken in C`},
		{"return x % 2", "operator % not defined on x"},
		{"return g(tab[:])", "cannot use tab[:] (value of type []float64) as []int value"},
		{"var t []int\n\tt[0] = 1\n\treturn x", "a write to an index table"},
		{"if OnHost() {\n\t\treturn 1\n\t} else if x > 0 {\n\t\treturn 2\n\t}\n\ttab[0] = x\n\treturn x", "a write to a read-only table"},
		{"s := tab[:]\n\tfor _, v := range s {\n\t\ts = s[1:]\n\t\tx += v\n\t}\n\treturn x", "the loop reassigns s"},
		{"n := 3\n\treturn float64(n << 2)", "shift of int (device code shifts uint32 and uint64)"},
		{"var u uint64 = 1\n\tk := 3\n\tu <<= k\n\treturn float64(u)", "<<= of uint64 by a variable count"},
		{"var u uint64 = 1\n\treturn float64(u << uint64(x+1))", "a shift count that is not a variable or a constant"},
		{"defer g(nil)\n\treturn x", "statement *ast.DeferStmt is not supported"},
		{"go g(nil)\n\treturn x", "statement *ast.GoStmt is not supported"},
		{"s := append(tab[:], x)\n\treturn s[0]", "append is not supported here"},
		{"s := \"ab\"\n\treturn float64(len(s))", "type string is not supported"},
		{"a := tab[0:1:1]\n\treturn a[0]", "three-index slices are not supported"},
		{"return min(x, 1, 2)", "min of 3 arguments"},
		{"var y float32 = 1\n\treturn x + float64(y)", "type float32 is not supported"},
		{"var i interface{} = x\n\t_ = i\n\treturn x", "is not supported"},
		{"switch v := any(x).(type) {\n\tcase float64:\n\t\treturn v\n\t}\n\treturn x", "TypeSwitchStmt is not supported"},
	}
	for _, c := range cases {
		src := "var tab = [...]float64{1}\n\nfunc OnHost() bool { return true }\n\n//gb:cuda gb_g\nfunc g(t []int) float64 { return float64(t[0]) }\n\n//gb:cuda gb_two\nfunc two(x float64) (float64, float64) { return x, x }\n\n//gb:cuda gb_f\nfunc f(x float64) float64 {\n\t" + c.body + "\n}\n"
		_, err := translateSource(src)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "x.f") || !strings.Contains(err.Error(), "x/x.go:") {
			t.Errorf("%q: error %v, want one naming x.f, its line and %q", c.body, err, c.want)
		}
	}
}
