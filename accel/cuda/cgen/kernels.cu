
/* Kernels: one thread per chain. work holds 2·GB_FRAME slots per chain
 * (values, adjoints); K is the program's data, shared by every chain.
 * Scalars are long long or double: cu passes every kernel parameter as
 * 8 bytes. */

/* Log density (and gradient unless wantGrad is 0) of B positions xs
 * [B×GB_DIM] into lps [B] and grads [B×GB_DIM]. */
GB_EXTERN_C __global__ void gb_logdensity(const double *xs, double *lps, double *grads, double *work, const double *K,
                              long long B, long long wantGrad) {
	long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (b >= B) return;
	double *V = work + b * 2 * GB_FRAME, *A = V + GB_FRAME;
	lps[b] = gb_density(xs + b * GB_DIM, V, A, K, wantGrad ? grads + b * GB_DIM : 0);
}

/* n leapfrog steps of every chain, fused (accel.Trajectories): q, p, g
 * [B×GB_DIM] and lp [B] in place, step sizes eps [B], inverse metric
 * invm [GB_DIM] or, with perChain, [B×GB_DIM]; steps [B] out. */
GB_EXTERN_C __global__ void gb_leapfrog(double *q, double *p, double *g, double *lp, const double *eps, const double *invm,
                            long long perChain, long long n, long long *steps, double *work, const double *K,
                            long long B) {
	long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (b >= B) return;
	double *V = work + b * 2 * GB_FRAME, *A = V + GB_FRAME;
	double *qb = q + b * GB_DIM, *pb = p + b * GB_DIM, *gb = g + b * GB_DIM;
	const double *m = invm + (perChain ? b * GB_DIM : 0);
	double e = eps[b], h = e / 2;
	steps[b] = n;
	for (long long s = 0; s < n; s++) {
		for (long long i = 0; i < GB_DIM; i++) pb[i] += h * gb[i];
		for (long long i = 0; i < GB_DIM; i++) qb[i] += e * m[i] * pb[i];
		lp[b] = gb_density(qb, V, A, K, gb);
		if (lp[b] == -GB_INF) {
			steps[b] = s + 1;
			return;
		}
		for (long long i = 0; i < GB_DIM; i++) pb[i] += h * gb[i];
	}
}

/* The data-parallel form for large data: one block per chain, its lanes
 * (threads, at most GB_MAX_LANES) splitting the elementwise work and the
 * sums of the log density and gradient of B positions. */
#define GB_MAX_LANES 1024
GB_EXTERN_C __global__ void gb_logdensity_block(const double *xs, double *lps, double *grads, double *work,
                                                const double *K, long long B, long long wantGrad) {
	__shared__ double red[GB_MAX_LANES];
	long long b = (long long)blockIdx.x, lane = (long long)threadIdx.x, lanes = (long long)blockDim.x;
	if (b >= B) return;
	double *V = work + b * 2 * GB_FRAME, *A = V + GB_FRAME;
	double lp = gb_density_block(xs + b * GB_DIM, V, A, K, wantGrad ? grads + b * GB_DIM : 0, lane, lanes, red);
	if (lane == 0) lps[b] = lp;
}

/* gb_leapfrog for large data: one block per chain, the lanes splitting
 * each gradient (gb_density_block) and the position and momentum
 * updates. Same parameters as gb_leapfrog. */
GB_EXTERN_C __global__ void gb_leapfrog_block(double *q, double *p, double *g, double *lp, const double *eps,
                                              const double *invm, long long perChain, long long n, long long *steps,
                                              double *work, const double *K, long long B) {
	__shared__ double red[GB_MAX_LANES];
	long long b = (long long)blockIdx.x, lane = (long long)threadIdx.x, lanes = (long long)blockDim.x;
	if (b >= B) return;
	double *V = work + b * 2 * GB_FRAME, *A = V + GB_FRAME;
	double *qb = q + b * GB_DIM, *pb = p + b * GB_DIM, *gb = g + b * GB_DIM;
	const double *m = invm + (perChain ? b * GB_DIM : 0);
	double e = eps[b], h = e / 2;
	long long done = n;
	for (long long s = 0; s < n; s++) {
		for (long long i = lane; i < GB_DIM; i += lanes) {
			pb[i] += h * gb[i];
			qb[i] += e * m[i] * pb[i];
		}
		GB_SYNC();
		double l = gb_density_block(qb, V, A, K, gb, lane, lanes, red);
		GB_SYNC();
		if (l == -GB_INF) {
			done = s + 1;
			if (lane == 0) lp[b] = l;
			break;
		}
		for (long long i = lane; i < GB_DIM; i += lanes) pb[i] += h * gb[i];
		if (lane == 0) lp[b] = l;
	}
	if (lane == 0) steps[b] = done;
}
