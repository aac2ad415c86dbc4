package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The harness of the translator's own tests: translated functions of
// scalars are compiled with gcc as host code (accel/cuda/cgen's shim.h
// and device.cu before them, as the CUDA package's gcc build has them),
// called by name from a main that reads their arguments as bit patterns,
// and compared with the Go called through reflect on the same bits.

// scalarFunc reports whether fn takes and returns scalars only.
func scalarFunc(fn *cfunc) bool {
	if strings.Count(fn.key, ".") != 1 || len(fn.results) == 0 {
		return false
	}
	for _, p := range fn.params {
		if !p.t.scalar() {
			return false
		}
	}
	return true
}

// cCall is one call of a translated function: its arguments as 64-bit
// patterns (a float64's bits, an integer's two's complement, a bool's 0
// or 1).
type cCall struct {
	fn   *cfunc
	args []uint64
}

// harness is the C main that calls fns: each input line is a C name and
// its arguments in hex; each output line the results in hex.
func harness(fns []*cfunc) string {
	var b strings.Builder
	b.WriteString("\n#include <stdio.h>\nint main(void) {\n\tchar name[256];\n\twhile (scanf(\"%255s\", name) == 1) {\n\t\tunsigned long long a[16] = {0};\n\t\tif (0) {\n")
	for _, fn := range fns {
		fmt.Fprintf(&b, "\t\t} else if (!strcmp(name, %q)) {\n", fn.cName)
		for i := range fn.params {
			fmt.Fprintf(&b, "\t\t\tif (scanf(\"%%llx\", &a[%d]) != 1) return 2;\n", i)
		}
		var args []string
		for i, p := range fn.params {
			v := fmt.Sprintf("v%d", i)
			fmt.Fprintf(&b, "\t\t\t%s %s; ", p.t.c(), v)
			if p.t.k == kFloat {
				fmt.Fprintf(&b, "memcpy(&%s, &a[%d], 8);\n", v, i)
			} else {
				fmt.Fprintf(&b, "%s = (%s)a[%d];\n", v, p.t.c(), i)
			}
			args = append(args, v)
		}
		for i, r := range fn.results {
			fmt.Fprintf(&b, "\t\t\t%s r%d;\n", r.c(), i)
		}
		if len(fn.results) == 1 {
			fmt.Fprintf(&b, "\t\t\tr0 = %s(%s);\n", fn.cName, strings.Join(args, ", "))
		} else {
			for i := range fn.results {
				args = append(args, fmt.Sprintf("&r%d", i))
			}
			fmt.Fprintf(&b, "\t\t\t%s(%s);\n", fn.cName, strings.Join(args, ", "))
		}
		for i, r := range fn.results {
			if r.k == kFloat {
				fmt.Fprintf(&b, "\t\t\t{ unsigned long long u; memcpy(&u, &r%d, 8); printf(\"%%llx \", u); }\n", i)
			} else {
				fmt.Fprintf(&b, "\t\t\tprintf(\"%%llx \", (unsigned long long)r%d);\n", i)
			}
		}
		b.WriteString("\t\t\tprintf(\"\\n\");\n")
	}
	b.WriteString("\t\t} else {\n\t\t\tfprintf(stderr, \"unknown function %s\\n\", name);\n\t\t\treturn 3;\n\t\t}\n\t}\n\treturn 0;\n}\n")
	return b.String()
}

// runC compiles the device library's hand-written part, the translated C
// and a harness for fns with gcc, runs calls through it, and gives each
// call's results.
func runC(t *testing.T, translated []byte, fns []*cfunc, calls []cCall) [][]uint64 {
	t.Helper()
	dir := t.TempDir()
	var src bytes.Buffer
	for _, f := range []string{"shim.h", "device.cu"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "accel", "cuda", "cgen", f))
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	src.Write(translated)
	src.WriteString(harness(fns))
	cfile, bin := filepath.Join(dir, "dev.c"), filepath.Join(dir, "dev")
	if err := os.WriteFile(cfile, src.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// As accel/cuda/cgen's gcc build: no fused multiply-add, as Go on
	// amd64 computes.
	if out, err := exec.Command("gcc", "-O2", "-ffp-contract=off", "-o", bin, cfile, "-lm").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	var in bytes.Buffer
	for _, c := range calls {
		in.WriteString(c.fn.cName)
		for _, a := range c.args {
			fmt.Fprintf(&in, " %x", a)
		}
		in.WriteString("\n")
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the harness: %v: %s", err, stderr.String())
	}
	var res [][]uint64
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var r []uint64
		for _, f := range strings.Fields(sc.Text()) {
			u, err := strconv.ParseUint(f, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			r = append(r, u)
		}
		res = append(res, r)
	}
	if len(res) != len(calls) {
		t.Fatalf("%d results for %d calls", len(res), len(calls))
	}
	return res
}

// callGo calls the Go function f on a call's argument bits and gives its
// results' bits.
func callGo(f reflect.Value, args []uint64) []uint64 {
	ft := f.Type()
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		v := reflect.New(ft.In(i)).Elem()
		switch v.Kind() {
		case reflect.Float64:
			v.SetFloat(math.Float64frombits(a))
		case reflect.Int:
			v.SetInt(int64(a))
		case reflect.Bool:
			v.SetBool(a != 0)
		case reflect.Uint32, reflect.Uint64:
			v.SetUint(a)
		}
		in[i] = v
	}
	var out []uint64
	for _, r := range f.Call(in) {
		switch r.Kind() {
		case reflect.Float64:
			out = append(out, math.Float64bits(r.Float()))
		case reflect.Int:
			out = append(out, uint64(r.Int()))
		case reflect.Bool:
			b := uint64(0)
			if r.Bool() {
				b = 1
			}
			out = append(out, b)
		case reflect.Uint32, reflect.Uint64:
			out = append(out, r.Uint())
		}
	}
	return out
}

// goSignature is fn's Go signature as reflect prints it.
func goSignature(fn *cfunc) string {
	var ps, rs []string
	for _, p := range fn.params {
		ps = append(ps, p.t.String())
	}
	for _, r := range fn.results {
		rs = append(rs, r.String())
	}
	s := "func(" + strings.Join(ps, ", ") + ")"
	switch len(rs) {
	case 0:
	case 1:
		s += " " + rs[0]
	default:
		s += " (" + strings.Join(rs, ", ") + ")"
	}
	return s
}

// ulps is the distance of two float64s in units in the last place (0
// for two NaNs, and for +0 and -0).
func ulps(a, b uint64) uint64 {
	x, y := math.Float64frombits(a), math.Float64frombits(b)
	if math.IsNaN(x) && math.IsNaN(y) || x == y && x == 0 {
		return 0
	}
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.MaxUint64
	}
	ord := func(u uint64) int64 {
		if u>>63 != 0 {
			return -int64(u &^ (1 << 63))
		}
		return int64(u)
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

// libmCalls are the C library's functions whose results may differ from
// Go's math in the last place (sqrt, fabs, floor, ceil, trunc, round,
// fmod and copysign are exact in both).
var libmCalls = regexp.MustCompile(`\b(exp|expm1|exp2|log|log1p|log2|log10|sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|erf|erfc|pow|hypot|cbrt|lgamma|gb_lgamma|gb_lbeta)\(`)

var cFuncHead = regexp.MustCompile(`(?m)^__device__ static [^(]*?\b(gb_\w+)\(`)

// libmUsers are the translated functions that call the C library's
// inexact functions, directly or through other translated functions.
func libmUsers(src []byte) map[string]bool {
	bodies := map[string]string{}
	heads := cFuncHead.FindAllSubmatchIndex(src, -1)
	for i, h := range heads {
		end := len(src)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		name := string(src[h[2]:h[3]])
		body := string(src[h[1]:end])
		if strings.HasSuffix(strings.TrimSpace(strings.SplitN(body, "\n", 2)[0]), ";") {
			continue // a prototype
		}
		bodies[name] = body
	}
	uses := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for name, body := range bodies {
			if uses[name] {
				continue
			}
			hit := libmCalls.MatchString(body)
			for callee := range uses {
				if strings.Contains(body, callee+"(") {
					hit = true
				}
			}
			if hit {
				uses[name] = true
				changed = true
			}
		}
	}
	return uses
}
