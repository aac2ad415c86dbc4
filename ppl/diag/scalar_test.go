package diag

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// arChains are m seeded AR(1) chains of n draws with coefficient phi,
// passed through f (rounding makes ties, exp skews).
func arChains(seed uint64, m, n int, phi float64, f func(float64) float64) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([][]float64, m)
	s := math.Sqrt(1 - phi*phi)
	for c := range out {
		x := rng.NormFloat64()
		out[c] = make([]float64, n)
		for i := range out[c] {
			x = phi*x + s*rng.NormFloat64()
			out[c][i] = f(x)
		}
	}
	return out
}

func same(x float64) float64 { return x }

// TestSummariseMatchesReference: the shared, sorted-once computation gives
// what the diagnostics computed one by one give — the same bits where the
// autocovariances are summed directly, within 1e-12 where a long
// autocorrelation sends them to the FFT and for the tail ESS (counted
// indicators) — on seeded chains with ties, odd lengths, one chain, short
// chains, constants and non-finite draws.
func TestSummariseMatchesReference(t *testing.T) {
	round := func(x float64) float64 { return math.Round(4*x) / 4 }
	cases := []struct {
		name   string
		chains [][]float64
		exact  bool
	}{
		{"iid", arChains(1, 4, 2000, 0, same), true},
		{"ar 0.8", arChains(2, 4, 3000, 0.8, same), true},
		{"ar 0.8 odd", arChains(3, 4, 2001, 0.8, same), true},
		{"ar 0.9 skewed", arChains(4, 3, 1500, 0.9, math.Exp), true},
		{"ties", arChains(5, 4, 1000, 0.5, round), true},
		{"ties odd", arChains(6, 2, 999, 0.3, round), true},
		{"counts", arChains(7, 4, 800, 0.6, func(x float64) float64 { return math.Floor(math.Exp(x)) }), true},
		{"one chain", arChains(8, 1, 1000, 0.7, same), true},
		{"long (FFT)", arChains(9, 4, 4000, 0.995, same), false},
		{"long odd (FFT)", arChains(10, 3, 3333, 0.99, round), false},
		{"n=7", arChains(11, 4, 7, 0.2, same), true},
		{"n=5", arChains(12, 2, 5, 0.2, same), true},
		{"n=3", arChains(13, 4, 3, 0.2, same), true},
		{"n=1", arChains(14, 4, 1, 0.2, same), true},
		{"constant", [][]float64{{2, 2, 2, 2, 2, 2, 2, 2, 2}, {2, 2, 2, 2, 2, 2, 2, 2, 2}}, true},
		{"NaN", [][]float64{{1, 2, math.NaN(), 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}, true},
		{"Inf", [][]float64{{1, 2, math.Inf(1), 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}, true},
		{"unequal", [][]float64{{1, 5, 2, 4, 3, 7, 9, 8, 6}, {4, 2, 3, 1, 5, 6, 8, 7}}, true},
		{"empty", [][]float64{{}, {}}, true},
		{"fixedA", fixedA, true},
		{"fixedB", fixedB, true},
	}
	for _, c := range cases {
		got, want := Summarise(c.chains), reference(c.chains)
		gv, wv := reflect.ValueOf(got), reflect.ValueOf(want)
		for i := 0; i < gv.NumField(); i++ {
			name := gv.Type().Field(i).Name
			if gv.Field(i).Kind() == reflect.Bool {
				if gv.Field(i).Bool() != wv.Field(i).Bool() {
					t.Errorf("%s: %s = %v, want %v", c.name, name, gv.Field(i).Bool(), wv.Field(i).Bool())
				}
				continue
			}
			g, w := gv.Field(i).Float(), wv.Field(i).Float()
			switch {
			case math.IsNaN(g) || math.IsNaN(w):
				if math.IsNaN(g) != math.IsNaN(w) {
					t.Errorf("%s: %s = %v, want %v", c.name, name, g, w)
				}
			case c.exact && name != "ESSTail" && g != w:
				t.Errorf("%s: %s = %.17g, want %.17g (bit for bit)", c.name, name, g, w)
			case math.Abs(g-w) > 1e-12*math.Max(1, math.Abs(w)):
				t.Errorf("%s: %s = %.17g, want %.17g", c.name, name, g, w)
			}
		}
	}
}

// TestSummariseAllWorkers: the results do not depend on how many
// goroutines compute them.
func TestSummariseAllWorkers(t *testing.T) {
	var scalars [][][]float64
	for k := 0; k < 7; k++ {
		scalars = append(scalars, arChains(uint64(20+k), 4, 1001, 0.15*float64(k), same))
	}
	one := SummariseAll(scalars, 1)
	for _, w := range []int{2, 3, 16} {
		if got := SummariseAll(scalars, w); !reflect.DeepEqual(got, one) {
			t.Errorf("SummariseAll with %d workers differs from 1 worker", w)
		}
	}
}

func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := []float64{0, math.Copysign(0, -1), 1, -1, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 3.5, 3.5}
	for range 5000 {
		vals = append(vals, rng.NormFloat64()*math.Pow(10, float64(rng.IntN(20)-10)))
	}
	n := len(vals)
	keys, idx := make([]uint64, n), make([]uint32, n)
	for i, v := range vals {
		keys[i], idx[i] = floatKey(v), uint32(i)
	}
	var count [radixPasses][radixBuckets]uint32
	keys, idx = radixSort(keys, make([]uint64, n), idx, make([]uint32, n), &count)
	for i := range keys {
		v := keyFloat(keys[i])
		if math.Float64bits(v) != math.Float64bits(vals[idx[i]]) {
			t.Fatalf("position %d holds %v, its index %d says %v", i, v, idx[i], vals[idx[i]])
		}
		if i > 0 && keyFloat(keys[i-1]) > v {
			t.Fatalf("not sorted at %d: %v > %v", i, keyFloat(keys[i-1]), v)
		}
	}
}

// TestFFTAutocov: the FFT's autocovariances are the direct sums' within
// rounding, at every lag, odd and even lengths.
func TestFFTAutocov(t *testing.T) {
	for _, n := range []int{1000, 1001, 2310} {
		ch := arChains(uint64(n), 3, n, 0.9, same)
		var direct, fft essWork
		direct.ess(ch) // centres the chains into d
		fft.ess(ch)
		for len(direct.acov) < n {
			direct.lagBlock(3, n)
		}
		fft.acov = fft.acov[:0]
		fft.fftAcov(3, n)
		for lag := range n {
			if d := math.Abs(fft.acov[lag] - direct.acov[lag]); d > 1e-12*direct.acov[0] {
				t.Fatalf("n=%d lag %d: FFT %g, direct %g", n, lag, fft.acov[lag], direct.acov[lag])
			}
		}
	}
}
