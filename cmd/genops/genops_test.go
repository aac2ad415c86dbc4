package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/opdef"
)

// TestGeneratedFilesAreFresh fails when a file derived from accel/opdef
// (or, for device_gen.cu, from the //gb:cuda functions of accel/opdef,
// accel/dense and accel/ir) differs from what the generator writes now:
// an edited definition or marked function without
// `go generate ./accel/opdef`, or a hand edit of generated code.
func TestGeneratedFilesAreFresh(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 12 {
		t.Fatalf("%d generated files, want 12", len(files))
	}
	if stale := Stale(root, files); len(stale) > 0 {
		t.Errorf("stale generated files %v: run go generate ./accel/opdef", stale)
	}
}

// TestBadDefinitions: a formula the generator cannot print is an error
// naming the family and the formula, not generated code that fails to
// compile.
func TestBadDefinitions(t *testing.T) {
	good := *opdef.Laplace
	cases := []struct {
		edit func(d *opdef.Dist)
		want string
	}{
		{func(d *opdef.Dist) { d.Value = "log(b" }, "Value"},
		{func(d *opdef.Dist) { d.Value = "erfcx(b)" }, `unknown function "erfcx"`},
		{func(d *opdef.Dist) { d.Value = "log(sigma)" }, `unknown name "sigma"`},
		{func(d *opdef.Dist) { d.Valid = "b % 2 > 0" }, "operator %"},
		{func(d *opdef.Dist) { d.Value = "lbeta(b)" }, "lbeta takes 2 arguments"},
		{func(d *opdef.Dist) { d.Support = "Circle" }, `support "Circle"`},
		{func(d *opdef.Dist) {
			d.Args = append([]opdef.Arg(nil), d.Args...)
			d.Args[1].Name = "name"
		}, `argument name "name"`},
		{func(d *opdef.Dist) {
			d.Args = append([]opdef.Arg(nil), d.Args...)
			d.Args[1].Name = "softplus"
		}, `argument name "softplus" is a function`},
		{func(d *opdef.Dist) { d.Keep = []string{"z"} }, `Keep: "z" is not a let`},
	}
	for _, c := range cases {
		d := good
		c.edit(&d)
		_, err := parseDist(&d)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "Laplace") {
			t.Errorf("error %v, want one naming Laplace and %q", err, c.want)
		}
	}
	if _, err := parseDist(&good); err != nil {
		t.Errorf("Laplace itself: %v", err)
	}
}

// TestPrintC: numbers print as doubles in C (no integer division), where
// as the conditional operator, and a doubled minus never as C's
// decrement.
func TestPrintC(t *testing.T) {
	p, err := parseDist(&opdef.Dist{Family: "T", Args: []opdef.Arg{{Name: "y"}, {Name: "a", Support: "Real"}},
		Support: "Real", Valid: "a > 0", Value: "where(y == 0, 1/2, - -a)"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.scope().print(p.value, cLang)
	if want := "(x0 == 0.0 ? 1.0 / 2.0 : -(-x1))"; err != nil || got != want {
		t.Errorf("C: %q (%v), want %q", got, err, want)
	}
	got, err = p.scope().print(p.value, goLang)
	if want := "opdef.Where(x0 == 0, 1 / 2, -(-x1))"; err != nil || got != want {
		t.Errorf("Go: %q (%v), want %q", got, err, want)
	}
}

// TestElementwiseC: the C templates of the elementwise ops come out as
// accel/cuda/cgen substitutes them (X, Y, G; A, B), a where as C's
// conditional operator.
func TestElementwiseC(t *testing.T) {
	un, bin, err := parseElementwise()
	if err != nil {
		t.Fatal(err)
	}
	if len(un) != len(opdef.Unaries()) || len(bin) != len(opdef.Binaries()) {
		t.Fatalf("%d unary and %d binary ops parsed", len(un), len(bin))
	}
	want := map[string]string{
		"Abs": "(X > 0.0 ? G : (X < 0.0 ? -G : 0.0))",
		"Inv": "-(G * Y * Y)",
		"Exp": "G * Y",
	}
	for _, o := range un {
		w, ok := want[o.op]
		if !ok {
			continue
		}
		got, err := o.scope(nil, false, "X", "Y", "G").print(o.adjs[0], cLang)
		if err != nil || got != w {
			t.Errorf("%s: C adjoint %q (%v), want %q", o.op, got, err, w)
		}
	}
}

// TestTermForm: an op in term form has no loops of its own in accel/ir or
// accel/vec, its value and partials are written once (term_gen.go's
// <op>Values and <op>Grads, which both skeletons run), and they stay
// within 150 generated lines.
func TestTermForm(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	ir, vec, terms := string(files["accel/ir/lpdf_gen.go"]), string(files["accel/vec/lpdf_gen.go"]), string(files["accel/ir/term_gen.go"])
	n := 0
	for _, d := range opdef.Ops() {
		p, err := parseDist(d)
		if err != nil {
			t.Fatal(err)
		}
		if !p.termForm() {
			continue
		}
		n++
		name := lowerFirst(d.Family)
		if strings.Contains(ir, "func "+name+"Forward(") || strings.Contains(vec, "gen"+d.Family+"Forward") {
			t.Errorf("%s: in term form and with loops of its own", d.Name)
		}
		lines := 0
		for _, fn := range []string{name + "Values", name + "Grads"} {
			at := strings.Index(terms, "\nfunc "+fn+"(")
			if at < 0 {
				t.Errorf("%s: no %s in term_gen.go", d.Name, fn)
				continue
			}
			end := strings.Index(terms[at:], "\n}\n")
			lines += strings.Count(terms[at:at+end], "\n") + 1
		}
		if lines > 150 {
			t.Errorf("%s: %d generated lines in term form, want at most 150", d.Name, lines)
		}
		if c := strings.Count(terms, "\tOp"+d.Op+":"); c != 1 {
			t.Errorf("%s: %d entries in the terms table, want 1", d.Name, c)
		}
	}
	if n == 0 {
		t.Fatal("no op in term form")
	}
}
