// Package lockstep runs the chains of one model in lockstep: random-walk
// Metropolis with streaming statistics (from one chain to millions),
// ChEES-HMC (Hoffman, Radul and Sountsov 2021) and MEADS (Hoffman and
// Sountsov 2022). Chains are split
// in blocks evaluated by package accel/vec on every core; every random
// number is a pure function of (seed, chain, step) through package
// accel/philox, so a run is reproducible from its seed on any
// number of cores.
//
//	res, err := lockstep.Run(ctx, compiled, lockstep.Config{Sampler: infer.ChEES, Chains: 1024})
//	post := res.Posterior // the kept chains, for summaries and plots
//	res.Moments.Mean      // moments over every draw of every chain
//
// With many chains the posterior keeps a documented subset: the first
// Config.Keep chains (default 16), every draw of them, constrained like
// any posterior. Result.Moments holds per-chain Welford moments of all
// chains on the unconstrained scale, O(chains) memory whatever the number
// of draws. Config.StoreAll keeps every chain in the posterior instead.
//
// From the default start (uniform(-2, 2) on the unconstrained scale) the
// chains of one model can sit at very different curvatures, and a step
// size shared across chains would be set by the worst of them: ChEES and
// MEADS therefore open warm-up with an initial phase in which every chain
// has its own step size (the first quarter of warm-up, at most 250
// iterations), then restart chains stuck far below the others' log
// density on copies of others; RWMH restarts such chains at mid warm-up.
//
// RWMH adapts its proposal scale λ·sd_j per coordinate on Stan's windowed
// schedule (package adapt): sd_j from each slow window's draws pooled over
// chains and draws, λ by the mean acceptance across chains against 0.234;
// with Config.Dense (ppl.DenseMetric) the proposal's covariance is the
// windows' pooled covariance, for correlated posteriors.
// Pooling is sound at any chain count — four chains, as NUTS runs, or a
// million — where the spread across chains at one step (ChEES's and
// MEADS's estimate) needs many chains. A few chains share one block and
// one core.
//
// NUTS runs here too (nuts.go, nuts_run.go), for a device: every chain
// builds its trees without recursion (nutsTree, the algorithm of
// ppl/mcmc's NUTS to the bit: TestNUTSTreeSameAsMCMC) and adapts its own
// step size and diagonal metric on Stan's schedule, as ppl/infer adapts
// each NUTS chain, its random numbers from philox stream (seed, chain,
// iteration). On the CPU the chains run one per worker at a time
// (ppl/infer's NUTS, one goroutine per chain, remains the CPU's path); on
// a backend that runs NUTS (accel.NUTSRunner: accel/cuda, the gcc build
// of the same C, a worker through accel/remote) one call per segment of
// iterations runs every chain there (nuts_device.go). A dense metric is
// refused here.
//
// ppl's m.Sample(ppl.RWMH()), m.Sample(ppl.ChEES()) and
// m.Sample(ppl.MEADS()) route here, whatever the number of chains.
//
// Backends: every evaluation goes through the accel contract. By default
// the program is compiled on accel/cpu, whose accel.Batch of a block is
// accel/vec's lockstep kernels, and the blocks run on every core. With
// Config.Backend set (ppl.Backend("cuda"), GOBAYES_ACCEL, or "auto" for
// wide runs) every chain is one block, each gradient one accel.Batch
// evaluation on that backend (the contract's row adapter lays the
// positions out row by row for Compiled.LogDensityGrad), and each ChEES
// trajectory one call of Compiled.Leapfrog, so a GPU runs the
// whole trajectory without a round trip per step. The same code runs on
// accel/cpu in the tests (TestMomentsWithinMCSE runs every case both
// ways).
//
// A backend whose device runs the samplers' steps next to the chains
// goes further (walk.go): RWMH hands it whole segments of steps
// (accel.Walker: one call per 20–100 steps) and ChEES whole iterations,
// its initial phase included (accel.Iterator: one call per iteration,
// the cross-chain sums computed there). The chains' state stays on the
// device; the host keeps each sampler's control — windows, dual
// averaging, Adam on the trajectory length, restarts — as the one
// definition both paths share, and a mirror of the state that it reads
// back only where that control needs it. accel/cuda's kernels and the
// gcc build of the same C implement both (TestWalkDeviceSameDraws,
// TestHMCDeviceSameDraws compare them with the CPU path draw by draw).
// Cross-chain sums add runs of accel.SumChunk chains in chain order,
// then the runs in order, on the CPU as on a device. MEADS still calls
// the device per trajectory step.
//
// Why the control stays here rather than in the GPU worker (the issue
// asked for the whole run in the worker): the worker would need ppl's
// model (names, transforms of the kept draws), the progress and
// cancellation of a cell, and a second copy of each sampler's control;
// what made the pipe costly was the per-step traffic of O(chains)
// values, which the device's steps remove. What crosses now per call is
// O(dimension) numbers and the kept chains' draw, a round trip of tens of
// microseconds against an iteration's kernel time.
//
// RWMH's acceptance costs no exponential: u < exp(lp' − lp) is tested
// as lp' > lp − E with E = −log u a standard exponential drawn by the
// ziggurat from one random word. When the whole log density of a
// one-dimensional model is a normal mixture (accel.DensityBatch) the
// test is u·s < s' on the mixture's sums, with no logarithm either; lp__
// is computed only for the kept chains and at the end of each segment.
//
// Random numbers: chain c at step s draws from philox.New(seed, c, s)
// (HMC momenta and accept uniforms; RWMH in more than one dimension);
// one-dimensional RWMH takes the four words of block (0, s/2, c) for two
// steps (the normal's and the acceptance's), finishing a rejected
// ziggurat word from block 1 (normal) or 2^31 (exponential) of the
// step's stream; the initial points come from step 2^32−1, the start of MEADS's
// persistent slice variable from step 2^32−2, and the ChEES jitter from
// chain 2^63. A GPU backend that follows this layout reproduces the
// CPU's draws.
package lockstep
