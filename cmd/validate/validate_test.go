package main

import (
	"context"
	"testing"

	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl/infer"
)

// TestFastSubset validates the four easiest reference posteriors with NUTS,
// 4 chains, as `make validate` does for all of them (the judgement is the
// posteriordb README's; see judge).
func TestFastSubset(t *testing.T) {
	for _, name := range []string{
		"kidiq-kidscore_momhs",
		"sblrc-blr",
		"mesquite-logmesquite",
		"eight_schools-eight_schools_noncentered",
	} {
		t.Run(name, func(t *testing.T) {
			posteriordb.Require(t, name)
			r := runCase(context.Background(), name, infer.Config{Seed: 1})
			if r.err != nil || !r.Pass {
				t.Error(r.line())
			}
		})
	}
}

// TestJudgeCatchesBias feeds the judge a run whose draws are shifted by
// half a standard deviation: the mean check must fail it.
func TestJudgeCatchesBias(t *testing.T) {
	name := "kidiq-kidscore_momhs"
	c := posteriordb.Require(t, name)
	m, err := posteriordb.Model(name, c)
	if err != nil {
		t.Fatal(err)
	}
	compiled, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	p, err := infer.Run(context.Background(), compiled, infer.Config{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	ref := c.Reference[0]
	j := p.Column(ref.Name)
	for _, ch := range p.Chains {
		for i := range ch.Values[j] {
			ch.Values[j][i] += 0.5 * ref.SD
		}
	}
	r := &result{Name: name}
	judge(r, c, p)
	if r.Pass {
		t.Fatalf("a run shifted by sd/2 in %s passed: %s", ref.Name, r.line())
	}
}
