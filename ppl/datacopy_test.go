package ppl_test

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/mat"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl"
)

// within reports whether d's memory lies inside that of all.
func within(d, all []float64) bool {
	if len(d) == 0 || len(all) == 0 {
		return false
	}
	lo, hi := uintptr(unsafe.Pointer(&all[0])), uintptr(unsafe.Pointer(&all[len(all)-1]))
	p := uintptr(unsafe.Pointer(&d[0]))
	return p >= lo && p <= hi
}

// sharedIn counts the shared constants of programs whose memory lies in
// all's.
func sharedIn(all []float64, programs ...*ir.Program) int {
	n := 0
	for _, p := range programs {
		for _, s := range p.Shared {
			if within(s.Data, all) {
				n++
			}
		}
	}
	return n
}

// TestDataOneCopy: a regression's data given as a *mat.Dense and a
// []float64 are the memory every program of the model reads, sharded or
// not (no copy in ppl, none in a program, none per chain); a [][]float64
// is copied once, and every program reads that one copy. Chains' densities
// then cost far less than the data.
func TestDataOneCopy(t *testing.T) {
	const n, k = 3000, 20
	rng := rand.New(rand.NewPCG(7, 8))
	xs, y := make([]float64, n*k), make([]float64, n)
	for i := range y {
		for j := range k {
			xs[i*k+j] = rng.NormFloat64()
		}
		y[i] = xs[i*k] + rng.NormFloat64()
	}
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = append([]float64(nil), xs[i*k:(i+1)*k]...)
	}
	for _, shards := range []int{1, 2} {
		for _, form := range []string{"dense", "rows"} {
			m := ppl.NewModel("regression", ppl.Shards(shards))
			beta := m.Normal("beta", 0, 1, ppl.Size(k))
			sigma := m.HalfNormal("sigma", 1)
			var x any = mat.NewDense(n, k, xs)
			if form == "rows" {
				x = rows
			}
			m.Normal("y", ppl.MatVec(x, beta), sigma).Observe(y)
			c, err := m.Compile()
			if err != nil {
				t.Fatal(err)
			}
			programs := []*ir.Program{c.Program()}
			if main, blocks := c.ShardPrograms(); main != nil {
				programs = append(append(programs, main), blocks...)
			}
			if shards > 1 && len(programs) < 3 {
				t.Fatalf("Shards(%d): %d programs, want blocks", shards, len(programs))
			}
			// y is read in place by the density and by every block.
			if got := sharedIn(y, programs...); got < len(programs)-1 {
				t.Errorf("%s, %d shards: %d shared constants in y's memory over %d programs: ppl or a program copied y", form, shards, got, len(programs))
			}
			if form == "dense" {
				if got := sharedIn(xs, programs...); got < len(programs)-1 {
					t.Errorf("dense, %d shards: %d shared constants in the matrix's memory over %d programs: ppl or a program copied X", shards, got, len(programs))
				}
			} else {
				// The one flattening: the density's X, and every block's
				// X a part of it.
				var flat []float64
				for _, s := range c.Program().Shared {
					if len(s.Data) == n*k {
						flat = s.Data
					}
				}
				if flat == nil {
					t.Fatalf("rows, %d shards: no shared constant of %d values in the density program", shards, n*k)
				}
				if got := sharedIn(flat, programs...); got < len(programs)-1 {
					t.Errorf("rows, %d shards: %d shared constants in the flattened X over %d programs: X was flattened more than once", shards, got, len(programs))
				}
			}
			// Four chains' densities cost their temporaries, not the data.
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			ds := make([]any, 4)
			for i := range ds {
				ds[i] = c.NewDensity()
			}
			runtime.ReadMemStats(&m1)
			runtime.KeepAlive(ds)
			if got, data := m1.TotalAlloc-m0.TotalAlloc, uint64(8*(n*k+n)); got > data {
				t.Errorf("%s, %d shards: 4 densities allocated %d bytes, more than the %d bytes of data", form, shards, got, data)
			}
		}
	}
}
