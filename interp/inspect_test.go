package interp_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gobayes/gobayes/display"
)

func TestInspect(t *testing.T) {
	s := newTestSession(t)
	cell := "import \"strings\"\nimport \"gonum.org/v1/gonum/mat\"\ncount := 42\n// Twice doubles n.\nfunc Twice(n int) int { return 2 * n }\ntype Pair struct{ A, B int }\nd := mat.NewDense(2, 2, nil)\nvar nothing interface{}\n// Sum adds the pair.\nfunc (p Pair) Sum() int { return p.A + p.B }\npr := Pair{1, 2}"
	if r := s.Execute(context.Background(), cell, nil); r.Err != nil {
		t.Fatal(r.Err)
	}
	// Each case: code with "|" at the cursor and substrings the text must
	// hold, taken from the packages' documentation and the cell above.
	cases := []struct {
		code  string
		found bool
		has   []string
	}{
		{"fmt.Println|", true, []string{"func Println(a ...any) (n int, err error)", "Println formats"}},
		{"fmt.Prin|tln(x)", true, []string{"func Println("}},
		{"fmt.Println(|", true, []string{"func Println("}},
		{"strings.Builder.WriteString|", true, []string{"func (b *Builder) WriteString(s string) (int, error)"}},
		{"strings|", true, []string{"package strings", "UTF-8"}},
		{"mat.NewDense|", true, []string{"func NewDense(r, c int, data []float64) *Dense"}},
		{"distuv.Normal|", true, []string{"type Normal struct"}},
		{"count|", true, []string{"count: int", "value: 42"}},
		{"Twice|", true, []string{"// Twice doubles n.", "func Twice(n int) int"}},
		{"Pair|", true, []string{"type Pair struct{ A, B int }"}},
		{"d.Dims|", true, []string{"func (m *Dense) Dims() (r, c int)"}},
		{"append|", true, []string{"func append(slice []Type, elems ...Type) []Type", "appends elements"}},
		{"nosuchname|", false, nil},
		{"nothing.Method|", false, nil},
		{"pr.Sum|", true, []string{"// Sum adds the pair.", "func (p Pair) Sum() int"}},
		{"pr.A|", true, []string{"field A int"}},
		{"fmt.NoSuch|", false, nil},
	}
	for _, c := range cases {
		at := strings.Index(c.code, "|")
		code := c.code[:at] + c.code[at+1:]
		b, found := s.Inspect(code, utf8.RuneCountInString(c.code[:at]), 0)
		if found != c.found {
			t.Errorf("Inspect(%q) found=%v, want %v", c.code, found, c.found)
			continue
		}
		text, _ := b.Data[display.MIMEText].(string)
		for _, h := range c.has {
			if !strings.Contains(text, h) {
				t.Errorf("Inspect(%q) = %q, want it to contain %q", c.code, text, h)
			}
		}
	}
}

// A name that is not a package-level symbol but a method of one of the
// package's exported types is shown as that method, with a hint of how it
// is called (%doc ppl.HalfCauchy said "no documentation found").
func TestDocFindsMethod(t *testing.T) {
	s := newTestSession(t)
	r := s.Execute(context.Background(), "%doc ppl.HalfCauchy", nil)
	if r.Err != nil || r.Pager == nil {
		t.Fatalf("%%doc ppl.HalfCauchy: %+v", r)
	}
	text, _ := r.Pager.Data[display.MIMEText].(string)
	// The declaration and doc comment are those of ppl/model's HalfCauchy.
	for _, h := range []string{"m.HalfCauchy", "*ppl.Model", "func (m *Model) HalfCauchy(", "HalfCauchy is |X|"} {
		if !strings.Contains(text, h) {
			t.Errorf("%%doc ppl.HalfCauchy = %q, want it to contain %q", text, h)
		}
	}
	b, found := s.Inspect("strings.WriteString", len("strings.WriteString"), 0)
	text, _ = b.Data[display.MIMEText].(string)
	if !found || !strings.Contains(text, "func (b *Builder) WriteString(") {
		t.Errorf("Inspect(strings.WriteString) = %v %q, want Builder.WriteString", found, text)
	}
	if _, found := s.Inspect("fmt.NoSuch", len("fmt.NoSuch"), 0); found {
		t.Error("Inspect(fmt.NoSuch) found something")
	}
}
