package cgen_test

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/cuda/cgen"
	"github.com/gobayes/gobayes/accel/dense"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef"
	"github.com/gobayes/gobayes/accel/philox"
)

// devCheck is one call of the device library: C statements that print
// values, one per line, and the values the Go they were translated from
// gives.
type devCheck struct {
	calls []string // the device functions it calls
	c     string
	want  []float64
}

func cArray(name string, xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, cgen.Lit(x))
	}
	if len(s) == 0 {
		s = []string{"0"}
	}
	return fmt.Sprintf("double %s[%d] = {%s};", name, max(len(xs), 1), strings.Join(s, ", "))
}

func printArray(name string, n int) string {
	return fmt.Sprintf("for (long long i = 0; i < %d; i++) printf(\"%%.17g\\n\", %s[i]);", n, name)
}

// scalarChecks calls fn at every point of args.
func scalarChecks(name string, fn func(a ...float64) float64, args [][]float64) []devCheck {
	var cs []devCheck
	for _, a := range args {
		var lits []string
		for _, x := range a {
			lits = append(lits, cgen.Lit(x))
		}
		cs = append(cs, devCheck{[]string{name}, fmt.Sprintf("printf(\"%%.17g\\n\", (double)%s(%s));", name, strings.Join(lits, ", ")), []float64{fn(a...)}})
	}
	return cs
}

// grid is every tuple of the values in axes.
func grid(axes ...[]float64) [][]float64 {
	out := [][]float64{{}}
	for _, ax := range axes {
		var next [][]float64
		for _, p := range out {
			for _, v := range ax {
				next = append(next, append(append([]float64(nil), p...), v))
			}
		}
		out = next
	}
	return out
}

// spd is an n×n symmetric positive definite matrix (AAᵀ + n I of a fixed
// pseudo-random A).
func spd(n int) []float64 {
	a := make([]float64, n*n)
	for i := range a {
		a[i] = math.Sin(float64(3*i+1)) / 2
	}
	m := make([]float64, n*n)
	for i := range n {
		for j := range n {
			m[i*n+j] = dense.Dot(a[i*n:(i+1)*n], a[j*n:(j+1)*n])
		}
		m[i*n+i] += float64(n)
	}
	return m
}

func deviceChecks() []devCheck {
	inf := math.Inf(1)
	var cs []devCheck
	un := func(f func(float64) float64) func(a ...float64) float64 {
		return func(a ...float64) float64 { return f(a[0]) }
	}
	bin := func(f func(a, b float64) float64) func(a ...float64) float64 {
		return func(a ...float64) float64 { return f(a[0], a[1]) }
	}
	four := func(f func(a, b, x, y float64) float64) func(a ...float64) float64 {
		return func(a ...float64) float64 { return f(a[0], a[1], a[2], a[3]) }
	}
	logistic := grid([]float64{-800, -30, -1.5, 0, 0.25, 4, 40, 800})
	cs = append(cs, scalarChecks("gb_logistic", un(ir.Logistic), logistic)...)
	cs = append(cs, scalarChecks("gb_logistic_deriv", un(ir.LogisticDeriv), logistic)...)
	cs = append(cs, scalarChecks("gb_softplus", un(ir.Softplus), logistic)...)
	cs = append(cs, scalarChecks("gb_logit", un(ir.Logit), grid([]float64{1e-300, 0.1, 0.5, 0.999999}))...)
	phi := grid([]float64{-60, -37.6, -37.5, -12, -1, 0, 0.3, 4, 40})
	cs = append(cs, scalarChecks("gb_log_phi", un(opdef.LogPhi), phi)...)
	cs = append(cs, scalarChecks("gb_dlog_phi", un(opdef.DLogPhi), phi)...)
	cs = append(cs, scalarChecks("gb_log1mexp", un(opdef.Log1mExp), grid([]float64{-1e-12, -0.1, -0.69, -0.7, -5, -50, -inf}))...)
	pairs := grid([]float64{-inf, -3, 0, 0.5, 7}, []float64{-inf, -3, 0.5, 7})
	cs = append(cs, scalarChecks("gb_logaddexp", bin(opdef.LogAddExp), pairs)...)
	cs = append(cs, scalarChecks("gb_logdiffexp", bin(opdef.LogDiffExp), grid([]float64{0, 2.5}, []float64{-inf, -30, -0.1, 0}))...)
	cs = append(cs, scalarChecks("gb_sign", un(opdef.Sign), grid([]float64{-2, math.Copysign(0, -1), 0, 3, math.NaN()}))...)
	cs = append(cs, scalarChecks("gb_inv", un(opdef.Inv), grid([]float64{-4, 0.5, 3}))...)
	cs = append(cs, scalarChecks("gb_lbeta", bin(opdef.LBeta), grid([]float64{0.3, 2, 40}, []float64{0.7, 15}))...)
	cs = append(cs, scalarChecks("gb_lchoose", bin(opdef.LChoose), grid([]float64{4, 30}, []float64{0, 2, 4}))...)
	// Digamma and trigamma: the poles and edges, both sides of the
	// reflection and of where the series starts (10), near the poles.
	psi := grid([]float64{math.NaN(), -inf, -1e20, -7, -3.0000001, -2.9999999, -0.5, -1e-300, math.Copysign(0, -1), 0,
		5e-324, 1e-8, 0.5, 1, 1.4616321449683622, 9.999999, 10, 10.5, 1234.5, 1e15, inf})
	cs = append(cs, scalarChecks("gb_digamma", un(opdef.Digamma), psi)...)
	cs = append(cs, scalarChecks("gb_trigamma", un(opdef.Trigamma), psi)...)
	// The incomplete gamma function in every region: the small-shape form
	// (a < 1, x < 1.1), the series (x < a+1), the fraction, Stirling's
	// prefix (a ≥ 10 near the centre), the edges.
	ga := grid([]float64{0.05, 0.6, 1, 3.5, 12, 150, 2e4}, []float64{-1, 0, 1e-3, 0.4, 1.05, 2.5, 11, 140, 2.05e4, 1e6, inf})
	ga = append(ga, []float64{0, 1}, []float64{math.NaN(), 1}, []float64{inf, 1})
	cs = append(cs, scalarChecks("gb_log_gamma_p", bin(opdef.LogGammaP), ga)...)
	cs = append(cs, scalarChecks("gb_log_gamma_q", bin(opdef.LogGammaQ), ga)...)
	cs = append(cs, scalarChecks("gb_dlog_gamma_p", bin(opdef.DLogGammaP), ga)...)
	cs = append(cs, scalarChecks("gb_dlog_gamma_q", bin(opdef.DLogGammaQ), ga)...)
	// The incomplete beta function on both sides of the switch, with
	// small, large (Stirling) and mixed shapes.
	var ib [][]float64
	for _, p := range grid([]float64{0.3, 2, 15, 400}, []float64{0.5, 3, 25, 300}, []float64{0, 1e-4, 0.05, 0.4, 0.5, 0.62, 0.97, 1}) {
		ib = append(ib, []float64{p[0], p[1], p[2], 1 - p[2]})
	}
	ib = append(ib, []float64{-1, 2, 0.5, 0.5}, []float64{2, inf, 0.5, 0.5})
	cs = append(cs, scalarChecks("gb_log_inc_beta", four(opdef.LogIncBeta), ib)...)
	cs = append(cs, scalarChecks("gb_dlog_inc_beta_a", four(opdef.DLogIncBetaA), ib)...)
	cs = append(cs, scalarChecks("gb_dlog_inc_beta_b", four(opdef.DLogIncBetaB), ib)...)

	// Cholesky and its reverse, with the inverse diagonal on the stack
	// (n ≤ 64) and without (n = 70), and a matrix that is not positive
	// definite.
	for _, n := range []int{1, 5, 70} {
		a := spd(n)
		l, w, ga := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
		r := dense.Cholesky(a, l, n, 0)
		lb := make([]float64, n*n)
		for i := range lb {
			lb[i] = math.Cos(float64(i))
		}
		dense.CholeskyReverse(l, lb, ga, w, n)
		c := fmt.Sprintf("{ %s double l[%d], w[%d]; %s double ga[%d] = {0};\n", cArray("a", a), n*n, n*n, cArray("lb", lb), n*n)
		c += fmt.Sprintf("printf(\"%%.17g\\n\", (double)gb_cholesky(a, l, %d, 0.0)); %s\n", n, printArray("l", n*n))
		c += fmt.Sprintf("gb_cholesky_reverse(l, lb, ga, w, %d); %s }", n, printArray("ga", n*n))
		cs = append(cs, devCheck{[]string{"gb_cholesky", "gb_cholesky_reverse"}, c, append(append([]float64{float64(r)}, l...), ga...)})
	}
	bad := []float64{1, 2, 2, 1}
	lbad := make([]float64, 4)
	rel := 1e-3
	cs = append(cs, devCheck{[]string{"gb_cholesky"}, fmt.Sprintf("{ %s double l[4]; printf(\"%%.17g\\n\", (double)gb_cholesky(a, l, 2, %s)); }", cArray("a", bad), cgen.Lit(rel)),
		[]float64{float64(dense.Cholesky(bad, lbad, 2, rel))}})

	// log-sum-exp, with the exponentials it leaves.
	for _, x := range [][]float64{{0.5}, {1, -2, 3, 3}, {-inf, -inf}, {2, math.NaN(), 1}, {-800, -801}} {
		e := make([]float64, len(x))
		v := ir.LogSumExpInto(x, e)
		c := fmt.Sprintf("{ %s double e[%d]; printf(\"%%.17g\\n\", gb_logsumexp(x, %d, e)); %s }", cArray("x", x), len(x), len(x), printArray("e", len(x)))
		if math.IsInf(v, 0) || math.IsNaN(v) {
			c = fmt.Sprintf("{ %s double e[%d]; printf(\"%%.17g\\n\", gb_logsumexp(x, %d, e)); }", cArray("x", x), len(x), len(x))
			e = nil
		}
		cs = append(cs, devCheck{[]string{"gb_logsumexp"}, c, append([]float64{v}, e...)})
	}

	// The correlation-Cholesky transform, K = 4.
	y := []float64{0.3, -1.2, 0.8, 2.5, -0.4, 0.05}
	l := make([]float64, 16)
	ir.CholCorrForward(y, l)
	cs = append(cs, devCheck{[]string{"gb_cholcorr_fwd"}, fmt.Sprintf("{ %s double l[16]; gb_cholcorr_fwd(y, 6, l); %s }", cArray("y", y), printArray("l", 16)), l})

	// Stick breaking, K = 5.
	x := []float64{0.4, -2, 1.5, 0}
	sy := make([]float64, 5)
	ir.SimplexForward(x, sy)
	cs = append(cs, devCheck{[]string{"gb_simplex_fwd"}, fmt.Sprintf("{ %s double y[5]; gb_simplex_fwd(x, 4, y); %s }", cArray("x", x), printArray("y", 5)), sy})
	// Philox4x32-10 on a known-answer counter (cmd/genops's
	// TestPhiloxTranslated checks it on random ones).
	ctr, key := [4]uint32{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, [2]uint32{0xa4093822, 0x299f31d0}
	w := philox.Block(ctr, key)
	cs = append(cs, devCheck{[]string{"gb_philox4x32_10"}, fmt.Sprintf("{ unsigned int w[4]; gb_philox4x32_10(%du, %du, %du, %du, %du, %du, &w[0], &w[1], &w[2], &w[3]); for (int i = 0; i < 4; i++) printf(\"%%u\\n\", w[i]); }", ctr[0], ctr[1], ctr[2], ctr[3], key[0], key[1]),
		[]float64{float64(w[0]), float64(w[1]), float64(w[2]), float64(w[3])}})
	cs = append(cs, devCheck{[]string{"gb_philox_float64", "gb_philox_float32bits"}, "printf(\"%.17g\\n%.17g\\n%.17g\\n\", gb_philox_float64(0ull), gb_philox_float64(18446744073709551615ull), gb_philox_float32bits(4294967295u));",
		[]float64{philox.Float64(0), philox.Float64(1<<64 - 1), philox.Float32Bits(1<<32 - 1)}})
	return cs
}

var (
	deviceDef  = regexp.MustCompile(`(?m)^__device__ static [^(]*\b(gb_\w+)\([^;]*\{$`)
	deviceCall = regexp.MustCompile(`\b(gb_\w+)\(`)
	// programStart is the first function cgen writes for a program (its
	// scan bodies' or its own forward and reverse sweeps).
	programStart = regexp.MustCompile(`(?m)^__device__ static void gb_(fwd|bwd)_\d+\(`)
)

// TestTranslatedFunctionsGCC compiles the device library with gcc and
// calls the functions cmd/genops translates from Go (device_gen.cu) at
// points that reach each branch, against the Go they come from. Every
// translated function must be called here, or by one that is, or be
// called by the C that cgen writes for one of TestOpsGCC's cases, which
// checks it through the op against accel/ir.
func TestTranslatedFunctionsGCC(t *testing.T) {
	src, err := os.ReadFile("device_gen.cu")
	if err != nil {
		t.Fatal(err)
	}
	checks := deviceChecks()
	// Coverage: what the checks call, what the ops cover, and their
	// callees inside device_gen.cu.
	bodies := map[string]string{}
	defs := deviceDef.FindAllStringSubmatchIndex(string(src), -1)
	for i, m := range defs {
		end := len(src)
		if i+1 < len(defs) {
			end = defs[i+1][0]
		}
		bodies[string(src[m[2]:m[3]])] = string(src[m[1]:end])
	}
	if len(bodies) < 30 {
		t.Fatalf("found %d translated functions in device_gen.cu", len(bodies))
	}
	covered := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if covered[name] {
			return
		}
		covered[name] = true
		for _, m := range deviceCall.FindAllStringSubmatch(bodies[name], -1) {
			if _, ok := bodies[m[1]]; ok {
				visit(m[1])
			}
		}
	}
	for _, c := range checks {
		for _, f := range c.calls {
			visit(f)
		}
	}
	for _, tc := range opCases {
		p, err := tc.program()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		src, err := cgen.Generate(p)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// The program's own functions follow the libraries.
		at := programStart.FindStringIndex(src.Code)
		if at == nil {
			t.Fatalf("%s: no program function in the generated C", tc.name)
		}
		for _, m := range deviceCall.FindAllStringSubmatch(src.Code[at[0]:], -1) {
			if _, ok := bodies[m[1]]; ok {
				visit(m[1])
			}
		}
	}
	for name := range bodies {
		if !covered[name] {
			t.Errorf("translated function %s is checked nowhere: add a devCheck, or an op case to TestOpsGCC whose C calls it", name)
		}
	}

	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not on PATH: the translated C cannot be checked on the CPU (install gcc)")
	}
	var b strings.Builder
	b.WriteString(cgen.Shim)
	b.WriteString("#include <stdio.h>\n")
	b.WriteString(cgen.Library())
	b.WriteString("\nint main(void) {\n")
	var want []float64
	for _, c := range checks {
		b.WriteString(c.c + "\n")
		want = append(want, c.want...)
	}
	b.WriteString("return 0;\n}\n")
	dir := t.TempDir()
	cfile, bin := filepath.Join(dir, "device.c"), filepath.Join(dir, "device")
	if err := os.WriteFile(cfile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", "-O2", "-ffp-contract=off", "-pthread", "-o", bin, cfile, "-lm").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(want) {
		t.Fatalf("%d values printed, want %d", len(lines), len(want))
	}
	k := 0
	for _, c := range checks {
		for j, w := range c.want {
			got := parseC(lines[k])
			k++
			if !deviceNear(got, w) {
				t.Errorf("%s (value %d): C %v, Go %v\n%s", strings.Join(c.calls, ", "), j, got, w, c.c)
			}
		}
	}
}

func parseC(s string) float64 {
	if strings.Contains(s, "nan") {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// deviceNear is agreement to 1e-12 relative (or absolute below 1): the C
// library's log, exp, erfc and lgamma differ from Go's by an ulp or so.
func deviceNear(got, want float64) bool {
	if math.IsInf(want, 0) || math.IsNaN(want) {
		return got == want || math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= 1e-12*math.Max(math.Abs(want), 1)
}

func init() {
	opCases = append(opCases, opCase{"cov_exp_quad of parameter points", func(b *ir.Builder, x ir.ID) ir.ID {
		pts, _ := b.Reshape(x, []int{3, 2})
		k := emit(b, ir.OpCovExpQuad, nil, pts, pos(b, b.ParamSlice(0, nil)), pos(b, b.ParamSlice(1, nil)))
		return sum(b, emit(b, ir.OpSquare, nil, k))
	}})
}
