package lockstep_test

import (
	"context"
	"testing"

	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
)

// BenchmarkChEESRun is a whole ChEES run of posteriordb's non-centred
// eight schools on one core (256 chains, 200+200): the samplers' own
// work beside the gradients', for paired runs against another tree
// (bench/ab.sh).
func BenchmarkChEESRun(b *testing.B) {
	const name = "eight_schools-eight_schools_noncentered"
	c, err := posteriordb.Load(name)
	if err != nil {
		b.Fatal(err)
	}
	m, err := posteriordb.Model(name, c)
	if err != nil {
		b.Fatal(err)
	}
	cm, err := m.Compile()
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range []infer.Sampler{infer.ChEES, infer.RWMH} {
		b.Run(s.String(), func(b *testing.B) {
			for b.Loop() {
				cfg := lockstep.Config{Sampler: s, Chains: 256, Warmup: 200, Draws: 200, Seed: 1, Workers: 1}
				if _, err := lockstep.Run(context.Background(), cm, cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
