package table

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Kind is a column's type.
type Kind int

const (
	Float  Kind = iota // float64 values
	Int                // integer values (held as float64, exactly)
	String             // labels, held as integer codes into Labels
)

func (k Kind) String() string {
	switch k {
	case Float:
		return "float64"
	case Int:
		return "int"
	case String:
		return "string"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Table is named, typed columns of equal length, read from a file.
type Table struct {
	name string // where it came from, for messages and the preview
	rows int
	cols []*Column
	// rowMajor is the whole table row by row when the file holds it so
	// (a C-order float64 .npy): the matrix view of all columns.
	rowMajor []float64
	src      Source // the file's layout; Cols empty
}

// Column is one named column. Its values are a flat []float64 (for a
// string column, the codes); hand it to m.Data as it is.
type Column struct {
	name    string
	kind    Kind
	data    []float64
	labels  []string
	missing int
	t       *Table
	index   int // in the file
	// fill computes data on first use (a column of a C-order .npy, which
	// is strided in the file).
	fill func() []float64
}

// Matrix is a row-major [Rows × Cols] view of some columns: the layout
// ppl uses for a design matrix.
type Matrix struct {
	names []string
	data  []float64
	rows  int
	src   Source
	ok    bool
}

// Rows is the number of rows.
func (t *Table) Rows() int { return t.rows }

// Name is the file the table was read from.
func (t *Table) Name() string { return t.name }

// Names lists the columns, in file order.
func (t *Table) Names() []string {
	out := make([]string, len(t.cols))
	for i, c := range t.cols {
		out[i] = c.name
	}
	return out
}

// Columns lists the columns, in file order.
func (t *Table) Columns() []*Column { return slices.Clone(t.cols) }

// Has reports whether the table has a column of this name.
func (t *Table) Has(name string) bool { return t.find(name) != nil }

func (t *Table) find(name string) *Column {
	for _, c := range t.cols {
		if c.name == name {
			return c
		}
	}
	return nil
}

// Col is the column of this name. An unknown name panics with an error
// that lists the table's columns (in a cell: an error at that line).
func (t *Table) Col(name string) *Column {
	c := t.find(name)
	if c == nil {
		panic(fmt.Errorf("table: %s has no column %q; its columns are %s", t.name, name, strings.Join(t.Names(), ", ")))
	}
	return c
}

// Source is where the table's file is and how it is laid out; its Cols
// are empty (a column's or matrix's Source names them).
func (t *Table) Source() Source { return t.src }

// Matrix is the row-major [Rows × len(names)] view of the named numeric
// columns (all of them, in file order, when none are named). It is the
// file's own memory for all the columns of a C-order float64 .npy, and
// one interleaved copy otherwise.
func (t *Table) Matrix(names ...string) *Matrix {
	if len(names) == 0 {
		names = t.Names()
	}
	cols := make([]*Column, len(names))
	idx := make([]int, len(names))
	for i, n := range names {
		cols[i] = t.Col(n)
		if cols[i].kind == String {
			panic(fmt.Errorf("table: %s: column %q holds labels; a matrix takes numeric columns (use its codes through Col(%q).Ints())", t.name, n, n))
		}
		idx[i] = cols[i].index
	}
	m := &Matrix{names: slices.Clone(names), rows: t.rows}
	if t.src.Path != "" {
		m.src, m.ok = t.src, true
		m.src.Cols = idx
	}
	if t.rowMajor != nil && slices.Equal(idx, identity(len(t.cols))) {
		m.data = t.rowMajor
		return m
	}
	k := len(cols)
	m.data = make([]float64, t.rows*k)
	for j, c := range cols {
		d := c.Floats()
		for i, v := range d {
			m.data[i*k+j] = v
		}
	}
	return m
}

// Name is the column's name.
func (c *Column) Name() string { return c.name }

// Kind is the column's type.
func (c *Column) Kind() Kind { return c.kind }

// Len is the number of rows.
func (c *Column) Len() int { return c.t.rows }

// Missing is the number of missing values (read as NaN).
func (c *Column) Missing() int { return c.missing }

// Floats is the column's values (a string column's codes), the table's
// own memory: do not write to it.
func (c *Column) Floats() []float64 {
	if c.data == nil && c.fill != nil {
		c.data = c.fill()
		c.fill = nil
	}
	return c.data
}

// Ints is the column's values as integers (a string column's codes): a
// new slice. A float64 column with fractions, or a missing value, panics
// with an error naming the row.
func (c *Column) Ints() []int {
	d := c.Floats()
	out := make([]int, len(d))
	for i, v := range d {
		if v != math.Trunc(v) || math.IsNaN(v) || math.Abs(v) > 1<<53 {
			panic(fmt.Errorf("table: %s: column %q holds %v at row %d, not an integer", c.t.name, c.name, v, i))
		}
		out[i] = int(v)
	}
	return out
}

// Labels is a string column's labels: code k is Labels()[k]. Nil for a
// numeric column.
func (c *Column) Labels() []string { return slices.Clone(c.labels) }

// Sorted is a string column with its labels in sorted order and codes to
// match (a new column); a numeric column is returned as it is.
func (c *Column) Sorted() *Column {
	if c.kind != String {
		return c
	}
	order := make([]int, len(c.labels))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return c.labels[order[a]] < c.labels[order[b]] })
	newCode := make([]float64, len(order))
	labels := make([]string, len(order))
	for to, from := range order {
		newCode[from] = float64(to)
		labels[to] = c.labels[from]
	}
	d := c.Floats()
	out := make([]float64, len(d))
	for i, v := range d {
		out[i] = newCode[int(v)]
	}
	s := *c
	s.data, s.labels, s.fill = out, labels, nil
	return &s
}

// Source is where the column is in its file, so that another process
// can read its rows (Source.Read); ok is false for a string column (its
// codes depend on the whole file) and for a table not read from a file.
func (c *Column) Source() (s Source, ok bool) {
	if c.kind == String || c.t.src.Path == "" {
		return Source{}, false
	}
	s = c.t.src
	s.Cols = []int{c.index}
	return s, true
}

// String is the column's name, type and first values.
func (c *Column) String() string {
	d := c.Floats()
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s (%s, %d rows", c.name, c.kind, len(d))
	if c.missing > 0 {
		fmt.Fprintf(&sb, ", %d missing", c.missing)
	}
	if c.kind == String {
		fmt.Fprintf(&sb, ", %d labels", len(c.labels))
	}
	sb.WriteString("): ")
	n := min(len(d), 5)
	for i := range n {
		if i > 0 {
			sb.WriteString(" ")
		}
		sb.WriteString(c.cell(i))
	}
	if len(d) > n {
		sb.WriteString(" …")
	}
	return sb.String()
}

// Text is row i (0-based) as text: a string column's label, a number
// (up to six significant digits), or NA for a missing value.
func (c *Column) Text(i int) string { return c.cell(i) }

// cell is row i as text.
func (c *Column) cell(i int) string {
	v := c.Floats()[i]
	switch {
	case math.IsNaN(v):
		return "NA"
	case c.kind == String:
		return c.labels[int(v)]
	case c.kind == Int:
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.6g", v)
}

// Rows is the number of rows.
func (m *Matrix) Rows() int { return m.rows }

// Cols is the number of columns.
func (m *Matrix) Cols() int { return len(m.names) }

// Names are the columns, in the matrix's order.
func (m *Matrix) Names() []string { return slices.Clone(m.names) }

// Data is the matrix row by row (Rows × Cols values): the table's memory,
// not to be written.
func (m *Matrix) Data() []float64 { return m.data }

// Source is where the matrix's columns are in their file (ok false when
// the table was not read from one).
func (m *Matrix) Source() (Source, bool) { return m.src, m.ok }

// String is the matrix's shape and columns.
func (m *Matrix) String() string {
	return fmt.Sprintf("matrix [%d × %d] of %s", m.rows, len(m.names), strings.Join(m.names, ", "))
}

// identity is 0, 1, …, n-1.
func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
