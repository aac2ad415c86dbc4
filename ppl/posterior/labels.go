package posterior

import (
	"strconv"
	"strings"
)

// Label is column j's name as summaries show it: with the coordinates of
// its variable's named dimensions where there are (theta[Choate]), else
// the column's own name (theta[1], 1-based).
func (p *Posterior) Label(j int) string {
	if p.Coords == nil {
		return p.Columns[j]
	}
	for _, v := range p.Vars {
		n := v.size()
		if j < v.Start || j >= v.Start+n || len(v.Dims) != len(v.Shape) || len(v.Shape) == 0 {
			continue
		}
		k := j - v.Start // row-major over Shape
		parts := make([]string, len(v.Shape))
		labelled := false
		for d := len(v.Shape) - 1; d >= 0; d-- {
			i := k % v.Shape[d]
			k /= v.Shape[d]
			if c := p.Coords[v.Dims[d]]; len(c) == v.Shape[d] {
				parts[d], labelled = c[i], true
			} else {
				parts[d] = strconv.Itoa(i + 1)
			}
		}
		if labelled {
			return v.Name + "[" + strings.Join(parts, ",") + "]"
		}
	}
	return p.Columns[j]
}

// labelColumn is the column whose Label is name, or -1.
func (p *Posterior) labelColumn(name string) int {
	if p.Coords == nil || !strings.Contains(name, "[") {
		return -1
	}
	for j := range p.Columns {
		if p.Label(j) == name {
			return j
		}
	}
	return -1
}
