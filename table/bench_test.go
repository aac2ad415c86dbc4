package table

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The reading benchmarks: a file of benchRows × benchCols numbers read
// into the row-major matrix a model takes. The anchor is what a cell did
// before this package: encoding/csv into [][]float64, then the flat copy
// ppl makes of it. Every arm reads the values it made once (sum).
const benchRows, benchCols = 100_000, 10

func benchFiles(b *testing.B) (csvPath, npyPath string) {
	b.Helper()
	dir := b.TempDir()
	vals := values(benchRows, benchCols)
	var sb strings.Builder
	for j := range benchCols {
		if j > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, "x%d", j)
	}
	sb.WriteByte('\n')
	for i := range benchRows {
		for j := range benchCols {
			if j > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(strconv.FormatFloat(vals[i*benchCols+j], 'g', -1, 64))
		}
		sb.WriteByte('\n')
	}
	csvPath, npyPath = filepath.Join(dir, "d.csv"), filepath.Join(dir, "d.npy")
	if err := os.WriteFile(csvPath, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := WriteNPY(npyPath, vals, benchRows, benchCols, false); err != nil {
		b.Fatal(err)
	}
	return csvPath, npyPath
}

func BenchmarkReadMatrix(b *testing.B) {
	csvPath, npyPath := benchFiles(b)
	b.Run("anchor=csv-rows-then-flat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f, _ := os.Open(csvPath)
			recs, err := csv.NewReader(f).ReadAll()
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
			rows := make([][]float64, 0, len(recs)-1)
			for _, r := range recs[1:] {
				row := make([]float64, len(r))
				for j, s := range r {
					row[j], _ = strconv.ParseFloat(s, 64)
				}
				rows = append(rows, row)
			}
			flat := make([]float64, 0, len(rows)*benchCols)
			for _, r := range rows {
				flat = append(flat, r...)
			}
			sink += sum(flat)
		}
	})
	b.Run("table.ReadCSV+Matrix", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			t, err := ReadCSV(csvPath)
			if err != nil {
				b.Fatal(err)
			}
			sink += sum(t.Matrix().Data())
		}
	})
	b.Run("table.OpenNPY+Matrix", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			t, err := OpenNPY(npyPath)
			if err != nil {
				b.Fatal(err)
			}
			sink += sum(t.Matrix().Data())
		}
	})
}

// sink and sum make every arm read every value it loaded (a mapped file's
// pages are read when touched).
var sink float64

func sum(d []float64) float64 {
	s := 0.0
	for _, v := range d {
		s += v
	}
	return s
}
