/* gobayes CUDA shim: lets generated CUDA C compile as plain C with gcc.
 * __global__ and __device__ vanish, thread and block indices are globals
 * that GB_LAUNCH sets while it loops over the grid, one thread after
 * another. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#define __global__
#define __device__
typedef struct { long long x, y, z; } gb_dim3;
static gb_dim3 threadIdx, blockIdx, blockDim, gridDim;
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
