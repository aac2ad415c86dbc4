// Command mpi measures the "mpi" backend (accel/mpi) on a logistic
// regression of 10⁶ rows and 100 predictors: the gradient in one process
// (whole, the anchor, and in shards), on MPI jobs of 1 and 2 ranks, the
// bytes each gradient moves, the round trip per gradient against
// in-process shards (a 64-row model), NUTS's ESS per second on each, and
// a cost model — checked against the 2-rank job — for 8, 64 and 256
// ranks at 10⁶ and 10⁸ rows. It needs mpirun and the rank program (`make
// mpi`; GOBAYES_MPI_WORKER or beside the executable):
//
//	make mpi && GOBAYES_MPI_WORKER=$PWD/bin/gobayes-mpi go run ./bench/mpi
//
// Flags: -rows, -preds, -ranks (job sizes, default 1,2), -reps, -sample
// (false skips NUTS), -warmup, -draws. Figures in bench/README.md.
package main
