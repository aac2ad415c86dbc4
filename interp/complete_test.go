package interp_test

import (
	"context"
	"testing"
	"unicode/utf8"
)

func TestComplete(t *testing.T) {
	s := newTestSession(t)
	for _, cell := range []string{"import \"fmt\"\nimport m \"math\"\nvelocity := 3.0\nvar verbose bool", "type Point struct{ X, Y float64 }\nfunc (p *Point) Norm() float64 { return p.X*p.X + p.Y*p.Y }\nfunc (p *Point) Scale(f float64) { p.X *= f }\ntype Other struct{}\nfunc (Other) Unrelated() {}\np := &Point{1, 2}\nimport \"strings\"\nsb := &strings.Builder{}"} {
		if r := s.Execute(context.Background(), cell, nil); r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	// Each case: text with "|" at the cursor, names that must be among the
	// matches (from the Go standard library's documentation and the cells
	// above), a name that must not be, and the completed prefix.
	cases := []struct {
		code     string
		want     []string
		not      string
		replaced string
	}{
		{"fmt.Pr|", []string{"Print", "Printf", "Println"}, "Sprintf", "Pr"},
		{"fmt.|", []string{"Errorf", "Sprint"}, "", ""},
		{"m.Sq|", []string{"Sqrt"}, "", "Sq"},
		{"strings.ToU|", []string{"ToUpper"}, "ToLower", "ToU"},
		{"x := ve|", []string{"velocity", "verbose"}, "fmt", "ve"},
		{"fo|", []string{"for"}, "fo", "fo"},
		{"x := zebr|", nil, "zebr", "zebr"}, // the word being typed is no match
		{"zebra := 1\nx := zeb|", []string{"zebra"}, "zeb", "zeb"},
		{"le|", []string{"len"}, "", "le"},
		{"sb.W|", []string{"WriteString", "WriteByte"}, "", "W"},
		{"p.|", []string{"X", "Y", "Norm", "Scale"}, "Unrelated", ""},
		{"stat.Me|", []string{"Mean"}, "", "Me"}, // importable, not yet imported
		{"floats.Su|", []string{"Sum"}, "", "Su"},
		{"import \"gonum.org/v1/gonum/st|", []string{"gonum.org/v1/gonum/stat", "gonum.org/v1/gonum/stat/distuv"}, "", "gonum.org/v1/gonum/st"},
		{"import (\n\t\"enc|\"\n)", []string{"encoding/json"}, "", "enc"},
		{"résumé := 1\nrés|", []string{"résumé"}, "", "rés"},
		{"fmt.Println(velo|)", []string{"velocity"}, "", "velo"},
		{"fmt.Println(\"velo|", nil, "velocity", ""},
		{"x := 1 // velo|", nil, "velocity", ""},
		{"s := `velo|`", nil, "velocity", ""},
	}
	for _, c := range cases {
		cursorBytes := len(c.code[:indexOf(c.code, "|")])
		code := c.code[:cursorBytes] + c.code[cursorBytes+1:]
		cursor := utf8.RuneCountInString(code[:cursorBytes])
		got := s.Complete(code, cursor)
		have := map[string]bool{}
		for _, m := range got.Matches {
			have[m] = true
		}
		for _, w := range c.want {
			if !have[w] {
				t.Errorf("Complete(%q): %q missing from %v", c.code, w, got.Matches)
			}
		}
		if c.not != "" && have[c.not] {
			t.Errorf("Complete(%q): %q should not match", c.code, c.not)
		}
		if got.End != cursor || got.Start != cursor-utf8.RuneCountInString(c.replaced) {
			t.Errorf("Complete(%q): range [%d,%d), want [%d,%d)", c.code, got.Start, got.End, cursor-utf8.RuneCountInString(c.replaced), cursor)
		}
	}
}

func indexOf(s, sub string) int {
	for i := range s {
		if len(s[i:]) >= len(sub) && s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
