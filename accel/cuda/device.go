//go:build cuda

package cuda

import (
	"fmt"
	"math"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cuda/cgen"
)

var (
	_ cgen.Device    = (*Compiled)(nil)
	_ accel.Iterator = (*Compiled)(nil)
)

// Iterate runs one lockstep HMC iteration on the device (cgen.HMC over
// this program's kernels): the chains stay in device memory between
// iterations.
func (c *Compiled) Iterate(it *accel.HMCIteration) error {
	unbind, err := c.b.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if c.hmc == nil {
		c.hmc = cgen.NewHMC(c, c.src.Dim, c.src.Frame)
	}
	return c.hmc.Iterate(it)
}

// devBuf is buffer id of the Device API.
func (c *Compiled) devBuf(id int) (*buffer, error) {
	if id < 0 || id >= 64 {
		return nil, fmt.Errorf("cuda: device buffer %d out of range", id)
	}
	if c.bufs == nil {
		c.bufs = make([]buffer, 64)
	}
	return &c.bufs[id], nil
}

// Alloc makes buffer id n zeroed slots.
func (c *Compiled) Alloc(id, n int) error {
	m, err := c.devBuf(id)
	if err != nil {
		return err
	}
	bytes := int64(8 * max(n, 1))
	if err := m.reserve(bytes); err != nil {
		return err
	}
	return cu.MemsetD8(m.ptr, 0, bytes)
}

// at is the device address of slot off of buffer id, checked to hold n
// slots from there.
func (c *Compiled) at(id, off, n int) (cu.DevicePtr, error) {
	m, err := c.devBuf(id)
	if err != nil {
		return 0, err
	}
	if off < 0 || int64(8*(off+n)) > m.bytes {
		return 0, fmt.Errorf("cuda: %d slots at %d of a buffer of %d bytes", n, off, m.bytes)
	}
	return m.ptr + cu.DevicePtr(8*off), nil
}

// Put writes v at slot off of buffer id.
func (c *Compiled) Put(id, off int, v []float64) error {
	if len(v) == 0 {
		return nil
	}
	p, err := c.at(id, off, len(v))
	if err != nil {
		return err
	}
	return cu.MemcpyHtoD(p, unsafe.Pointer(&v[0]), int64(8*len(v)))
}

// Get reads len(v) slots at off of buffer id.
func (c *Compiled) Get(id, off int, v []float64) error {
	if len(v) == 0 {
		return nil
	}
	p, err := c.at(id, off, len(v))
	if err != nil {
		return err
	}
	return cu.MemcpyDtoH(unsafe.Pointer(&v[0]), p, int64(8*len(v)))
}

// Launch runs kernel k with one thread per item, blockSize threads a
// block; every argument passes as 8 bytes. It does not wait: launches and
// copies on the default stream run in order, and Get's copy waits for the
// kernels before it (a kernel's error surfaces there), so an iteration
// pays one wait per result it reads rather than one per launch.
func (c *Compiled) Launch(k cgen.Kernel, threads int, args ...any) error {
	if threads <= 0 {
		return nil
	}
	if c.fns == nil {
		c.fns = map[cgen.Kernel]cu.Function{}
	}
	fn, ok := c.fns[k]
	if !ok {
		f, err := c.mod.Function(k.Name())
		if err != nil {
			return fmt.Errorf("cuda: kernel lookup %s: %v", k.Name(), err)
		}
		c.fns[k], fn = f, f
	}
	// The launch copies the parameters' values: the slices serve the next.
	if cap(c.vals) < len(args) {
		c.vals, c.params = make([]uint64, len(args)), make([]unsafe.Pointer, len(args))
	}
	vals, params := c.vals[:len(args)], c.params[:len(args)]
	for i, a := range args {
		switch v := a.(type) {
		case cgen.Buf:
			if v == cgen.Data {
				vals[i] = uint64(c.data.ptr)
			} else {
				m, err := c.devBuf(int(v))
				if err != nil {
					return err
				}
				vals[i] = uint64(m.ptr)
			}
		case int64:
			vals[i] = uint64(v)
		case int:
			vals[i] = uint64(int64(v))
		case float64:
			vals[i] = math.Float64bits(v)
		default:
			return fmt.Errorf("cuda: %s: argument of type %T", k.Name(), a)
		}
		params[i] = unsafe.Pointer(&vals[i])
	}
	grid := (threads + blockSize - 1) / blockSize
	if err := fn.Launch(grid, 1, 1, blockSize, 1, 1, 0, cu.NoStream, params); err != nil {
		return fmt.Errorf("cuda: %s: %v", k.Name(), err)
	}
	return nil
}
