package cgen_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cuda/cgen"
)

// TestChunkSums: the device's cross-chain sums (gb_chunk_sums, then the
// runs added in order by cgen.HMC) are, bit for bit, runs of
// accel.SumChunk values summed in order and the runs summed in order —
// the order ppl/lockstep's CPU sums keep — and differ from a plain sum
// in order on these values, so the test sees the order.
func TestChunkSums(t *testing.T) {
	comp := smallModelGCC(t)
	dev := comp.(cgen.Device)
	const n, nq = 2*accel.SumChunk + 377, 3
	r := rand.New(rand.NewPCG(1, 2))
	q := make([]float64, nq*n)
	for i := range q {
		q[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(12)))
	}
	const buf = 3
	if err := dev.Alloc(buf, nq*n); err != nil {
		t.Fatal(err)
	}
	if err := dev.Put(buf, 0, q); err != nil {
		t.Fatal(err)
	}
	h := cgen.NewHMC(dev, 1, 1)
	if err := dev.Alloc(int(cgen.BufSums), nq*3); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, nq)
	if err := h.Total(cgen.Buf(buf), nq, n, got); err != nil {
		t.Fatal(err)
	}
	differs := false
	for i := 0; i < nq; i++ {
		total, plain := 0.0, 0.0
		for k := 0; k < n; k += accel.SumChunk {
			part := 0.0
			for _, v := range q[i*n+k : i*n+min(n, k+accel.SumChunk)] {
				part += v
				plain += v
			}
			total += part
		}
		if got[i] != total {
			t.Errorf("quantity %d: device %v, runs in order %v", i, got[i], total)
		}
		differs = differs || plain != total
	}
	if !differs {
		t.Fatal("the values sum the same in any order: the test cannot see the order")
	}
}
