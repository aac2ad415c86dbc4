package cgen

import (
	"fmt"

	"github.com/gobayes/gobayes/accel"
)

// NUTS runs segments of lockstep NUTS (accel.NUTSSegment) with nuts.cu's
// gb_nuts on a Device, as HMC runs iterations: one launch per segment,
// the chains' state, step sizes, metrics and dual averaging staying in
// the device's buffers, and the same Go driving a GPU (accel/cuda) and
// the gcc-built process (GCCCompiled).
type NUTS struct {
	dev                 Device
	dim, frame          int
	chains, depth, kept int
	tables              bool
	params, fail        []float64
}

// The buffers of a NUTS (after the Walker's: one Device serves all).
const (
	nbufX Buf = iota + 44
	nbufG
	nbufLP
	nbufState
	nbufInvM
	nbufSqrtInv
	nbufWMean
	nbufWM2
	nbufMean
	nbufM2
	nbufKX
	nbufKS
	nbufTree
	nbufWork
	nbufParams
)

// nutsState is the rows of the per-chain state (nuts.cu's st).
const nutsState = 8

// NewNUTS drives gb_nuts for a program of dimension dim and chain frame
// frame (Source.Dim and Source.Frame) on dev.
func NewNUTS(dev Device, dim, frame int) *NUTS { return &NUTS{dev: dev, dim: dim, frame: frame} }

// NUTSTreeSlots is the tree memory of one chain (nuts.cu's
// gb_nuts_layout): five points and one per level, the levels' weights,
// momentum sums and checkpoints, and the trajectory's ends.
func NUTSTreeSlots(d, maxDepth int) int {
	return (5+maxDepth)*(3*d+1) + maxDepth + d*(5*maxDepth+16)
}

func (u *NUTS) alloc(n, depth int) error {
	d := u.dim
	work := 1
	if 2*u.frame > WalkLocalFrame {
		work = n * 2 * u.frame
	}
	for _, b := range []struct {
		id Buf
		n  int
	}{{nbufX, d * n}, {nbufG, d * n}, {nbufLP, n}, {nbufState, nutsState * n}, {nbufInvM, n * d}, {nbufSqrtInv, n * d},
		{nbufWMean, d * n}, {nbufWM2, d * n}, {nbufMean, d * n}, {nbufM2, d * n}, {nbufTree, n * NUTSTreeSlots(d, depth)},
		{nbufWork, work}, {nbufParams, 13}} {
		if err := u.dev.Alloc(int(b.id), max(1, b.n)); err != nil {
			return err
		}
	}
	u.chains, u.depth, u.kept = n, depth, -1
	u.params = make([]float64, 13)
	u.fail = make([]float64, 2*n)
	return nil
}

// Run runs one segment (see accel.NUTSSegment).
func (u *NUTS) Run(s *accel.NUTSSegment) error {
	d, n, dev := u.dim, s.Chains, u.dev
	if err := s.Check(d); err != nil {
		return fmt.Errorf("cgen: %v", err)
	}
	if !u.tables {
		if err := putTables(dev); err != nil {
			return err
		}
		u.tables = true
	}
	if n != u.chains || s.MaxDepth != u.depth {
		if err := u.alloc(n, s.MaxDepth); err != nil {
			return err
		}
	}
	if s.Load {
		// A new start: state, windows and moments begin again.
		for _, id := range []Buf{nbufState, nbufWMean, nbufWM2, nbufMean, nbufM2} {
			size := d * n
			if id == nbufState {
				size = nutsState * n
			}
			if err := dev.Alloc(int(id), max(1, size)); err != nil {
				return err
			}
		}
		for _, b := range []struct {
			id Buf
			v  []float64
		}{{nbufX, s.X}, {nbufG, s.Grad}, {nbufLP, s.LP}} {
			if err := dev.Put(int(b.id), 0, b.v); err != nil {
				return err
			}
		}
	}
	if k := s.Steps * d * s.Keep; k+s.Steps*accel.NUTSKeptStats*s.Keep > u.kept {
		if err := dev.Alloc(int(nbufKX), max(1, k)); err != nil {
			return err
		}
		if err := dev.Alloc(int(nbufKS), max(1, s.Steps*accel.NUTSKeptStats*s.Keep)); err != nil {
			return err
		}
		u.kept = k + s.Steps*accel.NUTSKeptStats*s.Keep
	}
	p := u.params
	load := 0.0
	if s.Load {
		load = 1
	}
	p[0], p[1], p[2], p[3], p[4], p[5] = float64(s.MaxDepth), s.MaxDeltaH, s.TargetAccept, load, s.StepSize, float64(s.HeuristicStep)
	p[6], p[7], p[8], p[9], p[10] = float64(s.Step0), float64(s.Steps), float64(s.Warmup), float64(s.WindowStart), float64(s.WindowEnd)
	p[11], p[12] = float64(s.Keep), float64(NUTSTreeSlots(d, s.MaxDepth))
	if err := dev.Put(int(nbufParams), 0, p); err != nil {
		return err
	}
	if s.Steps > 0 || s.Load {
		if err := dev.Launch(KernelNUTS, n, nbufX, nbufG, nbufLP, nbufState, nbufInvM, nbufSqrtInv, nbufWMean, nbufWM2,
			nbufMean, nbufM2, nbufKX, nbufKS, nbufTree, nbufWork, bufZK, bufZF, Data, nbufParams, int64(s.Seed),
			int64(n)); err != nil {
			return err
		}
	}
	if s.Keep > 0 && s.Steps > 0 {
		s.KeptX = grow(s.KeptX, s.Steps*d*s.Keep)
		s.KeptStats = grow(s.KeptStats, s.Steps*accel.NUTSKeptStats*s.Keep)
		if err := dev.Get(int(nbufKX), 0, s.KeptX); err != nil {
			return err
		}
		if err := dev.Get(int(nbufKS), 0, s.KeptStats); err != nil {
			return err
		}
	}
	// The heuristic runs at a load and at a window's end: did it fail?
	s.Failed, s.FailedStepSize = 0, 0
	if s.Load || s.WindowEnd > s.Step0 && s.WindowEnd <= s.Step0+s.Steps {
		if err := dev.Get(int(nbufState), 6*n, u.fail); err != nil {
			return err
		}
		for c, f := range u.fail[:n] {
			if f != 0 {
				s.Failed, s.FailedStepSize = c+1, u.fail[n+c]
				break
			}
		}
	}
	if s.Read {
		for _, b := range []struct {
			id  Buf
			off int
			v   []float64
		}{{nbufX, 0, s.X}, {nbufG, 0, s.Grad}, {nbufLP, 0, s.LP}, {nbufMean, 0, s.Mean}, {nbufM2, 0, s.M2},
			{nbufState, 0, s.StepSizes}, {nbufInvM, 0, s.InvMetric}, {nbufState, 5 * n, s.GradEvals}} {
			if err := dev.Get(int(b.id), b.off, b.v); err != nil {
				return err
			}
		}
	}
	return nil
}
