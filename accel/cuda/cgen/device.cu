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

/* The incomplete gamma and beta functions in log space with their
 * derivatives in the shapes: accel/opdef's incgamma.go and incbeta.go
 * step for step (see there for the regions and the algorithms). */
#define GB_SERIES_EPS 1e-17
#define GB_CF_EPS 1e-15
#define GB_TINY 1e-300
#define GB_MAX_TERMS 100000
#define GB_LN07 (-0.35667494393873238)

/* lgamma(1+a) without rounding 1+a: the Taylor series below 0.2
 * (opdef's lgamma1p). */
__device__ static double gb_lgamma1p(double a) {
	const double zeta[24] = {
		1.64493406684822643647, 1.2020569031595942854, 1.08232323371113819152, 1.03692775514336992633,
		1.01734306198444913971, 1.00834927738192282684, 1.00407735619794433938, 1.00200839282608221442,
		1.00099457512781808534, 1.00049418860411946456, 1.0002460865533080483, 1.00012271334757848915,
		1.00006124813505870483, 1.00003058823630702049, 1.00001528225940865187, 1.00000763719763789976,
		1.00000381729326499984, 1.00000190821271655394, 1.0000009539620338728, 1.00000047693298678781,
		1.00000023845050272773, 1.00000011921992596531, 1.00000005960818905126, 1.00000002980350351465,
	};
	if (a >= 0.2) return gb_lgamma(1 + a);
	double sum = 0;
	for (int k = 23; k >= 0; k--) sum = sum * (-a) + zeta[k] / (double)(k + 2);
	return a * (-0.577215664901532860606512090082 + a * sum);
}

/* log(1+t) - t for |t| ≤ ½ (opdef's log1pmx). */
__device__ static double gb_log1pmx(double t) {
	double u = t / (2 + t), u2 = u * u;
	double sum = 0, p = 2 * u * u2;
	for (double k = 3; k < 200; k += 2) {
		double term = p / k;
		sum += term;
		if (fabs(term) <= GB_SERIES_EPS * fabs(sum)) break;
		p *= u2;
	}
	return -t * u + sum;
}

/* Stirling's remainder of lgamma, a ≥ 10 (opdef's stirlingErr). */
__device__ static double gb_stirling_err(double a) {
	double z = 1 / a, z2 = z * z;
	return z * (1.0 / 12 - z2 * (1.0 / 360 - z2 * (1.0 / 1260 - z2 * (1.0 / 1680 - z2 * (1.0 / 1188 - z2 * (691.0 / 360360 - z2 / 156))))));
}

/* log(x^a e^-x / Gamma(a)) (opdef's gammaPrefix). */
__device__ static double gb_gamma_prefix(double a, double x, double logx) {
	double t = (x - a) / a;
	if (a >= 10 && fabs(t) <= 0.5) return a * gb_log1pmx(t) + 0.5 * log(a / (2 * GB_PI)) - gb_stirling_err(a);
	return a * logx - x - gb_lgamma(a);
}

/* log(1 - e^l) and its derivative from l's, d (opdef's otherTail). */
__device__ static void gb_other_tail(double l, double d, double *o, double *od) {
	*o = gb_log1mexp(l);
	*od = -exp(l - *o) * d;
}

/* log P by its series, and its derivative in a. */
__device__ static void gb_gamma_p_series(double a, double x, double logx, int deriv, double *lp, double *dp) {
	double s = 1, ds = 0, t = 1, h = 0;
	for (long long n = 1; n < GB_MAX_TERMS; n++) {
		double an = a + (double)n;
		t *= x / an;
		h += 1 / an;
		s += t;
		ds -= t * h;
		if (t <= GB_SERIES_EPS * s && (!deriv || t * h <= -GB_SERIES_EPS * ds)) break;
	}
	*lp = gb_gamma_prefix(a, x, logx) - log(a) + log(s);
	*dp = deriv ? logx - gb_digamma(a + 1) + ds / s : 0;
}

/* log Q for a < 1, x < 1.1 by the small-shape form, and its derivative. */
__device__ static void gb_gamma_q_small(double a, double x, double logx, double u, int deriv, double *lq, double *dq) {
	double sum = 0, dsum = 0, p = 1;
	for (long long n = 1; n < GB_MAX_TERMS; n++) {
		p *= -x / (double)n;
		double an = a + (double)n;
		double term = p / an;
		sum += term;
		dsum -= term / an;
		if (fabs(term) <= GB_SERIES_EPS * fabs(sum)) break;
	}
	double eu = exp(u), ev = a * eu;
	double q = -expm1(u) - ev * sum;
	*lq = log(q);
	*dq = 0;
	if (deriv) {
		double du = logx - gb_digamma(a + 1);
		*dq = (-eu * du - ev * (du * sum + dsum) - eu * sum) / q;
	}
}

/* log Q by Legendre's continued fraction (modified Lentz), and its
 * derivative carried through the recurrences. */
__device__ static void gb_gamma_q_fraction(double a, double x, double logx, int deriv, double *lq, double *dq) {
	double b = x + 1 - a;
	double c = 1 / GB_TINY, cl = 0;
	double d = 1 / b, dl = 1 / b;
	double h = d, hl = dl;
	for (long long i = 1; i < GB_MAX_TERMS; i++) {
		double fi = (double)i;
		double an = -fi * (fi - a);
		b += 2;
		double bd = an * d + b;
		double dd = fi * d + an * d * dl - 1;
		if (fabs(bd) < GB_TINY) bd = GB_TINY;
		d = 1 / bd;
		dl = -dd / bd;
		double bc = b + an / c;
		double dc = -1 + (fi - an * cl) / c;
		if (fabs(bc) < GB_TINY) bc = GB_TINY;
		c = bc;
		cl = dc / bc;
		double del = d * c;
		h *= del;
		hl += dl + cl;
		if (fabs(del - 1) <= GB_CF_EPS && (!deriv || fabs(dl + cl) <= GB_CF_EPS * (1 + fabs(hl) + fabs(dl)))) break;
	}
	*lq = gb_gamma_prefix(a, x, logx) + log(h);
	*dq = deriv ? logx - gb_digamma(a) + hl : 0;
}

/* log P(a, x), log Q(a, x) and their derivatives in a. */
__device__ static void gb_gamma_tails(double a, double x, int deriv, double *lp, double *lq, double *dp, double *dq) {
	if (gb_isnan(a) || gb_isnan(x) || !(a > 0) || a == GB_INF) {
		*lp = *lq = *dp = *dq = GB_NAN;
		return;
	}
	if (x <= 0) { *lp = -GB_INF; *lq = 0; *dp = *dq = 0; return; }
	if (x == GB_INF) { *lp = 0; *lq = -GB_INF; *dp = *dq = 0; return; }
	double logx = log(x);
	if (a < 1 && x < 1.1) {
		double u = a * logx - gb_lgamma1p(a);
		if (u >= GB_LN07) {
			gb_gamma_q_small(a, x, logx, u, deriv, lq, dq);
			gb_other_tail(*lq, *dq, lp, dp);
			return;
		}
		gb_gamma_p_series(a, x, logx, deriv, lp, dp);
		gb_other_tail(*lp, *dp, lq, dq);
		return;
	}
	if (x < a + 1) {
		gb_gamma_p_series(a, x, logx, deriv, lp, dp);
		gb_other_tail(*lp, *dp, lq, dq);
		return;
	}
	gb_gamma_q_fraction(a, x, logx, deriv, lq, dq);
	gb_other_tail(*lq, *dq, lp, dp);
}
__device__ static double gb_log_gamma_p(double a, double x) {
	double lp, lq, dp, dq;
	gb_gamma_tails(a, x, 0, &lp, &lq, &dp, &dq);
	return lp;
}
__device__ static double gb_log_gamma_q(double a, double x) {
	double lp, lq, dp, dq;
	gb_gamma_tails(a, x, 0, &lp, &lq, &dp, &dq);
	return lq;
}
__device__ static double gb_dlog_gamma_p(double a, double x) {
	double lp, lq, dp, dq;
	gb_gamma_tails(a, x, 1, &lp, &lq, &dp, &dq);
	return dp;
}
__device__ static double gb_dlog_gamma_q(double a, double x) {
	double lp, lq, dp, dq;
	gb_gamma_tails(a, x, 1, &lp, &lq, &dp, &dq);
	return dq;
}

/* The state of the incomplete beta's continued fraction: d, c and h of
 * the modified Lentz method with the partials of their logs in a and b. */
typedef struct {
	double d, dla, dlb, c, cla, clb, h, hla, hlb;
} gb_beta_cf;

/* One coefficient aa (partials aaa, aab) of the fraction; the step's
 * factor d c. */
__device__ static double gb_beta_cf_step(gb_beta_cf *s, double aa, double aaa, double aab) {
	double bd = 1 + aa * s->d;
	double dda = s->d * (aaa + aa * s->dla), ddb = s->d * (aab + aa * s->dlb);
	if (fabs(bd) < GB_TINY) bd = GB_TINY;
	s->d = 1 / bd;
	s->dla = -dda / bd;
	s->dlb = -ddb / bd;
	double bc = 1 + aa / s->c;
	double dca = (aaa - aa * s->cla) / s->c, dcb = (aab - aa * s->clb) / s->c;
	if (fabs(bc) < GB_TINY) bc = GB_TINY;
	s->c = bc;
	s->cla = dca / bc;
	s->clb = dcb / bc;
	double del = s->d * s->c;
	s->h *= del;
	s->hla += s->dla + s->cla;
	s->hlb += s->dlb + s->clb;
	return del;
}

/* log B(a, b) with Stirling's series for shapes of 10 or more (opdef's
 * lbetaStirling). */
__device__ static double gb_lbeta_stirling(double a, double b) {
	double lo = a < b ? a : b, hi = a < b ? b : a, c = lo + hi;
	if (hi < 10) return gb_lgamma(a) + gb_lgamma(b) - gb_lgamma(c);
	if (lo < 10) return gb_lgamma(lo) - ((hi - 0.5) * log1p(lo / hi) + lo * log(c) - lo) + gb_stirling_err(hi) - gb_stirling_err(c);
	return lo * log(lo / c) + hi * log(hi / c) + 0.5 * log(c / (lo * hi)) + 0.5 * log(2 * GB_PI) +
		gb_stirling_err(lo) + gb_stirling_err(hi) - gb_stirling_err(c);
}

/* log(x^a y^b / B(a, b)) (opdef's betaPrefix). */
__device__ static double gb_beta_prefix(double a, double b, double x, double y, double logx, double logy) {
	if (a >= 10 && b >= 10) {
		double c = a + b;
		double t1 = (x * c - a) / a, t2 = (y * c - b) / b;
		if (fabs(t1) <= 0.5 && fabs(t2) <= 0.5)
			return a * gb_log1pmx(t1) + b * gb_log1pmx(t2) + 0.5 * log(a * b / (2 * GB_PI * c)) -
				gb_stirling_err(a) - gb_stirling_err(b) + gb_stirling_err(c);
	}
	return a * logx + b * logy - gb_lbeta_stirling(a, b);
}

/* log I_x(a, b) below the switch, and its partials. */
__device__ static void gb_inc_beta_direct(double a, double b, double x, double y, int deriv, double *l, double *da, double *db) {
	double bd = 1 - (a + b) * x / (a + 1);
	if (x > 0.5) bd = (1 - b + (a + b) * y) / (a + 1);
	gb_beta_cf s;
	s.d = 1 / bd;
	s.dla = x * (1 - b) / ((a + 1) * (a + 1)) / bd;
	s.dlb = x / (a + 1) / bd;
	s.c = 1;
	s.cla = s.clb = 0;
	s.h = s.d;
	s.hla = s.dla;
	s.hlb = s.dlb;
	for (long long m = 1; m < GB_MAX_TERMS; m++) {
		double fm = (double)m;
		double e1 = a + 2 * fm - 1, e2 = a + 2 * fm;
		double aa = fm * (b - fm) * x / (e1 * e2);
		gb_beta_cf_step(&s, aa, -aa * (1 / e1 + 1 / e2), fm * x / (e1 * e2));
		double o1 = a + fm, o2 = a + b + fm, o3 = a + 2 * fm, o4 = a + 2 * fm + 1;
		aa = -o1 * o2 * x / (o3 * o4);
		double del = gb_beta_cf_step(&s, aa, aa * (1 / o1 + 1 / o2 - 1 / o3 - 1 / o4), aa / o2);
		if (fabs(del - 1) <= GB_CF_EPS && (!deriv ||
			(fabs(s.dla + s.cla) <= GB_CF_EPS * (1 + fabs(s.hla) + fabs(s.dla)) &&
			 fabs(s.dlb + s.clb) <= GB_CF_EPS * (1 + fabs(s.hlb) + fabs(s.dlb))))) break;
	}
	double logx = x > 0.5 ? log1p(-y) : log(x), logy = x > 0.5 ? log(y) : log1p(-x);
	*l = gb_beta_prefix(a, b, x, y, logx, logy) - log(a) + log(s.h);
	*da = *db = 0;
	if (deriv) {
		double psi_ab = gb_digamma(a + b);
		*da = logx - gb_digamma(a + 1) + psi_ab + s.hla;
		*db = logy - gb_digamma(b) + psi_ab + s.hlb;
	}
}

/* log I_x(a, b) given y = 1 - x, and its partials in a and b. */
__device__ static void gb_inc_beta(double a, double b, double x, double y, int deriv, double *l, double *da, double *db) {
	if (gb_isnan(a) || gb_isnan(b) || gb_isnan(x) || gb_isnan(y) || !(a > 0) || !(b > 0) || a == GB_INF || b == GB_INF) {
		*l = *da = *db = GB_NAN;
		return;
	}
	if (x <= 0) { *l = -GB_INF; *da = *db = 0; return; }
	if (y <= 0) { *l = 0; *da = *db = 0; return; }
	if (x * (a + b + 2) < a + 1) {
		gb_inc_beta_direct(a, b, x, y, deriv, l, da, db);
		return;
	}
	double lc, cb, ca, unused;
	gb_inc_beta_direct(b, a, y, x, deriv, &lc, &cb, &ca);
	gb_other_tail(lc, ca, l, da);
	gb_other_tail(lc, cb, &unused, db);
}
__device__ static double gb_log_inc_beta(double a, double b, double x, double y) {
	double l, da, db;
	gb_inc_beta(a, b, x, y, 0, &l, &da, &db);
	return l;
}
__device__ static double gb_dlog_inc_beta_a(double a, double b, double x, double y) {
	double l, da, db;
	gb_inc_beta(a, b, x, y, 1, &l, &da, &db);
	return da;
}
__device__ static double gb_dlog_inc_beta_b(double a, double b, double x, double y) {
	double l, da, db;
	gb_inc_beta(a, b, x, y, 1, &l, &da, &db);
	return db;
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
