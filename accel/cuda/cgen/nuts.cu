
/* NUTS on the device (accel.NUTSSegment, driven by cgen.NUTS): one thread
 * per chain runs whole iterations — the transition, its dual averaging,
 * the window's variance, the metric at a window's end, Stan's step-size
 * heuristic — as ppl/lockstep's nuts.go and nuts_run.go do, routine for
 * routine and in the same arithmetic, so that a seed gives the CPU's
 * draws. The tree is built without recursion (see nutsTree in
 * ppl/lockstep): a subtree leaf by leaf, merges at the leaves that
 * complete them, the halves' checkpoints per level in the chain's tree
 * memory (tree + c·GB_NUTS_SLOTS). A point is GB_NP slots: q, p, g, then
 * the log density. Parameters P (doubles): max depth, max energy error,
 * target acceptance, load, initial step size, heuristic step, first
 * iteration, iterations, warm-up, window start and end, kept chains,
 * tree slots per chain. Per-chain state st [8×B]: step size, dual
 * averaging's mu, counter, s̄ and x̄, gradients evaluated, heuristic
 * failure (1: step size 0, 2: beyond 1e7) and the step size then. */

#define GB_NP (3 * GB_DIM + 1)

typedef struct {
	double *z, *fwd, *bck, *sample, *cur, *prop, *propW, *rhoHalf, *curRho, *begP, *begPS, *endP, *endPS, *ps;
	double *pFF, *psFF, *pFB, *psFB, *pBF, *psBF, *pBB, *psBB, *rho, *rhoF, *rhoB, *ext;
	double h0, sumAccept, maxDeltaH;
	long long leapfrogs, maxDepth;
	int divergent;
	double *grads; /* the chain's gradient count */
	double *V, *A;
	const double *K;
	const unsigned int *ZK;
	const double *ZF;
	gb_stream st;
} gb_nuts_tree;

/* The tree's memory of one chain, laid out as cgen's NUTSTreeSlots
 * counts it. */
__device__ static void gb_nuts_layout(gb_nuts_tree *t, double *m, long long md) {
	long long D = GB_DIM;
	t->z = m; m += GB_NP;
	t->fwd = m; m += GB_NP;
	t->bck = m; m += GB_NP;
	t->sample = m; m += GB_NP;
	t->cur = m; m += GB_NP;
	t->prop = m; m += md * GB_NP;
	t->propW = m; m += md;
	t->rhoHalf = m; m += md * D;
	t->curRho = m; m += D;
	t->begP = m; m += (md + 1) * D;
	t->begPS = m; m += (md + 1) * D;
	t->endP = m; m += md * D;
	t->endPS = m; m += md * D;
	t->ps = m; m += D;
	t->pFF = m; m += D;
	t->psFF = m; m += D;
	t->pFB = m; m += D;
	t->psFB = m; m += D;
	t->pBF = m; m += D;
	t->psBF = m; m += D;
	t->pBB = m; m += D;
	t->psBB = m; m += D;
	t->rho = m; m += D;
	t->rhoF = m; m += D;
	t->rhoB = m; m += D;
	t->ext = m;
	t->maxDepth = md;
}

__device__ static void gb_nuts_copy(double *dst, const double *src, long long n) {
	for (long long i = 0; i < n; i++) dst[i] = src[i];
}

__device__ static double gb_nuts_dot(const double *a, const double *b) {
	double s = 0;
	for (long long i = 0; i < GB_DIM; i++) s += a[i] * b[i];
	return s;
}

__device__ static double gb_log_add_exp(double a, double b) {
	if (a == -GB_INF) return b;
	if (b == -GB_INF) return a;
	if (a > b) return a + log1p(exp(b - a));
	return b + log1p(exp(a - b));
}

__device__ static int gb_uturn(const double *psm, const double *psp, const double *rho) {
	return gb_nuts_dot(psp, rho) > 0 && gb_nuts_dot(psm, rho) > 0;
}

__device__ static double gb_nuts_energy(const double *z, const double *invm, double *v) {
	const double *p = z + GB_DIM;
	for (long long i = 0; i < GB_DIM; i++) v[i] = invm[i] * p[i];
	double h = -z[3 * GB_DIM] + 0.5 * gb_nuts_dot(p, v);
	if (h != h) return GB_INF;
	return h;
}

__device__ static void gb_nuts_leapfrog(gb_nuts_tree *t, double *z, double eps, const double *invm) {
	double *q = z, *p = z + GB_DIM, *g = z + 2 * GB_DIM;
	double half = 0.5 * eps;
	for (long long i = 0; i < GB_DIM; i++) p[i] += half * g[i];
	for (long long i = 0; i < GB_DIM; i++) q[i] += eps * (invm[i] * p[i]);
	double lp = gb_density(q, t->V, t->A, t->K, g);
	*t->grads += 1;
	if (lp != lp) lp = -GB_INF;
	z[3 * GB_DIM] = lp;
	for (long long i = 0; i < GB_DIM; i++) p[i] += half * g[i];
}

__device__ static double gb_nuts_normal(gb_nuts_tree *t) { return gb_normal_from(gb_uint32(&t->st), &t->st, t->ZK, t->ZF); }

/* nutsTree.subtree: 2^j leapfrog steps of size eps; 0 when invalid. */
__device__ static int gb_nuts_subtree(gb_nuts_tree *t, long long j, double eps, const double *invm, double *rho,
                                      double *pBeg, double *psBeg, double *pEnd, double *psEnd, double *wOut) {
	double *z = t->z, *ps = t->ps, *zp = t->z + GB_DIM;
	long long D = GB_DIM;
	double curW = 0;
	for (long long n = 0; n < (1LL << j); n++) {
		gb_nuts_leapfrog(t, z, eps, invm);
		t->leapfrogs++;
		double h = gb_nuts_energy(z, invm, ps);
		if (h - t->h0 > t->maxDeltaH) t->divergent = 1;
		double w = t->h0 - h;
		if (w > 0) t->sumAccept += 1;
		else t->sumAccept += exp(w);
		if (t->divergent) return 0;
		for (long long l = 0; l <= j && (n & ((1LL << l) - 1)) == 0; l++) {
			gb_nuts_copy(t->begP + l * D, zp, D);
			gb_nuts_copy(t->begPS + l * D, ps, D);
		}
		gb_nuts_copy(t->cur, z, GB_NP);
		curW = w;
		gb_nuts_copy(t->curRho, zp, D);
		for (long long k = 1; k <= j; k++) {
			long long h1 = k - 1;
			double *rh = t->rhoHalf + h1 * D, *ext = t->ext;
			if (((n >> h1) & 1) == 0) {
				gb_nuts_copy(t->prop + h1 * GB_NP, t->cur, GB_NP);
				t->propW[h1] = curW;
				gb_nuts_copy(rh, t->curRho, D);
				gb_nuts_copy(t->endP + h1 * D, zp, D);
				gb_nuts_copy(t->endPS + h1 * D, ps, D);
				break;
			}
			double wSub = gb_log_add_exp(t->propW[h1], curW);
			if (curW > wSub) {
			} else if (!(gb_uniform(&t->st) < exp(curW - wSub))) {
				gb_nuts_copy(t->cur, t->prop + h1 * GB_NP, GB_NP);
			}
			for (long long i = 0; i < D; i++) ext[i] = rh[i] + t->curRho[i];
			int persist = gb_uturn(t->begPS + k * D, ps, ext);
			for (long long i = 0; i < D; i++) ext[i] = rh[i] + t->begP[h1 * D + i];
			persist = persist && gb_uturn(t->begPS + k * D, t->begPS + h1 * D, ext);
			for (long long i = 0; i < D; i++) ext[i] = t->curRho[i] + t->endP[h1 * D + i];
			persist = persist && gb_uturn(t->endPS + h1 * D, ps, ext);
			for (long long i = 0; i < D; i++) t->curRho[i] = rh[i] + t->curRho[i];
			curW = wSub;
			if (!persist) return 0;
		}
	}
	gb_nuts_copy(rho, t->curRho, D);
	gb_nuts_copy(pBeg, t->begP + j * D, D);
	gb_nuts_copy(psBeg, t->begPS + j * D, D);
	gb_nuts_copy(pEnd, zp, D);
	gb_nuts_copy(psEnd, ps, D);
	*wOut = curW;
	return 1;
}

/* nutsTree.transition from the point in t->z's q, g and lp (the caller
 * sets them); the draw is left in t->sample. Out: acceptance statistic,
 * depth, leapfrog steps, divergence, energy. */
__device__ static void gb_nuts_transition(gb_nuts_tree *t, double eps, const double *invm, const double *sqrtinv,
                                          double *out) {
	long long D = GB_DIM;
	double *z = t->z, *zp = t->z + GB_DIM;
	for (long long i = 0; i < D; i++) zp[i] = gb_nuts_normal(t) / sqrtinv[i];
	gb_nuts_copy(t->fwd, z, GB_NP);
	gb_nuts_copy(t->bck, z, GB_NP);
	gb_nuts_copy(t->sample, z, GB_NP);
	t->h0 = gb_nuts_energy(z, invm, t->psFF);
	gb_nuts_copy(t->psFB, t->psFF, D);
	gb_nuts_copy(t->psBF, t->psFF, D);
	gb_nuts_copy(t->psBB, t->psFF, D);
	gb_nuts_copy(t->pFF, zp, D);
	gb_nuts_copy(t->pFB, zp, D);
	gb_nuts_copy(t->pBF, zp, D);
	gb_nuts_copy(t->pBB, zp, D);
	gb_nuts_copy(t->rho, zp, D);
	double logW = 0;
	t->leapfrogs = 0;
	t->sumAccept = 0;
	t->divergent = 0;
	long long depth = 0;
	while (depth < t->maxDepth) {
		for (long long i = 0; i < D; i++) t->rhoF[i] = t->rhoB[i] = 0;
		int valid;
		double wSub = 0;
		if (gb_uniform(&t->st) > 0.5) {
			gb_nuts_copy(z, t->fwd, GB_NP);
			gb_nuts_copy(t->rhoB, t->rho, D);
			gb_nuts_copy(t->pBF, t->pFF, D);
			gb_nuts_copy(t->psBF, t->psFF, D);
			valid = gb_nuts_subtree(t, depth, eps, invm, t->rhoF, t->pFB, t->psFB, t->pFF, t->psFF, &wSub);
			gb_nuts_copy(t->fwd, z, GB_NP);
		} else {
			gb_nuts_copy(z, t->bck, GB_NP);
			gb_nuts_copy(t->rhoF, t->rho, D);
			gb_nuts_copy(t->pFB, t->pBB, D);
			gb_nuts_copy(t->psFB, t->psBB, D);
			valid = gb_nuts_subtree(t, depth, -eps, invm, t->rhoB, t->pBF, t->psBF, t->pBB, t->psBB, &wSub);
			gb_nuts_copy(t->bck, z, GB_NP);
		}
		if (!valid) break;
		depth++;
		if (wSub > logW) gb_nuts_copy(t->sample, t->cur, GB_NP);
		else if (gb_uniform(&t->st) < exp(wSub - logW)) gb_nuts_copy(t->sample, t->cur, GB_NP);
		logW = gb_log_add_exp(logW, wSub);
		for (long long i = 0; i < D; i++) t->rho[i] = t->rhoB[i] + t->rhoF[i];
		int persist = gb_uturn(t->psBB, t->psFF, t->rho);
		for (long long i = 0; i < D; i++) t->ext[i] = t->rhoB[i] + t->pFB[i];
		persist = persist && gb_uturn(t->psBB, t->psFB, t->ext);
		for (long long i = 0; i < D; i++) t->ext[i] = t->rhoF[i] + t->pBF[i];
		persist = persist && gb_uturn(t->psBF, t->psFF, t->ext);
		if (!persist) break;
	}
	out[0] = t->sumAccept / (double)t->leapfrogs;
	out[1] = (double)depth;
	out[2] = (double)t->leapfrogs;
	out[3] = t->divergent ? 1.0 : 0.0;
	out[4] = gb_nuts_energy(t->sample, invm, t->ps);
}

/* nutsTree.stepSizeHeuristic from (x, g, lp); *ok 0 when the step size
 * leaves (0, 1e7]. */
__device__ static double gb_nuts_heuristic(gb_nuts_tree *t, const double *x, const double *g, double lp, double eps,
                                           const double *invm, const double *sqrtinv, int *ok) {
	*ok = 1;
	if (eps == 0 || eps > 1e7 || eps != eps || GB_DIM == 0) return eps;
	double logTarget = log(0.8);
	double *z = t->z, *zp = t->z + GB_DIM;
	int up = 0;
	for (long long trial = 0;; trial++) {
		gb_nuts_copy(z, x, GB_DIM);
		gb_nuts_copy(z + 2 * GB_DIM, g, GB_DIM);
		z[3 * GB_DIM] = lp;
		for (long long i = 0; i < GB_DIM; i++) zp[i] = gb_nuts_normal(t) / sqrtinv[i];
		double h0 = gb_nuts_energy(z, invm, t->ps);
		gb_nuts_leapfrog(t, z, eps, invm);
		double dH = h0 - gb_nuts_energy(z, invm, t->ps);
		if (trial == 0) {
			up = dH > logTarget;
			continue;
		}
		if ((up && !(dH > logTarget)) || (!up && !(dH < logTarget))) return eps;
		if (up) eps *= 2;
		else eps *= 0.5;
		if (eps > 1e7 || eps == 0) {
			*ok = 0;
			return eps;
		}
	}
}

/* adapt.StepSize's Restart, Learn and Final on the chain's state. */
__device__ static void gb_da_restart(double *st, long long B, long long c, double eps) {
	st[B + c] = log(10 * eps);
	st[2 * B + c] = 0;
	st[3 * B + c] = 0;
	st[4 * B + c] = 0;
}

__device__ static double gb_da_learn(double *st, long long B, long long c, double delta, double a) {
	double counter = st[2 * B + c] + 1;
	st[2 * B + c] = counter;
	if (a > 1) a = 1;
	if (a != a) a = 0;
	double eta = 1 / (counter + 10.0);
	double sBar = (1 - eta) * st[3 * B + c] + eta * (delta - a);
	st[3 * B + c] = sBar;
	double x = st[B + c] - sBar * sqrt(counter) / 0.05;
	double xEta = pow(counter, -0.75);
	st[4 * B + c] = (1 - xEta) * st[4 * B + c] + xEta * x;
	return exp(x);
}

GB_EXTERN_C __global__ void gb_nuts(double *x, double *g, double *lp, double *st, double *invmAll, double *sqrtAll,
                                    double *wmean, double *wm2, double *mean, double *m2, double *kx, double *ks,
                                    double *tree, double *work, const unsigned int *ZK, const double *ZF,
                                    const double *K, const double *P, long long seed, long long B) {
	long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= B) return;
	long long D = GB_DIM;
	long long md = (long long)P[0], load = (long long)P[3], hstep = (long long)P[5], s0 = (long long)P[6];
	long long steps = (long long)P[7], warmup = (long long)P[8], ws = (long long)P[9], we = (long long)P[10];
	long long keep = (long long)P[11], slots = (long long)P[12];
	double maxDeltaH = P[1], target = P[2];
	if (st[6 * B + c] != 0) return; /* a chain whose heuristic failed stays */
	GB_HMC_FRAME(V);
	gb_nuts_tree t;
	gb_nuts_layout(&t, tree + c * slots, md);
	t.maxDeltaH = maxDeltaH;
	t.V = V;
	t.A = V + GB_FRAME;
	t.K = K;
	t.ZK = ZK;
	t.ZF = ZF;
	t.grads = st + 5 * B + c;
	unsigned int key[2] = {(unsigned int)seed, (unsigned int)((unsigned long long)seed >> 32)};
	double *invm = invmAll + c * D, *sqrtinv = sqrtAll + c * D;
	double xr[GB_DIM], gr[GB_DIM], info[5];
	for (long long j = 0; j < D; j++) {
		xr[j] = x[j * B + c];
		gr[j] = g[j * B + c];
	}
	double l = lp[c];
	int ok = 1;
	if (load) {
		for (long long j = 0; j < D; j++) invm[j] = sqrtinv[j] = 1;
		gb_stream_at(&t.st, key, (unsigned long long)c, (unsigned long long)hstep, 0u);
		double e = gb_nuts_heuristic(&t, xr, gr, l, P[4], invm, sqrtinv, &ok);
		if (!ok) {
			st[6 * B + c] = e == 0 ? 1 : 2;
			st[7 * B + c] = e;
			return;
		}
		st[c] = e;
		gb_da_restart(st, B, c, e);
	}
	for (long long tt = 0; tt < steps; tt++) {
		long long it = s0 + tt;
		double eps = st[c];
		gb_stream_at(&t.st, key, (unsigned long long)c, (unsigned long long)it, 0u);
		gb_nuts_copy(t.z, xr, D);
		gb_nuts_copy(t.z + 2 * D, gr, D);
		t.z[3 * D] = l;
		gb_nuts_transition(&t, eps, invm, sqrtinv, info);
		gb_nuts_copy(xr, t.sample, D);
		gb_nuts_copy(gr, t.sample + 2 * D, D);
		l = t.sample[3 * D];
		if (it < warmup) {
			st[c] = gb_da_learn(st, B, c, target, info[0]);
			if (it >= ws && it < we) {
				double n = (double)(it - ws + 1);
				for (long long j = 0; j < D; j++) {
					double dl = xr[j] - wmean[j * B + c];
					wmean[j * B + c] += dl / n;
					wm2[j * B + c] += dl * (xr[j] - wmean[j * B + c]);
				}
			}
			if (it == we - 1) {
				double n = (double)(we - ws);
				double a = n / (n + 5), b = 1e-3 * 5 / (n + 5);
				for (long long j = 0; j < D; j++) {
					double v = wm2[j * B + c] / (n - 1);
					invm[j] = a * v + b;
					sqrtinv[j] = sqrt(invm[j]);
					wmean[j * B + c] = 0;
					wm2[j * B + c] = 0;
				}
				gb_stream_at(&t.st, key, (unsigned long long)c, (unsigned long long)(hstep + it + 1), 0u);
				double e = gb_nuts_heuristic(&t, xr, gr, l, st[c], invm, sqrtinv, &ok);
				if (!ok) {
					st[6 * B + c] = e == 0 ? 1 : 2;
					st[7 * B + c] = e;
					break;
				}
				st[c] = e;
				gb_da_restart(st, B, c, e);
			}
			if (it == warmup - 1) {
				double e = exp(st[4 * B + c]);
				if (e != e || e <= 0) e = 1;
				st[c] = e;
			}
		} else {
			double inv = 1 / (double)(it - warmup + 1);
			for (long long j = 0; j < D; j++) {
				double dx = xr[j] - mean[j * B + c];
				mean[j * B + c] += dx * inv;
				m2[j * B + c] += dx * (xr[j] - mean[j * B + c]);
			}
		}
		if (c < keep) {
			for (long long j = 0; j < D; j++) kx[(tt * D + j) * keep + c] = xr[j];
			double *k = ks + tt * 7 * keep + c;
			k[0] = l;
			k[keep] = info[0];
			k[2 * keep] = eps;
			k[3 * keep] = info[1];
			k[4 * keep] = info[2];
			k[5 * keep] = info[3];
			k[6 * keep] = info[4];
		}
	}
	for (long long j = 0; j < D; j++) {
		x[j * B + c] = xr[j];
		g[j * B + c] = gr[j];
	}
	lp[c] = l;
}
