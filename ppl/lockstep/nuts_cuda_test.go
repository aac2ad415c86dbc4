//go:build cuda

package lockstep_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
)

// TestNUTSOnDevice runs NUTS with whole iterations on the GPU
// (accel.NUTSRunner: cgen.NUTS over nuts.cu) and on the CPU with the
// same seed. Without warm-up the trees are the same and the draws agree
// to rounding; over a whole run (each chain's dual averaging amplifies
// the device's last bits) the moments of all chains agree within a tenth
// of a posterior sd and the variances within 15%.
func TestNUTSOnDevice(t *testing.T) {
	b := device(t)
	cm := eightSchools(t)
	short := lockstep.Config{Sampler: infer.NUTS, Chains: 1000, Keep: 4, NoWarmup: true, Draws: 20, Seed: 3, StepSize: 0.4}
	long := lockstep.Config{Sampler: infer.NUTS, Chains: 1024, Keep: 4, Warmup: 500, Draws: 500, Seed: 4}
	for _, cfg := range []lockstep.Config{short, long} {
		cpu, dev := onCPUAndDevice(t, cm, cfg, b)
		worst := worstKept(cpu, dev)
		mc, md := cpu.Moments, dev.Moments
		t.Logf("%d+%d: kept draws differ by %.3g at most; mu %.4f ± %.4f (CPU), %.4f ± %.4f (GPU); %d gradients per chain",
			cfg.Warmup, cfg.Draws, worst, mc.Mean[0], math.Sqrt(mc.Var[0]), md.Mean[0], math.Sqrt(md.Var[0]), dev.GradEvals)
		if cfg.NoWarmup && worst > 1e-9 {
			t.Errorf("without warm-up: the GPU's draws differ from the CPU's by %.3g", worst)
		}
		if cfg.NoWarmup {
			continue
		}
		for j := range mc.Mean {
			sd := math.Sqrt(mc.Var[j])
			if math.Abs(mc.Mean[j]-md.Mean[j]) > 0.1*sd || md.Var[j] < 0.85*mc.Var[j] || md.Var[j] > 1.15*mc.Var[j] {
				t.Errorf("coordinate %d: mean %.4f, variance %.4f on the CPU; %.4f, %.4f on the GPU", j, mc.Mean[j], mc.Var[j], md.Mean[j], md.Var[j])
			}
		}
	}
}

// BenchmarkNUTSOnDevice times a whole NUTS run (1,000 warm-up iterations
// and 1,000 draws, every chain adapting) of the non-centred eight
// schools on the GPU against the same run on this machine's cores, in
// one benchmark: gradients per second each, and their ratio.
//
//	go test -tags cuda -run '^$' -bench NUTS ./ppl/lockstep
func BenchmarkNUTSOnDevice(b *testing.B) {
	gpu := device(b)
	cm := eightSchools(b)
	for _, chains := range []int{4, 1024, 16384} {
		b.Run(fmt.Sprintf("chains=%d", chains), func(b *testing.B) {
			cfg := lockstep.Config{Sampler: infer.NUTS, Chains: chains, Keep: 4, Warmup: 1000, Draws: 1000, Seed: 1}
			var gpuSec, cpuSec float64
			var gpuGrads, cpuGrads int
			for b.Loop() {
				cfg.Backend = nil
				c, err := lockstep.Run(context.Background(), cm, cfg)
				if err != nil {
					b.Fatal(err)
				}
				cpuSec += c.Posterior.Seconds[0]
				cpuGrads += c.GradEvals * chains
				cfg.Backend = gpu
				g, err := lockstep.Run(context.Background(), cm, cfg)
				if err != nil {
					b.Fatal(err)
				}
				gpuSec += g.Posterior.Seconds[0]
				gpuGrads += g.GradEvals * chains
			}
			b.ReportMetric(float64(gpuGrads)/gpuSec, "grads/s-GPU")
			b.ReportMetric(float64(cpuGrads)/cpuSec, "grads/s-CPU")
			b.ReportMetric(float64(gpuGrads)/gpuSec/(float64(cpuGrads)/cpuSec), "GPU/CPU")
		})
	}
}
