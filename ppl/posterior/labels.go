package posterior

import (
	"slices"
	"strconv"
	"strings"
)

// Label is column j's name as summaries show it: with the coordinates of
// its variable's named dimensions where there are (theta[Choate]), else
// the column's own name (theta[0], 0-based).
func (p *Posterior) Label(j int) string {
	if p.Coords == nil {
		return p.Columns[j]
	}
	if v := p.varOf(j); v != nil && len(v.Dims) == len(v.Shape) && len(v.Shape) > 0 {
		k := j - v.Start // row-major over Shape
		parts := make([]string, len(v.Shape))
		labelled := false
		for d := len(v.Shape) - 1; d >= 0; d-- {
			i := k % v.Shape[d]
			k /= v.Shape[d]
			if c := p.Coords[v.Dims[d]]; len(c) == v.Shape[d] {
				parts[d], labelled = c[i], true
			} else {
				parts[d] = strconv.Itoa(i)
			}
		}
		if labelled {
			return v.Name + "[" + strings.Join(parts, ",") + "]"
		}
	}
	return p.Columns[j]
}

// labelColumn is the column whose Label is name, or -1: parsed as
// var[label,…] (one coordinate or 0-based index per dimension), so that a
// lookup does not label every column; a label that does not parse so (a
// coordinate holding a comma) is looked for among all labels.
func (p *Posterior) labelColumn(name string) int {
	open := strings.IndexByte(name, '[')
	if p.Coords == nil || open < 0 || !strings.HasSuffix(name, "]") {
		return -1
	}
	if v := p.variable(name[:open]); v != nil && len(v.Dims) == len(v.Shape) && len(v.Shape) > 0 {
		if parts := strings.Split(name[open+1:len(name)-1], ","); len(parts) == len(v.Shape) {
			k := 0
			for d, s := range parts {
				i := -1
				if c := p.Coords[v.Dims[d]]; len(c) == v.Shape[d] {
					i = slices.Index(c, s)
				} else if n, err := strconv.Atoi(s); err == nil {
					i = n
				}
				if i < 0 || i >= v.Shape[d] {
					k = -1
					break
				}
				k = k*v.Shape[d] + i
			}
			if k >= 0 && p.Label(v.Start+k) == name {
				return v.Start + k
			}
		}
	}
	for j := range p.Columns {
		if p.Label(j) == name {
			return j
		}
	}
	return -1
}
