package cgen

import (
	"errors"

	"github.com/gobayes/gobayes/accel/ir"
)

// ErrDataParallelNotBuilt is what GenerateDataParallel returns today.
var ErrDataParallelNotBuilt = errors.New("cgen: data-parallel kernels are designed but not built yet; Generate's one-thread-per-chain kernels run every model")

// GenerateDataParallel will generate the kernels for large data: one
// block per chain (or per chain and data shard), its threads splitting
// the data. It is not built yet and returns ErrDataParallelNotBuilt.
//
// The design, in the terms of the generator:
//
//   - Phases. The instruction list is cut into phases at every op whose
//     output length is the data length N (elementwise ops and the
//     elementwise log densities over observations, matvec with a data
//     matrix). Inside a phase each thread t of B threads takes elements
//     i ≡ t (mod B), so consecutive threads read consecutive addresses
//     (coalesced); scalar instructions run on thread 0. Phases are
//     separated by __syncthreads().
//   - Reductions (sum, dot, the summed log densities, log_sum_exp) end a
//     phase with a shared-memory tree reduction of the per-thread
//     partial sums; the reverse sweep broadcasts the scalar adjoint back
//     to every thread through shared memory.
//   - Per-chain frames for N-length temporaries live in global memory
//     laid out element-major across the block, the scalars in shared
//     memory; data stays in K, read-only (the __ldg path).
//   - The same source must still build with gcc: under the shim a phase
//     becomes a loop over the block's threads, and the kernel a host-side
//     loop over phases (GB_PHASE(k) runs phase k for every thread), which
//     has the __syncthreads() semantics exactly.
//   - Dense linear algebra on large matrices (GP covariances beyond a few
//     hundred points) goes to cuBLAS/cuSOLVER batched calls instead
//     (potrfBatched, trsmBatched), between phases.
//   - accel.Choose already routes by Chains·Slots: a model whose frame
//     holds more than GPUMinWork/Chains slots is "large data".
func GenerateDataParallel(p *ir.Program) (*Source, error) {
	return nil, ErrDataParallelNotBuilt
}
