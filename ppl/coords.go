package ppl

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Coords labels the elements along dimension dim (named by Dims):
// m.Coords("school", "Choate", "Deerfield", …). A variable whose every
// dimension has labels takes its shape from them (no Size needed); one
// whose shape is given another way must have as many elements along the
// dimension as it has labels, checked where either is written.
//
// Calling Coords again for a dimension replaces its labels: the same
// count relabels; another count is refused while a variable, quantity or
// data container of the model has a fixed length along the dimension
// (new data with their new labels go together to SetData, with the
// option NewCoords). Labels must be distinct and not empty.
func (m *Model) Coords(dim string, labels ...string) {
	if err := m.checkLabels(dim, labels); err != nil {
		m.fail(err)
	}
	old, had := m.g.Coords[dim]
	if had && slices.Equal(old, labels) {
		return // the cell that gave them, run again
	}
	if had && len(old) != len(labels) {
		if users := m.dimUsers(dim); len(users) > 0 {
			u := users[0]
			m.failf(dim, "new coordinates give %d labels, but %s has %d elements along %q (its %d old labels); keep the count, or give new data with their labels together: m.SetData(name, value, ppl.NewCoords(%q, labels…))", len(labels), u.name, u.n, dim, len(old), dim)
		}
	}
	if !had {
		if u := m.dimMismatch(dim, len(labels)); u != nil {
			m.failf(u.name, "dimension %q is given %d coordinates, but %s has %d elements along it; give as many labels as elements", dim, len(labels), u.name, u.n)
		}
	}
	if m.g.Coords == nil {
		m.g.Coords = map[string][]string{}
	}
	m.g.Coords[dim] = slices.Clone(labels)
	m.changed()
	if had {
		m.changedNotice(dim, "coordinates "+labelsText(old), labelsText(labels))
	}
}

// checkLabels refuses an empty, blank or repeated label.
func (m *Model) checkLabels(dim string, labels []string) *Error {
	if dim == "" {
		return &Error{Msg: "Coords needs the dimension's name first: m.Coords(\"county\", labels…)"}
	}
	if len(labels) == 0 {
		return &Error{Var: dim, Msg: fmt.Sprintf("no labels given for dimension %q", dim)}
	}
	seen := make(map[string]int, len(labels))
	for i, l := range labels {
		if l == "" {
			return &Error{Var: dim, Msg: fmt.Sprintf("label %d of dimension %q is empty; give every element a label", i, dim)}
		}
		if j, ok := seen[l]; ok {
			return &Error{Var: dim, Msg: fmt.Sprintf("label %q is given twice for dimension %q (at %d and %d); labels name one element each (for codes of a column, give its distinct values)", l, dim, j, i)}
		}
		seen[l] = i
	}
	return nil
}

// labelsText shows labels briefly for a notice: "[A B C]", or the first
// few and the count.
func labelsText(labels []string) string {
	if len(labels) <= 6 {
		return "[" + strings.Join(labels, " ") + "]"
	}
	return fmt.Sprintf("[%s … %s] (%d labels)", strings.Join(labels[:3], " "), labels[len(labels)-1], len(labels))
}

// dimUser is something of the model laid out along a dimension: its
// name and its length along it.
type dimUser struct {
	name string
	n    int
}

// dimUsers lists what the model lays out along dim, in the order it was
// defined: variables, then deterministic quantities, then containers.
func (m *Model) dimUsers(dim string) []dimUser {
	var out []dimUser
	add := func(name string, dims []string, shape []int) {
		if len(dims) != len(shape) {
			return
		}
		for k, d := range dims {
			if d == dim {
				out = append(out, dimUser{name, shape[k]})
				return
			}
		}
	}
	for _, r := range m.g.RVs {
		add(r.Name, r.Dims, r.Value.Dims)
	}
	for _, d := range m.g.Dets {
		add(d.Det, m.g.DetDims[d.Det], d.Dims)
	}
	for _, d := range m.g.Data {
		add(d.Container, m.g.DataDims[d.Container], d.Dims)
	}
	return out
}

// dimMismatch is the first of dim's users whose length along it is not n,
// nil when all agree.
func (m *Model) dimMismatch(dim string, n int) *dimUser {
	for _, u := range m.dimUsers(dim) {
		if u.n != n {
			return &u
		}
	}
	return nil
}

// coordShape is the shape the coordinates of dims give, nil when a
// dimension has none yet.
func (m *Model) coordShape(dims []string) []int {
	if len(dims) == 0 {
		return nil
	}
	shape := make([]int, len(dims))
	for k, d := range dims {
		c, ok := m.g.Coords[d]
		if !ok {
			return nil
		}
		shape[k] = len(c)
	}
	return shape
}

// dimsError says what is wrong with dims for something of shape shape,
// nil when nothing is: the count of names, or a dimension whose
// coordinates are not as many as the elements along it.
func (m *Model) dimsError(name string, dims []string, shape []int) *Error {
	if dims == nil {
		return nil
	}
	if len(dims) != len(shape) {
		msg := fmt.Sprintf("Dims names %d dimensions (%s) but the shape %v has %d; name one per dimension", len(dims), strings.Join(dims, ", "), shape, len(shape))
		if len(shape) == 0 && m.coordShape(dims) == nil {
			msg += fmt.Sprintf(", and give the labels first with m.Coords(%q, labels…) (the shape then follows from them) or the length with Size", dims[0])
		}
		return &Error{Var: name, Msg: msg}
	}
	for k, d := range dims {
		if c, ok := m.g.Coords[d]; ok && len(c) != shape[k] {
			return &Error{Var: name, Msg: fmt.Sprintf("dimension %q has %d coordinates but %s has %d elements along it; give as many labels as elements", d, len(c), name, shape[k])}
		}
	}
	return nil
}

// checkDims checks every Dims against its variable's shape and the
// coordinates' counts (Compile calls it).
func (m *Model) checkDims() error {
	for _, r := range m.g.RVs {
		if err := m.dimsError(r.Name, r.Dims, r.Value.Dims); err != nil {
			return err
		}
	}
	for _, d := range m.g.Dets {
		if err := m.dimsError(d.Det, m.g.DetDims[d.Det], d.Dims); err != nil {
			return err
		}
	}
	for _, d := range m.g.Data {
		if err := m.dimsError(d.Container, m.g.DataDims[d.Container], d.Dims); err != nil {
			return err
		}
	}
	return nil
}

// shapeFromDims is the shape option a variable of family rank eventRank
// takes from its Dims' coordinates when it was given none: its batch
// dimensions (those before the event's), nil when a dimension has no
// labels yet or the Dims name the event alone.
func (m *Model) shapeFromDims(dims []string, eventRank int) []int {
	s := m.coordShape(dims)
	if s == nil || len(s) <= eventRank {
		return nil
	}
	return s[:len(s)-eventRank]
}

// checkVarDims checks a variable's Dims where it is written, once its
// shape is known: a scalar not yet observed may still take the data's
// shape, so it waits for Observe (and Compile).
func (m *Model) checkVarDims(r *RV) {
	v := &r.v
	if v.Dims == nil || len(v.Value.Dims) == 0 && !v.Observed && !r.shapeFixed {
		return
	}
	if err := m.dimsError(v.Name, v.Dims, v.Value.Dims); err != nil {
		m.fail(err)
	}
}

// paramsScalar reports whether a variable's batch shape cannot come from
// its parameters: for a scalar family, every parameter is a scalar.
func (m *Model) paramsScalar(r *RV) bool {
	if r.v.Fam.EventRank > 0 {
		return true
	}
	for _, p := range r.v.Params {
		if p.Len() != 1 {
			return false
		}
	}
	return true
}

// DimLabels are new labels for a dimension, given to SetData with the
// data whose length they follow (NewCoords makes them).
type DimLabels struct {
	dim    string
	labels []string
}

// NewCoords gives SetData new labels for dimension dim, for data of
// another length: m.SetData("county_idx", idxNew, ppl.NewCoords("obs",
// "new 1", "new 2")), as PyMC's set_data(…, coords=…).
func NewCoords(dim string, labels ...string) DimLabels {
	return DimLabels{dim: dim, labels: slices.Clone(labels)}
}

// splitCoords takes SetData's NewCoords out of its other arguments.
func splitCoords(more []any) (rest []any, coords []DimLabels) {
	for _, a := range more {
		if c, ok := a.(DimLabels); ok {
			coords = append(coords, c)
		} else {
			rest = append(rest, a)
		}
	}
	return rest, coords
}

// setDataCoords gives containers new values and dimensions new labels
// at once, and checks that every dimension's labels are as many as the
// elements along it afterwards; on a mistake the model is as it was.
func (m *Model) setDataCoords(sets []namedData, coords []DimLabels) {
	before := m.fingerprint()
	defer func() {
		if after := m.fingerprint(); after != before {
			if m.newData == nil {
				m.newData = map[string]string{}
			}
			m.newData[after] = before
		}
	}()
	if len(coords) == 0 {
		m.setData(sets)
		return
	}
	for _, c := range coords {
		if err := m.checkLabels(c.dim, c.labels); err != nil {
			m.fail(err)
		}
	}
	old := maps.Clone(m.g.Coords)
	if m.g.Coords == nil {
		m.g.Coords = map[string][]string{}
	}
	for _, c := range coords {
		m.g.Coords[c.dim] = c.labels
	}
	var restore func()
	func() {
		defer func() {
			if e := recover(); e != nil {
				m.g.Coords = old
				panic(e)
			}
		}()
		restore = m.withData(&sampleSettings{data: sets})
	}()
	if err := m.checkDims(); err != nil {
		restore()
		m.g.Coords = old
		m.changed()
		err.(*Error).Msg += fmt.Sprintf(" (after SetData with new coordinates; give the data and the labels of the same length)")
		m.fail(err.(*Error))
	}
	m.changed()
	for _, c := range coords {
		if o, ok := old[c.dim]; !ok || !slices.Equal(o, c.labels) {
			was := "no coordinates"
			if ok {
				was = "coordinates " + labelsText(o)
			}
			m.changedNotice(c.dim, was, labelsText(c.labels))
		}
	}
}
