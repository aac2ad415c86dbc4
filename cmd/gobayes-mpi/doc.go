// Command gobayes-mpi is one rank of an MPI job that evaluates a model for
// the kernel (accel/mpi): the kernel's "mpi" backend starts it under
// mpirun, never a person. Rank 0 connects back to the kernel (the address
// and token in GOBAYES_MPI_ADDR and GOBAYES_MPI_TOKEN, which mpirun
// exports with -x) and serves the accel/remote protocol there; the other
// ranks follow rank 0's broadcasts. A sharded model's blocks of rows are
// scattered over the ranks once; each position is broadcast, and every
// rank's log density and gradient gathered back and summed on rank 0.
//
// It links Open MPI through cgo and is built only with the build tag mpi
// (`make mpi`, which needs Debian's libopenmpi-dev); built without it, it
// says so and exits with status 2.
//
// Usage (by the kernel):
//
//	mpirun -n 4 gobayes-mpi -threads 1
//
// -threads is the goroutines a rank evaluates its share of many chains on.
package main
