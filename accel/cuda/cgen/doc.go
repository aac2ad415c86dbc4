// Package cgen generates CUDA C from a model program (package accel/ir):
// a device library of the ops' forward and reverse formulas and, per
// model, the program's forward and reverse sweeps plus two kernels, one
// thread per chain: the batch log density and gradient, and a fused
// leapfrog trajectory.
//
// The device library has three parts, in this order: device.cu, 45
// lines of hand-written primitives (Go's min and max, the finite log
// density, lgamma, is_count, a block's sum); device_gen.cu, every routine
// with a loop and the body of every op that is not an elementwise formula
// (digamma and trigamma, the incomplete gamma and beta functions, the
// normal CDF's log, dot and axpy, Cholesky and its reverse, the
// substitutions, log-sum-exp and its reverse, the correlation-Cholesky
// transform, the LKJ constant; sum, gather, concat, slice, fill, matvec,
// matmul, add_diag, log_mix, the bound, ordered and simplex transforms,
// the categorical, Dirichlet and multivariate normal per-event loops,
// the normal's sum with one σ, the linear recurrence, tri_solve, L·Lᵀ,
// …, Philox4x32-10's rounds), which cmd/genops translates from the Go
// functions of scalars and slices that accel/opdef, accel/dense, accel/ir
// and accel/philox mark //gb:cuda and that the CPU evaluator itself
// calls, so that the C cannot drift from the Go (cmd/genops/device.go
// says which subset of Go, type-checked with go/types, it translates,
// what it refuses and how its own tests compare the C with the Go); and
// lpdf_gen.cu, the log densities of accel/opdef. What this package still
// writes itself is the frame layout, the loop over an elementwise
// formula's elements (its formula comes from accel/opdef), the calls,
// the scan's step frames, the sum of the target's terms, the kernels and
// the lanes of the data-parallel kernel with their block reductions.
// TestTranslatedFunctionsGCC calls every translated function against its
// Go, or finds it called by the C of a TestOpsGCC case, which compares
// the op with accel/ir. To move a routine there: write it in Go as a
// function of scalars and slices (no ir.Frame) in the package whose
// evaluator calls it, mark it //gb:cuda gb_<name>, run
// `go generate ./accel/opdef`, and give it a check in device_test.go or
// an op case: the test fails until then. A branch on OnHost() (gonum's
// assembly for a long dot product) stays on the CPU.
//
// The generated source also compiles as plain C with gcc under a small
// shim header (shim.h: __global__ and __device__ vanish, GB_LAUNCH loops
// over the grid), which is how the generated code is tested on machines
// without a GPU. The package is not behind the cuda build tag for that
// reason. TestCompilesAsCXX checks it as C++ (NVRTC compiles C++), and
// TestCompilesAsCUDA compiles it as CUDA device code to PTX with clang
// (testdata/clang_cuda.h stands for what NVRTC has built in), which
// checks CUDA's own rules (device code calls device functions only)
// without a GPU or the CUDA SDK.
//
//	src, err := cgen.Generate(program)          // CUDA source (NVRTC)
//	c, err := cgen.NewGCC().Compile(program)    // an accel backend: gcc -O2 + pipe
//
// Ops the generator does not cover yet make Generate fail with
// ErrUnsupported naming them (Supported lists the covered ones).
//
// Samplers next to the chains. Every generated source also carries the
// samplers' kernels, so that a run's loop calls the device once per
// segment or iteration rather than once per step: walk.cu's gb_rwmh runs
// many steps of random-walk Metropolis per launch (accel.Walk), and
// chees.cu runs ChEES's iteration — its initial phase's generalised HMC
// step with a step size per chain, the trajectory, the acceptance, the
// warm-up's cross-chain sums and the cross-chain variance (accel.
// HMCIteration). Both draw their random numbers word for word as
// accel/philox does (Philox4x32-10 and the ziggurats, whose tables
// philox.Tables gives), and use the CPU sampler's arithmetic, so that a
// seed gives the CPU's draws: exactly for the walk (its positions are
// sums of scaled normals), to rounding over a short HMC run (the C
// library's exp and log differ from Go's in the last bit, which dual
// averaging amplifies over a long one; the tests then compare
// statistics). Cross-chain sums add runs of accel.SumChunk chains in
// order, then the runs in order, as ppl/lockstep does on the CPU.
// The iteration is orchestrated in Go (HMC) over a small Device API —
// numbered buffers, launches by kernel — that accel/cuda serves on a GPU
// and GCCCompiled serves from its gcc-built process (host.inc's driver
// commands), so one orchestration runs on both and make test checks it
// without a GPU. Why not translate the samplers' steps from Go like the
// device library: the translator has no 32-bit unsigned integers (Philox)
// and the steps are a few dozen lines each, checked against the Go
// samplers by TestWalkDeviceSameDraws and TestHMCDeviceSameDraws in
// ppl/lockstep; extending the translator is the way to one definition.
//
// NUTS runs on the device too (nuts.cu's gb_nuts, driven by NUTS over
// the same Device API; accel.NUTSSegment): one thread per chain runs
// whole iterations per launch — the tree built without recursion as
// ppl/lockstep's nutsTree builds it (a subtree leaf by leaf, O(depth)
// checkpoints of the halves per level), the chain's state in its own
// slots of a work buffer (NUTSTreeSlots: about 5·depth·D values, too
// many for registers at depth 10). What of the adaptation runs where:
// everything per chain runs in the kernel — dual averaging of the
// chain's step size after each transition, Welford's variance of the
// chain's window, the regularised metric at the window's end, Stan's
// step-size heuristic and the restart of dual averaging after it —
// because each chain adapts on its own (as Stan's chains do), with no
// sum across chains, and any of it on the host would cost a read of
// O(chains) values per iteration (the acceptance statistics) or, at a
// window's end, the state of every chain and a heuristic of gradients
// through round trips. The host (ppl/lockstep) keeps only the schedule:
// where Stan's windows start and end (a launch's parameters), where
// segments end (at each window's end and at the end of warm-up), and
// the kept chains' draws that come back per segment. The same seed gives
// the Go sampler's draws to rounding without warm-up
// (TestNUTSDeviceSameDraws); over a warm-up, dual averaging amplifies
// the C library's last bits (exp, log1p, pow) and the gradients'
// rounding, the trees staying the same over a short run and the
// statistics over a long one. Not built: trees in lockstep across
// chains with masks and one batched gradient per leapfrog step (NumPyro's
// vectorised NUTS), the form for large data, where each gradient would
// be the data-parallel kernel's; and a layout of the tree memory
// interleaved across chains (coalesced loads).
//
// For large data there is a second, data-parallel kernel,
// gb_logdensity_block: one block per chain whose lanes split the
// elementwise work, the log densities over observations and the
// matrix–vector products, with block reductions (parallel.go). Under the
// shim its lanes are POSIX threads meeting at a pthread barrier, so the
// barriers are tested too. Not built yet: a frame layout interleaved
// across chains (coalesced loads for one thread per chain), a
// data-parallel leapfrog kernel, and cuBLAS/cuSOLVER for large dense
// linear algebra (GP covariances beyond a few hundred points).
package cgen
