// Package mpi is the "mpi" backend: a model evaluated by the ranks of an
// MPI job (Open MPI's mpirun) that the kernel starts for one Sample and
// ends after it. The kernel stays the driver: the sampler runs where the
// cell runs, and only positions go out and log densities and gradients
// come back.
//
// It registers as the job "mpi" (accel.RegisterJob): ppl starts one by
// name (accel.StartJob), as it reaches the GPU worker as "cuda", and does
// not import this package; the program that runs ppl links it (the
// notebook's interpreter, package interp, does; a Go program imports
// _ "github.com/gobayes/gobayes/accel/mpi").
//
// The picture:
//
//	kernel worker process ──Unix socket (TCP on a cluster), accel/remote's gob protocol──▶ rank 0
//	                                                            │ MPI_Bcast / Scatterv / Gatherv
//	                                                 rank 1 … rank n-1
//
// Rank 0 dials back to the address and token the kernel gave mpirun's
// environment (Connect), and serves accel/remote's protocol there (the
// same wire as the GPU worker) with the job as its backend; between ranks
// there are only MPI collectives, always rooted at rank 0. Two layouts:
//
//   - Data (CompileSharded, accel.ShardedBackend): a sharded model's
//     blocks of rows (ppl's Compiled.ShardPrograms) are scattered once, at
//     compile time — rank k holds blocks [k·K/n, (k+1)·K/n), rank 0 also
//     the main program (priors, Jacobians, what is not split). Each
//     evaluation broadcasts the positions; every rank sums its part in
//     row order, and rank 0 gathers the parts and adds them in rank
//     order. The result equals the in-process shards' to rounding (their
//     sum runs block by block; this one per rank, then over ranks): the
//     tests hold it to 1e-12. Gathering and adding in a fixed order,
//     rather than MPI_Allreduce, whose order MPI leaves open, makes the
//     sum the same at every run. Leapfrog trajectories are run on rank 0's
//     side, one collective evaluation per step (accel.LeapfrogBy).
//     Where a block's data are rows of a file (a data container read
//     with package table), the kernel sends the block without them, with
//     the file's path and layout (package accel/filerows), and the rank that
//     runs the block reads its rows from the file: the rows never pass
//     through the kernel's link or rank 0. Every rank must see the file
//     at the same path (a shared file system on a cluster).
//   - Chains (Compile): the whole program on every rank; a batch of
//     positions (RWMH, ChEES, MEADS) is scattered over the
//     ranks and the answers gathered, and a batch of trajectories runs
//     where its chains are, one round trip per trajectory. The samplers'
//     ensemble statistics (ChEES's criterion, the moments) are computed by
//     the driver from the gathered chains.
//
// The rank program is cmd/gobayes-mpi, built with the build tag mpi (`make
// mpi`, cgo against Debian's libopenmpi-dev through package ompi); this
// package itself is pure Go, so the default build needs no MPI. Comm is
// the seam: what a rank needs of MPI.
//
// Failures: a rank that dies makes mpirun end the job; the link to rank 0
// closes and the call in flight returns an error that says the job ended
// and what mpirun printed (which rank, which signal). Close ends the job
// (rank 0 sees the link close and tells the others to quit), and kills
// mpirun's process group when it has not ended within 5 s; mpirun also
// dies with the process that started it (Pdeathsig).
//
// The network: a job on this machine listens on no network address. Rank
// 0 reaches the kernel through a Unix socket, and mpirun and the ranks run
// in a network namespace of their own (isolated: an unprivileged user
// namespace made by unshare), because Open MPI's runtime binds its
// out-of-band listener to every interface whatever its interface options
// say. On a cluster the kernel listens on the driver address alone;
// mpirun's own listeners are Open MPI's (its oob_tcp_if_include, in the
// cluster's args, chooses what it advertises).
//
// Idle ranks sleep: the command header's broadcast is polled, then waited
// for with sleeps (package ompi), so a job between runs takes no core.
//
// Where: Config.Ranks processes on this machine (with --oversubscribe and
// shared memory), or a named cluster from the clusters file
// (ClustersFile): hosts, ranks per host, the path of gobayes-mpi there,
// extra mpirun arguments, and the address the ranks reach the kernel at.
package mpi
