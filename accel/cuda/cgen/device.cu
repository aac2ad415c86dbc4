/* gobayes device library, the hand-written part: the small scalar
 * routines of the generated kernels, written from the formulas of the Go
 * reference (package accel/ir) so that both agree to rounding, and the
 * twins of gonum's digamma and zeta. The routines with loops (the
 * incomplete gamma and beta functions, Cholesky, the substitutions,
 * log-sum-exp, the correlation-Cholesky transform, …) are translated
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

/* Digamma by reflection below 0, recurrence up to 7 and the asymptotic
 * series there: the algorithm of gonum's mathext.Digamma, which the CPU
 * uses. */
__device__ static double gb_digamma(double x) {
	double r = 0;
	if (gb_isnan(x) || x == GB_INF) return x;
	if (x == -GB_INF) return GB_NAN;
	if (x == 0) return signbit(x) ? GB_INF : -GB_INF;
	if (x < 0) {
		if (x == floor(x)) return GB_NAN;
		double ip;
		double fr = modf(x, &ip);
		r = -GB_PI / tan(GB_PI * fr);
		x = 1 - x;
	}
	for (; x < 7; x++) r -= 1 / x;
	x -= 0.5;
	double xx = 1 / x, xx2 = xx * xx, xx4 = xx2 * xx2;
	r += log(x) + (1.0 / 24.0) * xx2 - (7.0 / 960.0) * xx4 + (31.0 / 8064.0) * xx4 * xx2 -
	     (127.0 / 30720.0) * xx4 * xx4;
	return r;
}

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

/* Hurwitz zeta ζ(x, q) for x > 1, q > 0 by Euler–Maclaurin summation: the
 * algorithm of gonum's mathext.Zeta (Cephes), which ir's Trigamma uses.
 * The coefficients are (2j)!/B_2j. */
__device__ static double gb_zeta(double x, double q) {
	const double coef[12] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.307674368e12 / 691, 7.47242496e10,
	                         -1.067062284288e16 / 3617, 5.109094217170944e18 / 43867, -8.028576626982912e20 / 174611,
	                         1.5511210043330985984e23 / 854513, -1.6938241367317436694528e27 / 236364091};
	const double eps = 1.0 / 9007199254740992.0; /* 2^-53 */
	if (x == 1) return GB_INF;
	if (q > 1e8) return (1 / (x - 1) + 1 / (2 * q)) * pow(q, 1 - x);
	double s = pow(q, -x), a = q, b = 0;
	int i = 0;
	while (i < 9 || a <= 9) {
		i++;
		a += 1.0;
		b = pow(a, -x);
		s += b;
		if (fabs(b / s) < eps) return s;
	}
	double w = a, k = 0;
	s += b * w / (x - 1);
	s -= 0.5 * b;
	a = 1.0;
	for (int j = 0; j < 12; j++) {
		a *= x + k;
		b /= w;
		double t = a * b / coef[j];
		s = s + t;
		if (fabs(t / s) < eps) return s;
		k += 1.0;
		a *= x + k;
		b /= w;
		k += 1.0;
	}
	return s;
}

/* Trigamma ψ₁(x) = ζ(2, x), by reflection below 0, as ir's Trigamma. */
__device__ static double gb_trigamma(double x) {
	if (x != x || x == -GB_INF) return GB_NAN;
	if (x <= 0 && x == floor(x)) return GB_INF;
	if (x > 0) return gb_zeta(2, x);
	double s = sin(GB_PI * x);
	return GB_PI * GB_PI / (s * s) - gb_zeta(2, 1 - x);
}
