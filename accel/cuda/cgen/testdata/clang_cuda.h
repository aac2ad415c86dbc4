/* What NVRTC provides built in, for clang's CUDA front end without the
 * CUDA SDK (TestCompilesAsCUDA): the attributes, the builtin variables,
 * and the math functions the generated code calls, through the libdevice
 * functions that clang's own headers declare. Compiled after this and
 * cgen.CUDAPrelude, the source of a program goes to PTX (no GPU needed). */
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __host__ __attribute__((host))
#include <__clang_cuda_builtin_vars.h>
#include <__clang_cuda_libdevice_declares.h>
#define GB_M1(f) static __device__ inline double f(double x) { return __nv_##f(x); }
#define GB_M2(f) static __device__ inline double f(double x, double y) { return __nv_##f(x, y); }
GB_M1(exp) GB_M1(log) GB_M1(log1p) GB_M1(expm1) GB_M1(sqrt) GB_M1(lgamma) GB_M1(tgamma) GB_M1(erf) GB_M1(erfc)
GB_M1(erfcx) GB_M1(fabs) GB_M1(floor) GB_M1(ceil) GB_M1(trunc) GB_M1(round) GB_M1(tanh) GB_M1(sin) GB_M1(cos)
GB_M1(tan) GB_M1(atan) GB_M1(asin) GB_M1(acos) GB_M1(sinh) GB_M1(cosh) GB_M1(asinh) GB_M1(acosh) GB_M1(atanh)
GB_M1(cbrt) GB_M1(exp2) GB_M1(log2) GB_M1(log10)
GB_M2(pow) GB_M2(atan2) GB_M2(hypot) GB_M2(fmod) GB_M2(copysign) GB_M2(fmin) GB_M2(fmax)
static __device__ inline double modf(double x, double *i) { return __nv_modf(x, i); }
static __device__ inline int signbit(double x) { return __nv_signbitd(x); }
static __device__ inline double __longlong_as_double(long long x) { return __nv_longlong_as_double(x); }
static __device__ inline long long __double_as_longlong(double x) { return __nv_double_as_longlong(x); }
/* The warp shuffle and the atomic add of GB_ATOMIC_SUM (PTX 7.0: the
 * test passes +ptx70). */
static __device__ inline long long __shfl_down_sync(unsigned mask, long long v, int o) {
	int lo = __nvvm_shfl_sync_down_i32(mask, (int)v, o, 0x1f), hi = __nvvm_shfl_sync_down_i32(mask, (int)(v >> 32), o, 0x1f);
	return (long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo);
}
static __device__ inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) {
	return (unsigned long long)__nvvm_atom_add_gen_ll((long long *)p, (long long)v);
}
