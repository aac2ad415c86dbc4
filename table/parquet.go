package table

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// ReadParquet reads a Parquet file (parquet-go/parquet-go) with a flat
// schema — one column per top-level field — into a table: boolean and
// integer columns become Int columns, floating-point ones Float, text
// (byte arrays) String columns with codes and labels in order of first
// appearance, as ReadCSV makes them; a null is a missing value (NaN, and
// counted). Nested, repeated and other columns are refused, naming them.
// The values are read into memory (no view of the file, unlike OpenNPY).
func ReadParquet(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("table: %v", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("table: %v", err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("table: %s is not a Parquet file this reader understands: %v", path, err)
	}
	t := &Table{name: filepath.Base(path), rows: int(pf.NumRows())}
	fields := pf.Schema().Fields()
	codes := make([]map[string]int, len(fields))
	for j, fd := range fields {
		if !fd.Leaf() || fd.Repeated() {
			return nil, fmt.Errorf("table: %s: column %q is nested or repeated; this reader takes flat tables (one value per row and column): flatten it when writing the file", path, fd.Name())
		}
		c := &Column{name: fd.Name(), t: t, index: j, data: make([]float64, 0, t.rows)}
		switch k := fd.Type().Kind(); k {
		case parquet.Boolean, parquet.Int32, parquet.Int64:
			c.kind = Int
		case parquet.Float, parquet.Double:
			c.kind = Float
		case parquet.ByteArray:
			c.kind, codes[j] = String, map[string]int{}
		default:
			return nil, fmt.Errorf("table: %s: column %q is of Parquet type %v; this reader takes booleans, integers, floating-point numbers and text", path, fd.Name(), k)
		}
		t.cols = append(t.cols, c)
	}
	vals := make([]parquet.Value, 4096)
	for _, rg := range pf.RowGroups() {
		for j, cc := range rg.ColumnChunks() {
			if j >= len(t.cols) {
				return nil, fmt.Errorf("table: %s: a row group has more columns than the schema", path)
			}
			if err := readChunk(t.cols[j], codes[j], cc.Pages(), vals); err != nil {
				return nil, fmt.Errorf("table: %s: column %q: %v", path, t.cols[j].name, err)
			}
		}
	}
	for _, c := range t.cols {
		if len(c.data) != t.rows {
			return nil, fmt.Errorf("table: %s: column %q has %d values for %d rows", path, c.name, len(c.data), t.rows)
		}
	}
	return t, nil
}

// readChunk appends one column chunk's values to c.
func readChunk(c *Column, codes map[string]int, pages parquet.Pages, vals []parquet.Value) error {
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		r := p.Values()
		for {
			n, err := r.ReadValues(vals)
			for _, v := range vals[:n] {
				c.data = append(c.data, value(c, codes, v))
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				parquet.Release(p)
				return err
			}
		}
		parquet.Release(p)
	}
}

// value is v as the column holds it.
func value(c *Column, codes map[string]int, v parquet.Value) float64 {
	if v.IsNull() {
		c.missing++
		return math.NaN()
	}
	switch v.Kind() {
	case parquet.Boolean:
		if v.Boolean() {
			return 1
		}
		return 0
	case parquet.Int32:
		return float64(v.Int32())
	case parquet.Int64:
		x := float64(v.Int64())
		if math.Abs(x) > 1<<53 {
			c.kind = Float // no longer exact as a float64
		}
		return x
	case parquet.Float:
		return float64(v.Float())
	case parquet.Double:
		return v.Double()
	}
	s := strings.TrimSpace(string(v.ByteArray()))
	k, ok := codes[s]
	if !ok {
		k = len(c.labels)
		codes[s] = k
		c.labels = append(c.labels, s)
	}
	return float64(k)
}
