/* gobayes device library: the scalar and small-matrix routines of the
 * generated kernels, written from the formulas of the Go reference
 * (package accel/ir) so that both agree to rounding. Every function is
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

/* log(1+x) by the correction ir uses in its reductions and bijectors. */
__device__ static double gb_log1p_ir(double x) {
	double u = 1 + x;
	if (u == 1) return x;
	return log(u) * x / (u - 1);
}

__device__ static double gb_logistic(double x) {
	if (x >= 0) return 1 / (1 + exp(-x));
	double e = exp(x);
	return e / (1 + e);
}

/* (sigma(x), 1 - sigma(x)) from one exponential. */
__device__ static void gb_logistic_pair(double x, double *s, double *sc) {
	double e = exp(-fabs(x));
	double a = 1 / (1 + e), b = e / (1 + e);
	if (x >= 0) { *s = a; *sc = b; } else { *s = b; *sc = a; }
}

__device__ static double gb_logistic_deriv(double x) {
	double e = exp(-fabs(x));
	return e / ((1 + e) * (1 + e));
}

__device__ static double gb_softplus(double x) {
	if (x > 0) return x + gb_log1p_ir(exp(-x));
	return gb_log1p_ir(exp(x));
}

/* log sigma(x) + log(1 - sigma(x)). */
__device__ static double gb_logistic_logj(double x) {
	double a = fabs(x);
	return -a - 2 * gb_log1p_ir(exp(-a));
}

__device__ static double gb_logit(double x) { return log(x) - log1p(-x); }

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

__device__ static double gb_interval_fwd(double x, double lb, double ub) {
	if (x > 0) return ub - (ub - lb) * gb_logistic(-x);
	return lb + (ub - lb) * gb_logistic(x);
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

/* log-sum-exp of x[0:n], leaving exp(x_i - max) in e (1 at the maximum). */
__device__ static double gb_logsumexp(const double *x, double *e, long long n) {
	double m = -GB_INF;
	long long im = -1;
	for (long long i = 0; i < n; i++)
		if (x[i] > m || gb_isnan(x[i])) { m = x[i]; im = i; }
	if (gb_isinf(m) || gb_isnan(m)) return m;
	double s = 0;
	for (long long i = 0; i < n; i++) {
		if (i == im) { e[i] = 1; continue; }
		e[i] = exp(x[i] - m);
		s += e[i];
	}
	return m + gb_log1p_ir(s);
}

/* Lower Cholesky factor of the n×n matrix whose lower triangle is a. */
__device__ static int gb_cholesky(const double *a, double *l, long long n) {
	for (long long i = 0; i < n; i++) {
		for (long long j = 0; j <= i; j++) {
			double s = a[i * n + j];
			for (long long k = 0; k < j; k++) s -= l[i * n + k] * l[j * n + k];
			if (i == j) {
				if (!(s > 0)) return 0;
				l[i * n + i] = sqrt(s);
			} else {
				l[i * n + j] = s / l[j * n + j];
			}
		}
		for (long long j = i + 1; j < n; j++) l[i * n + j] = 0;
	}
	return 1;
}

/* Adjoint of A from that of its factor (the unblocked reverse of the
 * factorisation, as ir's choleskyReverse); w is n×n work space. */
__device__ static void gb_cholesky_reverse(const double *l, const double *lb, double *ga, double *w, long long n) {
	for (long long i = 0; i < n; i++)
		for (long long j = 0; j <= i; j++) w[i * n + j] = lb[i * n + j];
	for (long long i = n - 1; i >= 0; i--) {
		const double *li = l + i * n;
		double *wi = w + i * n;
		for (long long j = i; j >= 0; j--) {
			double sb;
			if (i == j) {
				sb = wi[i] / (2 * li[i]);
			} else {
				double ljj = l[j * n + j];
				sb = wi[j] / ljj;
				w[j * n + j] -= wi[j] * li[j] / ljj;
			}
			ga[i * n + j] += sb;
			const double *lj = l + j * n;
			double *wj = w + j * n;
			for (long long k = 0; k < j; k++) {
				wi[k] -= sb * lj[k];
				wj[k] -= sb * li[k];
			}
		}
	}
}

/* L z = r (z may alias r) and L^T w = z, L lower k×k. */
__device__ static void gb_forward_subst(const double *l, long long k, const double *r, double *z) {
	for (long long j = 0; j < k; j++) {
		double s = r[j];
		for (long long m = 0; m < j; m++) s -= l[j * k + m] * z[m];
		z[j] = s / l[j * k + j];
	}
}

__device__ static void gb_back_subst(const double *l, long long k, const double *z, double *w) {
	for (long long j = k - 1; j >= 0; j--) {
		double s = z[j];
		for (long long m = j + 1; m < k; m++) s -= l[m * k + j] * w[m];
		w[j] = s / l[j * k + j];
	}
}

__device__ static int gb_is_count(double x) { return x >= 0 && x == trunc(x) && x != GB_INF; }

/* Primitives of the accel/opdef formulas (lpdf_gen.cu), twins of those in
 * accel/ir's lpdf_common.go. */
__device__ static double gb_sign(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }
__device__ static double gb_inv(double x) { return 1 / x; }
/* min and max as Go's builtins: a NaN in gives NaN (C's fmin and fmax
 * return the other operand). */
__device__ static double gb_min(double a, double b) { return a != a || b != b ? a + b : fmin(a, b); }
__device__ static double gb_max(double a, double b) { return a != a || b != b ? a + b : fmax(a, b); }
__device__ static double gb_lbeta(double a, double b) { return gb_lgamma(a) + gb_lgamma(b) - gb_lgamma(a + b); }
__device__ static double gb_lchoose(double n, double k) { return gb_lgamma(n + 1) - gb_lgamma(k + 1) - gb_lgamma(n - k + 1); }
__device__ static double gb_logaddexp(double a, double b) {
	if (a < b) { double t = a; a = b; b = t; }
	if (a == -GB_INF) return a;
	return a + log1p(exp(b - a));
}
/* The normal CDF's log and its derivative, as accel/opdef's LogPhi and
 * DLogPhi: erfc down to x = -37.5, the asymptotic series below. */
__device__ static double gb_mills_series(double x) {
	double t = 1 / (x * x);
	return 1 + t * (-1 + t * (3 + t * (-15 + t * (105 + t * (-945 + t * 10395)))));
}
__device__ static double gb_log_phi(double x) {
	if (x > 0) return log1p(-0.5 * erfc(x / 1.41421356237309504880));
	if (x > -37.5) return log(0.5 * erfc(-x / 1.41421356237309504880));
	return -0.5 * x * x - log(-x) - GB_LN_SQRT_2PI + log(gb_mills_series(x));
}
__device__ static double gb_dlog_phi(double x) {
	if (x > -37.5) return 0.79788456080286535588 * exp(-0.5 * x * x) / erfc(-x / 1.41421356237309504880);
	return -x / gb_mills_series(x);
}
/* log(1 - e^x) for x ≤ 0 (accel/opdef's Log1mExp). */
__device__ static double gb_log1mexp(double x) {
	return x > -GB_LN2 ? log(-expm1(x)) : log1p(-exp(x));
}
/* log(e^a - e^b), b ≤ a (accel/opdef's LogDiffExp). */
__device__ static double gb_logdiffexp(double a, double b) {
	if (b == -GB_INF) return a;
	if (b == a) return -GB_INF;
	return a + gb_log1mexp(b - a);
}

/* log Σ exp(x) as ir's categorical density computes it (max, then log of
 * the sum; NaN propagates). */
__device__ static double gb_lse_plain(const double *x, long long n) {
	double m = -GB_INF;
	for (long long i = 0; i < n; i++) {
		if (x[i] != x[i] || m != m) m = GB_NAN;
		else if (x[i] > m) m = x[i];
	}
	if (gb_isinf(m)) return m;
	double s = 0;
	for (long long i = 0; i < n; i++) s += exp(x[i] - m);
	return m + log(s);
}

/* Category index of y among k, -1 when y is not one. */
__device__ static long long gb_category(double y, long long k) {
	if (!gb_is_count(y) || y >= (double)k) return -1;
	return (long long)y;
}

__device__ static double gb_sech2(double y) {
	double e = exp(-2 * fabs(y));
	return 4 * e / ((1 + e) * (1 + e));
}
__device__ static double gb_log_sech2(double y) {
	double a = fabs(y);
	return 2 * (GB_LN2 - a - log1p(exp(-2 * a)));
}

/* Stan's Cholesky factor of a correlation matrix from y (K(K-1)/2 values,
 * the strictly lower triangle row by row), as ir's CholCorrForward. */
__device__ static void gb_cholcorr_fwd(const double *y, double *l, long long k) {
	for (long long i = 0; i < k * k; i++) l[i] = 0;
	l[0] = 1;
	long long idx = 0;
	for (long long i = 1; i < k; i++) {
		double ss = 0;
		for (long long j = 0; j < i; j++) {
			double w = tanh(y[idx++]);
			if (j > 0) w *= sqrt(1 - ss);
			l[i * k + j] = w;
			ss += w * w;
		}
		l[i * k + i] = sqrt(1 - ss);
	}
}

__device__ static double gb_cholcorr_logj(const double *y, long long n, long long k) {
	double lp = 0;
	long long idx = 0;
	for (long long i = 0; i < n; i++) lp += gb_log_sech2(y[i]);
	for (long long i = 1; i < k; i++) {
		double ss = 0;
		for (long long j = 0; j < i; j++) {
			double z = tanh(y[idx++]), w = z;
			if (j > 0) {
				lp += 0.5 * log1p(-ss);
				w = z * sqrt(1 - ss);
			}
			ss += w * w;
		}
	}
	return lp;
}

/* Reverse of the map (gl the adjoint of L) or of its log-Jacobian (logJ,
 * out adjoint g), as ir's cholCorrReverse; w holds 2K+1 slots. */
__device__ static void gb_cholcorr_reverse(const double *y, const double *gl, double *gy, double *w, long long k,
                                           int logJ, double g) {
	double *z = w, *ss = w + k;
	long long base = 0;
	for (long long i = 1; i < k; i++) {
		ss[0] = 0;
		for (long long j = 0; j < i; j++) {
			z[j] = tanh(y[base + j]);
			double wj = z[j];
			if (j > 0) wj *= sqrt(1 - ss[j]);
			ss[j + 1] = ss[j] + wj * wj;
		}
		double ssb = 0;
		if (!logJ) ssb = -gl[i * k + i] / (2 * sqrt(1 - ss[i]));
		for (long long j = i - 1; j >= 0; j--) {
			double r = 1;
			if (j > 0) r = sqrt(1 - ss[j]);
			double wj = z[j] * r, wb = 2 * wj * ssb;
			if (!logJ) wb += gl[i * k + j];
			if (logJ && j > 0) ssb -= 0.5 * g / (1 - ss[j]);
			double zb = wb * r;
			if (j > 0) ssb -= wb * z[j] * 0.5 / r;
			gy[base + j] += zb * gb_sech2(y[base + j]);
		}
		base += i;
	}
}

/* LKJ density of a correlation Cholesky factor: log c_K(eta) and its
 * derivative, as ir's lkjLogC and lkjDLogC. */
__device__ static double gb_lkj_logc(long long k, double eta) {
	double s = 0;
	for (long long i = 1; i < k; i++) {
		double ki = (double)(k - i), b = eta + (ki - 1) / 2;
		s += (2 * eta - 2 + ki) * ki * GB_LN2 + ki * (2 * gb_lgamma(b) - gb_lgamma(2 * b));
	}
	return s;
}
__device__ static double gb_lkj_dlogc(long long k, double eta) {
	double s = 0;
	for (long long i = 1; i < k; i++) {
		double ki = (double)(k - i), b = eta + (ki - 1) / 2;
		s += ki * (2 * GB_LN2 + 2 * (gb_digamma(b) - gb_digamma(2 * b)));
	}
	return s;
}

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
