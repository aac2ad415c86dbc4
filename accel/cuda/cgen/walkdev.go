package cgen

import (
	"fmt"
	"math"

	"github.com/gobayes/gobayes/accel"
)

// Walker runs segments of random-walk Metropolis (accel.Walk) with
// walk.cu's gb_rwmh on a Device, as HMC runs iterations: the chains'
// state stays in the device's buffers between segments, and the same Go
// drives a GPU (accel/cuda) and the gcc-built process (GCCCompiled).
type Walker struct {
	dev          Device
	dim, frame   int
	chains, kept int
	tables       bool
}

// The buffers of a Walker (after HMC's: one Device serves both).
const (
	wbufX Buf = iota + 32
	wbufLP
	wbufMean
	wbufM2
	wbufScale
	wbufAcc
	wbufKX
	wbufKLP
	wbufKAcc
	wbufWork
)

// NewWalker drives gb_rwmh for a program of dimension dim and chain frame
// frame on dev.
func NewWalker(dev Device, dim, frame int) *Walker { return &Walker{dev: dev, dim: dim, frame: frame} }

// Walk runs one call (see accel.Walk).
func (r *Walker) Walk(w *accel.Walk) error {
	d, n, dev := r.dim, w.Chains, r.dev
	if err := w.Check(d); err != nil {
		return err
	}
	if !r.tables {
		if err := putTables(dev); err != nil {
			return err
		}
		r.tables = true
	}
	if n != r.chains {
		work := 1
		if r.frame > WalkLocalFrame {
			work = n * r.frame
		}
		for _, b := range []struct {
			id Buf
			n  int
		}{{wbufX, d * n}, {wbufLP, n}, {wbufMean, d * n}, {wbufM2, d * n}, {wbufScale, d}, {wbufAcc, 1}, {wbufWork, work}} {
			if err := dev.Alloc(int(b.id), b.n); err != nil {
				return err
			}
		}
		r.chains, r.kept = n, -1
	}
	if w.Load {
		if err := dev.Put(int(wbufX), 0, w.X); err != nil {
			return err
		}
		if err := dev.Put(int(wbufLP), 0, w.LP); err != nil {
			return err
		}
	}
	if w.ClearMoments {
		for _, id := range []Buf{wbufMean, wbufM2} {
			if err := dev.Alloc(int(id), d*n); err != nil {
				return err
			}
		}
	}
	w.Accepted = 0
	if w.Steps > 0 {
		nx, nl := w.KeptLen(d)
		if nx+nl > r.kept {
			for _, b := range []struct {
				id Buf
				n  int
			}{{wbufKX, nx}, {wbufKLP, nl}, {wbufKAcc, nl}} {
				if err := dev.Alloc(int(b.id), b.n); err != nil {
					return err
				}
			}
			r.kept = nx + nl
		}
		if err := dev.Put(int(wbufScale), 0, w.Scale); err != nil {
			return err
		}
		if err := dev.Put(int(wbufAcc), 0, []float64{0}); err != nil {
			return err
		}
		if err := dev.Launch(KernelRWMH, n, wbufX, wbufLP, wbufMean, wbufM2, wbufScale, bufZK, bufZF, int64(w.Seed),
			int64(w.Step0), int64(w.Steps), int64(w.First), int64(w.Keep), wbufKX, wbufKLP, wbufKAcc, wbufAcc, wbufWork,
			Data, int64(n)); err != nil {
			return err
		}
		// The count is an unsigned 64-bit integer in the slot.
		var acc [1]float64
		if err := dev.Get(int(wbufAcc), 0, acc[:]); err != nil {
			return err
		}
		w.Accepted = int64(math.Float64bits(acc[0]))
		w.KeptX, w.KeptLP, w.KeptAcc = grow(w.KeptX, nx), grow(w.KeptLP, nl), grow(w.KeptAcc, nl)
		for _, b := range []struct {
			id Buf
			v  []float64
		}{{wbufKX, w.KeptX}, {wbufKLP, w.KeptLP}, {wbufKAcc, w.KeptAcc}} {
			if err := dev.Get(int(b.id), 0, b.v); err != nil {
				return err
			}
		}
	}
	if w.Read {
		for _, b := range []struct {
			id Buf
			v  []float64
		}{{wbufX, w.X}, {wbufLP, w.LP}, {wbufMean, w.Mean}, {wbufM2, w.M2}} {
			if err := dev.Get(int(b.id), 0, b.v); err != nil {
				return err
			}
		}
	}
	return nil
}

// putTables puts the ziggurats' tables (philox.Tables) in bufZK, two
// 32-bit thresholds to a slot, and bufZF.
func putTables(dev Device) error {
	zk, zf := WalkTables()
	packed := make([]float64, (len(zk)+1)/2)
	for i := range packed {
		packed[i] = math.Float64frombits(uint64(zk[2*i]) | uint64(zk[2*i+1])<<32)
	}
	if err := dev.Alloc(int(bufZK), len(packed)); err != nil {
		return err
	}
	if err := dev.Put(int(bufZK), 0, packed); err != nil {
		return err
	}
	if err := dev.Alloc(int(bufZF), len(zf)); err != nil {
		return err
	}
	if err := dev.Put(int(bufZF), 0, zf); err != nil {
		return fmt.Errorf("cgen: the walk's tables: %v", err)
	}
	return nil
}
