package main

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/cmd/genops/internal/devcases"
)

// constructFuncs are internal/devcases' entry points, by C name, with a
// line each of their C that shows the construct translated.
var constructFuncs = map[string]struct {
	goFn  any
	wantC []string
}{
	"gb_dc_arith":     {devcases.Arith, []string{"((-a) * b)", "0.3333333333333333 * a", "+ 0.0) + 1.099511627776"}},
	"gb_dc_int_ops":   {devcases.IntOps, []string{"long long q = a / b;", "long long r = a % b;", "((double)q) / 3.0"}},
	"gb_dc_logic":     {devcases.Logic, []string{"(a < b) || (a >= (2.0 * b))", "(!(a == b))", "(c && (a != a))"}},
	"gb_dc_classify":  {devcases.Classify, []string{"double y = x * x;", "} else if (x < 0.0) {", "gb_isnan(x)"}},
	"gb_dc_loops":     {devcases.Loops, []string{"for (long long i = 0; i < (n % 50); i++) {", "continue;", "while (k < 5) {", "for (;;) {", "break;"}},
	"gb_dc_ranges":    {devcases.Ranges, []string{"double a[6] = {0};", "const double steps[4] = {0.5, 1.25, -3.0, 8.0};", "double v = (a + 1)["}},
	"gb_dc_switches":  {devcases.Switches, []string{"if (((i % 4) == 0) || ((i % 4) == 1)) {", "} else {", "long long j = i * 2;"}},
	"gb_dc_min_max":   {nil, []string{"double *gb_out_lo, double *gb_out_hi", "lo = gb_min(gb_min(lo, b), c)", "*gb_out_lo = lo;"}},
	"gb_dc_results":   {devcases.Results, []string{"gb_dc_min_max(a, b, c, &lo, &hi);", "gb_dc_min_max(lo, h2, 0.0, gb_out0, gb_out1);"}},
	"gb_dc_fill":      {nil, []string{"(double *y, long long y_len, double v)"}},
	"gb_dc_total":     {nil, []string{"(const double *x, long long x_len)"}},
	"gb_dc_slices":    {devcases.Slices, []string{"gb_dc_fill(buf, 10, x);", "gb_dc_total((buf + 2), (k - 2))", "else for (long long"}},
	"gb_dc_acc_add":   {nil, []string{"(gb_dc_acc *a, double x)", "a->sum += x;", "a->n++;"}},
	"gb_dc_acc_mean":  {nil, []string{"return a->sum / ((double)a->n);"}},
	"gb_dc_structs":   {devcases.Structs, []string{"gb_dc_acc s = {0};", "gb_dc_acc_add(&s, a);", "gb_dc_add_twice(&s, a - b);"}},
	"gb_dc_add_twice": {nil, []string{"gb_dc_acc_add(s, x);"}},
	"gb_dc_math":      {devcases.MathOps, []string{"fabs(x)", "copysign(2.0, y)", "gb_max(x, y)", "(x == GB_INF)", "gb_isinf((x + y))", "(signbit(y) != 0)", "return GB_NAN;", "fmod(x, 3.0)"}},
	"gb_dc_decls":     {devcases.Decls, []string{"double s = 0;", "double t = 2.0;", "double gb_t1 = v;", "k %= 5;"}},
	"gb_dc_host":      {devcases.Host, []string{"{\n\treturn 2.0 * x;\n}"}},
	"gb_dc_bits":      {devcases.Bits, []string{"unsigned int c = ((a * 2654435769u) + ((unsigned int)(b >> 32))) - 7u;", "(s < 64 ? d << s : 0ull)", "c &= ~4042322160u;", "c = c << 3;", "((double)e)", "((unsigned long long)(f * 0.5))"}},
}

// TestDeviceConstructs: each construct of the subset, in one function of
// internal/devcases, translated (its C has the shape constructFuncs
// names), compiled with gcc and called on random and edge arguments
// against the Go, bit for bit.
func TestDeviceConstructs(t *testing.T) {
	d, src := translateLibrary(t, []string{"cmd/genops/internal/devcases"})
	r := rand.New(rand.NewPCG(23, 2))
	var fns []*cfunc
	var calls []cCall
	seen := map[string]bool{}
	for _, fn := range d.order {
		c, ok := constructFuncs[fn.cName]
		if !ok {
			t.Errorf("%s (%s) has no entry in constructFuncs", fn.key, fn.cName)
			continue
		}
		seen[fn.cName] = true
		body := cBody(string(src), fn.cName)
		for _, w := range c.wantC {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the C lacks %q:\n%s", fn.cName, w, body)
			}
		}
		if c.goFn == nil {
			continue
		}
		if !scalarFunc(fn) {
			t.Errorf("%s is an entry point but takes or gives more than scalars", fn.cName)
			continue
		}
		if got, want := reflect.TypeOf(c.goFn).String(), goSignature(fn); got != want {
			t.Errorf("constructFuncs[%s] is %s, the Go is %s", fn.cName, got, want)
			continue
		}
		fns = append(fns, fn)
		for range 300 {
			calls = append(calls, cCall{fn, randArgs(r, fn)})
		}
	}
	for name := range constructFuncs {
		if !seen[name] {
			t.Errorf("constructFuncs names %s, which devcases does not mark", name)
		}
	}
	res := runC(t, src, fns, calls)
	for _, fn := range fns {
		t.Run(fn.cName, func(t *testing.T) {
			f := reflect.ValueOf(constructFuncs[fn.cName].goFn)
			for i, c := range calls {
				if c.fn != fn {
					continue
				}
				want := callGo(f, c.args)
				for j := range want {
					if res[i][j] != want[j] && !(fn.results[j].k == kFloat && ulps(res[i][j], want[j]) == 0) {
						t.Errorf("%s%v: result %d is %v in C, %v in Go", fn.cName, showArgs(c), j, show(fn.results[j], res[i][j]), show(fn.results[j], want[j]))
					}
				}
			}
		})
	}
}

// cBody is the definition of the C function name in src.
func cBody(src, name string) string {
	for _, line := range strings.SplitAfter(src, "\n") {
		if strings.HasPrefix(line, "__device__ static ") && strings.Contains(line, " "+name+"(") && strings.HasSuffix(line, "{\n") {
			at := strings.Index(src, line)
			end := strings.Index(src[at:], "\n}\n")
			return src[at : at+end+3]
		}
	}
	return ""
}

// TestDeviceMarksTranslated: every //gb:cuda line of the repository's Go
// sits in a package the translator reads (devicePackages, or this
// command's construct cases), so no marked function is left out of the C
// silently.
func TestDeviceMarksTranslated(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	read := map[string]bool{"cmd/genops/internal/devcases": true}
	for _, p := range devicePackages {
		read[p] = true
	}
	marks := 0
	err = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if n := e.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, deviceDirective+" ") {
				marks++
				if !read[filepath.ToSlash(rel)] {
					t.Errorf("%s:%d: %s in a package the translator does not read (devicePackages)", path, i+1, line)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if marks < 100 {
		t.Errorf("found %d //gb:cuda lines, want the library's 100 and more", marks)
	}
}
