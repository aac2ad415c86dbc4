package lockstep

import "testing"

// toRows puts slot j of chain c (j·n+c) at c·d+j, and toColumns undoes it.
func TestTranspose(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {5, 1}, {1, 4}, {3, 4}, {7, 2}} {
		n, d := sz[0], sz[1]
		cols := make([]float64, n*d)
		for j := 0; j < d; j++ {
			for c := 0; c < n; c++ {
				cols[j*n+c] = float64(100*c + j)
			}
		}
		rows, back := make([]float64, n*d), make([]float64, n*d)
		toRows(rows, cols, n, d)
		for c := 0; c < n; c++ {
			for j := 0; j < d; j++ {
				if got := rows[c*d+j]; got != float64(100*c+j) {
					t.Fatalf("n=%d d=%d: row %d slot %d holds %g", n, d, c, j, got)
				}
			}
		}
		toColumns(back, rows, n, d)
		for i := range back {
			if back[i] != cols[i] {
				t.Fatalf("n=%d d=%d: toColumns(toRows(x))[%d] = %g, want %g", n, d, i, back[i], cols[i])
			}
		}
	}
}
