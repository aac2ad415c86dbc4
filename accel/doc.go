// Package accel is the compute-backend contract of gobayes, the one way
// every sampler evaluates a model: a backend compiles a model program
// (package accel/ir) into a Compiled that evaluates it at a batch of
// positions at once — row by row (LogDensityGrad) or struct-of-arrays, the
// lockstep samplers' layout (Batch, NewBatch) — or runs a batch of
// leapfrog trajectories without a round trip per step (Leapfrog).
//
// Who calls it: NUTS, HMC, MAP and ADVI evaluate one position per call
// (ppl's Density); RWMH, ChEES and MEADS a Batch per block of
// chains (package ppl/lockstep), or on a device one Batch of every chain
// and one Leapfrog per ChEES trajectory. A Compiled whose device runs the
// samplers' steps next to the chains also implements Walker (a segment
// of random-walk steps per call) and Iterator (a whole lockstep HMC
// iteration per call, the cross-chain sums reduced there in the order
// SumChunk fixes): accel/cuda, the gcc build of its C, and accel/remote
// in front of either.
//
// Variants live in subpackages and register themselves when imported:
// accel/cpu as "cpu" (its batches of many chains are accel/vec's lockstep
// kernels, its single positions accel/ir's planned frames), and
// accel/remote as "cuda": a client that starts the GPU worker
// (cmd/gobayes-cuda, built with `make cuda`) and talks to it through a
// pipe, so that the main binary never links the CUDA driver; the same
// wire serves accel/cpu from cmd/gobayes-worker. ByName starts one:
//
//	import _ "github.com/gobayes/gobayes/accel/cpu"
//
//	b, err := accel.ByName("cpu")
//	c, err := b.Compile(program)           // once per model
//	defer c.Close()
//	err = c.LogDensityGrad(xs, lps, grads) // xs [B×D] → lps [B], grads [B×D]
//	bt := accel.NewBatch(c, 256)           // X [D×B] → LPs [B], Grad [D×B]
//
// accel/mpi is the "mpi" job: the ranks of an Open MPI job started per
// run, reached over the same wire (rank 0 connects back; the ranks speak
// only MPI collectives among themselves). It is also an
// accel.ShardedBackend: a sharded model's blocks of rows live on the
// ranks, and LeapfrogBy runs trajectories on it one collective evaluation
// per step; blocks whose data are rows of a file travel without them
// (accel/filerows). It registers with RegisterJob and ppl starts it by
// name (StartJob("mpi"): ppl.Backend("mpi"), ppl.Ranks, ppl.Cluster), so
// ppl does not import it; the notebook's interpreter links it.
//
// Which backend a run takes is ppl.Backend's choice ("cpu", "cuda", "mpi",
// "auto" by GPUMinChains, GPUMinChainsWhole and GPUMinWork). Package
// accel/conformance is the one test suite every backend passes.
//
// # The picture
//
// From a model to a number, top to bottom:
//
//	ppl (Model)            states the model; its compiler (ppl/internal/compile)
//	                       emits an accel/ir program and passes accel/fuse's
//	                       Plan to the builder
//	accel/ir               the instruction set: values, ops (their meaning,
//	                       forward and backward), the Builder, and Frame, the
//	                       one-position interpreter with its execution plan
//	accel/opdef            each family's and elementwise op's definition,
//	                       written once in Go: value, partials, CDFs, sampler;
//	                       opdef/term holds the per-element terms
//	cmd/genops             the generator (`go generate ./accel/opdef`; `make
//	                       generate` runs it and interp's symbol tables): from
//	                       opdef it writes ir's and vec's loops, the CUDA C
//	                       (accel/cuda/cgen) and ppl's family methods
//	accel/fuse             the Planner of model structures (non-centred
//	                       hierarchies, regressions, sums of priors, GP
//	                       covariances, HMM forward scans), passed explicitly
//	accel/vec              the lockstep evaluator: many chains of one program
//	                       in struct-of-arrays batches (accel/cpu's batches)
//	accel/cpu              the "cpu" backend: ir frames for one position,
//	                       vec batches for many, on this machine's cores
//	accel/cuda             the device evaluator: the generated CUDA C, built
//	                       into the GPU worker
//	accel/remote           the wire to a backend in another process: "cuda"
//	                       (cmd/gobayes-cuda, accel/cuda's device code) and
//	                       the MPI ranks' rank 0
//	accel/mpi              the "mpi" job (above)
//	accel/dense, accel/par shared dense kernels and the worker loop
//
// A package above never relies on what another package installs by being
// imported, with one exception kept on purpose: backends and jobs are
// registered by name (Register, RegisterJob), as database drivers are, so
// that ppl reaches the GPU and MPI without linking them.
package accel
