package posterior

import (
	"fmt"
	"slices"
	"strings"
)

// Sel selects by dimension and label, as xarray's sel: the draws at one
// element along dimension dim, that dimension dropped. The label is a
// coordinate (a string, where the dimension has labels) or a 0-based
// index (an int); more dimension–label pairs select further:
//
//	fit.Array("alpha").Sel("county", "Anoka")                  // [chains, draws]
//	fit.Array("z_probs").Sel("obs", "house 3")                 // [chains, draws, K]
//	fit.Array("beta").Sel("county", "Anoka", "coef", "slope")  // one element
//
// A dimension or label the array does not have is an error (a panic, as
// Array's) that lists those it has.
func (a *Array) Sel(dim string, label any, more ...any) *Array {
	if len(more)%2 != 0 {
		panic(fmt.Errorf("posterior: %s.Sel takes dimensions and labels in pairs; %d values follow the first pair", a.Name, len(more)))
	}
	out := a.sel(dim, label)
	for i := 0; i < len(more); i += 2 {
		d, ok := more[i].(string)
		if !ok {
			panic(fmt.Errorf("posterior: %s.Sel takes dimensions and labels in pairs; argument %d is a %T, not a dimension's name", a.Name, i+3, more[i]))
		}
		out = out.sel(d, more[i+1])
	}
	return out
}

// sel selects one element along one dimension.
func (a *Array) sel(dim string, label any) *Array {
	k := slices.Index(a.DimNames, dim)
	if k < 0 {
		has := "no named dimensions (a scalar)"
		if len(a.DimNames) > 0 {
			has = "dimensions " + strings.Join(a.DimNames, ", ")
		}
		panic(fmt.Errorf("posterior: %s has no dimension %q; it has %s", a.Name, dim, has))
	}
	dims := a.Dims()
	n := dims[k]
	i := -1
	switch l := label.(type) {
	case string:
		c, ok := a.Coords[dim]
		if !ok {
			panic(fmt.Errorf("posterior: dimension %q of %s has no labels; select by 0-based index (an int below %d), or give its labels with Model.Coords", dim, a.Name, n))
		}
		if i = slices.Index(c, l); i < 0 {
			panic(fmt.Errorf("posterior: %s has no label %q along %q; its labels are %s", a.Name, l, dim, someLabels(c)))
		}
	case int:
		if l < 0 || l >= n {
			panic(fmt.Errorf("posterior: index %d is outside %q of %s, which has %d elements (indices are 0-based)", l, dim, a.Name, n))
		}
		i = l
	default:
		panic(fmt.Errorf("posterior: %s.Sel(%q, …) takes a label (string) or a 0-based index (int), not a %T", a.Name, dim, label))
	}
	lead := len(a.Shape) - len(dims) // chains and draws, or samples
	outer := 1                       // elements before dimension k, samples included
	for _, d := range a.Shape[:lead+k] {
		outer *= d
	}
	inner := 1 // elements after it
	for _, d := range dims[k+1:] {
		inner *= d
	}
	out := &Array{Name: a.Name, Stacked: a.Stacked, Coords: a.Coords,
		Shape:    slices.Delete(slices.Clone(a.Shape), lead+k, lead+k+1),
		DimNames: slices.Delete(slices.Clone(a.DimNames), k, k+1),
		Data:     make([]float64, 0, outer*inner)}
	for o := 0; o < outer; o++ {
		at := (o*n + i) * inner
		out.Data = append(out.Data, a.Data[at:at+inner]...)
	}
	return out
}

// someLabels shows labels for a message: all of a few, else the first
// ones and the count.
func someLabels(c []string) string {
	q := make([]string, 0, 8)
	for _, l := range c[:min(len(c), 8)] {
		q = append(q, fmt.Sprintf("%q", l))
	}
	s := strings.Join(q, ", ")
	if len(c) > 8 {
		s += fmt.Sprintf(", … (%d in all)", len(c))
	}
	return s
}
