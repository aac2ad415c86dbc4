package lockstep

import (
	"math"

	"github.com/gobayes/gobayes/ppl/mcmc"
)

// nutsRand is where a NUTS transition draws its random numbers: the
// chain's philox stream (*philox.Stream), or any source of the same two
// kinds of number.
type nutsRand interface {
	Normal() float64
	Uniform() float64
}

// nutsPoint is a phase-space point: position, momentum, gradient and log
// density.
type nutsPoint struct {
	q, p, g []float64
	lp      float64
}

func newNUTSPoint(d int) nutsPoint {
	return nutsPoint{q: make([]float64, d), p: make([]float64, d), g: make([]float64, d)}
}

func (z *nutsPoint) set(o *nutsPoint) {
	copy(z.q, o.q)
	copy(z.p, o.p)
	copy(z.g, o.g)
	z.lp = o.lp
}

// nutsInfo is what one transition reports.
type nutsInfo struct {
	accept    float64
	divergent bool
	depth     int
	leapfrogs int
	energy    float64
}

// nutsTree is the working memory of one chain's NUTS transition: the
// algorithm ppl/mcmc's NUTS runs (Stan's: multinomial sampling within
// subtrees, biased progressive sampling at the top, the generalised
// no-U-turn criterion over every subtree and across each join), built
// without recursion. A subtree of 2^j leapfrog steps is built leaf by
// leaf; leaf n completes the subtrees of levels 1..k where the k lowest
// bits of n are ones, and those merges run in that order, as the
// recursion's post-order runs them. What the merges need of the halves
// they join — the first half's weight, proposal and summed momentum, its
// first and last momenta, the second half's first momentum — is kept
// per level, O(depth) vectors: the checkpoints. Sums of momenta add the
// halves' sums as the recursion does, so the arithmetic is Stan's to the
// bit. accel/cuda/cgen's nuts.cu is this code in C, one thread per
// chain; TestNUTSTreeSameAsMCMC checks it against ppl/mcmc's NUTS.
type nutsTree struct {
	d, maxDepth int
	maxDeltaH   float64
	// z is the leapfrog's point; fwd and bck the trajectory's ends;
	// sample the transition's draw; cur the proposal of the subtree being
	// merged, prop[l] that of a finished first half at level l.
	z, fwd, bck, sample, cur nutsPoint
	prop                     []nutsPoint
	propW                    []float64
	// rhoHalf[l]: summed momentum of the finished first half at level
	// l; curRho that of the subtree being merged.
	rhoHalf [][]float64
	curRho  []float64
	// begP, begPS [l]: momentum and velocity of the first leaf of the
	// level-l subtree being built; endP, endPS [l]: of the last leaf of
	// the finished first half at level l.
	begP, begPS, endP, endPS [][]float64
	ps                       []float64 // the leaf's velocity
	// The trajectory's ends and the inner ends of its two sides, as
	// ppl/mcmc names them (Fwd/Bck side, Fwd/Bck end).
	pFF, psFF, pFB, psFB, pBF, psBF, pBB, psBB []float64
	rho, rhoF, rhoB, ext                       []float64
	h0, sumAccept                              float64
	leapfrogs                                  int
	divergent                                  bool
}

func newNUTSTree(d, maxDepth int, maxDeltaH float64) *nutsTree {
	vec := func() []float64 { return make([]float64, d) }
	vecs := func(n int) [][]float64 {
		v := make([][]float64, n)
		for i := range v {
			v[i] = vec()
		}
		return v
	}
	t := &nutsTree{d: d, maxDepth: maxDepth, maxDeltaH: maxDeltaH,
		z: newNUTSPoint(d), fwd: newNUTSPoint(d), bck: newNUTSPoint(d), sample: newNUTSPoint(d), cur: newNUTSPoint(d),
		prop: make([]nutsPoint, maxDepth), propW: make([]float64, maxDepth),
		rhoHalf: vecs(maxDepth), curRho: vec(),
		begP: vecs(maxDepth + 1), begPS: vecs(maxDepth + 1), endP: vecs(maxDepth), endPS: vecs(maxDepth), ps: vec(),
		pFF: vec(), psFF: vec(), pFB: vec(), psFB: vec(), pBF: vec(), psBF: vec(), pBB: vec(), psBB: vec(),
		rho: vec(), rhoF: vec(), rhoB: vec(), ext: vec()}
	for l := range t.prop {
		t.prop[l] = newNUTSPoint(d)
	}
	return t
}

// energy is H = −log π(q) + ½ pᵀM⁻¹p, NaN read as +Inf; v receives M⁻¹p.
func nutsEnergy(z *nutsPoint, invM, v []float64) float64 {
	for i, x := range z.p {
		v[i] = invM[i] * x
	}
	h := -z.lp + 0.5*mcmc.Dot(z.p, v)
	if math.IsNaN(h) {
		return math.Inf(1)
	}
	return h
}

// leapfrog moves z one step of size eps (negative: backwards).
func nutsLeapfrog(z *nutsPoint, eps float64, invM []float64, f func(q, g []float64) float64) {
	half := 0.5 * eps
	for i, g := range z.g {
		z.p[i] += half * g
	}
	for i, p := range z.p {
		z.q[i] += eps * (invM[i] * p)
	}
	z.lp = f(z.q, z.g)
	if math.IsNaN(z.lp) {
		z.lp = math.Inf(-1)
	}
	for i, g := range z.g {
		z.p[i] += half * g
	}
}

// transition runs one NUTS transition from (x, g, lp) with step size eps
// and diagonal inverse metric invM (sqrtInv its square roots), momentum
// and uniforms from r, and leaves the draw in x and g; it returns the
// draw's log density.
func (t *nutsTree) transition(x, g []float64, lp, eps float64, invM, sqrtInv []float64, r nutsRand,
	f func(q, g []float64) float64) (float64, nutsInfo) {
	z := &t.z
	copy(z.q, x)
	copy(z.g, g)
	z.lp = lp
	for i := range z.p {
		z.p[i] = r.Normal() / sqrtInv[i]
	}
	t.fwd.set(z)
	t.bck.set(z)
	t.sample.set(z)
	t.h0 = nutsEnergy(z, invM, t.psFF)
	for _, v := range [][]float64{t.psFB, t.psBF, t.psBB} {
		copy(v, t.psFF)
	}
	for _, v := range [][]float64{t.pFF, t.pFB, t.pBF, t.pBB, t.rho} {
		copy(v, z.p)
	}
	logW := 0.0
	t.leapfrogs, t.sumAccept, t.divergent = 0, 0, false
	depth := 0
	for depth < t.maxDepth {
		clear(t.rhoF)
		clear(t.rhoB)
		var valid bool
		var wSub float64
		if r.Uniform() > 0.5 {
			// The trajectory so far becomes the backward side.
			z.set(&t.fwd)
			copy(t.rhoB, t.rho)
			copy(t.pBF, t.pFF)
			copy(t.psBF, t.psFF)
			wSub, valid = t.subtree(depth, eps, invM, r, f, t.rhoF, t.pFB, t.psFB, t.pFF, t.psFF)
			t.fwd.set(z)
		} else {
			z.set(&t.bck)
			copy(t.rhoF, t.rho)
			copy(t.pFB, t.pBB)
			copy(t.psFB, t.psBB)
			wSub, valid = t.subtree(depth, -eps, invM, r, f, t.rhoB, t.pBF, t.psBF, t.pBB, t.psBB)
			t.bck.set(z)
		}
		if !valid {
			break
		}
		depth++
		// Biased progressive sampling: prefer the new subtree.
		if wSub > logW {
			t.sample.set(&t.cur)
		} else if r.Uniform() < math.Exp(wSub-logW) {
			t.sample.set(&t.cur)
		}
		logW = mcmc.LogAddExp(logW, wSub)
		if !mcmc.JoinPersists(t.psBB, t.psBF, t.psFB, t.psFF, t.rhoB, t.rhoF, t.pFB, t.pBF, t.rho, t.ext) {
			break
		}
	}
	copy(x, t.sample.q)
	copy(g, t.sample.g)
	info := nutsInfo{accept: t.sumAccept / float64(t.leapfrogs), divergent: t.divergent, depth: depth,
		leapfrogs: t.leapfrogs, energy: nutsEnergy(&t.sample, invM, t.ps)}
	return t.sample.lp, info
}

// subtree builds 2^j leapfrog steps of size eps from z, leaving the
// subtree's proposal in cur, its summed momentum in rho, its first leaf's
// momentum and velocity in pBeg, psBeg and its last's in pEnd, psEnd. It
// returns the subtree's log weight and false on a divergence or a U-turn
// inside it.
func (t *nutsTree) subtree(j int, eps float64, invM []float64, r nutsRand, f func(q, g []float64) float64,
	rho, pBeg, psBeg, pEnd, psEnd []float64) (float64, bool) {
	z, ps := &t.z, t.ps
	curW := 0.0
	for n := 0; n < 1<<j; n++ {
		nutsLeapfrog(z, eps, invM, f)
		t.leapfrogs++
		h := nutsEnergy(z, invM, ps)
		if h-t.h0 > t.maxDeltaH {
			t.divergent = true
		}
		w := t.h0 - h
		if w > 0 {
			t.sumAccept++
		} else {
			t.sumAccept += math.Exp(w)
		}
		if t.divergent {
			return 0, false
		}
		for l := 0; l <= j && n&(1<<l-1) == 0; l++ {
			copy(t.begP[l], z.p)
			copy(t.begPS[l], ps)
		}
		t.cur.set(z)
		curW = w
		copy(t.curRho, z.p)
		for k := 1; k <= j; k++ {
			h := k - 1
			if n>>h&1 == 0 {
				// A first half at level k−1 is done: keep it for the merge.
				t.prop[h].set(&t.cur)
				t.propW[h] = curW
				copy(t.rhoHalf[h], t.curRho)
				copy(t.endP[h], z.p)
				copy(t.endPS[h], ps)
				break
			}
			// Leaf n ends the level-k subtree: merge its halves (the
			// first in prop[h], the second in cur), multinomially.
			wSub := mcmc.LogAddExp(t.propW[h], curW)
			if curW > wSub {
			} else if !(r.Uniform() < math.Exp(curW-wSub)) {
				t.cur.set(&t.prop[h])
			}
			ext, rh := t.ext, t.rhoHalf[h]
			for i := range ext {
				ext[i] = rh[i] + t.curRho[i]
			}
			persist := mcmc.UTurn(t.begPS[k], ps, ext)
			for i := range ext {
				ext[i] = rh[i] + t.begP[h][i]
			}
			persist = persist && mcmc.UTurn(t.begPS[k], t.begPS[h], ext)
			for i := range ext {
				ext[i] = t.curRho[i] + t.endP[h][i]
			}
			persist = persist && mcmc.UTurn(t.endPS[h], ps, ext)
			for i := range rh {
				t.curRho[i] = rh[i] + t.curRho[i]
			}
			curW = wSub
			if !persist {
				return 0, false
			}
		}
	}
	copy(rho, t.curRho)
	copy(pBeg, t.begP[j])
	copy(psBeg, t.begPS[j])
	copy(pEnd, z.p)
	copy(psEnd, ps)
	return curW, true
}

// stepSizeHeuristic is Stan's base_hmc::init_stepsize (ppl/mcmc's
// tuneStepSize) from (x, g, lp) with momenta from r: the step size
// doubles or halves until one leapfrog step's acceptance crosses 0.8. ok
// is false when it leaves (0, 1e7] (an improper posterior, or a log
// density not finite near the start).
func (t *nutsTree) stepSizeHeuristic(x, g []float64, lp, eps float64, invM, sqrtInv []float64, r nutsRand,
	f func(q, g []float64) float64) (float64, bool) {
	if eps == 0 || eps > 1e7 || math.IsNaN(eps) || t.d == 0 {
		return eps, true
	}
	z := &t.z
	trial := func() float64 {
		copy(z.q, x)
		copy(z.g, g)
		z.lp = lp
		for i := range z.p {
			z.p[i] = r.Normal() / sqrtInv[i]
		}
		h0 := nutsEnergy(z, invM, t.ps)
		nutsLeapfrog(z, eps, invM, f)
		return h0 - nutsEnergy(z, invM, t.ps)
	}
	logTarget := math.Log(0.8)
	up := trial() > logTarget
	for {
		dH := trial()
		if up && !(dH > logTarget) || !up && !(dH < logTarget) {
			return eps, true
		}
		if up {
			eps *= 2
		} else {
			eps *= 0.5
		}
		if eps > 1e7 || eps == 0 {
			return eps, false
		}
	}
}
