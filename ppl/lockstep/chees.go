package lockstep

import (
	"math"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/philox"
	"github.com/gobayes/gobayes/ppl/adapt"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// jitterChain is the chain number of the stream shared by all chains (the
// trajectory-length jitter); real chains are numbered below it.
const jitterChain = 1 << 63

// divergence is the energy error beyond which a transition is divergent
// (Stan's threshold).
const divergence = 1000

// hmcParams are the settings of one lockstep HMC transition.
type hmcParams struct {
	eps     float64
	steps   int
	invM    []float64 // diagonal inverse metric
	sqrtInv []float64
}

// propose runs one trajectory from every chain of b: fresh momentum from
// the chain's stream at step s, steps leapfrog steps, and the acceptance
// probability. It leaves the end point in xp, gp, pp, lpp and alpha, the
// uniform for the accept test in u.
func (e *ensemble) propose(w *worker, b *block, s int, h *hmcParams) {
	n, d := b.n, e.dim
	for c := 0; c < n; c++ {
		st := philox.New(e.cfg.Seed, uint64(b.first+c), uint64(s))
		for j := 0; j < d; j++ {
			b.p[j*n+c] = st.Normal() / h.sqrtInv[j]
		}
		b.u[c] = st.Uniform()
	}
	if e.dev != nil {
		// The whole trajectory in one call of the backend.
		e.leapfrogDevice(b, h)
	} else {
		e.leapfrogCPU(w, b, h)
	}
	for c := 0; c < n; c++ {
		k0, k1 := 0.0, 0.0
		for j := 0; j < d; j++ {
			p0, p1 := b.p[j*n+c], b.pp[j*n+c]
			k0 += h.invM[j] * p0 * p0
			k1 += h.invM[j] * p1 * p1
		}
		dh := (-b.lpp[c] + 0.5*k1) - (-b.lp[c] + 0.5*k0)
		b.div[c] = !(dh < divergence)
		a := math.Exp(-dh)
		if math.IsNaN(a) || b.div[c] {
			a = 0
		}
		b.alpha[c] = math.Min(1, a)
	}
}

// leapfrogCPU runs the trajectory of propose with accel/vec: a half step
// of momentum, then steps of position and momentum with the last half.
func (e *ensemble) leapfrogCPU(w *worker, b *block, h *hmcParams) {
	bt := w.batch(e, b.n)
	x, n, d := bt.X(), b.n, e.dim
	eps := h.eps
	copy(x, b.x)
	for k, g := range b.g {
		b.pp[k] = b.p[k] + 0.5*eps*g
	}
	for l := 0; l < h.steps; l++ {
		for j := 0; j < d; j++ {
			f := eps * h.invM[j]
			xs, ps := x[j*n:(j+1)*n], b.pp[j*n:(j+1)*n]
			for c := range xs {
				xs[c] += f * ps[c]
			}
		}
		bt.Gradient()
		half := eps
		if l == h.steps-1 {
			half = 0.5 * eps
		}
		for k, g := range bt.Grad() {
			b.pp[k] += half * g
		}
	}
	copy(b.xp, x)
	copy(b.gp, bt.Grad())
	copy(b.lpp, bt.LPs())
}

// accept moves each chain of b to its proposal when its uniform is below
// its acceptance probability.
func (e *ensemble) accept(b *block) {
	n, d := b.n, e.dim
	for c := 0; c < n; c++ {
		if b.u[c] >= b.alpha[c] {
			continue
		}
		b.lp[c] = b.lpp[c]
		for j := 0; j < d; j++ {
			b.x[j*n+c], b.g[j*n+c] = b.xp[j*n+c], b.gp[j*n+c]
		}
	}
}

// runChEES is ChEES-HMC (Hoffman, Radul and Sountsov 2021, "An adaptive
// MCMC scheme for setting trajectory lengths in Hamiltonian Monte Carlo",
// AISTATS): every chain runs a trajectory of the same jittered length
// u·T, u ~ U(0, 1) shared by all chains at each step. In warm-up, T
// follows Adam ascending the ChEES criterion ¼E[(|θ'−E θ'|² − |θ−E θ|²)²]
// estimated across chains, the step size follows dual averaging of the
// harmonic mean of the acceptance probabilities across chains, and the
// diagonal metric is the variance across chains. Warm-up opens with
// MEADS's initial phase (a step size per chain; see initialPhase), and
// chains left far below the others' log density are restarted on copies
// of others after it and at mid warm-up (restartStragglers): from the
// default start some chains of low_dim_gauss_mix fell into a mode with an
// emptied component and, through the harmonic mean of acceptance, held
// every chain's step size down. Cross-chain sums run in chain order, so
// the result does not depend on blocks or workers.
func runChEES(e *ensemble, ctl *control) (int, error) {
	cfg, d := e.cfg, e.dim
	if err := e.initialise(true); err != nil {
		return 0, err
	}
	h := &hmcParams{eps: 0.5, steps: 1, invM: make([]float64, d), sqrtInv: make([]float64, d)}
	for j := range h.invM {
		h.invM[j], h.sqrtInv[j] = 1, 1
	}
	da := adapt.NewStepSize(cfg.TargetAccept)
	da.Restart(h.eps)
	logT := math.Log(h.eps)
	var adamM, adamV float64
	adamT := 0
	const (
		lr    = 0.025 // Adam's learning rate on log T, as in the paper
		beta1 = 0.0
		beta2 = 0.95
	)
	mean, variance := make([]float64, d), make([]float64, d)
	meanP := make([]float64, d)
	total := cfg.Warmup + cfg.Draws
	made := 0
	// The first steps of warm-up bring every chain to the typical set with
	// its own step size (MEADS's initial phase), before ChEES proper.
	initial := initialSteps(cfg.Warmup)
	// With a backend that iterates (a GPU), each iteration is one call
	// there, the chains staying on it.
	hd := newHMCDevice(e)
	if err := e.initialPhase(ctl, initial, hd); err != nil {
		return 0, err
	}
	for s := initial; s < total && !ctl.stopped(); s++ {
		st := philox.New(cfg.Seed, jitterChain, uint64(s))
		jitter := st.Uniform()
		T := math.Exp(logT)
		h.steps = min(cfg.MaxSteps, max(1, int(math.Ceil(jitter*T/h.eps))))
		warm := s < cfg.Warmup
		var sumA, sumInvA, crit float64
		if hd != nil {
			// The whole transition on the device, one call.
			it, err := hd.iterate(e, s, h, warm)
			if err != nil {
				return 0, err
			}
			sumA, sumInvA, crit = it.SumA, it.SumInvA, it.Criterion
		} else {
			if err := e.parallel(func(w *worker, b *block) { e.propose(w, b, s, h) }); err != nil {
				return 0, err
			}
			if warm {
				sumA, sumInvA, crit = e.cheesSums(h, mean, meanP)
			}
		}
		ctl.gradEvals += h.steps
		if warm {
			nc := float64(cfg.Chains)
			harmonic := nc / sumInvA
			grad := 0.0
			if sumA > 0 {
				grad = crit / sumA * jitter * T
			}
			// Far from the typical set the estimate can overflow; one bad
			// value must not poison Adam's moments for the rest of the run.
			if sumA > 0 && math.Abs(grad) < 1e100 {
				adamT++
				t := float64(adamT)
				adamM = beta1*adamM + (1-beta1)*grad
				adamV = beta2*adamV + (1-beta2)*grad*grad
				mh, vh := adamM/(1-math.Pow(beta1, t)), adamV/(1-math.Pow(beta2, t))
				if vh > 0 {
					logT += lr * mh / (math.Sqrt(vh) + 1e-8)
				}
			}
			h.eps = da.Learn(harmonic)
			// At most MaxSteps (at least one step is taken whatever T).
			// T is not held above ε: dual averaging's first steps raise ε
			// tenfold for a while (its shrinkage target is log 10ε₀), and
			// a T dragged up with it settled on a far longer, far worse
			// optimum of the criterion — eight schools ran 73 leapfrog
			// steps per draw instead of 5, at a seventh of the ESS per
			// gradient.
			logT = math.Min(logT, math.Log(float64(cfg.MaxSteps)*h.eps))
		}
		div := 0
		if hd == nil {
			err := e.parallel(func(w *worker, b *block) {
				e.accept(b)
				if warm {
					return
				}
				i := s - cfg.Warmup
				e.record(w, b, i, i+1, func(c int, st *posterior.Stats) {
					st.AcceptStat[i], st.StepSize[i], st.NLeapfrog[i], st.Divergent[i] = b.alpha[c], h.eps, h.steps, b.div[c]
					st.Energy[i] = energy(b, c, d, h.invM)
				})
			})
			if err != nil {
				return 0, err
			}
		}
		if warm {
			restart := s == cfg.Warmup/2 && s > initial
			if restart && hd != nil {
				if err := hd.sync(e); err != nil {
					return 0, err
				}
			}
			if restart && e.restartStragglers() > 0 && hd != nil { // stragglers of the initial phase that fell behind since
				hd.load = true
			}
			if hd != nil && !restart {
				copy(mean, hd.iter.CrossMean)
				copy(variance, hd.iter.CrossVar)
			} else {
				e.crossChain(mean, variance)
			}
			for j, v := range variance {
				if v > 1e-12 && !math.IsInf(v, 0) {
					h.invM[j], h.sqrtInv[j] = v, math.Sqrt(v)
				}
			}
			if s == cfg.Warmup-1 {
				h.eps = da.Final()
			}
		} else {
			made = s - cfg.Warmup + 1
			e.draws = made
			for k := range e.kept {
				if e.kept[k].Stats.Divergent[made-1] {
					div++
				}
			}
			ctl.div.Add(int64(div))
		}
		ctl.eps.Store(math.Float64bits(h.eps))
		ctl.iter.Store(int64(s + 1))
	}
	if hd != nil {
		// The moments of every chain, for the result.
		if err := hd.sync(e); err != nil {
			return 0, err
		}
	}
	ctl.adaptations = make([]posterior.Adaptation, cfg.Keep)
	for k := range ctl.adaptations {
		ctl.adaptations[k] = posterior.Adaptation{StepSize: h.eps, InvMetric: append([]float64(nil), h.invM...)}
	}
	return made, nil
}

// cheesSums are the warm-up's cross-chain sums of the proposals of every
// chain (after propose): of the acceptance probabilities a and of their
// inverses, and of ChEES's criterion gradient, each chain's
// a·(|x'−m'|²−|x−m|²)·((x'−m')·M⁻¹·p'), m the chains' mean and m' their
// a-weighted mean of proposals (in mean and meanP). Sums in chainSum's
// order, as a device's.
func (e *ensemble) cheesSums(h *hmcParams, mean, meanP []float64) (sumA, sumInvA, crit float64) {
	d := e.dim
	// chunkSum's order, with the runs' partial sums kept in place: [a,
	// 1/a, x_0…x_{d-1}, a·x'_0…a·x'_{d-1}].
	part, total := make([]float64, 2+2*d), make([]float64, 2+2*d)
	px, pp := part[2:2+d], part[2+d:]
	n := 0
	for _, b := range e.blocks {
		for c := 0; c < b.n; c++ {
			a := b.alpha[c]
			part[0] += a
			part[1] += 1 / math.Max(a, 1e-20)
			for j := 0; j < d; j++ {
				px[j] += b.x[j*b.n+c]
				pp[j] += a * b.xp[j*b.n+c]
			}
			if n++; n == accel.SumChunk {
				flushChunk(total, part)
				n = 0
			}
		}
	}
	if n > 0 {
		flushChunk(total, part)
	}
	sumA, sumInvA = total[0], total[1]
	if !(sumA > 0) {
		return sumA, sumInvA, 0
	}
	nc := float64(e.cfg.Chains)
	for j := range mean {
		mean[j] = total[2+j] / nc
		meanP[j] = total[2+d+j] / sumA
	}
	var g chunkSum
	for _, b := range e.blocks {
		n := b.n
		for c := 0; c < n; c++ {
			var d0, d1, dot float64
			for j := 0; j < d; j++ {
				u0 := b.x[j*n+c] - mean[j]
				u1 := b.xp[j*n+c] - meanP[j]
				d0 += u0 * u0
				d1 += u1 * u1
				dot += u1 * h.invM[j] * b.pp[j*n+c]
			}
			g.add(b.alpha[c] * (d1 - d0) * dot)
		}
	}
	return sumA, sumInvA, g.sum()
}

// flushChunk adds a run's partial sums to the totals and clears them.
func flushChunk(total, part []float64) {
	for i, v := range part {
		total[i] += v
		part[i] = 0
	}
}

// energy is the Hamiltonian of chain c after the transition: at the
// proposal when it was taken, at the start otherwise.
func energy(b *block, c, d int, invM []float64) float64 {
	n := b.n
	p, lp := b.p, b.lp[c]
	if b.u[c] < b.alpha[c] {
		p = b.pp
	}
	k := 0.0
	for j := 0; j < d; j++ {
		k += invM[j] * p[j*n+c] * p[j*n+c]
	}
	return -lp + 0.5*k
}
