package diag

import (
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/stat/distuv"
)

// Scalar is what a summary table and a run's warnings say of one scalar:
// its moments, quantiles and 94% HDI, and its convergence diagnostics,
// each equal to what the function of the same name computes (ESSBulk,
// Rhat, …) — to the bit while the autocorrelations are short, within
// rounding (≈1e-14) where the FFT computes them and for ESSTail, whose
// indicators' autocovariances are counted.
type Scalar struct {
	Mean, SD        float64
	HDILo, HDIHi    float64 // 94% highest-density interval (HDI(sorted, 0.94))
	Q5, Median, Q95 float64
	// Constant: every draw is the same; the MCSEs are 0 and the
	// diagnostics NaN (as ArviZ has them).
	Constant         bool
	MCSEMean, MCSESD float64
	ESSMean, ESSSD   float64
	ESSBulk, ESSTail float64
	Rhat             float64
}

// Summarise computes one scalar's Scalar from chains[chain][draw].
func Summarise(chains [][]float64) Scalar {
	return SummariseAll([][][]float64{chains}, 1)[0]
}

// SummariseAll computes the Scalar of every scalar (scalars[i] is
// chains[chain][draw]), up to workers at a time (GOMAXPROCS when
// workers ≤ 0; fewer when the scratch of that many would pass 1 GB).
// Each scalar's draws are sorted once, and the ranks, the rank-normalised
// draws and the folded ranks are computed once and shared among R-hat,
// the bulk and tail ESS and the MCSEs; the normal quantiles of the ranks
// are tabulated once for all scalars of the same size. The results do
// not depend on workers.
func SummariseAll(scalars [][][]float64, workers int) []Scalar {
	out := make([]Scalar, len(scalars))
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(scalars), maxWorkersFor(scalars)))
	tables := normalTables{}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &scalarWork{}
			for {
				i := int(next.Add(1)) - 1
				if i >= len(scalars) {
					return
				}
				out[i] = w.summarise(scalars[i], &tables)
			}
		}()
	}
	wg.Wait()
	return out
}

// workBytesPerDraw is about what one worker's scratch takes per draw of
// the scalar it summarises (sort keys and indices twice, sorted draws,
// two score arrays, centred chains, counts), and workBudget what the
// workers together may take: a posterior of 12 million draws a scalar is
// summarised on one core rather than take a gigabyte per core.
const (
	workBytesPerDraw = 80
	workBudget       = 1 << 30
)

func maxWorkersFor(scalars [][][]float64) int {
	most := 0
	for _, chains := range scalars {
		n := 0
		for _, c := range chains {
			n += len(c)
		}
		most = max(most, n)
	}
	return max(1, workBudget/max(1, workBytesPerDraw*most))
}

// normalTables holds, per number of split draws S, the normal quantiles
// Φ⁻¹((r - 3/8)/(S + 1/4)) of every integer rank r = 1..S: the values
// RankNormalise computes, independent of the draws.
type normalTables struct {
	mu sync.Mutex
	by map[int]*normalTable
}

type normalTable struct {
	once sync.Once
	z    []float64
}

func (t *normalTables) get(s int) []float64 {
	t.mu.Lock()
	if t.by == nil {
		t.by = map[int]*normalTable{}
	}
	e := t.by[s]
	if e == nil {
		e = &normalTable{}
		t.by[s] = e
	}
	t.mu.Unlock()
	e.once.Do(func() {
		e.z = make([]float64, s)
		for r := range e.z {
			e.z[r] = rankQuantile(float64(r+1), s)
		}
	})
	return e.z
}

// rankQuantile is RankNormalise's value of a (possibly averaged) rank.
func rankQuantile(rank float64, s int) float64 {
	return distuv.UnitNormal.Quantile((rank - 0.375) / (float64(s) + 0.25))
}

// scalarWork is one worker's scratch, reused from scalar to scalar.
type scalarWork struct {
	keys, keys2 []uint64
	idx, idx2   []uint32
	count       [radixPasses][radixBuckets]uint32
	sorted      []float64 // all draws, sorted
	splitVal    []float64 // the split chains' draws, sorted (odd n)
	splitPos    []uint32  // their positions in the split chains (odd n)
	z, zTail    []float64 // rank-normalised split draws, bulk and folded
	series      []float64 // x², split chains laid end to end (zTail's memory)
	halves      [][]float64
	ess         essWork
}

// summarise is Summarise with w's scratch; it falls back to the
// functions themselves for what the fast path does not cover: non-finite
// draws and chains of unequal lengths.
func (w *scalarWork) summarise(chains [][]float64, tables *normalTables) Scalar {
	m := len(chains)
	if m == 0 {
		return reference(chains)
	}
	n := len(chains[0])
	for _, c := range chains {
		if len(c) != n {
			return reference(chains)
		}
	}
	total := m * n
	if total == 0 || uint64(total) > math.MaxUint32 { // indices are uint32
		return reference(chains)
	}
	var r Scalar
	w.keys, w.keys2 = grow(w.keys, total), grow(w.keys2, total)
	w.idx, w.idx2 = grow(w.idx, total), grow(w.idx2, total)
	// Moments in Flatten's order, as the reference sums them.
	sum := 0.0
	k := 0
	for _, c := range chains {
		for _, v := range c {
			if v-v != 0 { // NaN or ±Inf
				return reference(chains)
			}
			sum += v
			w.keys[k], w.idx[k] = floatKey(v), uint32(k)
			k++
		}
	}
	r.Mean = sum / float64(total)
	ss := 0.0
	for _, c := range chains {
		for _, v := range c {
			ss += (v - r.Mean) * (v - r.Mean)
		}
	}
	variance := ss / float64(total-1)
	r.SD = math.Sqrt(variance)
	keys, idx := radixSort(w.keys, w.keys2, w.idx, w.idx2, &w.count)
	w.sorted = grow(w.sorted, total)
	for i, key := range keys {
		w.sorted[i] = keyFloat(key)
	}
	sorted := w.sorted
	r.HDILo, r.HDIHi = HDI(sorted, 0.94)
	r.Q5, r.Median, r.Q95 = Quantile(sorted, 0.05), Quantile(sorted, 0.5), Quantile(sorted, 0.95)
	if sorted[0] == sorted[total-1] {
		r.Constant = true
	}
	nan := math.NaN()
	r.ESSMean, r.ESSSD, r.ESSBulk, r.ESSTail, r.Rhat = nan, nan, nan, nan, nan
	if r.Constant {
		return r
	}
	r.MCSEMean, r.MCSESD = nan, nan
	if n < 4 {
		return r
	}
	h := n / 2
	s := 2 * m * h
	// The split chains' draws in sorted order, and where each sits in
	// the split chains (chain c's halves at c·2h and c·2h+h): for even n
	// these are all the draws, in place.
	splitVal, splitPos := sorted, idx
	if n%2 == 1 {
		w.splitVal, w.splitPos = grow(w.splitVal, s), grow(w.splitPos, s)
		j := 0
		for i, p := range idx {
			c, d := int(p)/n, int(p)%n
			if d == h {
				continue // the middle draw, which Split drops
			}
			if d > h {
				d--
			}
			w.splitVal[j], w.splitPos[j] = sorted[i], uint32(c*2*h+d)
			j++
		}
		splitVal, splitPos = w.splitVal, w.splitPos
	}
	table := tables.get(s)
	// Bulk: ranks of the split draws (ties averaged) to normal scores.
	w.z = grow(w.z, s)
	for i := 0; i < s; {
		j := i
		for j+1 < s && splitVal[j+1] == splitVal[i] {
			j++
		}
		z := normalScore(i, j, s, table)
		for k := i; k <= j; k++ {
			w.z[splitPos[k]] = z
		}
		i = j + 1
	}
	// Tail: ranks of |x - median|, the draws below and above the median
	// merged in order of distance (each side is already in that order).
	med := Quantile(splitVal, 0.5)
	w.zTail = grow(w.zTail, s)
	lo := sort.SearchFloat64s(splitVal, med) - 1 // the last draw below med
	hi := lo + 1
	for i := 0; i < s; {
		var v float64
		switch {
		case lo < 0:
			v = splitVal[hi] - med
		case hi >= s:
			v = med - splitVal[lo]
		default:
			v = math.Min(med-splitVal[lo], splitVal[hi]-med)
		}
		loEnd, hiEnd := lo, hi
		for loEnd >= 0 && med-splitVal[loEnd] == v {
			loEnd--
		}
		for hiEnd < s && splitVal[hiEnd]-med == v {
			hiEnd++
		}
		tied := lo - loEnd + hiEnd - hi
		z := normalScore(i, i+tied-1, s, table)
		for k := loEnd + 1; k <= lo; k++ {
			w.zTail[splitPos[k]] = z
		}
		for k := hi; k < hiEnd; k++ {
			w.zTail[splitPos[k]] = z
		}
		lo, hi, i = loEnd, hiEnd, i+tied
	}
	w.halves = grow(w.halves, 2*m)
	halvesOf := func(x []float64) [][]float64 {
		for c := range w.halves {
			w.halves[c] = x[c*h : (c+1)*h]
		}
		return w.halves
	}
	bulk := RhatBasic(halvesOf(w.z))
	tail := RhatBasic(halvesOf(w.zTail))
	r.Rhat = math.Max(bulk, tail)
	if h < 4 {
		return r
	}
	r.ESSBulk = w.ess.ess(halvesOf(w.z))
	for c, ch := range chains {
		w.halves[2*c], w.halves[2*c+1] = ch[:h], ch[n-h:]
	}
	r.ESSMean = w.ess.ess(w.halves)
	w.series = w.zTail // free once the tail R-hat is computed
	split := func(f func(v float64) float64) [][]float64 {
		for c, ch := range chains {
			for d := 0; d < h; d++ {
				w.series[c*2*h+d] = f(ch[d])
				w.series[c*2*h+h+d] = f(ch[n-h+d])
			}
		}
		return halvesOf(w.series)
	}
	essSq := w.ess.ess(split(func(v float64) float64 { return v * v }))
	a := w.ess.essIndicator(chains, h, r.Q5)
	b := w.ess.essIndicator(chains, h, r.Q95)
	r.ESSTail = math.Min(a, b)
	r.ESSSD = math.Min(r.ESSMean, essSq)
	r.MCSEMean = math.Sqrt(variance / r.ESSMean)
	r.MCSESD = math.Sqrt(variance) * math.Sqrt(math.E*math.Pow(1-1/r.ESSSD, r.ESSSD-1)-1)
	return r
}

// normalScore is the normal score of the draws ranked i+1…j+1 (0-based
// i…j), tied: their average rank's, from the table when it is whole.
func normalScore(i, j, s int, table []float64) float64 {
	if (i+j)%2 == 0 {
		return table[(i+j)/2]
	}
	return rankQuantile(float64(i+j)/2+1, s)
}

// reference computes a Scalar with the functions one by one, as the
// summary did before SummariseAll: the definition the fast path is
// tested against, and its fallback for non-finite draws and chains of
// unequal lengths.
func reference(chains [][]float64) Scalar {
	nan := math.NaN()
	r := Scalar{MCSEMean: nan, MCSESD: nan, ESSMean: nan, ESSSD: nan, ESSBulk: nan, ESSTail: nan, Rhat: nan}
	flat := Flatten(chains)
	if len(flat) == 0 {
		r.Mean, r.SD, r.HDILo, r.HDIHi, r.Q5, r.Median, r.Q95 = nan, nan, nan, nan, nan, nan, nan
		return r
	}
	for _, v := range flat {
		r.Mean += v
	}
	r.Mean /= float64(len(flat))
	for _, v := range flat {
		r.SD += (v - r.Mean) * (v - r.Mean)
	}
	r.SD = math.Sqrt(r.SD / float64(len(flat)-1))
	sort.Float64s(flat)
	r.HDILo, r.HDIHi = HDI(flat, 0.94)
	r.Q5, r.Median, r.Q95 = Quantile(flat, 0.05), Quantile(flat, 0.5), Quantile(flat, 0.95)
	if flat[0] == flat[len(flat)-1] {
		r.Constant, r.MCSEMean, r.MCSESD = true, 0, 0
		return r
	}
	r.MCSEMean, r.MCSESD = MCSEMean(chains), MCSESD(chains)
	r.ESSMean, r.ESSSD = ESSMean(chains), ESSSD(chains)
	r.ESSBulk, r.ESSTail = ESSBulk(chains), ESSTail(chains)
	r.Rhat = Rhat(chains)
	return r
}
