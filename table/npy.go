package table

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// OpenNPY opens a NumPy .npy file of one or two dimensions ([N] or
// [N K]; float64, float32, int64 or int32, little-endian). A float64 file
// is memory-mapped: a Fortran-order file's columns, and a C-order file's
// matrix view, are the mapping itself; the other types are converted
// into columns as they are read.
func OpenNPY(path string, opts ...Option) (*Table, error) {
	src, err := npyHeader(path)
	if err != nil {
		return nil, err
	}
	t, err := newNPYTable(path, src, src.Rows, opts)
	if err != nil {
		return nil, err
	}
	n, k := src.Rows, src.Width
	size, conv, _ := dtype(src.DType)
	if n*k == 0 {
		for _, c := range t.cols {
			c.data = []float64{}
		}
		return t, nil
	}
	if src.DType == "<f8" && src.Offset%8 == 0 {
		all, err := mapFloats(path, src.Offset, n*k)
		if err != nil {
			return nil, err
		}
		switch {
		case src.Fortran || k == 1:
			for j, c := range t.cols {
				c.data = all[j*n : (j+1)*n : (j+1)*n]
			}
		default:
			t.rowMajor = all
			for j, c := range t.cols {
				c.fill = func() []float64 {
					d := make([]float64, n)
					for i := range d {
						d[i] = all[i*k+j]
					}
					return d
				}
			}
		}
		return t, nil
	}
	// Converted: one pass over the file into the columns.
	all := make([][]float64, k)
	for j := range all {
		all[j] = make([]float64, n)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("table: %v", err)
	}
	defer f.Close()
	r := io.NewSectionReader(f, src.Offset, int64(n*k*size))
	buf := make([]byte, 1<<20-(1<<20)%size)
	for e := 0; e < n*k; {
		m := min(len(buf)/size, n*k-e)
		if _, err := io.ReadFull(r, buf[:m*size]); err != nil {
			return nil, fmt.Errorf("table: %s: the file ends before its %d values: %v", path, n*k, err)
		}
		for i := range m {
			v := conv(buf[i*size:])
			if src.Fortran {
				all[(e+i)/n][(e+i)%n] = v
			} else {
				all[(e+i)%k][(e+i)/k] = v
			}
		}
		e += m
	}
	for j, c := range t.cols {
		c.data = all[j]
	}
	return t, nil
}

// newNPYTable makes the table's columns (without their values).
func newNPYTable(path string, src Source, rows int, opts []Option) (*Table, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	k := src.Width
	if o.names != nil && len(o.names) != k {
		return nil, fmt.Errorf("table: %s has %d columns; Names gives %d names", path, k, len(o.names))
	}
	t := &Table{name: filepath.Base(path), rows: rows, src: src}
	kind := Float
	if strings.Contains(src.DType, "i") {
		kind = Int
	}
	for j := range k {
		name := fmt.Sprintf("c%d", j)
		if o.names != nil {
			name = o.names[j]
		}
		t.cols = append(t.cols, &Column{name: name, kind: kind, t: t, index: j})
	}
	return t, nil
}

// readNPYRows reads rows [lo, hi) of a .npy file at their offsets.
func readNPYRows(path string, lo, hi int, opts []Option) (*Table, error) {
	src, err := npyHeader(path)
	if err != nil {
		return nil, err
	}
	if hi > src.Rows {
		return nil, fmt.Errorf("table: %s has %d rows; rows [%d, %d) were asked for", path, src.Rows, lo, hi)
	}
	t, err := newNPYTable(path, src, hi-lo, opts)
	if err != nil {
		return nil, err
	}
	t.src = Source{} // a part of the file: its rows are not the file's
	for j, c := range t.cols {
		s := src
		s.Cols = []int{j}
		if c.data, err = s.Read(lo, hi); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// npyHeader reads a .npy file's header: its Source with no columns.
func npyHeader(path string) (Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return Source{}, fmt.Errorf("table: %v", err)
	}
	defer f.Close()
	bad := func(why string, a ...any) (Source, error) {
		return Source{}, fmt.Errorf("table: %s is not a .npy file NumPy wrote: "+why, append([]any{path}, a...)...)
	}
	pre := make([]byte, 12)
	if _, err := io.ReadFull(f, pre); err != nil || !bytes.HasPrefix(pre, []byte("\x93NUMPY")) {
		return bad("no \\x93NUMPY magic")
	}
	var hlen, start int
	switch pre[6] {
	case 1:
		hlen, start = int(binary.LittleEndian.Uint16(pre[8:])), 10
	case 2, 3:
		hlen, start = int(binary.LittleEndian.Uint32(pre[8:])), 12
	default:
		return bad("format version %d", pre[6])
	}
	if hlen > 1<<20 {
		return bad("a header of %d bytes", hlen)
	}
	h := make([]byte, hlen)
	if _, err := f.ReadAt(h, int64(start)); err != nil {
		return bad("the header is cut short")
	}
	hs := string(h)
	descr, ok := dictString(hs, "descr")
	if !ok {
		return bad("no 'descr' in the header %q", hs)
	}
	if _, _, err := dtype(descr); err != nil {
		return Source{}, fmt.Errorf("table: %s: %v", path, err)
	}
	fortran := strings.Contains(after(hs, "'fortran_order'"), "True")
	shape, err := dictShape(hs)
	if err != nil {
		return bad("%v", err)
	}
	src := Source{Path: absPath(path), Format: "npy", Offset: int64(start + hlen), DType: descr, Fortran: fortran}
	switch len(shape) {
	case 1:
		src.Rows, src.Width = shape[0], 1
	case 2:
		src.Rows, src.Width = shape[0], shape[1]
	default:
		return Source{}, fmt.Errorf("table: %s holds an array of shape %v; a table is one or two dimensions ([rows] or [rows columns])", path, shape)
	}
	size, _, _ := dtype(descr)
	if fi, err := f.Stat(); err == nil && fi.Size() < src.Offset+int64(src.Rows*src.Width*size) {
		return bad("it holds %d bytes of values; its shape %v needs %d", fi.Size()-src.Offset, shape, src.Rows*src.Width*size)
	}
	return src, nil
}

// after is what follows key in the header, up to the next comma or brace.
func after(h, key string) string {
	i := strings.Index(h, key)
	if i < 0 {
		return ""
	}
	s := h[i+len(key):]
	if j := strings.IndexAny(s, ",}"); j >= 0 {
		s = s[:j]
	}
	return s
}

// dictString is the quoted string value of key in the header's dict.
func dictString(h, key string) (string, bool) {
	s := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(after(h, "'"+key+"'")), ":"))
	if len(s) < 2 || s[0] != '\'' || s[len(s)-1] != '\'' {
		return "", false
	}
	return s[1 : len(s)-1], true
}

// dictShape parses the header's 'shape': (N,), (N, K) or ().
func dictShape(h string) ([]int, error) {
	i := strings.Index(h, "'shape'")
	if i < 0 {
		return nil, fmt.Errorf("no 'shape' in the header")
	}
	s := h[i:]
	a, b := strings.IndexByte(s, '('), strings.IndexByte(s, ')')
	if a < 0 || b < a {
		return nil, fmt.Errorf("the header's shape is not a tuple")
	}
	var out []int
	for _, p := range strings.Split(s[a+1:b], ",") {
		p = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(p), "L"))
		if p == "" {
			continue
		}
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("the header's shape holds %q", p)
		}
		out = append(out, v)
	}
	return out, nil
}

// mapFloats maps n float64 values at byte offset off of the file,
// privately: a write goes to this process's copy of the page.
func mapFloats(path string, off int64, n int) ([]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("table: %v", err)
	}
	defer f.Close() // the mapping outlives the descriptor
	page := int64(os.Getpagesize())
	base := off - off%page
	length := int(off-base) + n*8
	b, err := syscall.Mmap(int(f.Fd()), base, length, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, fmt.Errorf("table: mapping %s: %v", path, err)
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(&b[off-base])), n), nil
}

// WriteNPY writes values as a .npy file of shape [rows] (cols 1) or
// [rows cols], float64, in C order (values row by row) or Fortran order
// (values column by column): what NumPy's np.save writes, for tests and
// for data a Go program makes.
func WriteNPY(path string, values []float64, rows, cols int, fortran bool) error {
	if rows*cols != len(values) {
		return fmt.Errorf("table: WriteNPY: %d values for shape [%d %d]", len(values), rows, cols)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("table: %v", err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.Write(NPYHeader(rows, cols, fortran))
	var b [8]byte
	for _, v := range values {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		w.Write(b[:])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("table: writing %s: %v", path, err)
	}
	return f.Close()
}

// NPYHeader is the header of a float64 .npy file of shape [rows] (cols
// 1) or [rows cols]: write it, then the values little-endian, to stream a
// file too large to hold.
func NPYHeader(rows, cols int, fortran bool) []byte {
	shape := fmt.Sprintf("(%d, %d)", rows, cols)
	if cols == 1 {
		shape = fmt.Sprintf("(%d,)", rows)
	}
	order := "False"
	if fortran {
		order = "True"
	}
	h := fmt.Sprintf("{'descr': '<f8', 'fortran_order': %s, 'shape': %s, }", order, shape)
	h += strings.Repeat(" ", (64-(10+len(h)+1)%64)%64) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8))
	return append(b, h...)
}
