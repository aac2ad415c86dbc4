package posterior

import (
	"fmt"
	"math"
	"slices"

	"github.com/gobayes/gobayes/ppl/diag"
)

// Array is one variable's draws as an array, as xarray and NumPy hold
// them: Data in row-major order over Shape = [chains, draws, dims...]
// (Stacked merges the first two into one sample dimension). Elements are
// 0-based, as in code and in the summary's labels (theta[0]).
type Array struct {
	Name  string
	Shape []int // [chains, draws, dims...], or [samples, dims...] when stacked
	Data  []float64
	// Stacked is true for [samples, dims...].
	Stacked bool
	// DimNames names the dimensions of a draw: the variable's Dims, else
	// name_dim_k as ArviZ names them. Coords labels the elements along
	// the named ones that have labels. Sel selects by either.
	DimNames []string
	Coords   map[string][]string
}

// Array returns variable name's draws as an Array [chains, draws,
// dims...] (a copy). It panics with an error naming the variables when
// there is none of that name.
//
//	beta := fit.Array("beta")   // [4, 1000, 3]
//	m := beta.Mean()            // the posterior mean of each element, [3]
//	lo, hi := beta.HDI(0.94)    // and its 94% interval
func (p *Posterior) Array(name string) *Array {
	v := p.variable(name)
	if v == nil {
		panic(fmt.Errorf("posterior: no variable %q: the model records %s", name, p.varList()))
	}
	k, n := v.size(), p.Draws()
	a := &Array{Name: name, Shape: append([]int{len(p.Chains), n}, v.Shape...), Data: make([]float64, len(p.Chains)*n*k)}
	for d := range v.Shape {
		a.DimNames = append(a.DimNames, fmt.Sprintf("%s_dim_%d", name, d))
		if len(v.Dims) == len(v.Shape) {
			a.DimNames[d] = v.Dims[d]
			if c, ok := p.Coords[v.Dims[d]]; ok && len(c) == v.Shape[d] {
				if a.Coords == nil {
					a.Coords = map[string][]string{}
				}
				a.Coords[v.Dims[d]] = c
			}
		}
	}
	for c, ch := range p.Chains {
		for j := 0; j < k; j++ {
			col := ch.Values[v.Start+j]
			for i := 0; i < n; i++ {
				a.Data[(c*n+i)*k+j] = col[i]
			}
		}
	}
	return a
}

// Dims is the shape of one draw (nil for a scalar variable).
func (a *Array) Dims() []int {
	if a.Stacked {
		return a.Shape[1:]
	}
	return a.Shape[2:]
}

// Samples is the number of draws, all chains together.
func (a *Array) Samples() int {
	if a.Stacked {
		return a.Shape[0]
	}
	return a.Shape[0] * a.Shape[1]
}

// Len is the number of elements of one draw.
func (a *Array) Len() int { return len(a.Data) / max(a.Samples(), 1) }

// Stack returns the array with chains and draws merged into one sample
// dimension, [chains·draws, dims...], chain by chain (sharing Data).
func (a *Array) Stack() *Array {
	if a.Stacked {
		return a
	}
	return &Array{Name: a.Name, Shape: append([]int{a.Samples()}, a.Dims()...), Data: a.Data, Stacked: true, DimNames: a.DimNames, Coords: a.Coords}
}

// Sample is draw s of the stacked samples (chain c's draw i is
// s = c·draws + i): its elements, row-major (shared, not copied).
func (a *Array) Sample(s int) []float64 {
	k := a.Len()
	return a.Data[s*k : (s+1)*k]
}

// At is chain c's draw i (shared, not copied).
func (a *Array) At(c, i int) []float64 {
	if a.Stacked {
		panic(fmt.Errorf("posterior: At on a stacked array; use Sample"))
	}
	return a.Sample(c*a.Shape[1] + i)
}

// Element returns the draws of element idx (0-based, one index per
// dimension of a draw), all samples.
func (a *Array) Element(idx ...int) []float64 {
	dims := a.Dims()
	if len(idx) != len(dims) {
		panic(fmt.Errorf("posterior: %s has draws of shape %v; give %d indices, got %v", a.Name, dims, len(dims), idx))
	}
	j := 0
	for d, i := range idx {
		if i < 0 || i >= dims[d] {
			panic(fmt.Errorf("posterior: index %d out of range [0, %d) in dimension %d of %s (indices are 0-based)", i, dims[d], d, a.Name))
		}
		j = j*dims[d] + i
	}
	return a.elementAt(j)
}

func (a *Array) elementAt(j int) []float64 {
	k, s := a.Len(), a.Samples()
	out := make([]float64, s)
	for i := range out {
		out[i] = a.Data[i*k+j]
	}
	return out
}

// Reduce applies f to the draws of every element: one value per element,
// row-major over Dims.
func (a *Array) Reduce(f func(draws []float64) float64) []float64 {
	out := make([]float64, a.Len())
	for j := range out {
		out[j] = f(a.elementAt(j))
	}
	return out
}

// Mean is the posterior mean of every element.
func (a *Array) Mean() []float64 {
	return a.Reduce(func(d []float64) float64 {
		s := 0.0
		for _, v := range d {
			s += v
		}
		return s / float64(len(d))
	})
}

// Quantile is the q-quantile of every element (linear interpolation,
// NumPy's default).
func (a *Array) Quantile(q float64) []float64 {
	return a.Reduce(func(d []float64) float64 {
		slices.Sort(d)
		return diag.Quantile(d, q)
	})
}

// HDI is the narrowest interval holding prob of every element's draws
// (ArviZ's hdi), as lower and upper bounds.
func (a *Array) HDI(prob float64) (lo, hi []float64) {
	lo, hi = make([]float64, a.Len()), make([]float64, a.Len())
	for j := range lo {
		d := a.elementAt(j)
		slices.Sort(d)
		lo[j], hi[j] = diag.HDI(d, prob)
	}
	return lo, hi
}

// Accuracy is the share of elements whose posterior (predictive) mean,
// rounded, equals the observed value: a classifier's accuracy for 0/1
// outcomes, in two lines:
//
//	pred := m.PosteriorPredictive(fit).Array("y")
//	acc := pred.Accuracy(y)
func (a *Array) Accuracy(observed []float64) float64 {
	m := a.Mean()
	if len(observed) != len(m) {
		panic(fmt.Errorf("posterior: %s has %d elements per draw, %d observed values given", a.Name, len(m), len(observed)))
	}
	hits := 0
	for j, v := range m {
		if math.Round(v) == observed[j] {
			hits++
		}
	}
	return float64(hits) / float64(len(m))
}

// String describes the array: its name, shape and the mean of each
// element (the first 10), as a notebook shows it.
func (a *Array) String() string {
	m := a.Mean()
	more := ""
	if len(m) > 10 {
		m, more = m[:10], " …"
	}
	layout := "chains, draws"
	if a.Stacked {
		layout = "samples"
	}
	return fmt.Sprintf("%s: array %v (%s, then the draw's dims), means %.4g%s", a.Name, a.Shape, layout, m, more)
}
