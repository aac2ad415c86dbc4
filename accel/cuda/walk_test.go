//go:build cuda

package cuda_test

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/gobayes/gobayes/accel/cuda"
	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
)

// TestWalkOnDevice runs RWMH's segments on the GPU (gb_rwmh through
// accel.Walk) and on the CPU with the same seed: the draws are the same
// where the device's exp and log round as Go's do, which is nearly
// everywhere; an acceptance decided within an ulp may differ, and the
// chain then goes its own way. At least 99% of the kept draws and of the
// chains' moments must agree to 1e-9.
func TestWalkOnDevice(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b, err := cuda.New(0)
	if err != nil {
		t.Skipf("no CUDA device: %v", err)
	}
	cm := deviceSchools(t)
	cfg := lockstep.Config{Sampler: infer.RWMH, Chains: 4099, Keep: 4, Warmup: 500, Draws: 500, Seed: 3}
	cpu, err := lockstep.Run(context.Background(), cm, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Backend = b
	dev, err := lockstep.Run(context.Background(), cm, cfg)
	if err != nil {
		t.Fatal(err)
	}
	same, all := 0, 0
	for k, a := range cpu.Posterior.Chains {
		d := dev.Posterior.Chains[k]
		for j := range a.Values {
			for i, v := range a.Values[j] {
				all++
				if math.Abs(v-d.Values[j][i]) <= 1e-9*math.Max(1, math.Abs(v)) {
					same++
				}
			}
		}
	}
	mc, md := cpu.Moments, dev.Moments
	sameChains := 0
	for c := 0; c < cfg.Chains; c++ {
		ok := true
		for j := 0; j < mc.Dim; j++ {
			if math.Abs(mc.ChainMean(c, j)-md.ChainMean(c, j)) > 1e-9*math.Max(1, math.Abs(mc.ChainMean(c, j))) {
				ok = false
			}
		}
		if ok {
			sameChains++
		}
	}
	t.Logf("kept draws equal: %d of %d; chains with equal moments: %d of %d; mean of mu %.6f (CPU) %.6f (GPU)",
		same, all, sameChains, cfg.Chains, mc.Mean[0], md.Mean[0])
	if float64(same) < 0.99*float64(all) || float64(sameChains) < 0.99*float64(cfg.Chains) {
		t.Errorf("the GPU's walk differs from the CPU's beyond rounding")
	}
}

// TestIterateOnDevice runs ChEES with its iterations on the GPU
// (accel.Iterator: cgen.HMC over chees.cu) and on the CPU with the same
// seed. Over a short run the draws agree to rounding (the device's exp
// and log differ from Go's in the last bit, which dual averaging and the
// trajectories' step counts amplify over a long run); over a long run
// the moments of every chain's draws agree within a tenth of a posterior
// sd and the variances within 15%.
func TestIterateOnDevice(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b, err := cuda.New(0)
	if err != nil {
		t.Skipf("no CUDA device: %v", err)
	}
	cm := deviceSchools(t)
	short := lockstep.Config{Sampler: infer.ChEES, Chains: 4099, Keep: 4, Warmup: 40, Draws: 20, Seed: 3}
	long := lockstep.Config{Sampler: infer.ChEES, Chains: 4096, Keep: 4, Warmup: 500, Draws: 500, Seed: 4}
	for _, cfg := range []lockstep.Config{short, long} {
		cpu, err := lockstep.Run(context.Background(), cm, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Backend = b
		dev, err := lockstep.Run(context.Background(), cm, cfg)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for k, a := range cpu.Posterior.Chains {
			d := dev.Posterior.Chains[k]
			for j := range a.Values {
				for i, v := range a.Values[j] {
					worst = math.Max(worst, math.Abs(v-d.Values[j][i])/math.Max(1, math.Abs(v)))
				}
			}
		}
		mc, md := cpu.Moments, dev.Moments
		t.Logf("%d+%d: kept draws differ by %.3g at most; mu %.4f ± %.4f (CPU), %.4f ± %.4f (GPU)", cfg.Warmup, cfg.Draws,
			worst, mc.Mean[0], math.Sqrt(mc.Var[0]), md.Mean[0], math.Sqrt(md.Var[0]))
		if cfg.Warmup == short.Warmup && worst > 1e-6 {
			t.Errorf("short run: the GPU's draws differ from the CPU's by %.3g", worst)
		}
		for j := range mc.Mean {
			sd := math.Sqrt(mc.Var[j])
			if math.Abs(mc.Mean[j]-md.Mean[j]) > 0.1*sd || md.Var[j] < 0.85*mc.Var[j] || md.Var[j] > 1.15*mc.Var[j] {
				t.Errorf("coordinate %d: mean %.4f, variance %.4f on the CPU; %.4f, %.4f on the GPU", j, mc.Mean[j], mc.Var[j], md.Mean[j], md.Var[j])
			}
		}
	}
}

// deviceSchools is posteriordb's non-centred eight schools.
func deviceSchools(t testing.TB) *ppl.Compiled {
	cm, err := posteriordb.Compiled("eight_schools-eight_schools_noncentered")
	if err != nil {
		t.Fatal(err)
	}
	return cm
}
