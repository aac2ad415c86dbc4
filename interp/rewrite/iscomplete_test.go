package rewrite

import "testing"

func TestIsComplete(t *testing.T) {
	// Expected answers follow IPython's is_complete semantics applied to Go.
	cases := []struct {
		code, status, indent string
	}{
		{"", "complete", ""},
		{"x := 1", "complete", ""},
		{"fmt.Println(1)", "complete", ""},
		{"for i := 0; i < 3; i++ {", "incomplete", "    "},
		{"func f() {\n\tif true {", "incomplete", "        "},
		{"fmt.Println(1,", "incomplete", "    "},
		{"x := []int{\n1, 2,\n}", "complete", ""},
		{"s := `raw", "incomplete", ""},
		{"/* open comment", "incomplete", ""},
		{"x := 1 +", "incomplete", ""},
		{"x := 1 +\n2", "complete", ""},
		{"x := )", "invalid", ""},
		{"1 +)", "invalid", ""},
		{"x := \"unterminated", "invalid", ""},
		{"func f() {}\nf()", "complete", ""},
		{"x++", "complete", ""},
		{"var = 3", "invalid", ""},
	}
	for _, c := range cases {
		status, indent := IsComplete(c.code)
		if status != c.status || indent != c.indent {
			t.Errorf("IsComplete(%q) = %q, %q; want %q, %q", c.code, status, indent, c.status, c.indent)
		}
	}
}
