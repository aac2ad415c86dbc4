package philox

import (
	"fmt"
	"math"
	"testing"
)

// Known answers of Philox4x32-10 from Random123's examples/kat_vectors
// (Random123 1.09, D. E. Shaw Research), the three "philox4x32 10" lines:
// counter (4 words), key (2 words), expected output (4 words).
func TestBlockKnownAnswers(t *testing.T) {
	cases := []struct {
		ctr  [4]uint32
		key  [2]uint32
		want [4]uint32
	}{
		{[4]uint32{0, 0, 0, 0}, [2]uint32{0, 0}, [4]uint32{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
		{[4]uint32{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, [2]uint32{0xffffffff, 0xffffffff}, [4]uint32{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
		{[4]uint32{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, [2]uint32{0xa4093822, 0x299f31d0}, [4]uint32{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
	}
	for _, c := range cases {
		if got := Block(c.ctr, c.key); got != c.want {
			t.Errorf("Block(%08x, %08x) = %08x, want %08x", c.ctr, c.key, got, c.want)
		}
	}
}

// The stream of (seed, chain, step) is a pure function of the three: the
// same numbers whenever it is made, different numbers for a neighbour.
func TestStreamAddressing(t *testing.T) {
	a, b := New(7, 3, 11), New(7, 3, 11)
	for i := 0; i < 20; i++ {
		if x, y := a.Uint32(), b.Uint32(); x != y {
			t.Fatalf("word %d: %d != %d for the same address", i, x, y)
		}
	}
	// The first word of a stream is Block of counter (0, step, chain) under
	// the seed's key.
	s := New(0x0000000100000002, 5, 9)
	if got, want := s.Uint32(), Block([4]uint32{0, 9, 5, 0}, [2]uint32{2, 1})[0]; got != want {
		t.Errorf("first word %08x, want %08x", got, want)
	}
	for _, o := range []Stream{New(8, 3, 11), New(7, 4, 11), New(7, 3, 12)} {
		c := New(7, 3, 11)
		if o.Uint64() == c.Uint64() {
			t.Errorf("neighbouring stream %+v repeats the numbers of (7, 3, 11)", o)
		}
	}
}

// Moments of many uniforms and normals within 5 standard errors of the
// exact ones (uniform: mean 1/2, variance 1/12; normal: 0, 1, skewness 0,
// kurtosis 3), and tail frequencies against the normal CDF (math.Erfc).
func TestDistributions(t *testing.T) {
	const n = 400000
	var su, su2, sz, sz2, sz3, sz4 float64
	// 3.7 lies beyond the ziggurat's base layer (r = 3.654).
	tail := map[float64]int{1: 0, 2: 0, 3: 0, 3.5: 0, 3.7: 0}
	for i := 0; i < n; i++ {
		s := New(42, uint64(i%1000), uint64(i/1000))
		u := s.Uniform()
		if !(u > 0 && u < 1) {
			t.Fatalf("uniform %g outside (0, 1)", u)
		}
		su += u
		su2 += (u - 0.5) * (u - 0.5)
		z := s.Normal()
		sz += z
		sz2 += z * z
		sz3 += z * z * z
		sz4 += z * z * z * z
		for c := range tail {
			if math.Abs(z) > c {
				tail[c]++
			}
		}
	}
	check := func(name string, got, want, se float64) {
		if math.Abs(got-want) > 5*se {
			t.Errorf("%s = %.5f, want %.5f ± %.5f", name, got, want, 5*se)
		}
	}
	check("uniform mean", su/n, 0.5, math.Sqrt(1.0/12/n))
	check("uniform variance", su2/n, 1.0/12, math.Sqrt((1.0/80-1.0/144)/n))
	check("normal mean", sz/n, 0, math.Sqrt(1.0/n))
	check("normal variance", sz2/n, 1, math.Sqrt(2.0/n))
	check("normal third moment", sz3/n, 0, math.Sqrt(15.0/n))
	check("normal fourth moment", sz4/n, 3, math.Sqrt(96.0/n))
	for c, k := range tail {
		p := math.Erfc(c / math.Sqrt2)
		check(fmt.Sprintf("P(|z| > %g)", c), float64(k)/n, p, math.Sqrt(p*(1-p)/n))
	}
}

func BenchmarkNormal(b *testing.B) {
	var sum float64
	for i := 0; i < b.N; i++ {
		s := New(1, uint64(i), 0)
		sum += s.Normal()
	}
	_ = sum
}

func BenchmarkBlock(b *testing.B) {
	var acc uint32
	for i := 0; i < b.N; i++ {
		acc ^= Block([4]uint32{uint32(i), 0, 0, 0}, [2]uint32{1, 2})[0]
	}
	_ = acc
}

// Blocks (four chains at a time in assembly on amd64) against Block, for
// counts that are and are not multiples of 4, and chains that cross 2^32.
func TestBlocksAgainstBlock(t *testing.T) {
	for _, c := range []struct {
		chain0 uint64
		n      int
	}{{0, 1}, {5, 4}, {1000, 37}, {1<<32 - 6, 12}, {7 << 40, 9}} {
		key := Key(0x0123456789abcdef ^ c.chain0)
		w := make([][]uint32, 4)
		for k := range w {
			w[k] = make([]uint32, c.n)
		}
		Blocks(key, 99, c.chain0, w[0], w[1], w[2], w[3])
		for i := 0; i < c.n; i++ {
			ch := c.chain0 + uint64(i)
			want := Block([4]uint32{0, 99, uint32(ch), uint32(ch >> 32)}, key)
			for k := range want {
				if w[k][i] != want[k] {
					t.Fatalf("chain %d word %d: %08x, Block gives %08x", ch, k, w[k][i], want[k])
				}
			}
		}
	}
}

// BenchmarkZiggurat is the fast path over a block of random words, as the
// one-dimensional RWMH uses it.
func BenchmarkZiggurat(b *testing.B) {
	s := New(1, 0, 0)
	words := make([]uint32, 4096)
	for i := range words {
		words[i] = s.Uint32()
	}
	out := make([]float64, len(words))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for c, w := range words {
			z, _ := Ziggurat(w)
			out[c] = z
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(words)), "ns/word")
}

// Moments of many exponentials within 5 standard errors of the exact ones
// (mean 1, variance 1, third central moment 2), and tail frequencies
// P(E > c) = exp(−c) — c = 7.8 lies beyond the ziggurat's base layer, so
// the tail path is exercised — and the fast path's share against the
// mean of the layers' thresholds (the share of each layer's rectangle
// that lies under the density).
func TestExponential(t *testing.T) {
	const n = 1_000_000
	var s1, s2, s3 float64
	fast := 0
	tail := map[float64]int{0.1: 0, 1: 0, 3: 0, 6: 0, 7.8: 0}
	for i := 0; i < n; i++ {
		s := New(7, uint64(i%1000), uint64(i/1000))
		w := s.Uint32()
		if _, ok := ExpZiggurat(w); ok {
			fast++
		}
		e := ExponentialFrom(w, &s)
		if !(e >= 0) || math.IsInf(e, 0) {
			t.Fatalf("exponential %g outside [0, ∞)", e)
		}
		s1 += e
		s2 += (e - 1) * (e - 1)
		s3 += (e - 1) * (e - 1) * (e - 1)
		for c := range tail {
			if e > c {
				tail[c]++
			}
		}
	}
	check := func(name string, got, want, se float64) {
		if math.Abs(got-want) > 5*se {
			t.Errorf("%s = %.5f, want %.5f ± %.5f", name, got, want, 5*se)
		}
	}
	// Central moments of Exp(1): μ2 = 1, μ3 = 2, μ4 = 9, μ6 = 265.
	check("mean", s1/n, 1, math.Sqrt(1.0/n))
	check("variance", s2/n, 1, math.Sqrt((9.0-1)/n))
	check("third central moment", s3/n, 2, math.Sqrt((265.0-4)/n))
	for c, k := range tail {
		p := math.Exp(-c)
		check(fmt.Sprintf("P(E > %g)", c), float64(k)/n, p, math.Sqrt(p*(1-p)/n))
	}
	want := 0.0
	for _, k := range expK {
		want += float64(k) / (1 << 32) / 256
	}
	check("fast-path share", float64(fast)/n, want, math.Sqrt(want*(1-want)/n))
}
