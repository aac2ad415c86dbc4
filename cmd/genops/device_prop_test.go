package main

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	_ "unsafe" // go:linkname: the unexported marked functions

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef"
	"github.com/gobayes/gobayes/accel/philox"
)

// The unexported marked functions, by their symbols (TestTranslatedScalarFuncs
// checks each declaration's signature against go/types').

//go:linkname opdefMillsSeries github.com/gobayes/gobayes/accel/opdef.millsSeries
func opdefMillsSeries(float64) float64

//go:linkname opdefIncBeta github.com/gobayes/gobayes/accel/opdef.incBeta
func opdefIncBeta(float64, float64, float64, float64, bool) (float64, float64, float64)

//go:linkname opdefIncBetaDirect github.com/gobayes/gobayes/accel/opdef.incBetaDirect
func opdefIncBetaDirect(float64, float64, float64, float64, bool) (float64, float64, float64)

//go:linkname opdefBetaPrefix github.com/gobayes/gobayes/accel/opdef.betaPrefix
func opdefBetaPrefix(float64, float64, float64, float64, float64, float64) float64

//go:linkname opdefLbetaStirling github.com/gobayes/gobayes/accel/opdef.lbetaStirling
func opdefLbetaStirling(float64, float64) float64

//go:linkname opdefGammaTails github.com/gobayes/gobayes/accel/opdef.gammaTails
func opdefGammaTails(float64, float64, bool) (float64, float64, float64, float64)

//go:linkname opdefOtherTail github.com/gobayes/gobayes/accel/opdef.otherTail
func opdefOtherTail(float64, float64) (float64, float64)

//go:linkname opdefGammaPSeries github.com/gobayes/gobayes/accel/opdef.gammaPSeries
func opdefGammaPSeries(float64, float64, float64, bool) (float64, float64)

//go:linkname opdefGammaQSmallShape github.com/gobayes/gobayes/accel/opdef.gammaQSmallShape
func opdefGammaQSmallShape(float64, float64, float64, float64, bool) (float64, float64)

//go:linkname opdefGammaQFraction github.com/gobayes/gobayes/accel/opdef.gammaQFraction
func opdefGammaQFraction(float64, float64, float64, bool) (float64, float64)

//go:linkname opdefGammaPrefix github.com/gobayes/gobayes/accel/opdef.gammaPrefix
func opdefGammaPrefix(float64, float64, float64) float64

//go:linkname opdefLog1pmx github.com/gobayes/gobayes/accel/opdef.log1pmx
func opdefLog1pmx(float64) float64

//go:linkname opdefStirlingErr github.com/gobayes/gobayes/accel/opdef.stirlingErr
func opdefStirlingErr(float64) float64

//go:linkname opdefLgamma1p github.com/gobayes/gobayes/accel/opdef.lgamma1p
func opdefLgamma1p(float64) float64

//go:linkname irCholCorrK github.com/gobayes/gobayes/accel/ir.cholCorrK
func irCholCorrK(int) int

//go:linkname irIntervalFwd github.com/gobayes/gobayes/accel/ir.intervalFwd
func irIntervalFwd(float64, float64, float64) float64

//go:linkname irLogSech2 github.com/gobayes/gobayes/accel/ir.logSech2
func irLogSech2(float64) float64

//go:linkname irSech2 github.com/gobayes/gobayes/accel/ir.sech2
func irSech2(float64) float64

//go:linkname irLogisticPair github.com/gobayes/gobayes/accel/ir.logisticPair
func irLogisticPair(float64) (float64, float64)

//go:linkname irLogisticLogJ github.com/gobayes/gobayes/accel/ir.logisticLogJ
func irLogisticLogJ(float64) float64

//go:linkname irCategoryIndex github.com/gobayes/gobayes/accel/ir.categoryIndex
func irCategoryIndex(float64, int) (int, bool)

//go:linkname irLkjLogC github.com/gobayes/gobayes/accel/ir.lkjLogC
func irLkjLogC(int, float64) float64

//go:linkname irLkjDLogC github.com/gobayes/gobayes/accel/ir.lkjDLogC
func irLkjDLogC(int, float64) float64

//go:linkname philoxBlock github.com/gobayes/gobayes/accel/philox.block
func philoxBlock(c0, c1, c2, c3, k0, k1 uint32) (uint32, uint32, uint32, uint32)

//go:linkname philoxRound github.com/gobayes/gobayes/accel/philox.round
func philoxRound(c0, c1, c2, c3, k0, k1 uint32) (uint32, uint32, uint32, uint32)

// goScalarFuncs are the Go of every marked function of scalars, by C
// name.
var goScalarFuncs = map[string]any{
	"gb_philox4x32_10":      philoxBlock,
	"gb_philox_round":       philoxRound,
	"gb_philox_float64":     philox.Float64,
	"gb_philox_float32bits": philox.Float32Bits,
	"gb_digamma":            opdef.Digamma,
	"gb_trigamma":           opdef.Trigamma,
	"gb_sign":               opdef.Sign,
	"gb_inv":                opdef.Inv,
	"gb_lbeta":              opdef.LBeta,
	"gb_lchoose":            opdef.LChoose,
	"gb_logaddexp":          opdef.LogAddExp,
	"gb_logdiffexp":         opdef.LogDiffExp,
	"gb_log_phi":            opdef.LogPhi,
	"gb_dlog_phi":           opdef.DLogPhi,
	"gb_mills_series":       opdefMillsSeries,
	"gb_log1mexp":           opdef.Log1mExp,
	"gb_log_inc_beta":       opdef.LogIncBeta,
	"gb_dlog_inc_beta_a":    opdef.DLogIncBetaA,
	"gb_dlog_inc_beta_b":    opdef.DLogIncBetaB,
	"gb_inc_beta":           opdefIncBeta,
	"gb_inc_beta_direct":    opdefIncBetaDirect,
	"gb_beta_prefix":        opdefBetaPrefix,
	"gb_lbeta_stirling":     opdefLbetaStirling,
	"gb_log_gamma_p":        opdef.LogGammaP,
	"gb_log_gamma_q":        opdef.LogGammaQ,
	"gb_dlog_gamma_p":       opdef.DLogGammaP,
	"gb_dlog_gamma_q":       opdef.DLogGammaQ,
	"gb_gamma_tails":        opdefGammaTails,
	"gb_other_tail":         opdefOtherTail,
	"gb_gamma_p_series":     opdefGammaPSeries,
	"gb_gamma_q_small":      opdefGammaQSmallShape,
	"gb_gamma_q_fraction":   opdefGammaQFraction,
	"gb_gamma_prefix":       opdefGammaPrefix,
	"gb_log1pmx":            opdefLog1pmx,
	"gb_stirling_err":       opdefStirlingErr,
	"gb_lgamma1p":           opdefLgamma1p,
	"gb_cholcorr_k":         irCholCorrK,
	"gb_interval_fwd":       irIntervalFwd,
	"gb_log_sech2":          irLogSech2,
	"gb_sech2":              irSech2,
	"gb_logistic":           ir.Logistic,
	"gb_logistic_pair":      irLogisticPair,
	"gb_logistic_deriv":     ir.LogisticDeriv,
	"gb_softplus":           ir.Softplus,
	"gb_logistic_logj":      irLogisticLogJ,
	"gb_logit":              ir.Logit,
	"gb_category_index":     irCategoryIndex,
	"gb_lkj_logc":           irLkjLogC,
	"gb_lkj_dlogc":          irLkjDLogC,
}

// edgeFloats are the arguments every function meets: zeros, ones, the
// infinities, NaN, subnormals, the extremes and a few values near
// branch points of the library's functions.
var edgeFloats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, 3, 10, 30, 100, 700, -700, 1e-8, -1e-8, 1e8,
	math.Inf(1), math.Inf(-1), math.NaN(),
	5e-324, -5e-324, 1e-310, 2.2250738585072014e-308, 1e-300, 1e300, -1e300,
	math.MaxFloat64, -math.MaxFloat64, 1 - 0x1p-53, 1 + 0x1p-52,
}

func randFloat(r *rand.Rand) float64 {
	switch r.IntN(5) {
	case 0:
		return edgeFloats[r.IntN(len(edgeFloats))]
	case 1:
		return 20*r.Float64() - 10
	case 2:
		return r.Float64()
	case 3:
		return math.Exp(80*r.Float64() - 40)
	}
	return -math.Exp(80*r.Float64() - 40)
}

// randArgs draws fn's arguments as bit patterns.
func randArgs(r *rand.Rand, fn *cfunc) []uint64 {
	args := make([]uint64, len(fn.params))
	for i, p := range fn.params {
		switch p.t.k {
		case kFloat:
			args[i] = math.Float64bits(randFloat(r))
		case kInt:
			args[i] = uint64(int64(r.IntN(45) - 3))
		case kBool:
			args[i] = uint64(r.IntN(2))
		case kU32:
			args[i] = uint64(r.Uint32())
			if r.IntN(5) == 0 {
				args[i] = []uint64{0, 1, 1<<31 - 1, 1 << 31, 1<<32 - 1}[r.IntN(5)]
			}
		default:
			args[i] = r.Uint64()
			if r.IntN(5) == 0 {
				args[i] = []uint64{0, 1, 1<<63 - 1, 1 << 63, 1<<64 - 1}[r.IntN(5)]
			}
		}
	}
	return args
}

// TestTranslatedScalarFuncs: every marked function of scalars in
// accel/opdef, accel/dense and accel/ir, translated and compiled with
// gcc, gives the Go's results on random arguments and edge values. A
// function whose C calls none of the C library's inexact functions
// (libmCalls) agrees bit for bit; one that does agrees to libmTol, since
// glibc and Go's math round differently in the last place and the
// function's arithmetic may magnify that (libmComparable says which
// arguments are compared).
func TestTranslatedScalarFuncs(t *testing.T) {
	d, src := translateLibrary(t, devicePackages)
	libm := libmUsers(src)
	r := rand.New(rand.NewPCG(23, 1))
	var fns []*cfunc
	var calls []cCall
	for _, fn := range d.order {
		if !scalarFunc(fn) {
			continue
		}
		g, ok := goScalarFuncs[fn.cName]
		if !ok {
			t.Errorf("%s (%s) is a marked function of scalars without an entry in goScalarFuncs", fn.key, fn.cName)
			continue
		}
		if got, want := reflect.TypeOf(g).String(), goSignature(fn); got != want {
			t.Errorf("goScalarFuncs[%s] is %s, the Go is %s", fn.cName, got, want)
			continue
		}
		fns = append(fns, fn)
		for range 400 {
			args := randArgs(r, fn)
			if dom := libmDomains[fn.cName]; dom[2] == [2]float64{0, 1} && r.IntN(2) == 0 {
				// The incomplete beta function's x and y = 1 - x.
				x := r.Float64()
				args[2], args[3] = math.Float64bits(x), math.Float64bits(1-x)
			}
			calls = append(calls, cCall{fn, args})
		}
	}
	if len(fns) != len(goScalarFuncs) {
		t.Errorf("%d marked functions of scalars, %d in goScalarFuncs", len(fns), len(goScalarFuncs))
	}
	res := runC(t, src, fns, calls)
	worst := map[string]float64{}
	for i, c := range calls {
		want := callGo(reflect.ValueOf(goScalarFuncs[c.fn.cName]), c.args)
		got := res[i]
		if len(got) != len(want) {
			t.Fatalf("%s: %d results in C, %d in Go", c.fn.cName, len(got), len(want))
		}
		exact := !libm[c.fn.cName]
		if !exact && !libmComparable(c) {
			continue
		}
		for j := range want {
			rt := c.fn.results[j]
			if exact || rt.k != kFloat {
				if got[j] != want[j] && (rt.k != kFloat || ulps(got[j], want[j]) != 0) {
					t.Errorf("%s%v: result %d is %v in C, %v in Go (bitwise, no libm)", c.fn.cName, showArgs(c), j, show(rt, got[j]), show(rt, want[j]))
				}
				continue
			}
			g, w := math.Float64frombits(got[j]), math.Float64frombits(want[j])
			if class(g) != class(w) {
				t.Errorf("%s%v: result %d is %v in C, %v in Go", c.fn.cName, showArgs(c), j, g, w)
				continue
			}
			if class(w) != 0 {
				continue
			}
			e := math.Abs(g-w) / max(1, math.Abs(w))
			worst[c.fn.cName] = max(worst[c.fn.cName], e)
			if e > libmTol {
				t.Errorf("%s%v: result %d is %v in C, %v in Go (%.3g apart, bound %g)", c.fn.cName, showArgs(c), j, g, w, e, libmTol)
			}
		}
	}
	names := make([]string, 0, len(worst))
	for n := range worst {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%-24s worst %.3g", n, worst[n])
	}
}

// libmTol bounds |C - Go| / max(1, |Go|) for the functions that call
// the C library's inexact functions: the conformance suite's tolerance.
const libmTol = 1e-12

// class is 0 for a finite x, 1 for +Inf, 2 for -Inf and 3 for NaN.
func class(x float64) int {
	switch {
	case math.IsNaN(x):
		return 3
	case math.IsInf(x, 1):
		return 1
	case math.IsInf(x, -1):
		return 2
	}
	return 0
}

// libmComparable reports whether a call of a function that calls the C
// library's inexact functions is compared. Not with an argument below
// 1e-300 in magnitude (other than 0), whose subnormal intermediates meet
// Go's math.Log on amd64, which gives the log of the smallest normal for
// every subnormal (-709.09 for 5e-324, where C's log gives -744.44); not
// with an infinity, which may reach lgamma as -Inf (Go's math.Lgamma(-Inf)
// is -Inf, C's lgamma +Inf); and only inside the domains of libmDomains.
// NaN arguments are compared: NaN in C where NaN in Go.
func libmComparable(c cCall) bool {
	dom := libmDomains[c.fn.cName]
	for i, p := range c.fn.params {
		if p.t.k != kFloat {
			continue
		}
		x := math.Float64frombits(c.args[i])
		if x != 0 && math.Abs(x) < 1e-300 || math.IsInf(x, 0) {
			return false
		}
		if r, ok := dom[i]; ok && !(x >= r[0] && x <= r[1]) {
			return false
		}
	}
	return true
}

// libmDomains are the arguments' ranges, by index, outside which the
// Go and the C of a function differ by more than rounding: x and y of
// the incomplete beta function are probabilities (outside [0, 1] its
// continued fraction magnifies the last place), and the LKJ constant's
// extern twin (gb_lbeta, translated from opdef.LBeta: lgamma's difference) is NaN-free
// for η < 0 where gonum's mathext.Lbeta is NaN, and cancels for η ≫ 1
// where gonum's does not.
var libmDomains = map[string]map[int][2]float64{
	"gb_log_inc_beta":    {2: {0, 1}, 3: {0, 1}},
	"gb_dlog_inc_beta_a": {2: {0, 1}, 3: {0, 1}},
	"gb_dlog_inc_beta_b": {2: {0, 1}, 3: {0, 1}},
	"gb_inc_beta":        {2: {0, 1}, 3: {0, 1}},
	"gb_inc_beta_direct": {2: {0, 1}, 3: {0, 1}},
	"gb_beta_prefix":     {2: {0, 1}, 3: {0, 1}},
	"gb_lkj_logc":        {1: {0, 1e4}},
	"gb_lkj_dlogc":       {1: {0, 1e4}},
}

// TestPhiloxTranslated: accel/philox's Philox4x32-10, translated from
// its Go (block and round, //gb:cuda) and compiled with gcc, gives
// philox.Block's words for random counters and keys and for Random123's
// known-answer counters.
func TestPhiloxTranslated(t *testing.T) {
	d, src := translateLibrary(t, []string{"accel/philox"})
	fn := d.funcs["philox.block"]
	if fn == nil || fn.cName != "gb_philox4x32_10" {
		t.Fatal("philox.block is not translated as gb_philox4x32_10")
	}
	r := rand.New(rand.NewPCG(22, 23))
	type kat struct {
		ctr [4]uint32
		key [2]uint32
	}
	cases := []kat{{}, {[4]uint32{1<<32 - 1, 1<<32 - 1, 1<<32 - 1, 1<<32 - 1}, [2]uint32{1<<32 - 1, 1<<32 - 1}},
		{[4]uint32{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, [2]uint32{0xa4093822, 0x299f31d0}}}
	for range 2000 {
		cases = append(cases, kat{[4]uint32{r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32()}, [2]uint32{r.Uint32(), r.Uint32()}})
	}
	var calls []cCall
	for _, c := range cases {
		calls = append(calls, cCall{fn, []uint64{uint64(c.ctr[0]), uint64(c.ctr[1]), uint64(c.ctr[2]), uint64(c.ctr[3]), uint64(c.key[0]), uint64(c.key[1])}})
	}
	res := runC(t, src, []*cfunc{fn}, calls)
	for i, c := range cases {
		want := philox.Block(c.ctr, c.key)
		for j := range want {
			if res[i][j] != uint64(want[j]) {
				t.Fatalf("Block(%x, %x): word %d is %x in C, %x in Go", c.ctr, c.key, j, res[i][j], want[j])
			}
		}
	}
}

// translateLibrary translates the marked functions of dirs under the
// repository root.
func translateLibrary(t *testing.T, dirs []string) (*device, []byte) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	d, err := loadDevice(root, dirs)
	if err != nil {
		t.Fatal(err)
	}
	src, err := d.translate()
	if err != nil {
		t.Fatal(err)
	}
	return d, src
}

func show(t ctype, u uint64) any {
	if t.k == kFloat {
		return math.Float64frombits(u)
	}
	return int64(u)
}

func showArgs(c cCall) []any {
	var out []any
	for i, a := range c.args {
		out = append(out, show(c.fn.params[i].t, a))
	}
	return out
}
