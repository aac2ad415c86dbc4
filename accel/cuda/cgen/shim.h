/* gobayes CUDA shim: lets generated CUDA C compile as plain C with gcc.
 * __global__ and __device__ vanish, thread and block indices are globals
 * that GB_LAUNCH sets while it loops over the grid, one thread after
 * another (kernels without barriers), and __syncthreads is a barrier of
 * POSIX threads (kernels with them). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#define __global__
#define __device__
/* A block's shared memory: blocks run one after another. */
#define __shared__ static
typedef struct { long long x, y, z; } gb_dim3;
/* threadIdx is per thread: data-parallel kernels run a block's lanes as
 * POSIX threads meeting at a barrier (gb_launch_blocks in the host). */
static __thread gb_dim3 threadIdx;
static gb_dim3 blockIdx, blockDim, gridDim;
static pthread_barrier_t gb_barrier;
#define GB_SYNC() pthread_barrier_wait(&gb_barrier)
#define GB_LAUNCH(kernel, grid, block, ...)                                  \
	do {                                                                     \
		gridDim.x = (grid); blockDim.x = (block);                            \
		for (blockIdx.x = 0; blockIdx.x < gridDim.x; blockIdx.x++)           \
			for (threadIdx.x = 0; threadIdx.x < blockDim.x; threadIdx.x++)   \
				kernel(__VA_ARGS__);                                         \
	} while (0)
#define GB_INF INFINITY
#define GB_NAN NAN
#define GB_EXTERN_C
/* A kernel's per-thread counts summed into *p: threads run one after
 * another here. */
#define GB_ATOMIC_SUM(p, v) (*(p) += (unsigned long long)(v))
