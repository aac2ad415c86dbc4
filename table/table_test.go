package table

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadCSVTypes(t *testing.T) {
	p := writeFile(t, "d.csv", "y,n,county,zip\n1.5,3,Anoka,55001\n-2,4,Blue Earth,55002\n,5,Anoka,\n3e1,6,Aitkin,55001\n")
	tb, err := ReadCSV(p, Strings("zip"))
	if err != nil {
		t.Fatal(err)
	}
	if tb.Rows() != 4 || !slices.Equal(tb.Names(), []string{"y", "n", "county", "zip"}) {
		t.Fatalf("rows %d names %v", tb.Rows(), tb.Names())
	}
	y := tb.Col("y")
	if y.Kind() != Float || y.Missing() != 1 {
		t.Fatalf("y: kind %v missing %d", y.Kind(), y.Missing())
	}
	got := y.Floats()
	if got[0] != 1.5 || got[1] != -2 || !math.IsNaN(got[2]) || got[3] != 30 {
		t.Fatalf("y = %v", got)
	}
	if n := tb.Col("n"); n.Kind() != Int || !slices.Equal(n.Ints(), []int{3, 4, 5, 6}) {
		t.Fatalf("n: %v %v", n.Kind(), n.Floats())
	}
	c := tb.Col("county")
	if c.Kind() != String || !slices.Equal(c.Labels(), []string{"Anoka", "Blue Earth", "Aitkin"}) || !slices.Equal(c.Ints(), []int{0, 1, 0, 2}) {
		t.Fatalf("county: %v %v %v", c.Kind(), c.Labels(), c.Floats())
	}
	s := c.Sorted()
	if !slices.Equal(s.Labels(), []string{"Aitkin", "Anoka", "Blue Earth"}) || !slices.Equal(s.Ints(), []int{1, 2, 1, 0}) {
		t.Fatalf("sorted county: %v %v", s.Labels(), s.Floats())
	}
	z := tb.Col("zip")
	if z.Kind() != String || !slices.Equal(z.Labels(), []string{"55001", "55002"}) || z.Missing() != 1 {
		t.Fatalf("zip: %v %v missing %d", z.Kind(), z.Labels(), z.Missing())
	}
	// Text: a row as text, whatever the column's type.
	for _, w := range []struct{ col, want string }{{"county", "Blue Earth"}, {"n", "4"}, {"y", "-2"}} {
		if got := tb.Col(w.col).Text(1); got != w.want {
			t.Errorf("%s.Text(1) = %q, want %q", w.col, got, w.want)
		}
	}
	if got := y.Text(2); got != "NA" {
		t.Errorf("a missing value's Text is %q, want NA", got)
	}
	if _, ok := c.Source(); ok {
		t.Fatal("a string column claims a source its rows can be read from")
	}
	if src, ok := y.Source(); !ok || src.Format != "csv" || src.Rows != 4 || !slices.Equal(src.Cols, []int{0}) {
		t.Fatalf("y's source %+v %v", src, ok)
	}
}

func TestReadCSVErrors(t *testing.T) {
	for _, tc := range []struct {
		text, opt, want string
	}{
		{"a,b\n1,2\n3,x7\n", "", `d.csv:3:3: column "b": "x7" is not a number`},
		{"a,a\n1,2\n", "", `column name "a" is used twice`},
		{"", "", "is empty"},
		{"a,b\n1,2\n3\n", "", "wrong number of fields"},
		{"a,b\n1,2\n", "c", `Strings("c"): no such column`},
	} {
		p := writeFile(t, "d.csv", tc.text)
		var opts []Option
		if tc.opt != "" {
			opts = append(opts, Strings(tc.opt))
		}
		_, err := ReadCSV(p, opts...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.text, err, tc.want)
		}
	}
}

// values is an n×k matrix with distinct entries, row by row.
func values(n, k int) []float64 {
	d := make([]float64, n*k)
	for i := range n {
		for j := range k {
			d[i*k+j] = float64(i) + float64(j)/10
		}
	}
	return d
}

func transpose(d []float64, n, k int) []float64 {
	out := make([]float64, n*k)
	for i := range n {
		for j := range k {
			out[j*n+i] = d[i*k+j]
		}
	}
	return out
}

func column(d []float64, n, k, j int) []float64 {
	out := make([]float64, n)
	for i := range n {
		out[i] = d[i*k+j]
	}
	return out
}

func TestNPYOrders(t *testing.T) {
	const n, k = 1000, 3
	want := values(n, k)
	dir := t.TempDir()
	cPath, fPath := filepath.Join(dir, "c.npy"), filepath.Join(dir, "f.npy")
	if err := WriteNPY(cPath, want, n, k, false); err != nil {
		t.Fatal(err)
	}
	if err := WriteNPY(fPath, transpose(want, n, k), n, k, true); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{cPath, fPath} {
		tb, err := OpenNPY(p, Names("a", "b", "c"))
		if err != nil {
			t.Fatal(err)
		}
		if tb.Rows() != n || !slices.Equal(tb.Names(), []string{"a", "b", "c"}) {
			t.Fatalf("%s: %d rows, %v", p, tb.Rows(), tb.Names())
		}
		for j, name := range tb.Names() {
			if got := tb.Col(name).Floats(); !slices.Equal(got, column(want, n, k, j)) {
				t.Fatalf("%s: column %s differs", p, name)
			}
		}
		if got := tb.Matrix().Data(); !slices.Equal(got, want) {
			t.Fatalf("%s: matrix view differs", p)
		}
		if got := tb.Matrix("a", "a", "b").Data(); !slices.Equal(got[:6], []float64{0, 0, 0.1, 1, 1, 1.1}) {
			t.Fatalf("%s: matrix of a, a, b starts %v", p, got[:6])
		}
		if got := tb.Matrix("c", "a").Data(); !slices.Equal(got[:4], []float64{0.2, 0, 1.2, 1}) {
			t.Fatalf("%s: matrix of c, a starts %v", p, got[:4])
		}
	}
	// Zero copy: a Fortran file's columns follow each other in one
	// mapping; a C file's matrix view is that mapping.
	f, _ := OpenNPY(fPath)
	a, b := f.Col("c0").Floats(), f.Col("c1").Floats()
	if uintptr(unsafe.Pointer(&b[0]))-uintptr(unsafe.Pointer(&a[0])) != n*8 {
		t.Fatal("the Fortran-order columns are not views of one mapping")
	}
	c, _ := OpenNPY(cPath)
	if &c.Matrix().Data()[0] != &c.Matrix().Data()[0] {
		t.Fatal("the C-order matrix view is copied at each call")
	}
	// A private mapping: writing to a column leaves the file as it was.
	a[0] = 99
	if v, err := ReadRows(fPath, 0, 1); err != nil || v.Col("c0").Floats()[0] != 0 {
		t.Fatalf("the file changed under a write to its mapping: %v %v", v, err)
	}
}

// writeTyped writes a C-order .npy of another element type by hand.
func writeTyped(t *testing.T, descr string, size int, put func([]byte, float64), vals []float64, n, k int) string {
	t.Helper()
	h := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }", descr, n, k)
	h += strings.Repeat(" ", (64-(10+len(h)+1)%64)%64) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8))
	b = append(b, h...)
	for _, v := range vals {
		e := make([]byte, size)
		put(e, v)
		b = append(b, e...)
	}
	return writeFile(t, "x.npy", string(b))
}

func TestNPYTypes(t *testing.T) {
	vals := []float64{1, -2, 3, 4, 5, -6}
	for _, tc := range []struct {
		descr string
		size  int
		put   func([]byte, float64)
		kind  Kind
	}{
		{"<f4", 4, func(b []byte, v float64) { binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v))) }, Float},
		{"<i8", 8, func(b []byte, v float64) { binary.LittleEndian.PutUint64(b, uint64(int64(v))) }, Int},
		{"<i4", 4, func(b []byte, v float64) { binary.LittleEndian.PutUint32(b, uint32(int32(v))) }, Int},
	} {
		p := writeTyped(t, tc.descr, tc.size, tc.put, vals, 3, 2)
		tb, err := OpenNPY(p)
		if err != nil {
			t.Fatal(err)
		}
		if c := tb.Col("c1"); c.Kind() != tc.kind || !slices.Equal(c.Floats(), []float64{-2, 4, -6}) {
			t.Errorf("%s: c1 %v %v", tc.descr, c.Kind(), c.Floats())
		}
		rows, err := ReadRows(p, 1, 3)
		if err != nil || !slices.Equal(rows.Col("c0").Floats(), []float64{3, 5}) {
			t.Errorf("%s: rows [1,3): %v %v", tc.descr, rows, err)
		}
	}
	p := writeTyped(t, ">f8", 8, func(b []byte, v float64) { binary.BigEndian.PutUint64(b, math.Float64bits(v)) }, vals, 3, 2)
	if _, err := OpenNPY(p); err == nil || !strings.Contains(err.Error(), "astype") {
		t.Errorf("a big-endian file: %v", err)
	}
	if _, err := OpenNPY(writeFile(t, "no.npy", "hello")); err == nil || !strings.Contains(err.Error(), "not a .npy file") {
		t.Errorf("not a .npy file: %v", err)
	}
}

func TestReadRowsAndSource(t *testing.T) {
	const n, k = 3*IndexStride + 17, 3
	want := values(n, k)
	dir := t.TempDir()
	cPath, fPath, csvPath := filepath.Join(dir, "c.npy"), filepath.Join(dir, "f.npy"), filepath.Join(dir, "d.csv")
	WriteNPY(cPath, want, n, k, false)
	WriteNPY(fPath, transpose(want, n, k), n, k, true)
	var sb strings.Builder
	sb.WriteString("a,b,c\n")
	for i := range n {
		fmt.Fprintf(&sb, "%v,%v,%v\n", want[i*k], want[i*k+1], want[i*k+2])
	}
	os.WriteFile(csvPath, []byte(sb.String()), 0o644)
	for _, p := range []string{cPath, fPath, csvPath} {
		for _, r := range [][2]int{{0, 5}, {IndexStride - 1, IndexStride + 2}, {2*IndexStride + 5, n}, {7, 7}} {
			lo, hi := r[0], r[1]
			tb, err := ReadRows(p, lo, hi)
			if err != nil {
				t.Fatal(err)
			}
			if tb.Rows() != hi-lo {
				t.Fatalf("%s [%d,%d): %d rows", p, lo, hi, tb.Rows())
			}
			if got := tb.Matrix().Data(); !slices.Equal(got, want[lo*k:hi*k]) {
				t.Fatalf("%s rows [%d,%d) differ", p, lo, hi)
			}
		}
		var full *Table
		var err error
		if strings.HasSuffix(p, ".csv") {
			full, err = ReadCSV(p)
		} else {
			full, err = OpenNPY(p)
		}
		if err != nil {
			t.Fatal(err)
		}
		src, ok := full.Matrix(full.Names()[2], full.Names()[0]).Source()
		if !ok {
			t.Fatalf("%s: no source", p)
		}
		if src.Format == "csv" && len(src.Index) != 4 {
			t.Fatalf("csv index of %d entries for %d rows", len(src.Index), n)
		}
		got, err := src.Read(IndexStride+3, 2*IndexStride+9)
		if err != nil {
			t.Fatal(err)
		}
		for i := range IndexStride + 6 {
			r := IndexStride + 3 + i
			if got[2*i] != want[r*k+2] || got[2*i+1] != want[r*k] {
				t.Fatalf("%s: Source.Read row %d = %v", p, r, got[2*i:2*i+2])
			}
		}
		trimmed, err := src.Trim(IndexStride+3).Read(IndexStride+3, 2*IndexStride+9)
		if err != nil || !slices.Equal(trimmed, got) {
			t.Fatalf("%s: a trimmed source reads other rows (%v)", p, err)
		}
		if src.Format == "csv" && len(src.Trim(IndexStride+3).Index) != 1 {
			t.Fatalf("Trim kept %d index entries", len(src.Trim(IndexStride+3).Index))
		}
		if _, err := src.Read(0, n+1); err == nil {
			t.Fatalf("%s: reading past the end gave no error", p)
		}
	}
}

func TestPreview(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("x,g\n")
	for i := range 100 {
		fmt.Fprintf(&sb, "%d.5,<g%d>\n", i, i%3)
	}
	tb, err := ReadCSV(writeFile(t, "p.csv", sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	h := tb.HTML()
	for _, want := range []string{"p.csv: 100 rows × 2 columns (csv)", "<th>x</th>", "<i>float64</i>", "string (3 labels)", "<td>0.5</td>", "<td>99.5</td>", "&lt;g1&gt;", "<th>…</th>"} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q:\n%s", want, h)
		}
	}
	if strings.Contains(h, "50.5") || strings.Count(h, "<tr>") != 2+2*PreviewRows+1 {
		t.Errorf("HTML is not bounded to %d rows at each end:\n%s", PreviewRows, h)
	}
	s := tb.String()
	if !strings.Contains(s, "99.5") || strings.Contains(s, "50.5") || len(strings.Split(s, "\n")) != 1+2+2*PreviewRows+1 {
		t.Errorf("text preview:\n%s", s)
	}
}
