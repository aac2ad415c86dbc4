package table_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gobayes/gobayes/table"
)

func ExampleReadCSV() {
	dir, _ := os.MkdirTemp("", "table-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "radon.csv")
	os.WriteFile(path, []byte("county,floor,log_radon\nAnoka,0,0.83\nAitkin,1,0.47\nAnoka,1,1.10\nBlue Earth,0,NA\n"), 0o644)

	t, err := table.ReadCSV(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t)
	county := t.Col("county")
	fmt.Println(county.Labels(), county.Ints())
	fmt.Println(t.Col("log_radon"))
	// Output:
	// radon.csv: 4 rows × 3 columns (csv), 1 missing value
	//        county  floor  log_radon
	//        string    int    float64
	// 0       Anoka      0       0.83
	// 1      Aitkin      1       0.47
	// 2       Anoka      1        1.1
	// 3  Blue Earth      0         NA
	// [Anoka Aitkin Blue Earth] [0 1 0 2]
	// log_radon (float64, 4 rows, 1 missing): 0.83 0.47 1.1 NA
}

func ExampleOpenNPY() {
	dir, _ := os.MkdirTemp("", "table-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "X.npy")
	// Three rows of two columns, column by column (Fortran order).
	table.WriteNPY(path, []float64{1, 2, 3, 10, 20, 30}, 3, 2, true)

	t, err := table.OpenNPY(path, table.Names("x", "z"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.Col("z").Floats())       // a slice of the file's mapping
	fmt.Println(t.Matrix("x", "z").Data()) // row by row, as ppl takes a matrix
	rows, _ := table.ReadRows(path, 1, 3, table.Names("x", "z"))
	fmt.Println(rows.Col("x").Floats())
	// Output:
	// [10 20 30]
	// [1 10 2 20 3 30]
	// [2 3]
}
