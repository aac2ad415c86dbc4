package lockstep_test

import (
	"context"
	"math"
	"testing"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cuda/cgen"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
)

// ChEES on a backend that iterates (the generated CUDA C's chees.cu,
// built by gcc and driven by cgen.HMC through the process's device
// commands, as accel/cuda drives a GPU) gives the CPU sampler's draws:
// momentum and uniforms from the same streams, the trajectories in the
// CPU's arithmetic, the cross-chain sums in the same order (runs of
// accel.SumChunk chains — crossed here with 1,500 chains), the same
// adaptation and the restart at mid warm-up.
func TestHMCDeviceSameDraws(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the generated C")
	}
	schools := eightSchools(t)
	for _, tc := range []struct {
		name                  string
		model                 *ppl.Compiled
		chains, warmup, draws int
	}{
		{"eight schools", schools, 37, 40, 20},
		{"scaled", scaled(t), 29, 40, 20},
		{"eight schools, 1500 chains", schools, 1500, 40, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := lockstep.Config{Sampler: infer.ChEES, Chains: tc.chains, Keep: 3, Warmup: tc.warmup, Draws: tc.draws, Seed: 5}
			cpu, err := lockstep.Run(context.Background(), tc.model, cfg)
			if err != nil {
				t.Fatal(err)
			}
			cb := &iteratingBackend{Backend: cgen.NewGCC()}
			if tc.name == "scaled" {
				// Through the worker's protocol (accel/remote), as the CUDA
				// worker serves it: a round trip per iteration.
				cb.Backend = pipedGCC(t)
			}
			cfg.Backend = cb
			dev, err := lockstep.Run(context.Background(), tc.model, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.warmup + tc.draws - tc.warmup/4; cb.iterations != want || cb.initial != tc.warmup/4 {
				t.Errorf("the device ran %d iterations and %d initial steps; want %d and %d (one call each)", cb.iterations, cb.initial, want, tc.warmup/4)
			}
			worst, acc := compareKept(t, cpu.Posterior, dev.Posterior, 1e-12)
			pc := cpu.Posterior
			if worst > 1e-9 {
				t.Errorf("kept draws and statistics differ by %.3g (relative); want ≤ 1e-9", worst)
			}
			mc, md := cpu.Moments, dev.Moments
			for j := range mc.Mean {
				if relErr(mc.Mean[j], md.Mean[j]) > 1e-9 || relErr(mc.Var[j], md.Var[j]) > 1e-9 {
					t.Errorf("coordinate %d: all chains' mean and variance %v %v on the CPU, %v %v on the device", j, mc.Mean[j], mc.Var[j], md.Mean[j], md.Var[j])
				}
			}
			t.Logf("kept draws and statistics equal to %.2g; mean acceptance %.2f; %d device iterations", worst, acc/float64(len(pc.Chains)*pc.Draws()), cb.iterations)
		})
	}
}

// eightSchools is posteriordb's non-centred eight schools.
func eightSchools(t testing.TB) *ppl.Compiled {
	cm, err := posteriordb.Compiled("eight_schools-eight_schools_noncentered")
	if err != nil {
		t.Fatal(err)
	}
	return cm
}

// iteratingBackend counts its programs' iterations and NUTS segments.
type iteratingBackend struct {
	accel.Backend
	iterations, initial, segments int
}

type iteratingProgram struct {
	accel.Compiled
	b *iteratingBackend
}

func (b *iteratingBackend) Compile(p *ir.Program) (accel.Compiled, error) {
	c, err := b.Backend.Compile(p)
	if err != nil {
		return nil, err
	}
	return &iteratingProgram{c, b}, nil
}

func (c *iteratingProgram) Iterates(n int) bool { return c.Compiled.(accel.Iterator).Iterates(n) }

func (c *iteratingProgram) Iterate(it *accel.HMCIteration) error {
	switch {
	case it.Initial != nil:
		c.b.initial++
	case it.Steps > 0:
		c.b.iterations++
	}
	return c.Compiled.(accel.Iterator).Iterate(it)
}

func (c *iteratingProgram) RunsNUTS(n int) bool { return c.Compiled.(accel.NUTSRunner).RunsNUTS(n) }

func (c *iteratingProgram) RunNUTS(s *accel.NUTSSegment) error {
	if s.Steps > 0 {
		c.b.segments++
	}
	return c.Compiled.(accel.NUTSRunner).RunNUTS(s)
}

// Over a whole run the device's ChEES and the CPU's part ways (the C
// library's exp and log round differently from Go's in the last bit, and
// dual averaging and the trajectories' step counts amplify it), so the
// long run is checked by its statistics: the moments of every chain's
// draws agree within a tenth of a posterior sd and the variances within
// 20%.
func TestHMCDeviceLongRun(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the generated C")
	}
	m := eightSchools(t)
	cfg := lockstep.Config{Sampler: infer.ChEES, Chains: 64, Keep: 2, Warmup: 300, Draws: 300, Seed: 9}
	cpu, dev := onCPUAndDevice(t, m, cfg, cgen.NewGCC())
	mc, md := cpu.Moments, dev.Moments
	momentsAgree(t, cpu, dev)
	t.Logf("mu: %.3f ± %.3f (CPU), %.3f ± %.3f (device)", mc.Mean[0], math.Sqrt(mc.Var[0]), md.Mean[0], math.Sqrt(md.Var[0]))
}

// momentsAgree checks a long run's moments on the device against the
// CPU's: every coordinate's mean within a tenth of a posterior sd, the
// variances within 20%.
func momentsAgree(t *testing.T, cpu, dev *lockstep.Result) {
	t.Helper()
	mc, md := cpu.Moments, dev.Moments
	for j := range mc.Mean {
		sd := math.Sqrt(mc.Var[j])
		if math.Abs(mc.Mean[j]-md.Mean[j]) > 0.1*sd || md.Var[j] < 0.8*mc.Var[j] || md.Var[j] > 1.25*mc.Var[j] {
			t.Errorf("coordinate %d: mean %.4f, variance %.4f on the CPU; %.4f, %.4f on the device", j, mc.Mean[j], mc.Var[j], md.Mean[j], md.Var[j])
		}
	}
}

// onCPUAndDevice runs cfg on the CPU, then the same with b as the backend.
func onCPUAndDevice(t *testing.T, m *ppl.Compiled, cfg lockstep.Config, b accel.Backend) (cpu, dev *lockstep.Result) {
	t.Helper()
	cpu, err := lockstep.Run(context.Background(), m, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Backend = b
	dev, err = lockstep.Run(context.Background(), m, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cpu, dev
}

// worstKept is the largest difference of two runs' kept draws, relative
// to the CPU's value where it exceeds 1.
func worstKept(cpu, dev *lockstep.Result) float64 {
	worst := 0.0
	for k, a := range cpu.Posterior.Chains {
		d := dev.Posterior.Chains[k]
		for j := range a.Values {
			for i, v := range a.Values[j] {
				worst = math.Max(worst, math.Abs(v-d.Values[j][i])/math.Max(1, math.Abs(v)))
			}
		}
	}
	return worst
}
