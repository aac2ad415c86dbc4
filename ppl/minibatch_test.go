package ppl

import (
	"math"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/table"
)

// TestMinibatchADVI: stochastic-gradient ADVI over blocks of rows read
// from a file agrees with full-data ADVI on a regression that fits in
// memory: every mean (a, b₁, b₂, log σ) within 0.05 of the full fit's,
// and of the truth, with progress reported to the end. Both fits stop at
// Stan's relative ELBO tolerance (0.01), which leaves full-data ADVI
// itself about 0.02 from the posterior mean here (posterior sd ≈ 0.001):
// the tolerance is that stopping noise, not the approximation's sd.
func TestMinibatchADVI(t *testing.T) {
	const n = 200_000
	tb, err := table.OpenNPY(writeRegression(t, t.TempDir(), n), table.Names("x1", "x2", "y"))
	if err != nil {
		t.Fatal(err)
	}
	m := tableRegression(t, tb, 0)
	c, err := m.compileOnRanks(2)
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := c.detachedBlocks()
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) < 4 || blocks[0] == c.p.ShardBlocks[0] {
		t.Fatalf("want several blocks read from the file: %d blocks, detached %v", len(blocks), blocks[0] != c.p.ShardBlocks[0])
	}
	t.Logf("%d blocks", len(blocks))
	full := m.ADVI(Seed(3))
	var last infer.ChainProgress
	calls := 0
	sg := m.ADVI(Seed(3), Minibatch(), Progress(func(ps []infer.ChainProgress) { last, calls = ps[0], calls+1 }))
	if !last.Done || last.Iteration == 0 || calls == 0 {
		t.Errorf("progress: %d calls, last %+v", calls, last)
	}
	d := len(full.Mean)
	for i := range d {
		sd := full.Chol[i*d+i]
		diff := math.Abs(sg.Mean[i] - full.Mean[i])
		t.Logf("parameter %d: full %.4f ± %.4f, minibatch %.4f ± %.4f", i, full.Mean[i], sd, sg.Mean[i], sg.Chol[i*d+i])
		if diff > 0.05 {
			t.Errorf("parameter %d: minibatch mean %.4f, full-data %.4f (sd %.4f)", i, sg.Mean[i], full.Mean[i], sd)
		}
		// The scale: a block's likelihood counted once instead of B
		// times would widen the sd √B times.
		if r := sg.Chol[i*d+i] / sd; r < 0.5 || r > 2 {
			t.Errorf("parameter %d: minibatch sd %.4f, full-data %.4f (%d blocks)", i, sg.Chol[i*d+i], sd, len(blocks))
		}
	}
	// The truth is within reach: a = 1, b = (2, -0.5).
	for i, want := range []float64{1, 2, -0.5, math.Log(0.3)} {
		if math.Abs(sg.Mean[i]-want) > 0.05 {
			t.Errorf("parameter %d: minibatch mean %.4f, truth %v", i, sg.Mean[i], want)
		}
	}
	// A model whose rows do not split says so.
	small := NewModel("small", Shards(1))
	mu := small.Normal("mu", 0, 1)
	small.Normal("y", mu, 1, Observed([]float64{1, 2, 3}))
	err = catchErr(func() { small.ADVI(Minibatch()) })
	if err == nil || !strings.Contains(err.Error(), "Minibatch: the observed rows do not split") {
		t.Errorf("a model that does not split: %v", err)
	}
}
