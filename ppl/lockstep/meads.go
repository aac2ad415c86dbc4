package lockstep

import (
	"math"
	"sort"

	"github.com/gobayes/gobayes/accel/philox"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// runMEADS is MEADS (Hoffman and Sountsov 2022, "Tuning-free generalized
// Hamiltonian Monte Carlo", AISTATS): generalised HMC, one leapfrog step
// per iteration with partial momentum refreshment, chains split in folds.
// At iteration s fold s mod K stands still and its chains set the others'
// parameters, so each moving chain's kernel depends only on chains that do
// not move with it: the diagonal preconditioner σ is the held fold's
// spread, the step size 0.5/√λ with λ the largest-eigenvalue estimate
// tr(C²)/tr(C) of the covariance C of the held fold's preconditioned
// gradients, and the damping γ = max(ε/√λₓ, 1/(s+1)) with λₓ the same
// estimate for its standardised positions. Momentum is kept in whitened
// coordinates and flipped on rejection; the accept test uses the paper's
// persistent slice variable, advanced by (1 − e^(−2γ))/2 per iteration
// (see sliceAccept). The paper takes each fold's parameters from the fold
// before it and reshuffles the folds; taking every moving fold's from the
// held one is the same construction (a moving chain's kernel depends only
// on chains that do not move with it), and the held fold changes every
// iteration.
//
// Initialisation: the step size is set by the held fold's most curved
// chain, so from the default start (uniform(-2, 2) on the unconstrained
// scale) a model whose gradients there span orders of magnitude across
// chains (a scale parameter started at e^-2 against hundreds of
// observations: kidiq, arK) would get a step size near 1e-8 and the chains
// would not leave their starts. An initial phase with a step size per
// chain (see initialSteps) brings them to the typical set first, as the
// paper's few steps of a robust method before MEADS proper.
func runMEADS(e *ensemble, ctl *control) (int, error) {
	cfg, d := e.cfg, e.dim
	if err := e.initialise(true); err != nil {
		return 0, err
	}
	k := cfg.Folds
	sigma, mean := make([]float64, d), make([]float64, d)
	var eps float64
	var ga, ya []float64 // the held fold's rows: preconditioned gradients, standardised positions
	total := cfg.Warmup + cfg.Draws*cfg.Thin
	made := 0
	// The initial phase: the first quarter of warm-up moves every chain
	// with its own step size (see initialSteps).
	initial := initialSteps(cfg.Warmup)
	epsC := make([]float64, cfg.Chains)
	for c := range epsC {
		epsC[c] = initialStepSize
	}
	// The persistent slice variables of MEADS proper (see ghmcStep), each
	// chain's uniform on [-1, 1) from its stream at step sliceStep.
	slice := make([]float64, cfg.Chains)
	for c := range slice {
		st := philox.New(cfg.Seed, uint64(c), sliceStep)
		slice[c] = 2*st.Uniform() - 1
	}
	for s := 0; s < total && !ctl.stopped(); s++ {
		held := s % k
		if s < initial {
			held = -1
		}
		// The held fold's statistics, in chain order.
		clear(mean)
		nh := 0
		for _, b := range e.blocks {
			for c := 0; c < b.n; c++ {
				if (b.first+c)%k != held {
					continue
				}
				nh++
				for j := 0; j < d; j++ {
					mean[j] += b.x[j*b.n+c]
				}
			}
		}
		for j := range mean {
			mean[j] /= float64(nh)
		}
		clear(sigma)
		for _, b := range e.blocks {
			for c := 0; c < b.n; c++ {
				if (b.first+c)%k != held {
					continue
				}
				for j := 0; j < d; j++ {
					u := b.x[j*b.n+c] - mean[j]
					sigma[j] += u * u
				}
			}
		}
		for j := range sigma {
			sigma[j] = math.Sqrt(sigma[j] / float64(max(1, nh-1)))
			if !(sigma[j] > 1e-10) || math.IsInf(sigma[j], 0) {
				sigma[j] = 1
			}
		}
		ga, ya = ga[:0], ya[:0]
		for _, b := range e.blocks {
			for c := 0; c < b.n; c++ {
				if (b.first+c)%k != held {
					continue
				}
				for j := 0; j < d; j++ {
					ga = append(ga, sigma[j]*b.g[j*b.n+c])
					ya = append(ya, (b.x[j*b.n+c]-mean[j])/sigma[j])
				}
			}
		}
		// Centre the gradients: at stationarity their mean is zero anyway,
		// and far from it the common pull towards the mode says nothing
		// about the curvature (uncentred, it shrinks the step size to
		// nothing when chains start far out).
		centre(ga, nh, d)
		eps = 0.5 / math.Sqrt(largestEigen(ga, nh, d))
		if math.IsNaN(eps) || math.IsInf(eps, 0) || eps == 0 {
			eps = 0.1
		}
		gamma := math.Max(eps/math.Sqrt(largestEigen(ya, nh, d)), 1/float64(s+1))
		if math.IsNaN(gamma) {
			gamma = 1
		}
		if held < 0 {
			gamma = initialDamping
		}
		a := math.Exp(-gamma)
		refresh := math.Sqrt(1 - a*a)
		warm := s < cfg.Warmup
		// Only every Thin-th iteration after warm-up is a draw.
		keep := !warm && (s-cfg.Warmup+1)%cfg.Thin == 0
		i := (s-cfg.Warmup+1)/cfg.Thin - 1
		err := e.parallel(func(w *worker, b *block) {
			if held < 0 {
				e.ghmcStep(w, b, s, held, eps, a, refresh, sigma, epsC[b.first:b.first+b.n], nil, 0)
				for c := 0; c < b.n; c++ {
					// Robbins–Monro on the log step size towards the
					// acceptance initialTarget, per chain.
					v := epsC[b.first+c] * math.Exp(initialGain*(b.alpha[c]-initialTarget))
					epsC[b.first+c] = math.Min(math.Max(v, 1e-12), 10)
				}
				return
			}
			e.ghmcStep(w, b, s, held, eps, a, refresh, sigma, nil, slice[b.first:b.first+b.n], (1-a*a)/2)
			if !keep {
				return
			}
			e.record(w, b, i, i+1, func(c int, st *posterior.Stats) {
				st.AcceptStat[i], st.StepSize[i], st.NLeapfrog[i], st.Divergent[i] = b.alpha[c], eps, 1, b.div[c]
				st.Energy[i] = b.lpp[c]
			})
		})
		if err != nil {
			return 0, err
		}
		ctl.gradEvals++
		if s == initial-1 || (s == cfg.Warmup/2 && s > initial) {
			e.restartStragglers()
		}
		if keep {
			made = i + 1
			e.draws = made
			div := 0
			for i := range e.kept {
				if e.kept[i].Stats.Divergent[made-1] {
					div++
				}
			}
			ctl.div.Add(int64(div))
		}
		ctl.eps.Store(math.Float64bits(eps))
		ctl.iter.Store(int64(s + 1))
	}
	ctl.adaptations = make([]posterior.Adaptation, cfg.Keep)
	for i := range ctl.adaptations {
		ctl.adaptations[i] = posterior.Adaptation{StepSize: eps, InvMetric: squares(sigma)}
	}
	return made, nil
}

// The initial phase of MEADS. From the default start the held fold's
// curvature estimate is set by its most curved chain and can be orders of
// magnitude too small for the others (a scale parameter started at e^-2
// against hundreds of observations), so the chains would not move. For
// the first quarter of warm-up (at most maxInitialSteps) every chain
// therefore moves by generalised HMC with its own step size, adapted by
// Robbins–Monro on the log step size towards acceptance initialTarget,
// with fixed damping initialDamping so that chains falling towards the
// typical set lose the energy they gain; no fold is held. Warm-up draws
// are discarded, so the dependence of a chain's kernel on its own past
// does no harm; MEADS proper, with its fold-held parameters, follows.
// Chains still far below the others' log density at the end of the phase
// and at mid warm-up are restarted (restartStragglers).
const (
	maxInitialSteps = 250
	initialStepSize = 0.1
	initialTarget   = 0.8
	initialGain     = 0.5
	initialDamping  = 0.1
)

// sliceStep is the step of a chain's stream from which MEADS draws the
// start of its persistent slice variable (initStep is the one before).
const sliceStep = initStep - 1

// initialSteps is the length of MEADS's initial phase for a warm-up of
// the given length.
func initialSteps(warmup int) int { return min(warmup/4, maxInitialSteps) }

// ghmcStep is one generalised HMC step of the chains of b not in the held
// fold, in whitened coordinates q (position x + ε σ∘q): refresh q, one
// leapfrog step, accept or flip q. alpha and div record the step; lpp the
// energy after it (for the posterior's statistics). When epsC is not nil
// it holds the step size of each chain of b, replacing eps.
//
// When slice is not nil it holds the persistent slice variables v ∈
// [-1, 1) of b's chains (Neal 2020, "Non-reversibly updating a uniform
// [0,1] value for Metropolis accept/reject decisions", as MEADS uses
// them): each moving chain's v advances by delta (wrapping), the proposal
// is accepted when |v| < exp(-ΔH), and on acceptance v is rescaled by
// exp(ΔH) so that it stays uniform given the new state. Rejections then
// come in runs instead of at random, and the persistent momentum of
// generalised HMC is flipped less often than with a fresh uniform per
// step.
func (e *ensemble) ghmcStep(w *worker, b *block, s, held int, eps, a, refresh float64, sigma, epsC, slice []float64, delta float64) {
	bt := w.batch(e, b.n)
	x, n, d, k := bt.X(), b.n, e.dim, e.cfg.Folds
	for c := 0; c < n; c++ {
		st := philox.New(e.cfg.Seed, uint64(b.first+c), uint64(s))
		for j := 0; j < d; j++ {
			q := &b.p[j*n+c]
			*q = a**q + refresh*st.Normal()
		}
		b.u[c] = st.Uniform()
	}
	step := func(c int) float64 {
		if epsC != nil {
			return epsC[c]
		}
		return eps
	}
	for j := 0; j < d; j++ {
		for c := 0; c < n; c++ {
			i, h := j*n+c, step(c)
			b.pp[i] = b.p[i] + 0.5*h*sigma[j]*b.g[i]
			x[i] = b.x[i] + h*sigma[j]*b.pp[i]
		}
	}
	bt.Gradient()
	g := bt.Grad()
	for j := 0; j < d; j++ {
		for c := 0; c < n; c++ {
			i := j*n + c
			b.pp[i] += 0.5 * step(c) * sigma[j] * g[i]
		}
	}
	for c := 0; c < n; c++ {
		k0, k1 := 0.0, 0.0
		for j := 0; j < d; j++ {
			k0 += b.p[j*n+c] * b.p[j*n+c]
			k1 += b.pp[j*n+c] * b.pp[j*n+c]
		}
		h0, h1 := -b.lp[c]+0.5*k0, -bt.LPs()[c]+0.5*k1
		dh := h1 - h0
		b.div[c] = !(dh < divergence)
		al := math.Min(1, math.Exp(-dh))
		if math.IsNaN(al) || b.div[c] {
			al = 0
		}
		if (b.first+c)%k == held {
			// A held chain keeps its position; its momentum was refreshed,
			// itself a move that leaves the target invariant.
			b.alpha[c], b.div[c], b.lpp[c] = 1, false, h0
			continue
		}
		b.alpha[c] = al
		take := b.u[c] < al
		if slice != nil {
			take, slice[c] = sliceAccept(slice[c], delta, dh)
			take = take && !b.div[c]
		}
		if take {
			b.lp[c], b.lpp[c] = bt.LPs()[c], h1
			for j := 0; j < d; j++ {
				i := j*n + c
				b.x[i], b.g[i], b.p[i] = x[i], g[i], b.pp[i]
			}
		} else {
			b.lpp[c] = h0
			for j := 0; j < d; j++ {
				b.p[j*n+c] = -b.p[j*n+c]
			}
		}
	}
}

// sliceAccept is the accept test with a persistent slice variable v ∈
// [-1, 1) (Neal 2020): v advances by delta, wrapping, and the move with
// energy change dh is accepted when |v| < exp(-dh), after which v is
// rescaled by exp(dh) so that |v| stays uniform given the new state. It
// returns the decision and the new v.
func sliceAccept(v, delta, dh float64) (bool, float64) {
	v += delta
	if v >= 1 {
		v -= 2
	}
	if !(math.Abs(v) < math.Exp(-dh)) {
		return false, v
	}
	return true, v * math.Exp(dh)
}

// centre subtracts each column's mean from the n×d rows.
func centre(rows []float64, n, d int) {
	for j := 0; j < d; j++ {
		m := 0.0
		for r := 0; r < n; r++ {
			m += rows[r*d+j]
		}
		m /= float64(n)
		for r := 0; r < n; r++ {
			rows[r*d+j] -= m
		}
	}
}

// largestEigen estimates the largest eigenvalue of C = AᵀA/n for the n×d
// rows A by tr(C²)/tr(C), which lies between the mean and the largest
// eigenvalue and reaches the largest when one dominates (MEADS's
// estimator). It uses the d×d matrix or the n×n Gram matrix, whichever is
// smaller.
func largestEigen(rows []float64, n, d int) float64 {
	tr, tr2 := 0.0, 0.0
	for _, v := range rows {
		tr += v * v
	}
	if d <= n {
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				s := 0.0
				for r := 0; r < n; r++ {
					s += rows[r*d+i] * rows[r*d+j]
				}
				tr2 += s * s
			}
		}
	} else {
		for r := 0; r < n; r++ {
			for q := 0; q < n; q++ {
				s := 0.0
				for i := 0; i < d; i++ {
					s += rows[r*d+i] * rows[q*d+i]
				}
				tr2 += s * s
			}
		}
	}
	return (tr2 / float64(n*n)) / (tr / float64(n))
}

// initialPhase runs steps [0, n) of MEADS's initial phase on every chain
// (see initialSteps), with the preconditioner the spread across all
// chains: ChEES starts with it, because its harmonic mean of acceptance
// across chains is set by the worst-placed chains and from the default
// start shrinks the common step size (and stretches the trajectories)
// until the chains barely move.
func (e *ensemble) initialPhase(ctl *control, n int, hd *hmcDevice) error {
	d := e.dim
	mean, sigma := make([]float64, d), make([]float64, d)
	epsC := make([]float64, e.cfg.Chains)
	for c := range epsC {
		epsC[c] = initialStepSize
	}
	a := math.Exp(-initialDamping)
	refresh := math.Sqrt(1 - a*a)
	for s := 0; s < n && !ctl.stopped(); s++ {
		if hd == nil || s == 0 {
			e.crossChain(mean, sigma)
		} else {
			// The device's cross-chain moments after the last step.
			copy(mean, hd.iter.CrossMean)
			copy(sigma, hd.iter.CrossVar)
		}
		for j, v := range sigma {
			sigma[j] = math.Sqrt(v)
			if !(sigma[j] > 1e-10) || math.IsInf(sigma[j], 0) {
				sigma[j] = 1
			}
		}
		if hd != nil {
			if err := hd.initial(e, s, sigma, a, refresh); err != nil {
				return err
			}
			ctl.gradEvals++
			ctl.iter.Store(int64(s + 1))
			continue
		}
		err := e.parallel(func(w *worker, b *block) {
			e.ghmcStep(w, b, s, -1, 0, a, refresh, sigma, epsC[b.first:b.first+b.n], nil, 0)
			for c := 0; c < b.n; c++ {
				v := epsC[b.first+c] * math.Exp(initialGain*(b.alpha[c]-initialTarget))
				epsC[b.first+c] = math.Min(math.Max(v, 1e-12), 10)
			}
		})
		if err != nil {
			return err
		}
		ctl.gradEvals++
		ctl.iter.Store(int64(s + 1))
	}
	if n > 0 && !ctl.stopped() {
		if hd != nil {
			if err := hd.sync(e); err != nil {
				return err
			}
		}
		if e.restartStragglers() > 0 && hd != nil {
			hd.load = true
		}
	}
	return nil
}

// restartStragglers moves every chain whose log density is far below the
// median across chains (by more than 10 + 10√dim, many standard deviations
// of the log density in the typical set, whose sd is about √(dim/2)) onto
// a copy of a chain that is not, chosen by chain number: from dispersed
// starts a few chains can fall into a minor mode (a mixture component
// emptied) where they would stay, biasing the moments and, through the
// cross-chain adaptation, slowing every chain. Warm-up only. Returns the
// number of chains moved.
func (e *ensemble) restartStragglers() int {
	d := e.dim
	lps := make([]float64, 0, e.cfg.Chains)
	for _, b := range e.blocks {
		lps = append(lps, b.lp...)
	}
	sorted := append([]float64(nil), lps...)
	sort.Float64s(sorted)
	cut := sorted[len(sorted)/2] - 10 - 10*math.Sqrt(float64(d))
	var good []int
	for c, lp := range lps {
		if lp >= cut {
			good = append(good, c)
		}
	}
	if len(good) == 0 || len(good) == len(lps) {
		return 0
	}
	where := func(c int) (*block, int) {
		b := e.blocks[c/e.cfg.Block]
		return b, c - b.first
	}
	for c, lp := range lps {
		if lp >= cut {
			continue
		}
		src, i := where(good[(c*7919)%len(good)])
		dst, k := where(c)
		dst.lp[k] = src.lp[i]
		for j := 0; j < d; j++ {
			dst.x[j*dst.n+k] = src.x[j*src.n+i]
			if dst.g != nil { // HMC only
				dst.g[j*dst.n+k] = src.g[j*src.n+i]
				dst.p[j*dst.n+k] = src.p[j*src.n+i]
			}
		}
	}
	return len(lps) - len(good)
}
