package compile_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/internal/compile"
)

// TestShardBlocks: with blocks much smaller than a shard (the block
// volume lowered), a shard is many programs claimed one at a time, and the sum
// is still the whole model's log density and gradient (the oracle: the
// same model compiled with Shards(1)), to rounding.
func TestShardBlocks(t *testing.T) {
	defer compile.SetBlockVolume(compile.SetBlockVolume(100))
	const n, d = 1000, 5
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = rng.NormFloat64()
		}
		if rng.Float64() < 0.4 {
			y[i] = 1
		}
	}
	build := func(shards int) *ppl.Compiled {
		m := ppl.NewModel("blocks", ppl.Shards(shards))
		beta := m.Normal("beta", 0, 1, ppl.Size(d))
		m.BernoulliLogit("y", ppl.MatVec(x, beta)).Observe(y)
		c, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	whole, sharded := build(1), build(2)
	// Volume n·(d+1) = 6000 over 2 shards of 3000: 30 blocks each.
	if p := sharded.ShardPlan(); p.Shards != 2 || p.Blocks != 60 {
		t.Fatalf("plan: %d shards, %d blocks; want 2 and 60", p.Shards, p.Blocks)
	}
	dw, ds := whole.NewDensity(), sharded.NewDensity()
	pos, gw, gs := make([]float64, d), make([]float64, d), make([]float64, d)
	for range 20 {
		for i := range pos {
			pos[i] = rng.NormFloat64()
		}
		lw, ls := dw.LogDensityGrad(pos, gw), ds.LogDensityGrad(pos, gs)
		if !(math.Abs(lw-ls) <= 1e-12*math.Max(1, math.Abs(lw))) {
			t.Fatalf("log density: blocks %v, whole %v", ls, lw)
		}
		scale := 1.0
		for _, g := range gw {
			scale = math.Max(scale, math.Abs(g))
		}
		for i := range gw {
			if !(math.Abs(gw[i]-gs[i]) <= 1e-12*scale) {
				t.Fatalf("gradient[%d]: blocks %v, whole %v", i, gs[i], gw[i])
			}
		}
	}
}

// TestShardBlocksShared: when every block would recompute a large shared
// value (a group mean with as many groups as half the rows), a shard is
// one block; the sum is still the whole model's.
func TestShardBlocksShared(t *testing.T) {
	defer compile.SetBlockVolume(compile.SetBlockVolume(100))
	const n, groups = 1000, 500
	rng := rand.New(rand.NewPCG(3, 4))
	y := make([]float64, n)
	idx := make([]int, n)
	for i := range y {
		y[i] = rng.NormFloat64()
		idx[i] = i % groups
	}
	build := func(shards int) *ppl.Compiled {
		m := ppl.NewModel("shared", ppl.Shards(shards))
		mu := m.Normal("mu", 0, 1)
		tau := m.HalfNormal("tau", 1)
		z := m.Normal("z", 0, 1, ppl.Size(groups))
		alpha := ppl.Add(mu, ppl.Mul(tau, z))
		m.Normal("y", ppl.Index(alpha, idx), 1).Observe(y)
		c, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	whole, sharded := build(1), build(2)
	// Volume: y and the gather indices, 2000; shared: z, tau·z and
	// mu+tau·z (500 each) and the scalars mu, tau, 1502 in all. A quarter
	// of 2000 is below 1502, so 2 blocks, one per shard (with 10 blocks
	// per shard otherwise).
	if p := sharded.ShardPlan(); p.Shards != 2 || p.Blocks != 2 {
		t.Fatalf("plan: %d shards, %d blocks; want 2 and 2", p.Shards, p.Blocks)
	}
	dw, ds := whole.NewDensity(), sharded.NewDensity()
	pos := make([]float64, whole.Dim())
	gw, gs := make([]float64, len(pos)), make([]float64, len(pos))
	for range 10 {
		for i := range pos {
			pos[i] = rng.NormFloat64()
		}
		lw, ls := dw.LogDensityGrad(pos, gw), ds.LogDensityGrad(pos, gs)
		if !(math.Abs(lw-ls) <= 1e-12*math.Max(1, math.Abs(lw))) {
			t.Fatalf("log density: sharded %v, whole %v", ls, lw)
		}
		for i := range gw {
			if !(math.Abs(gw[i]-gs[i]) <= 1e-12*math.Max(1, math.Abs(gw[i]))) {
				t.Fatalf("gradient[%d]: sharded %v, whole %v", i, gs[i], gw[i])
			}
		}
	}
}
