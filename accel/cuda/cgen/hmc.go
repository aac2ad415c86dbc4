package cgen

import (
	"fmt"
	"math"

	"github.com/gobayes/gobayes/accel"
)

// HMC runs lockstep HMC iterations (accel.HMCIteration) with the kernels
// of chees.cu on a Device: the same Go orchestrates a GPU (accel/cuda)
// and the gcc-built process (GCCCompiled), so make test checks on the CPU
// what the GPU runs. The chains' state stays in the device's buffers
// between iterations; the cross-chain sums come back as the runs' sums
// (SumChunk chains each) and are added here in order.
type HMC struct {
	dev          Device
	dim, frame   int
	chains, keep int
	tables       bool
	sums         []float64
	// epsLoaded: the initial phase's step sizes are on the device.
	epsLoaded bool
	// scratch holds an iteration's totals and means, ks the kept chains'
	// statistics: no allocation per iteration.
	scratch, ks []float64
}

// The buffers of an HMC.
const (
	bufX Buf = iota
	bufG
	bufLP
	bufP
	bufXp
	bufGp
	bufPp
	bufLpp
	bufAlpha
	bufU
	bufDiv
	bufQ
	bufInvM
	bufSqrtInv
	bufZK
	bufZF
	bufWork
	bufMean
	bufM2
	bufVec
	bufSums
	bufKX
	bufKS
	bufMeanP
	bufEpsC
)

// NewHMC drives the sampler kernels of a program of dimension dim and
// chain frame frame (Source.Dim and Source.Frame) on dev.
func NewHMC(dev Device, dim, frame int) *HMC { return &HMC{dev: dev, dim: dim, frame: frame} }

// checkIteration reports whether it's slices fit d dimensions. Steps 0
// only loads and reads the state.
func checkIteration(it *accel.HMCIteration, d int) error {
	n := it.Chains
	switch {
	case n < 1 || it.Steps < 0 || it.Keep < 0 || it.Keep > n || it.Draws < 0:
		return fmt.Errorf("cgen: HMC iteration of %d chains, %d steps, %d kept, draw %d", n, it.Steps, it.Keep, it.Draws)
	case it.Initial != nil && len(it.Initial.Sigma) != d:
		return fmt.Errorf("cgen: HMC initial step: %d scales, want %d", len(it.Initial.Sigma), d)
	case it.Initial == nil && it.Steps > 0 && (len(it.InvMetric) != d || len(it.SqrtInvMetric) != d):
		return fmt.Errorf("cgen: HMC iteration: metric of %d and %d values, want %d", len(it.InvMetric), len(it.SqrtInvMetric), d)
	case (it.Load || it.Read) && (len(it.X) != n*d || len(it.Grad) != n*d || len(it.LP) != n):
		return fmt.Errorf("cgen: HMC iteration: state of %d, %d and %d values, want %d, %d and %d", len(it.X), len(it.Grad), len(it.LP), n*d, n*d, n)
	case it.Read && (len(it.Mean) != n*d || len(it.M2) != n*d):
		return fmt.Errorf("cgen: HMC iteration: moments of %d and %d values, want %d", len(it.Mean), len(it.M2), n*d)
	}
	return nil
}

func (h *HMC) alloc(n int) error {
	d, f := h.dim, h.frame
	nq := max(2+2*d, 1)
	work := 1
	if 2*f > WalkLocalFrame {
		work = n * 2 * f
	}
	chunks := (n + SumChunk - 1) / SumChunk
	for _, b := range []struct {
		id Buf
		n  int
	}{{bufX, d * n}, {bufG, d * n}, {bufLP, n}, {bufP, d * n}, {bufXp, d * n}, {bufGp, d * n}, {bufPp, d * n},
		{bufLpp, n}, {bufAlpha, n}, {bufU, n}, {bufDiv, n}, {bufQ, nq * n}, {bufInvM, d}, {bufSqrtInv, d},
		{bufWork, work}, {bufMean, d * n}, {bufM2, d * n}, {bufVec, d}, {bufMeanP, d}, {bufSums, nq * chunks}, {bufEpsC, n}} {
		if err := h.dev.Alloc(int(b.id), b.n); err != nil {
			return err
		}
	}
	h.chains, h.keep = n, -1
	h.sums = make([]float64, nq*chunks)
	h.scratch = make([]float64, nq+2*d)
	return nil
}

// total sums nq quantities of q's n values each on the device: the runs'
// sums there, the runs added here in order, into out.
func (h *HMC) total(q Buf, nq, n int, out []float64) error {
	chunks := (n + SumChunk - 1) / SumChunk
	if err := h.dev.Launch(KernelChunkSums, nq*chunks, q, int64(nq), int64(n), bufSums); err != nil {
		return err
	}
	s := h.sums[:nq*chunks]
	if err := h.dev.Get(int(bufSums), 0, s); err != nil {
		return err
	}
	for i := range nq {
		t := 0.0
		for _, v := range s[i*chunks : (i+1)*chunks] {
			t += v
		}
		out[i] = t
	}
	return nil
}

// Iterate runs one iteration (see accel.HMCIteration).
func (h *HMC) Iterate(it *accel.HMCIteration) error {
	d, n := h.dim, it.Chains
	if err := checkIteration(it, d); err != nil {
		return err
	}
	dev := h.dev
	if n != h.chains {
		if err := h.alloc(n); err != nil {
			return err
		}
	}
	if !h.tables {
		if err := putTables(dev); err != nil {
			return err
		}
		h.tables = true
	}
	if it.Keep != h.keep {
		if err := dev.Alloc(int(bufKX), max(1, d*it.Keep)); err != nil {
			return err
		}
		if err := dev.Alloc(int(bufKS), max(1, 4*it.Keep)); err != nil {
			return err
		}
		h.keep = it.Keep
	}
	if it.Load {
		// A new start: the moments and momenta begin again.
		for _, id := range []Buf{bufMean, bufM2, bufP} {
			if err := dev.Alloc(int(id), d*n); err != nil {
				return err
			}
		}
		for _, b := range []struct {
			id Buf
			v  []float64
		}{{bufX, it.X}, {bufG, it.Grad}, {bufLP, it.LP}} {
			if err := dev.Put(int(b.id), 0, b.v); err != nil {
				return err
			}
		}
	}
	if it.Initial != nil {
		return h.initial(it)
	}
	if it.Steps == 0 {
		return h.read(it)
	}
	if err := dev.Put(int(bufInvM), 0, it.InvMetric); err != nil {
		return err
	}
	if err := dev.Put(int(bufSqrtInv), 0, it.SqrtInvMetric); err != nil {
		return err
	}
	warm := int64(0)
	if it.Warm {
		warm = 1
	}
	h.epsLoaded = false
	if err := dev.Launch(KernelHMCPropose, n, bufX, bufG, bufLP, bufP, bufXp, bufGp, bufPp, bufLpp, bufAlpha, bufU, bufDiv,
		bufQ, bufInvM, bufSqrtInv, it.Eps, int64(it.Steps), int64(it.Seed), int64(it.Step), warm, bufZK, bufZF, bufWork,
		Data, int64(n)); err != nil {
		return err
	}
	if it.Warm {
		tot := h.scratch[:2+2*d]
		if err := h.total(bufQ, 2+2*d, n, tot); err != nil {
			return err
		}
		it.SumA, it.SumInvA = tot[0], tot[1]
		it.SumX, it.SumAXp = grow(it.SumX, d), grow(it.SumAXp, d)
		copy(it.SumX, tot[2:2+d])
		copy(it.SumAXp, tot[2+d:])
		it.Criterion = 0
		if it.SumA > 0 {
			m := h.scratch[2+2*d : 2+4*d]
			for j := range d {
				m[j] = it.SumX[j] / float64(n)
				m[d+j] = it.SumAXp[j] / it.SumA
			}
			if err := dev.Put(int(bufVec), 0, m[:d]); err != nil {
				return err
			}
			if err := dev.Put(int(bufMeanP), 0, m[d:]); err != nil {
				return err
			}
			if err := dev.Launch(KernelHMCCriterion, n, bufX, bufXp, bufPp, bufAlpha, bufVec, bufMeanP, bufInvM, bufQ,
				int64(n)); err != nil {
				return err
			}
			var g [1]float64
			if err := h.total(bufQ, 1, n, g[:]); err != nil {
				return err
			}
			it.Criterion = g[0]
		}
	}
	if err := dev.Launch(KernelHMCAccept, n, bufX, bufG, bufLP, bufXp, bufGp, bufLpp, bufAlpha, bufU, bufDiv, bufP, bufPp,
		bufInvM, bufMean, bufM2, int64(it.Draws), int64(it.Keep), bufKX, bufKS, int64(n)); err != nil {
		return err
	}
	if it.Warm {
		if err := h.crossChain(it); err != nil {
			return err
		}
	}
	if it.Keep > 0 {
		it.KeptX = grow(it.KeptX, d*it.Keep)
		if cap(h.ks) < 4*it.Keep {
			h.ks = make([]float64, 4*it.Keep)
		}
		ks := h.ks[:4*it.Keep]
		if err := dev.Get(int(bufKX), 0, it.KeptX); err != nil {
			return err
		}
		if err := dev.Get(int(bufKS), 0, ks); err != nil {
			return err
		}
		k := it.Keep
		it.KeptLP, it.KeptAlpha = append(it.KeptLP[:0], ks[:k]...), append(it.KeptAlpha[:0], ks[k:2*k]...)
		it.KeptDiv, it.KeptEnergy = append(it.KeptDiv[:0], ks[2*k:3*k]...), append(it.KeptEnergy[:0], ks[3*k:]...)
	}
	return h.read(it)
}

// crossChain sets it's CrossMean and CrossVar from the positions, as
// ppl/lockstep's crossChain computes them.
func (h *HMC) crossChain(it *accel.HMCIteration) error {
	d, n := h.dim, it.Chains
	it.CrossMean, it.CrossVar = grow(it.CrossMean, d), grow(it.CrossVar, d)
	if err := h.total(bufX, d, n, it.CrossMean); err != nil {
		return err
	}
	for j := range it.CrossMean {
		it.CrossMean[j] /= float64(n)
	}
	if err := h.dev.Put(int(bufVec), 0, it.CrossMean); err != nil {
		return err
	}
	if err := h.dev.Launch(KernelSqDev, n, bufX, bufVec, bufQ, int64(n)); err != nil {
		return err
	}
	if err := h.total(bufQ, d, n, it.CrossVar); err != nil {
		return err
	}
	for j := range it.CrossVar {
		it.CrossVar[j] /= math.Max(1, float64(n)-1)
	}
	return nil
}

// initial runs a step of the initial phase (accel.InitialStep).
func (h *HMC) initial(it *accel.HMCIteration) error {
	in, n := it.Initial, it.Chains
	if it.Load || !h.epsLoaded {
		eps := make([]float64, n)
		for c := range eps {
			eps[c] = in.StepSize
		}
		if err := h.dev.Put(int(bufEpsC), 0, eps); err != nil {
			return err
		}
		h.epsLoaded = true
	}
	if err := h.dev.Put(int(bufVec), 0, in.Sigma); err != nil {
		return err
	}
	if err := h.dev.Launch(KernelGHMCInitial, n, bufX, bufG, bufLP, bufP, bufEpsC, bufVec, in.Damping, in.Refresh, in.Gain,
		in.Target, int64(it.Seed), int64(it.Step), bufZK, bufZF, bufWork, Data, int64(n)); err != nil {
		return err
	}
	if err := h.crossChain(it); err != nil {
		return err
	}
	return h.read(it)
}

// read copies the state back when it asks.
func (h *HMC) read(it *accel.HMCIteration) error {
	if !it.Read {
		return nil
	}
	for _, b := range []struct {
		id Buf
		v  []float64
	}{{bufX, it.X}, {bufG, it.Grad}, {bufLP, it.LP}, {bufMean, it.Mean}, {bufM2, it.M2}} {
		if err := h.dev.Get(int(b.id), 0, b.v); err != nil {
			return err
		}
	}
	return nil
}
