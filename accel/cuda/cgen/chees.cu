
/* ChEES-HMC on the device (accel.HMCIteration, driven by cgen.HMC): the
 * per-chain parts of ppl/lockstep's propose, accept and cross-chain sums,
 * in the same arithmetic, so that the same seed gives the CPU's draws.
 * State struct-of-arrays like the walk's: slot j of chain c at j·B+c.
 * Cross-chain sums go through gb_chunk_sums: each run of GB_SUM_CHUNK
 * chains summed in chain order, the runs' sums then summed in order on
 * the host — the order ppl/lockstep's CPU sums use. */

#define GB_SUM_CHUNK 1024

/* The frame of one chain's gradient: in the thread's own memory when
 * small (values and adjoints), else Frame·2 slots of work per chain. */
#if 2 * GB_FRAME <= GB_WALK_LOCAL_FRAME
#define GB_HMC_FRAME(name) double name##l[2 * GB_FRAME]; double *name = name##l
#else
#define GB_HMC_FRAME(name) double *name = work + c * 2 * GB_FRAME
#endif

/* One trajectory per chain from (x, g, lp): momentum p from the chain's
 * stream at step s (standard normals over sqrtinv), the uniform u of the
 * accept test, steps leapfrog steps of size eps under invm, the end point
 * in xp, gp, pp, lpp, its acceptance probability in alpha and divergence
 * in divf (1 or 0). With warm, q receives the chain's parts of the
 * warm-up sums: alpha, 1/max(alpha, 1e-20), x_j, alpha·xp_j
 * (quantities of B values each). */
GB_EXTERN_C __global__ void gb_hmc_propose(const double *x, const double *g, const double *lp, double *p, double *xp,
                                           double *gp, double *pp, double *lpp, double *alpha, double *u, double *divf,
                                           double *q, const double *invm, const double *sqrtinv, double eps,
                                           long long steps, long long seed, long long s, long long warm,
                                           const unsigned int *ZK, const double *ZF, double *work, const double *K,
                                           long long B) {
	long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= B) return;
	GB_HMC_FRAME(V);
	double *A = V + GB_FRAME;
	unsigned int key[2] = {(unsigned int)seed, (unsigned int)((unsigned long long)seed >> 32)};
	gb_stream st;
	gb_stream_at(&st, key, (unsigned long long)c, (unsigned long long)s, 0u);
	for (long long j = 0; j < GB_DIM; j++) p[j * B + c] = gb_normal_from(gb_uint32(&st), &st, ZK, ZF) / sqrtinv[j];
	u[c] = gb_uniform(&st);
	double xr[GB_DIM], gr[GB_DIM];
	for (long long j = 0; j < GB_DIM; j++) {
		xr[j] = x[j * B + c];
		pp[j * B + c] = p[j * B + c] + 0.5 * eps * g[j * B + c];
	}
	double l = 0;
	for (long long t = 0; t < steps; t++) {
		for (long long j = 0; j < GB_DIM; j++) xr[j] += eps * invm[j] * pp[j * B + c];
		l = gb_density(xr, V, A, K, gr);
		double half = t == steps - 1 ? 0.5 * eps : eps;
		for (long long j = 0; j < GB_DIM; j++) pp[j * B + c] += half * gr[j];
	}
	double k0 = 0, k1 = 0;
	for (long long j = 0; j < GB_DIM; j++) {
		double p0 = p[j * B + c], p1 = pp[j * B + c];
		k0 += invm[j] * p0 * p0;
		k1 += invm[j] * p1 * p1;
		xp[j * B + c] = xr[j];
		gp[j * B + c] = gr[j];
	}
	lpp[c] = l;
	double dh = (-l + 0.5 * k1) - (-lp[c] + 0.5 * k0);
	int div = !(dh < 1000);
	double a = exp(-dh);
	if (a != a || div) a = 0;
	a = a < 1 ? a : 1;
	alpha[c] = a;
	divf[c] = div ? 1.0 : 0.0;
	if (warm) {
		q[c] = a;
		q[B + c] = 1 / (a > 1e-20 ? a : 1e-20);
		for (long long j = 0; j < GB_DIM; j++) {
			q[(2 + j) * B + c] = x[j * B + c];
			q[(2 + GB_DIM + j) * B + c] = a * xr[j];
		}
	}
}

/* The chain's part of ChEES's criterion gradient, alpha·(|xp−meanp|² −
 * |x−mean|²)·((xp−meanp)·invm·pp), into q. */
GB_EXTERN_C __global__ void gb_hmc_criterion(const double *x, const double *xp, const double *pp, const double *alpha,
                                             const double *mean, const double *meanp, const double *invm, double *q,
                                             long long B) {
	long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= B) return;
	double d0 = 0, d1 = 0, dot = 0;
	for (long long j = 0; j < GB_DIM; j++) {
		double u0 = x[j * B + c] - mean[j], u1 = xp[j * B + c] - meanp[j];
		d0 += u0 * u0;
		d1 += u1 * u1;
		dot += u1 * invm[j] * pp[j * B + c];
	}
	q[c] = alpha[c] * (d1 - d0) * dot;
}

/* Each chain moves to its proposal when u < alpha. With draws > 0 the
 * Welford moments take the state as draw number draws; chains below keep
 * record x, lp, alpha, divergence and energy (at the proposal when taken,
 * at the start otherwise) into kx [j·keep+c] and ks [f·keep+c], f = 0…3. */
GB_EXTERN_C __global__ void gb_hmc_accept(double *x, double *g, double *lp, const double *xp, const double *gp,
                                          const double *lpp, const double *alpha, const double *u, const double *divf,
                                          const double *p, const double *pp, const double *invm, double *mean,
                                          double *m2, long long draws, long long keep, double *kx, double *ks,
                                          long long B) {
	long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= B) return;
	int ok = !(u[c] >= alpha[c]);
	if (ok) {
		lp[c] = lpp[c];
		for (long long j = 0; j < GB_DIM; j++) {
			x[j * B + c] = xp[j * B + c];
			g[j * B + c] = gp[j * B + c];
		}
	}
	if (draws > 0) {
		double inv = 1 / (double)draws;
		for (long long j = 0; j < GB_DIM; j++) {
			double v = x[j * B + c], mj = mean[j * B + c];
			double dd = v - mj;
			mj += dd * inv;
			mean[j * B + c] = mj;
			m2[j * B + c] += dd * (v - mj);
		}
	}
	if (c < keep) {
		const double *pe = ok ? pp : p;
		double k = 0;
		for (long long j = 0; j < GB_DIM; j++) {
			kx[j * keep + c] = x[j * B + c];
			k += invm[j] * pe[j * B + c] * pe[j * B + c];
		}
		ks[c] = lp[c];
		ks[keep + c] = alpha[c];
		ks[2 * keep + c] = divf[c];
		ks[3 * keep + c] = -lp[c] + 0.5 * k;
	}
}

/* (x_j − mean_j)² of every chain into q, for the variance across chains. */
GB_EXTERN_C __global__ void gb_sq_dev(const double *x, const double *mean, double *q, long long B) {
	long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= B) return;
	for (long long j = 0; j < GB_DIM; j++) {
		double v = x[j * B + c] - mean[j];
		q[j * B + c] = v * v;
	}
}

/* The sums of runs of GB_SUM_CHUNK values of nq quantities of B values
 * each (quantity i at q[i·B…]): thread t sums run t mod nchunks of
 * quantity t / nchunks in order into out[t]. */
GB_EXTERN_C __global__ void gb_chunk_sums(const double *q, long long nq, long long B, double *out) {
	long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	long long nchunks = (B + GB_SUM_CHUNK - 1) / GB_SUM_CHUNK;
	if (t >= nq * nchunks) return;
	long long i = t / nchunks, k = t % nchunks;
	long long c0 = k * GB_SUM_CHUNK, c1 = c0 + GB_SUM_CHUNK < B ? c0 + GB_SUM_CHUNK : B;
	double s = 0;
	for (long long c = c0; c < c1; c++) s += q[i * B + c];
	out[t] = s;
}

/* One step of the initial phase (ppl/lockstep's ghmcStep with a step size
 * per chain and no fold held): partial momentum refresh p = damp·p +
 * refresh·z, one leapfrog step of size epsc·sigma, accept with the
 * chain's uniform or flip p; then the chain's step size moves by
 * Robbins–Monro towards acceptance target: epsc·exp(gain·(alpha −
 * target)), kept in [1e-12, 10]. */
GB_EXTERN_C __global__ void gb_ghmc_initial(double *x, double *g, double *lp, double *p, double *epsc, const double *sigma,
                                            double damp, double refresh, double gain, double target, long long seed,
                                            long long s, const unsigned int *ZK, const double *ZF, double *work,
                                            const double *K, long long B) {
	long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= B) return;
	GB_HMC_FRAME(V);
	double *A = V + GB_FRAME;
	unsigned int key[2] = {(unsigned int)seed, (unsigned int)((unsigned long long)seed >> 32)};
	gb_stream st;
	gb_stream_at(&st, key, (unsigned long long)c, (unsigned long long)s, 0u);
	for (long long j = 0; j < GB_DIM; j++) p[j * B + c] = damp * p[j * B + c] + refresh * gb_normal_from(gb_uint32(&st), &st, ZK, ZF);
	double u = gb_uniform(&st);
	double h = epsc[c];
	double xr[GB_DIM], gr[GB_DIM], pr[GB_DIM];
	for (long long j = 0; j < GB_DIM; j++) {
		pr[j] = p[j * B + c] + 0.5 * h * sigma[j] * g[j * B + c];
		xr[j] = x[j * B + c] + h * sigma[j] * pr[j];
	}
	double l = gb_density(xr, V, A, K, gr);
	for (long long j = 0; j < GB_DIM; j++) pr[j] += 0.5 * h * sigma[j] * gr[j];
	double k0 = 0, k1 = 0;
	for (long long j = 0; j < GB_DIM; j++) {
		k0 += p[j * B + c] * p[j * B + c];
		k1 += pr[j] * pr[j];
	}
	double h0 = -lp[c] + 0.5 * k0, h1 = -l + 0.5 * k1;
	double dh = h1 - h0;
	int div = !(dh < 1000);
	double e = exp(-dh);
	double al = e != e || div ? 0 : (e < 1 ? e : 1);
	if (u < al) {
		lp[c] = l;
		for (long long j = 0; j < GB_DIM; j++) {
			x[j * B + c] = xr[j];
			g[j * B + c] = gr[j];
			p[j * B + c] = pr[j];
		}
	} else {
		for (long long j = 0; j < GB_DIM; j++) p[j * B + c] = -p[j * B + c];
	}
	double v = h * exp(gain * (al - target));
	v = v > 1e-12 ? v : 1e-12;
	epsc[c] = v < 10 ? v : 10;
}
