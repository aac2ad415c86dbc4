/* gobayes CUDA prelude: what NVRTC compiles before the generated source
 * (it has no <math.h>; the math functions are built in). */
#define GB_INF __longlong_as_double(0x7ff0000000000000LL)
#define GB_NAN __longlong_as_double(0x7ff8000000000000LL)
/* NVRTC compiles C++: keep the kernels' names unmangled for cuModuleGetFunction. */
#define GB_EXTERN_C extern "C"
#define GB_SYNC() __syncthreads()
