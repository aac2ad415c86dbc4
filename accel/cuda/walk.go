//go:build cuda

package cuda

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cuda/cgen"
)

var _ accel.Walker = (*Compiled)(nil)

// walkState is the chains' state of a walk, kept on the device between
// segments (accel.Walk), and the kernel's tables.
type walkState struct {
	fn                  cu.Function
	chains              int
	x, lp, mean, m2     buffer
	scale, zk, zf, acc  buffer
	kx, klp, kacc, work buffer
	tables              bool
}

// zero fills the first bytes of m with zeros.
func (m *buffer) zero(bytes int64) error {
	if bytes == 0 {
		return nil
	}
	return cu.MemsetD8(m.ptr, 0, bytes)
}

// Walk runs a segment of random-walk Metropolis: one launch of gb_rwmh
// for every chain and every step of the segment, the state staying on
// the device; only the count of acceptances, the kept chains' draws and,
// when asked, the state cross to the host.
func (c *Compiled) Walk(w *accel.Walk) error {
	unbind, err := c.b.bind()
	if err != nil {
		return err
	}
	defer unbind()
	d := c.src.Dim
	if err := w.Check(d); err != nil {
		return err
	}
	s := &c.walk
	if s.fn == (cu.Function{}) {
		if s.fn, err = c.mod.Function("gb_rwmh"); err != nil {
			return fmt.Errorf("cuda: kernel lookup: %v", err)
		}
	}
	if !s.tables {
		zk, zf := cgen.WalkTables()
		if err := s.zk.reserve(int64(4 * len(zk))); err != nil {
			return err
		}
		if err := cu.MemcpyHtoD(s.zk.ptr, unsafe.Pointer(&zk[0]), int64(4*len(zk))); err != nil {
			return err
		}
		if err := s.zf.put(zf); err != nil {
			return err
		}
		s.tables = true
	}
	n, nd := int64(w.Chains), int64(w.Chains*d)
	if w.Chains != s.chains {
		for _, r := range []struct {
			m     *buffer
			bytes int64
		}{{&s.x, 8 * nd}, {&s.lp, 8 * n}, {&s.mean, 8 * nd}, {&s.m2, 8 * nd}} {
			if err := r.m.reserve(r.bytes); err != nil {
				return err
			}
			if err := r.m.zero(r.bytes); err != nil {
				return err
			}
		}
		if c.src.Frame > cgen.WalkLocalFrame {
			if err := s.work.reserve(8 * n * int64(c.src.Frame)); err != nil {
				return err
			}
		}
		s.chains = w.Chains
	}
	if w.Load {
		if err := s.x.put(w.X); err != nil {
			return err
		}
		if err := s.lp.put(w.LP); err != nil {
			return err
		}
	}
	if w.ClearMoments {
		if err := s.mean.zero(8 * nd); err != nil {
			return err
		}
		if err := s.m2.zero(8 * nd); err != nil {
			return err
		}
	}
	w.Accepted = 0
	if w.Steps > 0 {
		nx, nl := w.KeptLen(d)
		w.KeptX, w.KeptLP, w.KeptAcc = grow(w.KeptX, nx), grow(w.KeptLP, nl), grow(w.KeptAcc, nl)
		for _, r := range []struct {
			m     *buffer
			bytes int64
		}{{&s.kx, 8 * int64(nx)}, {&s.klp, 8 * int64(nl)}, {&s.kacc, 8 * int64(nl)}, {&s.acc, 8}, {&s.work, 8}} {
			if err := r.m.reserve(max(r.bytes, 8)); err != nil {
				return err
			}
		}
		if err := s.scale.put(w.Scale); err != nil {
			return err
		}
		if err := s.acc.zero(8); err != nil {
			return err
		}
		seed, s0, steps, first, keep := int64(w.Seed), int64(w.Step0), int64(w.Steps), int64(w.First), int64(w.Keep)
		if err := launch(s.fn, w.Chains, unsafe.Pointer(&s.x.ptr), unsafe.Pointer(&s.lp.ptr), unsafe.Pointer(&s.mean.ptr),
			unsafe.Pointer(&s.m2.ptr), unsafe.Pointer(&s.scale.ptr), unsafe.Pointer(&s.zk.ptr), unsafe.Pointer(&s.zf.ptr),
			unsafe.Pointer(&seed), unsafe.Pointer(&s0), unsafe.Pointer(&steps), unsafe.Pointer(&first), unsafe.Pointer(&keep),
			unsafe.Pointer(&s.kx.ptr), unsafe.Pointer(&s.klp.ptr), unsafe.Pointer(&s.kacc.ptr), unsafe.Pointer(&s.acc.ptr),
			unsafe.Pointer(&s.work.ptr), unsafe.Pointer(&c.data.ptr), unsafe.Pointer(&n)); err != nil {
			return fmt.Errorf("cuda: gb_rwmh: %v", err)
		}
		var acc uint64
		if err := cu.MemcpyDtoH(unsafe.Pointer(&acc), s.acc.ptr, 8); err != nil {
			return err
		}
		w.Accepted = int64(acc)
		for _, r := range []struct {
			m *buffer
			v []float64
		}{{&s.kx, w.KeptX}, {&s.klp, w.KeptLP}, {&s.kacc, w.KeptAcc}} {
			if err := r.m.get(r.v); err != nil {
				return err
			}
		}
	}
	if w.Read {
		for _, r := range []struct {
			m *buffer
			v []float64
		}{{&s.x, w.X}, {&s.lp, w.LP}, {&s.mean, w.Mean}, {&s.m2, w.M2}} {
			if err := r.m.get(r.v); err != nil {
				return err
			}
		}
	}
	return nil
}

// Walks: one thread per chain suits every program the one-thread
// kernels suit (not the data-parallel rule's).
func (c *Compiled) Walks(chains int) bool { return !c.dataParallel(chains) }

// Iterates: as Walks.
func (c *Compiled) Iterates(chains int) bool { return !c.dataParallel(chains) }

// grow is v with length n, reusing its memory when it can.
func grow(v []float64, n int) []float64 {
	if cap(v) >= n {
		return v[:n]
	}
	return make([]float64, n)
}

// free releases the walk's device memory.
func (s *walkState) free() {
	for _, m := range []*buffer{&s.x, &s.lp, &s.mean, &s.m2, &s.scale, &s.zk, &s.zf, &s.acc, &s.kx, &s.klp, &s.kacc, &s.work} {
		m.free()
	}
	s.chains, s.tables = 0, false
}
