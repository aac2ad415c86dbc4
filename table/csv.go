package table

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Option is a setting of ReadCSV, OpenNPY and ReadRows.
type Option func(*options)

type options struct {
	names   []string
	strings []string
	comma   rune
}

// Names names the columns of a .npy file (which has no header), in order;
// the default names are c0, c1, ….
func Names(names ...string) Option { return func(o *options) { o.names = names } }

// Strings reads the named CSV columns as labels (codes and labels), even
// when their values look like numbers (zip codes, county ids).
func Strings(columns ...string) Option {
	return func(o *options) { o.strings = append(o.strings, columns...) }
}

// Comma sets a CSV file's separator (default ',').
func Comma(r rune) Option { return func(o *options) { o.comma = r } }

// IndexStride is the rows between two entries of a CSV file's row index
// (Source.Index).
const IndexStride = 4096

// ReadCSV reads a CSV file whose first line names the columns, streaming:
// each column grows as its own []float64 (see the package doc for the
// column types and missing values).
func ReadCSV(path string, opts ...Option) (*Table, error) {
	return readCSV(path, 0, -1, opts)
}

// sizeAt is the data rows read before the columns are sized for the
// whole file.
const sizeAt = 1024

// colReader builds one column while the file streams by.
type colReader struct {
	c       *Column
	decided bool // kind is known (the first non-empty value)
	isInt   bool
	codes   map[string]int
	first   int // data row of the first non-empty value
}

// readCSV reads data rows [lo, hi) (hi < 0: to the end).
func readCSV(path string, lo, hi int, opts []Option) (*Table, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("table: %v", err)
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReaderSize(f, 1<<20))
	r.ReuseRecord = true
	if o.comma != 0 {
		r.Comma = o.comma
	}
	header, err := r.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("table: %s is empty; a CSV file starts with a line naming its columns", path)
		}
		return nil, fmt.Errorf("table: %s: %v", path, err)
	}
	t := &Table{name: filepath.Base(path)}
	cols := make([]*colReader, len(header))
	seen := map[string]int{}
	for j, h := range header {
		name := trim(h)
		if j == 0 {
			name = strings.TrimPrefix(name, "\ufeff") // a byte-order mark
		}
		if name == "" {
			name = fmt.Sprintf("c%d", j)
		}
		if k, dup := seen[name]; dup {
			line, col := r.FieldPos(j)
			return nil, fmt.Errorf("table: %s:%d:%d: column name %q is used twice (columns %d and %d); rename one", path, line, col, name, k+1, j+1)
		}
		seen[name] = j
		c := &Column{name: name, t: t, index: j, data: []float64{}}
		cols[j] = &colReader{c: c, isInt: true}
		if slices.Contains(o.strings, name) {
			c.kind, cols[j].decided, cols[j].codes = String, true, map[string]int{}
		}
	}
	for _, s := range o.strings {
		if _, ok := seen[s]; !ok {
			return nil, fmt.Errorf("table: %s: Strings(%q): no such column; the columns are %s", path, s, strings.Join(t.namesOf(cols), ", "))
		}
	}
	full := lo == 0 && hi < 0
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	start := r.InputOffset()
	src := Source{Path: absPath(path), Format: "csv", Width: len(header), Comma: o.comma, Stride: IndexStride}
	row := 0
	for ; hi < 0 || row < hi; row++ {
		off := r.InputOffset()
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("table: %s: %v", path, err) // csv's error names the line and column
		}
		if full && row%IndexStride == 0 {
			src.Index = append(src.Index, off)
		}
		if row < lo {
			continue
		}
		if row-lo == sizeAt && hi < 0 && size > 0 {
			// Size the columns once from the bytes a row takes so far,
			// rather than growing them by doubling to the end.
			est := int(float64(size-start) / float64(off-start) * sizeAt * 1.02)
			for _, c := range cols {
				c.c.data = slices.Grow(c.c.data, est-len(c.c.data))
			}
		}
		for j, s := range rec {
			if err := cols[j].add(s, row-lo, r, j, path); err != nil {
				return nil, err
			}
		}
	}
	if hi >= 0 && row < hi {
		return nil, fmt.Errorf("table: %s has %d data rows; rows [%d, %d) were asked for", path, row, lo, hi)
	}
	t.rows = max(0, row-lo)
	for _, c := range cols {
		if !c.decided || c.c.kind != String && c.isInt {
			c.c.kind = Int
			if !c.decided {
				c.c.kind = Float // all missing
			}
		}
		t.cols = append(t.cols, c.c)
	}
	if full {
		src.Rows = t.rows
		t.src = src
	}
	return t, nil
}

func (t *Table) namesOf(cols []*colReader) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.c.name
	}
	return out
}

// add appends field s of data row i (counted from the first row read).
func (c *colReader) add(s string, i int, r *csv.Reader, j int, path string) error {
	col := c.c
	if isMissing(s) {
		col.missing++
		col.data = append(col.data, math.NaN())
		return nil
	}
	if !c.decided {
		c.decided, c.first = true, i
		if _, ok := number(s); !ok {
			col.kind, c.codes = String, map[string]int{}
		}
	}
	if col.kind == String {
		s = trim(s)
		k, ok := c.codes[s]
		if !ok {
			k = len(col.labels)
			c.codes[s] = k
			col.labels = append(col.labels, s)
		}
		col.data = append(col.data, float64(k))
		return nil
	}
	v, ok := number(s)
	if !ok {
		line, cn := r.FieldPos(j)
		return fmt.Errorf("table: %s:%d:%d: column %q: %q is not a number (the column is numeric from its first value, data row %d); fix the file, or read the column as labels with table.Strings(%q)", path, line, cn, col.name, trim(s), c.first, col.name)
	}
	if c.isInt && (v != math.Trunc(v) || strings.ContainsAny(s, ".eE") || math.Abs(v) > 1<<53) {
		c.isInt = false
	}
	col.data = append(col.data, v)
	return nil
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// ReadRows reads rows [lo, hi) of a CSV or .npy file (by its extension),
// without holding the others: a .npy's rows are read at their offsets, a
// CSV file is scanned up to them. The columns' types are found from the
// rows read.
func ReadRows(path string, lo, hi int, opts ...Option) (*Table, error) {
	if lo < 0 || hi < lo {
		return nil, fmt.Errorf("table: ReadRows(%q, %d, %d): want 0 ≤ lo ≤ hi", path, lo, hi)
	}
	if strings.EqualFold(filepath.Ext(path), ".npy") {
		return readNPYRows(path, lo, hi, opts)
	}
	return readCSV(path, lo, hi, opts)
}
