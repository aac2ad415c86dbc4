package table_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/gobayes/gobayes/table"
)

type pqRow struct {
	X      float64  `parquet:"x"`
	N      int64    `parquet:"n"`
	Flag   bool     `parquet:"flag"`
	County string   `parquet:"county"`
	Y      *float64 `parquet:"y,optional"`
	K      int32    `parquet:"k"`
}

// A Parquet file reads into the same columns as the CSV file of the same
// rows: kinds, values, labels in order of first appearance and codes,
// missing values — across row groups and pages.
func TestReadParquetAsCSV(t *testing.T) {
	dir := t.TempDir()
	counties := []string{"Anoka", "Dakota", "Itasca", "Anoka Heights"}
	var rows []pqRow
	var csv strings.Builder
	csv.WriteString("x,n,flag,county,y,k\n")
	for i := 0; i < 1000; i++ {
		r := pqRow{X: float64(i)/7 - 3, N: int64(i*i - 500), Flag: i%3 == 0, County: counties[(i*7)%4], K: int32(-i)}
		y := ""
		if i%11 != 0 {
			v := math.Sin(float64(i))
			r.Y = &v
			y = fmt.Sprint(v)
		}
		flag := 0
		if r.Flag {
			flag = 1
		}
		rows = append(rows, r)
		fmt.Fprintf(&csv, "%v,%d,%d,%s,%s,%d\n", r.X, r.N, flag, r.County, y, r.K)
	}
	pq := filepath.Join(dir, "rows.parquet")
	f, err := os.Create(pq)
	if err != nil {
		t.Fatal(err)
	}
	if err := parquet.Write(f, rows, parquet.MaxRowsPerRowGroup(300), parquet.PageBufferSize(512)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cf := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(cf, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := table.ReadParquet(pq)
	if err != nil {
		t.Fatal(err)
	}
	want, err := table.ReadCSV(cf)
	if err != nil {
		t.Fatal(err)
	}
	if got.Rows() != 1000 || strings.Join(got.Names(), ",") != strings.Join(want.Names(), ",") {
		t.Fatalf("parquet: %d rows, columns %v; want 1000 and %v", got.Rows(), got.Names(), want.Names())
	}
	for _, name := range want.Names() {
		g, w := got.Col(name), want.Col(name)
		if g.Kind() != w.Kind() || g.Missing() != w.Missing() || strings.Join(g.Labels(), "|") != strings.Join(w.Labels(), "|") {
			t.Errorf("column %s: %v, %d missing, labels %v; CSV %v, %d missing, labels %v", name, g.Kind(), g.Missing(), g.Labels(), w.Kind(), w.Missing(), w.Labels())
			continue
		}
		gv, wv := g.Floats(), w.Floats()
		for i := range wv {
			if gv[i] != wv[i] && !(math.IsNaN(gv[i]) && math.IsNaN(wv[i])) {
				t.Errorf("column %s row %d: %v, CSV %v", name, i, gv[i], wv[i])
				break
			}
		}
	}
}

// A nested or repeated column is refused, naming it.
func TestReadParquetNested(t *testing.T) {
	type nested struct {
		X    float64   `parquet:"x"`
		Tags []float64 `parquet:"tags"`
	}
	p := filepath.Join(t.TempDir(), "nested.parquet")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := parquet.Write(f, []nested{{1, []float64{1, 2}}}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = table.ReadParquet(p)
	if err == nil || !strings.Contains(err.Error(), `"tags"`) || !strings.Contains(err.Error(), "flat") {
		t.Errorf("nested column: error %v, want one naming tags and asking for a flat table", err)
	}
	if _, err := table.ReadParquet(filepath.Join(t.TempDir(), "none.parquet")); err == nil {
		t.Error("a missing file read without an error")
	}
}
