package table

import (
	"bufio"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
)

// Source says where some columns are in a file and how the file is laid
// out: enough for another process to read rows of them (Read) without
// the rest. It is plain data, sent as it is to the ranks of an MPI job.
type Source struct {
	Path   string
	Format string // "npy" or "csv"
	Rows   int    // rows in the file
	Width  int    // columns in the file
	Cols   []int  // the columns read, in order (file indexes)

	// .npy: the byte offset of the first value, the element type
	// (NumPy's descr: "<f8", "<f4", "<i8", "<i4") and the order.
	Offset  int64
	DType   string
	Fortran bool

	// CSV: the separator, and the byte offsets of data rows
	// (IndexStart+i)·Stride for each Index[i] (recorded by a full read,
	// from row 0; empty: scan from the start).
	Comma      rune
	Stride     int
	Index      []int64
	IndexStart int
}

// Trim keeps of a CSV source's index the one entry a read of rows from
// lo starts at: what another process needs to read them.
func (s Source) Trim(lo int) Source {
	if s.Format != "csv" || s.Stride <= 0 || len(s.Index) == 0 {
		return s
	}
	e := lo/s.Stride - s.IndexStart
	if e < 0 {
		s.Index = nil
		return s
	}
	e = min(e, len(s.Index)-1)
	s.Index, s.IndexStart = []int64{s.Index[e]}, s.IndexStart+e
	return s
}

// Read returns rows [lo, hi) of the source's columns, row by row
// ((hi-lo) × len(Cols) values: a single column is its values).
func (s Source) Read(lo, hi int) ([]float64, error) {
	if lo < 0 || hi > s.Rows || lo > hi {
		return nil, fmt.Errorf("table: rows [%d, %d) of %s, which has %d rows", lo, hi, s.Path, s.Rows)
	}
	for _, c := range s.Cols {
		if c < 0 || c >= s.Width {
			return nil, fmt.Errorf("table: column %d of %s, which has %d columns", c, s.Path, s.Width)
		}
	}
	switch s.Format {
	case "npy":
		return s.readNPY(lo, hi)
	case "csv":
		return s.readCSV(lo, hi)
	}
	return nil, fmt.Errorf("table: %s: unknown format %q (want npy or csv)", s.Path, s.Format)
}

// String describes the source in a line.
func (s Source) String() string {
	return fmt.Sprintf("%s (%s, %d rows × %d columns), columns %v", s.Path, s.Format, s.Rows, s.Width, s.Cols)
}

// readNPY reads at computed offsets: C order holds row i at Offset +
// i·Width·size, Fortran order column j's row i at Offset + (j·Rows + i)·size.
func (s Source) readNPY(lo, hi int) ([]float64, error) {
	size, conv, err := dtype(s.DType)
	if err != nil {
		return nil, fmt.Errorf("table: %s: %v", s.Path, err)
	}
	f, err := os.Open(s.Path)
	if err != nil {
		return nil, fmt.Errorf("table: %v", err)
	}
	defer f.Close()
	n, k := hi-lo, len(s.Cols)
	out := make([]float64, n*k)
	if n == 0 {
		return out, nil
	}
	if s.Fortran || s.Width == 1 {
		buf := make([]byte, n*size)
		for j, c := range s.Cols {
			off := s.Offset + int64(c*s.Rows+lo)*int64(size)
			if _, err := f.ReadAt(buf, off); err != nil {
				return nil, fmt.Errorf("table: %s: reading rows [%d, %d) of column %d: %v", s.Path, lo, hi, c, err)
			}
			for i := range n {
				out[i*k+j] = conv(buf[i*size:])
			}
		}
		return out, nil
	}
	// C order: the rows are contiguous; read them in chunks.
	rowBytes := s.Width * size
	chunk := max(1, (4<<20)/rowBytes)
	buf := make([]byte, min(chunk, n)*rowBytes)
	for at := 0; at < n; at += chunk {
		m := min(chunk, n-at)
		b := buf[:m*rowBytes]
		if _, err := f.ReadAt(b, s.Offset+int64(lo+at)*int64(rowBytes)); err != nil {
			return nil, fmt.Errorf("table: %s: reading rows [%d, %d): %v", s.Path, lo+at, lo+at+m, err)
		}
		for i := range m {
			row := b[i*rowBytes:]
			for j, c := range s.Cols {
				out[(at+i)*k+j] = conv(row[c*size:])
			}
		}
	}
	return out, nil
}

// dtype is the size and the conversion of a little-endian NumPy type.
func dtype(descr string) (int, func([]byte) float64, error) {
	switch descr {
	case "<f8":
		return 8, func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) }, nil
	case "<f4":
		return 4, func(b []byte) float64 { return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))) }, nil
	case "<i8":
		return 8, func(b []byte) float64 { return float64(int64(binary.LittleEndian.Uint64(b))) }, nil
	case "<i4":
		return 4, func(b []byte) float64 { return float64(int32(binary.LittleEndian.Uint32(b))) }, nil
	}
	return 0, nil, fmt.Errorf("element type %q is not read (want little-endian float64, float32, int64 or int32: '<f8', '<f4', '<i8', '<i4'); convert it with NumPy's astype", descr)
}

// readCSV scans from the index entry at or before lo.
func (s Source) readCSV(lo, hi int) ([]float64, error) {
	f, err := os.Open(s.Path)
	if err != nil {
		return nil, fmt.Errorf("table: %v", err)
	}
	defer f.Close()
	at := 0 // the data row the reader stands before
	skipHeader := true
	if e := lo/max(1, s.Stride) - s.IndexStart; s.Stride > 0 && len(s.Index) > 0 && e >= 0 {
		e = min(e, len(s.Index)-1)
		if _, err := f.Seek(s.Index[e], io.SeekStart); err != nil {
			return nil, fmt.Errorf("table: %s: %v", s.Path, err)
		}
		at, skipHeader = (s.IndexStart+e)*s.Stride, false
	}
	r := csv.NewReader(bufio.NewReaderSize(f, 1<<20))
	r.ReuseRecord = true
	if s.Comma != 0 {
		r.Comma = s.Comma
	}
	if skipHeader {
		if _, err := r.Read(); err != nil {
			return nil, fmt.Errorf("table: %s: reading the header: %v", s.Path, err)
		}
	}
	k := len(s.Cols)
	out := make([]float64, 0, (hi-lo)*k)
	for ; at < hi; at++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("table: %s ends at data row %d; want rows up to %d (the file changed since it was read?)", s.Path, at, hi)
		}
		if err != nil {
			return nil, fmt.Errorf("table: %s: data row %d: %v", s.Path, at, err)
		}
		if at < lo {
			continue
		}
		for _, c := range s.Cols {
			v, ok := number(rec[c])
			if !ok {
				return nil, fmt.Errorf("table: %s: data row %d, column %d: %q is not a number", s.Path, at, c+1, rec[c])
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// number parses a CSV field: a missing value (empty, NA, NaN, null) is
// NaN with ok true; ok is false for text that is not a number.
func number(s string) (float64, bool) {
	if isMissing(s) {
		return math.NaN(), true
	}
	v, err := strconv.ParseFloat(trim(s), 64)
	return v, err == nil
}

func isMissing(s string) bool {
	switch trim(s) {
	case "", "NA", "NaN", "nan", "N/A", "null", "NULL":
		return true
	}
	return false
}

// trim drops the spaces around a field (without allocating).
func trim(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}
