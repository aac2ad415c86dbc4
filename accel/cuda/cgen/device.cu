/* gobayes device library, the hand-written part: the small scalar
 * routines of the generated kernels, written from the formulas of the Go
 * reference (package accel/ir) so that both agree to rounding. The
 * routines with loops (digamma and trigamma, the incomplete gamma and
 * beta functions, Cholesky, the substitutions, log-sum-exp, the
 * correlation-Cholesky transform, …) are translated
 * from their Go by cmd/genops into device_gen.cu, which follows this file
 * and may call it (not the other way round). Every function is
 * __device__ static: the source compiles under NVRTC and, with shim.h,
 * under gcc. */

#define GB_LN_SQRT_2PI 0.91893853320467274178 /* log(sqrt(2 pi)), as ir */
#define GB_LN_PI 1.14472988584940017414       /* log(pi), as ir */
#define GB_LN2 0.693147180559945309417232121458176568
#define GB_PI 3.14159265358979323846264338327950288
#define GB_MAXFLOAT 1.79769313486231570814527423731704356798070e+308

__device__ static int gb_isnan(double x) { return x != x; }
__device__ static int gb_isinf(double x) { return x == GB_INF || x == -GB_INF; }

/* Finite: NaN and +Inf log densities are -Inf (accel.Finite). */
__device__ static double gb_finite(double lp) {
	if (gb_isnan(lp) || lp == GB_INF) return -GB_INF;
	return lp;
}

__device__ static double gb_lgamma(double x) { return lgamma(x); }

/* The sum of v over a block's lanes, the same on every lane (every lane
 * adds the partial sums in lane order). Every lane must call it. */
__device__ static double gb_block_sum(double v, double *red, long long lane, long long lanes) {
	red[lane] = v;
	GB_SYNC();
	double s = 0;
	for (long long l = 0; l < lanes; l++) s += red[l];
	GB_SYNC();
	return s;
}

__device__ static int gb_is_count(double x) { return x >= 0 && x == trunc(x) && x != GB_INF; }

/* min and max as Go's builtins: a NaN in gives NaN (C's fmin and fmax
 * return the other operand). */
__device__ static double gb_min(double a, double b) { return a != a || b != b ? a + b : fmin(a, b); }
__device__ static double gb_max(double a, double b) { return a != a || b != b ? a + b : fmax(a, b); }
