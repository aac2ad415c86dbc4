package diag

import (
	"math"
	"math/bits"

	"gonum.org/v1/gonum/dsp/fourier"
)

// essWork is the scratch of the fast effective sample size: ESS's
// arithmetic, with the autocovariances computed eight lags per pass
// (the same sums in the same order as ESS's, so the same bits) while the
// Geyer sequence is short, and all at once by FFT when it runs long.
type essWork struct {
	d    []float64 // the centred chains, one after another
	acov []float64 // autocovariances computed so far, lags 0..len-1
	rho  []float64
	// Indicator scratch: bit sets and running counts of the ones.
	bits []uint64
	ones []int32
	// FFT scratch.
	fft   *fourier.FFT
	seq   []float64
	coeff []complex128
	power []float64
	back  []float64
}

// lagsBeforeFFT is how many lags are summed directly before the rest come
// from the FFT, for chains of n draws: each direct lag costs a pass over
// the draws, the FFT (m+1) transforms of length 2n, so the break-even
// grows as log n. Measured with 8 half-chains of 40,000 draws: a direct
// lag 0.23 ms, the FFT 59 ms, so about 256 lags ≈ 16·log₂(2n).
func lagsBeforeFFT(n int) int { return 16 * bits.Len(uint(2*n)) }

// ess is ESS(chains), for chains of equal length.
func (w *essWork) ess(chains [][]float64) float64 {
	m := len(chains)
	if m == 0 || len(chains[0]) < 4 || !allFinite(chains) {
		return math.NaN()
	}
	n := len(chains[0])
	w.d = grow(w.d, m*n)
	var means [64]float64
	meansOf := means[:0]
	if m > len(means) {
		meansOf = make([]float64, 0, m)
	}
	for i, c := range chains {
		mu := 0.0
		for _, v := range c {
			mu += v
		}
		mu /= float64(n)
		meansOf = append(meansOf, mu)
		d := w.d[i*n : (i+1)*n]
		for k, v := range c {
			d[k] = v - mu
		}
	}
	w.acov = w.acov[:0]
	limit := lagsBeforeFFT(n)
	noise := math.Log(1 / math.Sqrt(float64(m*n)))
	return w.geyer(m, n, meansOf, func(t int) float64 {
		for t >= len(w.acov) {
			if k := len(w.acov); n > limit && (k >= limit || k >= 16 && longSequence(w.acov, noise, limit)) {
				w.fftAcov(m, n)
				break
			}
			w.lagBlock(m, n)
		}
		return w.acov[t]
	})
}

// essIndicator is ESS of the split chains of the indicator x ≤ q, each
// chain of chains split in two halves of h draws as Split cuts them.
// The products of an indicator's centred values take three values, so
// the autocovariances come from counts: of the ones, and of the pairs of
// ones t apart, 64 draws per word (bit sets and population counts). They
// differ from ESS's sums by rounding only.
func (w *essWork) essIndicator(chains [][]float64, h int, q float64) float64 {
	m := 2 * len(chains)
	if h < 4 {
		return math.NaN()
	}
	words := (h + 63) / 64
	w.bits = grow(w.bits, m*words)
	clear(w.bits)
	w.ones = grow(w.ones, m*(h+1)) // ones[i*(h+1)+k]: ones among half i's first k draws
	var means [64]float64
	meansOf := means[:0]
	if m > len(means) {
		meansOf = make([]float64, 0, m)
	}
	for c, ch := range chains {
		n := len(ch)
		for half, start := range [2]int{0, n - h} {
			i := 2*c + half
			b, ones := w.bits[i*words:(i+1)*words], w.ones[i*(h+1):(i+1)*(h+1)]
			count := 0
			for k, v := range ch[start : start+h] {
				ones[k] = int32(count)
				if v <= q {
					b[k/64] |= 1 << (k % 64)
					count++
				}
			}
			ones[h] = int32(count)
			meansOf = append(meansOf, float64(count)/float64(h))
		}
	}
	nf := float64(h)
	return w.geyer(m, h, meansOf, func(t int) float64 {
		s := 0.0
		for i := 0; i < m; i++ {
			b, ones := w.bits[i*words:(i+1)*words], w.ones[i*(h+1):(i+1)*(h+1)]
			mu := meansOf[i]
			// Σ_{k<h-t} (I_k - μ)(I_{k+t} - μ) = pairs - μ·(ones in the
			// first h-t + ones in the last h-t) + (h-t)·μ².
			pairs := float64(pairsApart(b, t))
			first, last := float64(ones[h-t]), float64(ones[h]-ones[t])
			a := pairs - mu*(first+last) + float64(h-t)*mu*mu
			s += a / nf
		}
		return s / float64(m)
	})
}

// pairsApart counts the k with bits k and k+t both set, in a bit set
// whose bits past its length are clear.
func pairsApart(b []uint64, t int) int {
	wt, sh := t/64, uint(t%64)
	n := 0
	for i := 0; i+wt < len(b); i++ {
		s := b[i+wt] >> sh
		if sh != 0 && i+wt+1 < len(b) {
			s |= b[i+wt+1] << (64 - sh)
		}
		n += bits.OnesCount64(b[i] & s)
	}
	return n
}

// geyer is the end of ESS: the effective sample size of m chains of n
// draws with the given means, from their averaged autocovariances (acov,
// called lag by lag as Geyer's initial positive sequence needs them).
func (w *essWork) geyer(m, n int, meansOf []float64, acov func(t int) float64) float64 {
	acov0 := acov(0)
	nf := float64(n)
	meanVarW := acov0 * nf / (nf - 1)
	varPlus := meanVarW * (nf - 1) / nf
	if m > 1 {
		_, vb := meanVar(meansOf)
		varPlus += vb
	}
	if varPlus == 0 {
		return math.NaN()
	}
	w.rho = grow(w.rho, n)
	rho := w.rho
	clear(rho)
	rho[0] = 1
	rhoEven := 1.0
	rhoOdd := 1 - (meanVarW-acov(1))/varPlus
	rho[1] = rhoOdd
	t := 1
	for t < n-3 && rhoEven+rhoOdd > 0 {
		rhoEven = 1 - (meanVarW-acov(t+1))/varPlus
		rhoOdd = 1 - (meanVarW-acov(t+2))/varPlus
		if rhoEven+rhoOdd >= 0 {
			rho[t+1] = rhoEven
			rho[t+2] = rhoOdd
		}
		t += 2
	}
	maxT := t - 2
	if rhoEven > 0 {
		rho[maxT+1] = rhoEven
	}
	for t = 1; t <= maxT-2; t += 2 {
		if rho[t+1]+rho[t+2] > rho[t-1]+rho[t] {
			rho[t+1] = (rho[t-1] + rho[t]) / 2
			rho[t+2] = rho[t+1]
		}
	}
	total := float64(m * n)
	tau := -1.0
	for k := 0; k <= maxT; k++ {
		tau += 2 * rho[k]
	}
	if maxT+1 < n {
		tau += rho[maxT+1]
	}
	tau = math.Max(tau, 1/math.Log10(total))
	return total / tau
}

// longSequence says whether the autocorrelations computed so far decay
// so slowly that Geyer's sequence will run past limit lags: read as an
// AR(1)'s, ρ(t) = ρ(k)^(t/k) reaches the noise level 1/√(mn) (noise is
// its log) only after limit. Which way the autocovariances are computed
// changes their rounding only, so a wrong guess costs time, not results.
func longSequence(acov []float64, noise float64, limit int) bool {
	k := len(acov) - 1
	r := acov[k] / acov[0]
	if !(r > 0 && r < 1) {
		return false
	}
	return float64(k)*noise/math.Log(r) > float64(limit)
}

// lagBlock appends the autocovariances of the next 8 lags (fewer at the
// chain's end), averaged over the m centred chains in w.d, each chain's
// sum taken in draw order as ESS takes it.
func (w *essWork) lagBlock(m, n int) {
	t0 := len(w.acov)
	if t0 == 0 {
		// Lags 0–3 first: where draws are nearly independent, Geyer's
		// sequence ends there.
		w.lagBlock4(m, n)
		return
	}
	lags := min(8, n-t0)
	var s [8]float64
	for i := 0; i < m; i++ {
		d := w.d[i*n : (i+1)*n]
		var a [8]float64
		end := n - t0 - 7 // k < end: every lag of the block is in range
		if end > 0 {
			var a0, a1, a2, a3, a4, a5, a6, a7 float64
			x := d[:end]
			y0, y1, y2, y3 := d[t0:t0+end], d[t0+1:t0+1+end], d[t0+2:t0+2+end], d[t0+3:t0+3+end]
			y4, y5, y6, y7 := d[t0+4:t0+4+end], d[t0+5:t0+5+end], d[t0+6:t0+6+end], d[t0+7:t0+7+end]
			for k, v := range x {
				a0 += v * y0[k]
				a1 += v * y1[k]
				a2 += v * y2[k]
				a3 += v * y3[k]
				a4 += v * y4[k]
				a5 += v * y5[k]
				a6 += v * y6[k]
				a7 += v * y7[k]
			}
			a = [8]float64{a0, a1, a2, a3, a4, a5, a6, a7}
		} else {
			end = 0
		}
		for b := 0; b < lags; b++ {
			t := t0 + b
			for k := end; k+t < n; k++ {
				a[b] += d[k] * d[k+t]
			}
			s[b] += a[b] / float64(n)
		}
	}
	for b := 0; b < lags; b++ {
		w.acov = append(w.acov, s[b]/float64(m))
	}
}

// lagBlock4 is lagBlock for lags 0–3 of chains of at least 4 draws.
func (w *essWork) lagBlock4(m, n int) {
	var s [4]float64
	for i := 0; i < m; i++ {
		d := w.d[i*n : (i+1)*n]
		end := n - 3
		var a0, a1, a2, a3 float64
		x := d[:end]
		y1, y2, y3 := d[1:1+end], d[2:2+end], d[3:3+end]
		for k, v := range x {
			a0 += v * v
			a1 += v * y1[k]
			a2 += v * y2[k]
			a3 += v * y3[k]
		}
		a := [4]float64{a0, a1, a2, a3}
		for b := 0; b < 4; b++ {
			for k := end; k+b < n; k++ {
				a[b] += d[k] * d[k+b]
			}
			s[b] += a[b] / float64(n)
		}
	}
	for b := 0; b < 4; b++ {
		w.acov = append(w.acov, s[b]/float64(m))
	}
}

// fftAcov replaces the autocovariances beyond those computed with every
// lag's, from the power spectrum of the zero-padded chains summed over
// chains (one inverse transform for all of them). They differ from the
// direct sums by rounding only (≈1e-15 relative).
func (w *essWork) fftAcov(m, n int) {
	l := fftLen(2*n - 1)
	if w.fft == nil || w.fft.Len() != l {
		w.fft = fourier.NewFFT(l)
		w.seq = make([]float64, l)
		w.coeff = make([]complex128, l/2+1)
		w.power = make([]float64, l/2+1)
		w.back = make([]float64, l)
	}
	clear(w.power)
	for i := 0; i < m; i++ {
		copy(w.seq, w.d[i*n:(i+1)*n])
		clear(w.seq[n:])
		w.fft.Coefficients(w.coeff, w.seq)
		for k, c := range w.coeff {
			w.power[k] += real(c)*real(c) + imag(c)*imag(c)
		}
	}
	for k, p := range w.power {
		w.coeff[k] = complex(p, 0)
	}
	w.fft.Sequence(w.back, w.coeff)
	scale := 1 / (float64(l) * float64(n) * float64(m))
	for t := len(w.acov); t < n; t++ {
		w.acov = append(w.acov, w.back[t]*scale)
	}
}

// fftLen is the smallest length ≥ n whose only prime factors are 2, 3
// and 5, which FFTPACK transforms fastest.
func fftLen(n int) int {
	best := math.MaxInt
	for p2 := 1; p2 < 2*n; p2 *= 2 {
		for p3 := p2; p3 < 2*n; p3 *= 3 {
			for p5 := p3; p5 < 2*n; p5 *= 5 {
				if p5 >= n && p5 < best {
					best = p5
				}
			}
		}
	}
	return best
}

// grow returns s resized to n, reallocated only when too small.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
