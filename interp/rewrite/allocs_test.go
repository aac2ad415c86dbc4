package rewrite

import "testing"

func TestCheckAllocs(t *testing.T) {
	// Expected texts are written by hand from CheckAllocs's doc.
	cases := []struct{ src, want string }{
		{"x := 1", "x := 1"},
		{";huge := make([]float64, 4e9)", ";huge := make([]float64, A.Len(4e9, ([]float64)(nil)))"},
		{";b := make([]byte, 10, n)", ";b := make([]byte, 10, A.Len(n, ([]byte)(nil)))"},
		{";b := make([]byte, 10)", ";b := make([]byte, 10)"},
		{";m := make(map[string]int, n)", ";m := make(map[string]int, A.Len(n, (map[string]int)(nil)))"},
		{";m := make(map[string]int)", ";m := make(map[string]int)"},
		{";p := new([1 << 33]float64)", ";p := (*[1 << 33]float64)(make([]float64, A.New((*[1 << 33]float64)(nil))))"},
		{";p := new(int)", ";p := new(int)"},
		{";s = append(s, 1, 2)", ";if len(s)+2 > cap(s) { A.Grow(s, 2) }; s = append(s, 1, 2)"},
		{";t := append(s, xs...)", ";if len(s)+len(xs) > cap(s) { A.Grow(s, len(xs)) }; t := append(s, xs...)"},
		{";f(append(s, 1, 2))", ";f(append(s[:A.Grow(s, 2)], 1, 2))"},
		{";for i := 0; i < 3; i++ {\n\tswitch {\n\tcase i > 0:\n\t\ts = append(s, i)\n\t}\n}", ";for i := 0; i < 3; i++ {\n\tswitch {\n\tcase i > 0:\n\t\tif len(s)+1 > cap(s) { A.Grow(s, 1) }; s = append(s, i)\n\t}\n}"},
		{";s, n = append(s, 1), 2", ";s, n = append(s[:A.Grow(s, 1)], 1), 2"},
		{";s = append(s, f()...)", ";s = append(s, f()...)"},
		{";s = append(f(), 1)", ";s = append(f(), 1)"},
		{";g = append(g, make([]float64, n*n))", ";if len(g)+1 > cap(g) { A.Grow(g, 1) }; g = append(g, make([]float64, A.Len(n*n, ([]float64)(nil))))"},
		{"func f(n int) []int {\n\treturn make([]int, n)\n}", "func f(n int) []int {\n\treturn make([]int, A.Len(n, ([]int)(nil)))\n}"},
		{";x := make([]int,", ";x := make([]int,"}, // does not parse: unchanged
	}
	for _, c := range cases {
		if got := CheckAllocs(c.src, "A"); got != c.want {
			t.Errorf("CheckAllocs(%q)\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}
