package ppl

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestShardBlocks: with blocks much smaller than a shard (blockVolume
// lowered), a shard is many programs claimed one at a time, and the sum
// is still the whole model's log density and gradient (the oracle: the
// same model compiled with Shards(1)), to rounding.
func TestShardBlocks(t *testing.T) {
	saved := blockVolume
	blockVolume = 100
	defer func() { blockVolume = saved }()
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
	build := func(shards int) *Compiled {
		m := NewModel("blocks", Shards(shards))
		beta := m.Normal("beta", 0, 1, Size(d))
		m.BernoulliLogit("y", MatVec(x, beta)).Observe(y)
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
	dw, ds := whole.newDensity(), sharded.newDensity()
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
