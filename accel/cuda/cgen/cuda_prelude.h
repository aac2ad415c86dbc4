/* gobayes CUDA prelude: what NVRTC compiles before the generated source
 * (it has no <math.h>; the math functions are built in). */
#define GB_INF __longlong_as_double(0x7ff0000000000000LL)
#define GB_NAN __longlong_as_double(0x7ff8000000000000LL)
/* NVRTC compiles C++: keep the kernels' names unmangled for cuModuleGetFunction. */
#define GB_EXTERN_C extern "C"
#define GB_SYNC() __syncthreads()
/* A kernel's per-thread counts summed into *p: across the warp by
 * shuffles, then one atomic add per warp. Every thread of the warp must
 * reach it (no early return before it). */
#define GB_ATOMIC_SUM(p, v)                                                          \
	do {                                                                           \
		long long gb_v = (v);                                                      \
		for (int gb_o = 16; gb_o > 0; gb_o >>= 1) gb_v += __shfl_down_sync(0xFFFFFFFFu, gb_v, gb_o); \
		if ((threadIdx.x & 31) == 0 && gb_v != 0) atomicAdd((p), (unsigned long long)gb_v); \
	} while (0)
