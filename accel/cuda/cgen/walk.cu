
/* Random-walk Metropolis on the device (accel.Walk): the streams of
 * accel/philox, word for word, so that a seed gives the CPU's
 * draws. Philox4x32-10 (Salmon et al. 2011) over the counter (block,
 * step, chain low, chain high) under the key (seed low, seed high); the
 * ziggurats' tables come from philox.Tables (GB_ZK: the normal's then
 * the exponential's thresholds; GB_ZF: the normal's scales and edge
 * densities, then the exponential's). Each routine follows the Go of the
 * same name in accel/philox. */

typedef struct {
	unsigned int key[2], ctr[4], buf[4];
	int next;
} gb_stream;

__device__ static void gb_philox(const unsigned int *ctr, const unsigned int *key, unsigned int *out) {
	unsigned int c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3], k0 = key[0], k1 = key[1];
	for (int r = 0; r < 10; r++) {
		if (r > 0) {
			k0 += 0x9E3779B9u;
			k1 += 0xBB67AE85u;
		}
		unsigned long long p0 = (unsigned long long)0xD2511F53u * c0, p1 = (unsigned long long)0xCD9E8D57u * c2;
		unsigned int hi0 = (unsigned int)(p0 >> 32), lo0 = (unsigned int)p0;
		unsigned int hi1 = (unsigned int)(p1 >> 32), lo1 = (unsigned int)p1;
		c0 = hi1 ^ c1 ^ k0;
		c1 = lo1;
		c2 = hi0 ^ c3 ^ k1;
		c3 = lo0;
	}
	out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;
}

/* The stream of (key, chain, step) from block i (philox.NewAt). */
__device__ static void gb_stream_at(gb_stream *s, const unsigned int *key, unsigned long long chain, unsigned long long step,
                                    unsigned int i) {
	s->key[0] = key[0]; s->key[1] = key[1];
	s->ctr[0] = i; s->ctr[1] = (unsigned int)step; s->ctr[2] = (unsigned int)chain; s->ctr[3] = (unsigned int)(chain >> 32);
	s->next = 4;
}

__device__ static unsigned int gb_uint32(gb_stream *s) {
	if (s->next == 4) {
		gb_philox(s->ctr, s->key, s->buf);
		s->ctr[0]++;
		s->next = 0;
	}
	return s->buf[s->next++];
}

__device__ static double gb_uniform(gb_stream *s) {
	unsigned long long hi = gb_uint32(s);
	unsigned long long u = hi << 32 | gb_uint32(s);
	return ((double)(u >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

#define GB_ZIG_R 3.6541528853610088
#define GB_EXP_R 7.69711747013104972

__device__ static unsigned int gb_abs32(unsigned int w) {
	unsigned int m = (w >> 31) ? 0xFFFFFFFFu : 0u;
	return (w ^ m) - m;
}

/* philox.NormalFrom: the normal of word w, the stream only when the
 * ziggurat rejects it. */
__device__ static double gb_normal_from(unsigned int w, gb_stream *s, const unsigned int *ZK, const double *ZF) {
	const double *zw = ZF, *zf = ZF + 256;
	for (int first = 1;; first = 0) {
		if (!first) w = gb_uint32(s);
		int j = (int)w;
		unsigned int i = w & 255u;
		double x = (double)j * zw[i];
		if (gb_abs32(w) < ZK[i]) return x;
		if (i == 0) {
			for (;;) {
				x = -log(gb_uniform(s)) / GB_ZIG_R;
				double y = -log(gb_uniform(s));
				if (y + y >= x * x) break;
			}
			return j > 0 ? GB_ZIG_R + x : -GB_ZIG_R - x;
		}
		if (zf[i] + gb_uniform(s) * (zf[i - 1] - zf[i]) < exp(-0.5 * x * x)) return x;
	}
}

/* philox.ExponentialFrom. */
__device__ static double gb_exponential_from(unsigned int w, gb_stream *s, const unsigned int *ZK, const double *ZF) {
	const unsigned int *ek = ZK + 256;
	const double *ew = ZF + 512, *ef = ZF + 768;
	for (int first = 1;; first = 0) {
		if (!first) w = gb_uint32(s);
		unsigned int i = w & 255u;
		double x = (double)w * ew[i];
		if (w < ek[i]) return x;
		if (i == 0) return GB_EXP_R - log(gb_uniform(s));
		if (ef[i] + gb_uniform(s) * (ef[i - 1] - ef[i]) < exp(-x)) return x;
	}
}

/* gb_rwmh runs n steps of random-walk Metropolis from step s0, one thread
 * per chain (see accel.Walk and ppl/lockstep's runRWMH, whose steps these
 * are). State struct-of-arrays: x, mean, m2 [GB_DIM×B], lp [B]. With
 * first ≥ 0 the Welford moments take each step's state as draw
 * s−first+1. Chains below keep record their state after each step into
 * kx [(t·GB_DIM+j)·keep+c], klp and kacc [t·keep+c]. acc gains the
 * accepted proposals. The position being proposed lives in the thread's
 * own memory; so does the frame when it is small. */
#define GB_WALK_LOCAL_FRAME 512
/* A chain's position and moments stay in the thread's own memory for the
 * launch when the dimension is at most GB_WALK_LOCAL_DIM (one read and
 * one write of each per launch); beyond, they are read and written in
 * place. */
#define GB_WALK_LOCAL_DIM 64
#if GB_DIM <= GB_WALK_LOCAL_DIM
#define GB_WX(j) xc[j]
#define GB_WMEAN(j) mc[j]
#define GB_WM2(j) m2c[j]
#else
#define GB_WX(j) x[(j) * B + c]
#define GB_WMEAN(j) mean[(j) * B + c]
#define GB_WM2(j) m2[(j) * B + c]
#endif
GB_EXTERN_C __global__ void gb_rwmh(double *x, double *lp, double *mean, double *m2, const double *scale,
                                    const unsigned int *ZK, const double *ZF, long long seed, long long s0, long long n,
                                    long long first, long long keep, double *kx, double *klp, double *kacc,
                                    unsigned long long *acc, double *work, const double *K, long long B) {
	long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	long long accepted = 0;
	if (c < B) {
		unsigned int key[2] = {(unsigned int)seed, (unsigned int)((unsigned long long)seed >> 32)};
		double xp[GB_DIM];
#if GB_FRAME <= GB_WALK_LOCAL_FRAME
		double Vl[GB_FRAME];
		double *V = Vl;
#else
		double *V = work + c * GB_FRAME;
#endif
#if GB_DIM <= GB_WALK_LOCAL_DIM
		double xc[GB_DIM], mc[GB_DIM], m2c[GB_DIM];
		for (long long j = 0; j < GB_DIM; j++) {
			xc[j] = x[j * B + c];
			if (first >= 0) {
				mc[j] = mean[j * B + c];
				m2c[j] = m2[j * B + c];
			}
		}
#endif
		double l = lp[c];
		for (long long t = 0; t < n; t++) {
			long long s = s0 + t;
			double thr;
			if (GB_DIM == 1) {
				/* One block for two steps: words 0 and 1 for step 2k,
				 * 2 and 3 for step 2k+1 (philox.Blocks). */
				unsigned int ctr[4] = {0u, (unsigned int)(s >> 1), (unsigned int)c, (unsigned int)((unsigned long long)c >> 32)};
				unsigned int w[4];
				gb_philox(ctr, key, w);
				unsigned int wz = w[(s & 1) * 2], wu = w[(s & 1) * 2 + 1];
				gb_stream st;
				gb_stream_at(&st, key, (unsigned long long)c, (unsigned long long)s, 1u);
				xp[0] = GB_WX(0) + scale[0] * gb_normal_from(wz, &st, ZK, ZF);
				gb_stream_at(&st, key, (unsigned long long)c, (unsigned long long)s, 0x80000000u);
				thr = l - gb_exponential_from(wu, &st, ZK, ZF);
			} else {
				gb_stream st;
				gb_stream_at(&st, key, (unsigned long long)c, (unsigned long long)s, 0u);
				for (long long j = 0; j < GB_DIM; j++)
					xp[j] = GB_WX(j) + scale[j] * gb_normal_from(gb_uint32(&st), &st, ZK, ZF);
				thr = l - gb_exponential_from(gb_uint32(&st), &st, ZK, ZF);
			}
			double lq = gb_density(xp, V, V, K, 0);
			int ok = lq > thr;
			if (ok) {
				accepted++;
				l = lq;
				for (long long j = 0; j < GB_DIM; j++) GB_WX(j) = xp[j];
			}
			if (first >= 0) {
				double inv = 1 / (double)(s - first + 1);
				for (long long j = 0; j < GB_DIM; j++) {
					double v = GB_WX(j), mj = GB_WMEAN(j);
					double dd = v - mj;
					mj += dd * inv;
					GB_WMEAN(j) = mj;
					GB_WM2(j) += dd * (v - mj);
				}
			}
			if (c < keep) {
				for (long long j = 0; j < GB_DIM; j++) kx[(t * GB_DIM + j) * keep + c] = GB_WX(j);
				klp[t * keep + c] = l;
				kacc[t * keep + c] = ok ? 1.0 : 0.0;
			}
		}
		lp[c] = l;
#if GB_DIM <= GB_WALK_LOCAL_DIM
		for (long long j = 0; j < GB_DIM; j++) {
			x[j * B + c] = xc[j];
			if (first >= 0) {
				mean[j * B + c] = mc[j];
				m2[j * B + c] = m2c[j];
			}
		}
#endif
	}
	GB_ATOMIC_SUM(acc, accepted);
}
