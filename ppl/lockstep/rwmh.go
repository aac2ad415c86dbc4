package lockstep

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/gobayes/gobayes/accel/philox"
	"github.com/gobayes/gobayes/ppl/adapt"
	"github.com/gobayes/gobayes/ppl/mcmc"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// runRWMH is random-walk Metropolis with a normal proposal of standard
// deviation scale_j per coordinate, for any number of chains. Without
// Config.Scale, warm-up adapts scale_j = λ·sd_j on Stan's schedule
// (adapt.Windows): λ by the mean acceptance across chains against the
// target after every segment of steps, and sd_j at the end of each slow
// window, from that window's draws pooled over every chain (per-chain
// Welford moments, merged), λ rescaled so that the proposal keeps its
// geometric-mean scale (λ starts at 2.38/√dim, the optimum for a Gaussian
// whose scales sd matches). Pooled draws give a sound estimate at any
// chain count, where the spread across chains at one step needs many
// chains. Restarting stragglers at mid warm-up restarts the window too. With Config.Dense the proposal is λ·L·z
// instead, L·Lᵀ the windows' pooled covariance (per-chain co-moments,
// merged). Blocks run whole segments of steps between
// synchronisations, so a block's state stays in cache. Returns the draws
// made.
//
// The fallback streams of a step: block 1 onwards for the normal of a
// one-dimensional chain, block expFallback onwards for its exponential.
func runRWMH(e *ensemble, ctl *control) (int, error) {
	cfg, d := e.cfg, e.dim
	if err := e.initialise(false); err != nil {
		return 0, err
	}
	scale, sd := make([]float64, d), make([]float64, d)
	mean, variance := make([]float64, d), make([]float64, d)
	lambda := 2.38 / math.Sqrt(float64(d))
	for j := range scale {
		scale[j], sd[j] = lambda, 1
		if cfg.Scale > 0 {
			scale[j] = cfg.Scale
		}
	}
	var windows [][2]int
	if cfg.Scale <= 0 {
		windows = adapt.StanWindows(cfg.Warmup).Slow()
	}
	// With Config.Dense the proposal is λ·L·z, L·Lᵀ the windows' pooled
	// covariance, from per-chain co-moments (d² values per chain).
	var cov, chol []float64
	full := cfg.Dense && d > 1 && windows != nil
	if full {
		if cfg.Chains*d*d > maxCoMoments {
			return 0, fmt.Errorf("lockstep: a dense RWMH proposal keeps %d×%d co-moments per chain, %d values for %d chains: run fewer chains, or a diagonal proposal (without ppl.DenseMetric)", d, d, cfg.Chains*d*d, cfg.Chains)
		}
		cov = make([]float64, d*d)
		for _, b := range e.blocks {
			b.cm = make([]float64, d*d*b.n)
		}
	}
	ctl.eps.Store(math.Float64bits(scale[0]))
	total := cfg.Warmup + cfg.Draws
	made := 0
	key := philox.Key(cfg.Seed)
	if d == 1 {
		for _, b := range e.blocks {
			b.w2, b.w3 = make([]uint32, b.n), make([]uint32, b.n)
		}
	}
	var accepted atomic.Int64
	restarted := cfg.Warmup == 0
	// With a backend that walks (a GPU), each segment is one call there.
	dev := newWalkDevice(e, full)
	for s0 := 0; s0 < total && !ctl.stopped(); {
		end, seg := total, 100
		// The chains' Welford moments count the draws from first: those
		// of the slow window win in warm-up, every draw when sampling.
		win, first := -1, cfg.Warmup
		if s0 < cfg.Warmup {
			end, seg = cfg.Warmup, 20
			// A segment lies in a window or outside all of them.
			for k, w := range windows {
				if s0 < w[0] {
					end = w[0]
					break
				}
				if s0 < w[1] {
					end, win, first = w[1], k, w[0]
					break
				}
			}
		}
		s1 := min(s0+seg, end)
		moments := win >= 0 || s0 >= cfg.Warmup
		accepted.Store(0)
		var err error
		if dev != nil {
			f := -1
			if moments {
				f = first
			}
			var n int64
			n, err = dev.segment(e, s0, s1, f, scale)
			accepted.Store(n)
		} else {
			err = e.parallel(func(w *worker, b *block) {
				bt := w.batch(e, b.n)
				x, n := bt.X(), b.n
				acc := 0
				// A one-dimensional mixture (vec's density form) is accepted
				// in density space, u·s < s', with no logarithm at all; b.dens
				// holds s at each chain's position, b.lp is brought up to date
				// for the kept chains at each draw and for all at the end.
				dense := d == 1 && bt.DensityForm()
				floor := bt.DensityFloor()
				if dense {
					if len(b.dens) != n {
						b.dens = make([]float64, n)
					}
					copy(x[:n], b.x[:n])
					bt.ForwardDensity(b.dens)
				}
				for s := s0; s < s1; s++ {
					if d == 1 {
						// One block of four words serves two steps of a
						// chain: the normal and the uniform of step 2k from
						// words 0 and 1, of step 2k+1 from words 2 and 3.
						wz, wu := b.w2, b.w3
						if s&1 == 0 {
							wz, wu = w.w0[:n], w.w1[:n]
							philox.Blocks(key, uint32(s>>1), uint64(b.first), wz, wu, b.w2, b.w3)
						}
						xs, bx, lps, us := x[:n], b.x[:n], b.lp[:n], b.u[:n]
						wz, wu = wz[:n], wu[:n]
						for c := range xs {
							z, ok := philox.Ziggurat(wz[c])
							if !ok {
								st := philox.NewAt(cfg.Seed, uint64(b.first+c), uint64(s), 1)
								z = philox.NormalFrom(wz[c], &st)
							}
							xs[c] = bx[c] + scale[0]*z
							if dense {
								us[c] = philox.Float32Bits(wu[c])
								continue
							}
							ex, ok := philox.ExpZiggurat(wu[c])
							if !ok {
								st := philox.NewAt(cfg.Seed, uint64(b.first+c), uint64(s), expFallback)
								ex = philox.ExponentialFrom(wu[c], &st)
							}
							us[c] = lps[c] - ex
						}
					} else {
						for c := 0; c < n; c++ {
							st := philox.New(cfg.Seed, uint64(b.first+c), uint64(s))
							if chol == nil {
								for j := 0; j < d; j++ {
									x[j*n+c] = b.x[j*n+c] + scale[j]*st.Normal()
								}
							} else {
								z := w.z
								for j := range z {
									z[j] = st.Normal()
								}
								for j := 0; j < d; j++ {
									dx := 0.0
									for k, l := range chol[j*d : j*d+j+1] {
										dx += l * z[k]
									}
									x[j*n+c] = b.x[j*n+c] + lambda*dx
								}
							}
							b.u[c] = b.lp[c] - st.Exponential()
						}
					}
					// b.u holds each chain's threshold lp − E, E a standard
					// exponential: the proposal is accepted when its log
					// density exceeds it, which is u < exp(Δ) for u = exp(−E)
					// without an exponential or a logarithm. A proposal at
					// −Inf or NaN (Forward gives −Inf) never passes; a chain
					// at −Inf moves to any finite proposal.
					sp := w.buf[:n]
					if dense {
						bt.ForwardDensity(sp)
					} else {
						bt.Forward()
					}
					if d == 1 {
						// Accept and, when they count, update the moments in one
						// pass.
						sampling, welford := s >= cfg.Warmup, moments
						inv := 1 / float64(s-first+1)
						xs, bx, lps, us, lpn := x[:n], b.x[:n], b.lp[:n], b.u[:n], bt.LPs()[:n]
						mean, m2, dens := b.mean[:n], b.m2[:n], b.dens[:len(b.dens)]
						for c := range bx {
							var ok bool
							if !dense {
								ok = lpn[c] > us[c]
							} else if sc, sn := dens[c], sp[c]; sc >= floor && sn >= floor {
								ok = sn > us[c]*sc
							} else {
								// A sum that lost its digits (far in the tails):
								// the test on the log densities.
								ok = bt.LogFromDensity(sn, xs[c])-bt.LogFromDensity(sc, bx[c]) > math.Log(us[c])
							}
							if ok {
								us[c] = 1
								acc++
								bx[c] = xs[c]
								if dense {
									dens[c] = sp[c]
								} else {
									lps[c] = lpn[c]
								}
							} else {
								us[c] = 0
							}
							if welford {
								xv, mc := bx[c], mean[c]
								dd := xv - mc
								mc += dd * inv
								mean[c] = mc
								m2[c] += dd * (xv - mc)
							}
						}
						if sampling {
							i := s - cfg.Warmup
							for c := 0; dense && c < n && b.first+c < len(e.kept); c++ {
								lps[c] = bt.LogFromDensity(dens[c], bx[c])
							}
							e.recordKept(w, b, i, func(c int, st *posterior.Stats) {
								st.AcceptStat[i], st.StepSize[i] = b.u[c], scale[0]
							})
						}
						continue
					}
					for c, lp := range bt.LPs()[:n] {
						ok := lp > b.u[c]
						b.u[c] = 0
						if ok {
							b.u[c] = 1
							acc++
							b.lp[c] = lp
							for j := 0; j < d; j++ {
								b.x[j*n+c] = x[j*n+c]
							}
						}
					}
					switch {
					case moments && full && win >= 0:
						accumulateCov(b, s-first+1, w.z)
					case moments:
						accumulate(b, s-first+1)
					}
					if s >= cfg.Warmup {
						i := s - cfg.Warmup
						e.recordKept(w, b, i, func(c int, st *posterior.Stats) {
							st.AcceptStat[i], st.StepSize[i] = b.u[c], scale[0]
						})
					}
				}
				for c := 0; dense && c < n; c++ {
					b.lp[c] = bt.LogFromDensity(b.dens[c], b.x[c])
				}
				accepted.Add(int64(acc))
			})
		}
		if err != nil {
			return 0, err
		}
		if s1 > cfg.Warmup {
			made = s1 - cfg.Warmup
			e.draws = made
		}
		if !restarted && s1 >= cfg.Warmup/2 && s1 <= cfg.Warmup {
			// Chains stuck in a minor mode would stay there (see
			// restartStragglers). The window's draws so far hold their
			// positions: it starts again here.
			if dev != nil {
				if err := dev.sync(e); err != nil {
					return 0, err
				}
			}
			moved := e.restartStragglers()
			if moved > 0 && dev != nil {
				dev.load = true
			}
			if moved > 0 && win >= 0 && s1 < windows[win][1] {
				e.clearMoments()
				windows[win][0] = s1
				if dev != nil {
					dev.clear = true
				}
			}
			restarted = true
		}
		if s1 <= cfg.Warmup && cfg.Scale <= 0 {
			if win >= 0 && s1 == windows[win][1] {
				before := geoScale(sd, chol, d)
				n := s1 - windows[win][0]
				if full {
					e.poolCov(n, mean, cov)
					adapt.RegulariseCov(cov, d, n*cfg.Chains)
					for j := range variance {
						variance[j] = cov[j*d+j]
					}
					// A factorisation that fails (rounding, a non-finite
					// estimate) leaves the diagonal proposal.
					chol, _ = mcmc.Cholesky(cov, d)
				} else {
					if dev != nil {
						if err := dev.sync(e); err != nil {
							return 0, err
						}
					}
					e.pool(n, mean, variance)
					adapt.RegulariseVar(variance, n*cfg.Chains)
				}
				for j, v := range variance {
					if v > 0 && !math.IsInf(v, 0) {
						sd[j] = math.Sqrt(v)
					}
				}
				e.clearMoments()
				if dev != nil {
					dev.clear = true
				}
				// The proposal keeps its volume, λ times the geometric
				// mean of its scales, and changes its shape: the
				// acceptance stays near the target, which the few
				// segments of the terminal buffer could not restore.
				lambda *= before / geoScale(sd, chol, d)
			} else {
				rate := float64(accepted.Load()) / float64(cfg.Chains*(s1-s0))
				lambda *= math.Exp(2 * (rate - cfg.TargetAccept))
			}
			for j := range scale {
				scale[j] = lambda * sd[j]
			}
			ctl.eps.Store(math.Float64bits(scale[0]))
		}
		ctl.gradEvals += s1 - s0
		ctl.iter.Store(int64(s1))
		s0 = s1
	}
	if dev != nil {
		// The moments and the chains' last state, for the result.
		if err := dev.sync(e); err != nil {
			return 0, err
		}
	}
	ctl.adaptations = make([]posterior.Adaptation, cfg.Keep)
	for k := range ctl.adaptations {
		a := posterior.Adaptation{StepSize: scale[0], InvMetric: squares(scale)}
		if chol != nil {
			// The proposal's covariance, λ²·L·Lᵀ.
			a.Dense, a.InvMetric = true, make([]float64, d*d)
			for i, v := range cov {
				a.InvMetric[i] = lambda * lambda * v
			}
		}
		ctl.adaptations[k] = a
	}
	return made, nil
}

// geoScale is the geometric mean of a proposal's scales per coordinate
// before λ: of sd, or of the diagonal of the Cholesky factor chol (a dense
// proposal's volume).
func geoScale(sd, chol []float64, d int) float64 {
	s := 0.0
	for j := 0; j < d; j++ {
		v := sd[j]
		if chol != nil {
			v = chol[j*d+j]
		}
		s += math.Log(v)
	}
	return math.Exp(s / float64(d))
}

// maxCoMoments bounds the per-chain co-moments of a dense RWMH proposal
// (8 bytes each: 256 MiB).
const maxCoMoments = 1 << 25

// expFallback is the first block of the stream that finishes an
// exponential the ziggurat rejected, far from the normal's blocks.
const expFallback = 1 << 31

func squares(s []float64) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = v * v
	}
	return out
}
