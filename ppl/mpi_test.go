package ppl_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gobayes/gobayes/accel/mpi"
	"github.com/gobayes/gobayes/accel/mpi/mpitest"
	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/infer"
)

// The "mpi" backend from ppl: a sharded model's blocks on the ranks of a
// real Open MPI job (2 or 3 processes on this machine). The oracle is the
// model compiled whole, as for the in-process shards (shard_test.go).

// TestMPIShardedPosteriordb places every reference model, split into 3
// shards, on a job of 3 ranks and compares its log density and gradient
// with the whole model's at 1e-12.
func TestMPIShardedPosteriordb(t *testing.T) {
	mpitest.Worker(t)
	job, err := mpi.Start(mpi.Config{Ranks: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	placed := 0
	for _, name := range append(posteriordb.Cases(), posteriordb.LogisticName) {
		t.Run(name, func(t *testing.T) {
			c := loadCase(t, name, 200, 5)
			mw, err := posteriordb.Model(c.Name, c)
			if err != nil {
				t.Fatal(err)
			}
			mw.SetShards(1)
			ms, err := posteriordb.Model(c.Name, c)
			if err != nil {
				t.Fatal(err)
			}
			ms.SetShards(3)
			cw, cs := compilePair(t, mw, ms)
			main, blocks := cs.ShardPrograms()
			if main == nil {
				t.Skip(cs.ShardPlan().String())
			}
			acc, err := job.CompileSharded(main, blocks)
			if err != nil {
				t.Fatal(err)
			}
			defer acc.Close()
			placed++
			dw := cw.NewDensity()
			n := cw.Dim()
			rng := rand.New(rand.NewPCG(3, 1))
			const b = 5
			xs := make([]float64, b*n)
			for i := range xs {
				xs[i] = rng.Float64()*2 - 1
			}
			lps, grads := make([]float64, b), make([]float64, b*n)
			if err := acc.LogDensityGrad(xs, lps, grads); err != nil {
				t.Fatal(err)
			}
			gw := make([]float64, n)
			for i := range b {
				lw := dw.LogDensityGrad(xs[i*n:(i+1)*n], gw)
				if math.IsInf(lw, -1) && math.IsInf(lps[i], -1) {
					continue
				}
				if !(math.Abs(lw-lps[i]) <= shardTol*math.Max(1, math.Abs(lw))) {
					t.Fatalf("position %d: log density on the ranks %v, whole %v", i, lps[i], lw)
				}
				scale := 1.0
				for _, g := range gw {
					scale = math.Max(scale, math.Abs(g))
				}
				for j, g := range gw {
					if !(math.Abs(g-grads[i*n+j]) <= shardTol*scale) {
						t.Fatalf("position %d: gradient[%d] on the ranks %v, whole %v", i, j, grads[i*n+j], g)
					}
				}
			}
		})
	}
	t.Logf("%d reference models placed on the ranks", placed)
	if placed < 5 {
		t.Errorf("only %d reference models were placed on the ranks", placed)
	}
}

// logisticModel is a logistic regression of n rows and d predictors.
func logisticModel(n, d int, opts ...ppl.ModelOption) *ppl.Model {
	c := posteriordb.SimulatedLogistic(n, d, 3)
	m := ppl.NewModel("logistic", opts...)
	beta := m.Normal("beta", 0, 1, ppl.Size(d))
	alpha := m.Normal("alpha", 0, 2)
	m.BernoulliLogit("y", alpha.Add(ppl.MatVec(c.Data["X"], beta))).Observe(c.Data["y"])
	return m
}

// TestMPISample: NUTS with Backend("mpi") and Ranks(2) splits the rows
// over the ranks, says so in the caption, and finds the posterior the
// in-process run finds; nothing of the job is left afterwards.
func TestMPISample(t *testing.T) {
	mpitest.Worker(t)
	m := logisticModel(4000, 5)
	opts := []ppl.SampleOption{ppl.Seed(11), ppl.Chains(2), ppl.Warmup(300), ppl.Draws(300), ppl.LiveProgress(false)}
	ref := m.Sample(opts...)
	fit := m.Sample(append(opts, ppl.Backend("mpi"), ppl.Ranks(2))...)
	t.Logf("caption: %s", fit.Backend)
	if !strings.Contains(fit.Backend, "mpi (Open MPI") || !strings.Contains(fit.Backend, "2 ranks") || !strings.Contains(fit.Backend, "blocks of rows over 2 ranks") {
		t.Errorf("caption %q does not say the MPI job and its shards", fit.Backend)
	}
	for _, col := range []string{"alpha", "beta[0]", "beta[4]"} {
		a, b := ref.Flat(col), fit.Flat(col)
		ma, va := mpiMeanVar(a)
		mb, _ := mpiMeanVar(b)
		sd := math.Sqrt(va)
		// Two independent-enough runs of 600 draws: 5 standard errors.
		if se := sd * math.Sqrt(2.0/float64(len(a))) * 2; math.Abs(ma-mb) > 5*se {
			t.Errorf("%s: mean %v on the ranks, %v in process (sd %v)", col, mb, ma, sd)
		}
	}
	if left := mpitest.Running(t); len(left) > 0 {
		t.Errorf("ranks left running after Sample: %v", left)
	}
}

// TestMPIManyChains: the many-chain samplers spread their chains over the
// ranks (ChEES a trajectory per round trip, MEADS and RWMH a batch of
// positions) and find the posterior they find in process.
func TestMPIManyChains(t *testing.T) {
	mpitest.Worker(t)
	m := logisticModel(500, 3)
	for _, sampler := range []struct {
		name string
		opt  ppl.SampleOption
		tol  float64 // in posterior sd
	}{{"ChEES", ppl.ChEES(), 0.1}, {"MEADS", ppl.MEADS(), 0.15}, {"RWMH", ppl.RWMH(), 0.15}} {
		t.Run(sampler.name, func(t *testing.T) {
			opts := []ppl.SampleOption{sampler.opt, ppl.Chains(64), ppl.Seed(5), ppl.Warmup(300), ppl.Draws(300), ppl.LiveProgress(false)}
			ref := m.Sample(opts...)
			fit := m.Sample(append(opts, ppl.Backend("mpi"), ppl.Ranks(3))...)
			if !strings.Contains(fit.Backend, "3 ranks") {
				t.Errorf("caption %q does not say 3 ranks", fit.Backend)
			}
			for _, col := range []string{"alpha", "beta[0]"} {
				a, b := ref.Flat(col), fit.Flat(col)
				ma, va := mpiMeanVar(a)
				mb, _ := mpiMeanVar(b)
				sd := math.Sqrt(va)
				if math.Abs(ma-mb) > sampler.tol*sd {
					t.Errorf("%s: mean %v on the ranks, %v in process (sd %v)", col, mb, ma, sd)
				}
			}
		})
	}
}

// TestMPIInterrupt: cancelling the run (a notebook interrupt) stops the
// chains and ends every rank; the draws so far are kept.
func TestMPIInterrupt(t *testing.T) {
	mpitest.Worker(t)
	m := logisticModel(20000, 10)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		deadline := time.Now().Add(30 * time.Second)
		for len(mpitest.Running(t)) < 2 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(500 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	fit := m.Sample(ppl.Backend("mpi"), ppl.Ranks(2), ppl.Chains(2), ppl.Warmup(100000), ppl.Draws(100000), ppl.Context(ctx), ppl.LiveProgress(false))
	t.Logf("stopped after %v", time.Since(start))
	if !fit.Interrupted {
		t.Errorf("the run was cancelled but the fit does not say it was interrupted")
	}
	if left := mpitest.Running(t); len(left) > 0 {
		t.Errorf("ranks left running after the interrupt: %v", left)
	}
}

// TestMPIKilledRankKeepsDraws: a rank killed while the draws are being
// made ends the run with an error that says so, and the draws made before
// are kept, as an interrupt keeps them (ppl.LastRun).
func TestMPIKilledRankKeepsDraws(t *testing.T) {
	mpitest.Worker(t)
	m := logisticModel(2000, 3)
	var once sync.Once
	killed := make(chan struct{})
	progress := func(ps []infer.ChainProgress) {
		for _, p := range ps {
			if p.Iteration < 100+30 { // every chain 30 draws past its warm-up
				return
			}
		}
		once.Do(func() {
			if err := syscall.Kill(mpitest.RankPID(t, 1), syscall.SIGKILL); err != nil {
				t.Error(err)
			}
			close(killed)
		})
	}
	err := catchError(func() {
		m.Sample(ppl.Backend("mpi"), ppl.Ranks(2), ppl.Chains(2), ppl.Warmup(100), ppl.Draws(1000000),
			ppl.Seed(3), ppl.Progress(progress))
	})
	select {
	case <-killed:
	default:
		t.Fatalf("the run ended before rank 1 was killed: %v", err)
	}
	if err == nil || !strings.Contains(err.Error(), "MPI job ended") || !strings.Contains(err.Error(), "ppl.LastRun()") {
		t.Errorf("error %v: want one saying the job ended and where the draws are", err)
	}
	fit := ppl.LastRun()
	if fit == nil || fit.Draws() < 30 || !fit.Interrupted {
		t.Fatalf("the draws made before the rank died were not kept: %v", fit)
	}
	t.Logf("%d draws per chain kept; the error: %v", fit.Draws(), err)
	if left := mpitest.Running(t); len(left) > 0 {
		t.Errorf("ranks left running after the failure: %v", left)
	}
}

// TestMPIErrors: Ranks without the mpi backend, and a missing rank
// program, are errors that say what to do.
func TestMPIErrors(t *testing.T) {
	m := logisticModel(100, 2)
	err := catchError(func() { m.Sample(ppl.Ranks(2), ppl.LiveProgress(false)) })
	if err == nil || !strings.Contains(err.Error(), `ppl.Backend(\"mpi\")`) && !strings.Contains(err.Error(), `Backend("mpi")`) {
		t.Errorf("Ranks without the mpi backend: %v", err)
	}
	t.Setenv("GOBAYES_MPI_WORKER", "")
	t.Setenv("PATH", t.TempDir())
	err = catchError(func() { m.Sample(ppl.Backend("mpi"), ppl.LiveProgress(false)) })
	if err == nil || !strings.Contains(err.Error(), "make mpi") {
		t.Errorf("no rank program: %v", err)
	}
	err = catchError(func() { m.Sample(ppl.Cluster("nowhere"), ppl.LiveProgress(false)) })
	if err == nil || !strings.Contains(err.Error(), "nowhere") {
		t.Errorf("an unknown cluster: %v", err)
	}
}

func catchError(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	f()
	return nil
}

func mpiMeanVar(xs []float64) (m, v float64) {
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, v / float64(len(xs)-1)
}
