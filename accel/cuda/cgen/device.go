package cgen

import (
	"fmt"
	"math"

	"github.com/gobayes/gobayes/accel"
)

// Device is where the samplers' kernels of the generated source run, as
// the orchestration of an iteration (HMC) sees it: numbered buffers of
// float64 slots and launches of the kernels by name, one thread per item.
// accel/cuda implements it on a GPU; GCCCompiled on its gcc-built process
// (host.inc's driver), so that the same Go drives both and make test
// checks it without a GPU.
type Device interface {
	// Alloc makes buffer id hold n zeroed slots (dropping what it held).
	Alloc(id, n int) error
	// Put writes v at slot off of buffer id; Get reads len(v) slots.
	Put(id, off int, v []float64) error
	Get(id, off int, v []float64) error
	// Launch runs kernel k with one thread per item of threads. Each
	// argument is a Buf, Data (the program's constants), an int64 or a
	// float64.
	Launch(k Kernel, threads int, args ...any) error
}

// Buf names a Device buffer as a kernel argument.
type Buf int

// Data is the program's constants as a kernel argument.
const Data = Buf(-1)

// Kernel is a sampler kernel of the generated source; the numbers are
// host.inc's.
type Kernel int

// The sampler kernels of chees.cu, walk.cu and nuts.cu.
const (
	KernelHMCPropose Kernel = iota + 1
	KernelHMCCriterion
	KernelHMCAccept
	KernelSqDev
	KernelChunkSums
	KernelGHMCInitial
	KernelRWMH
	KernelNUTS // nuts.cu
)

// Name is the kernel's function name in the source.
func (k Kernel) Name() string {
	switch k {
	case KernelHMCPropose:
		return "gb_hmc_propose"
	case KernelHMCCriterion:
		return "gb_hmc_criterion"
	case KernelHMCAccept:
		return "gb_hmc_accept"
	case KernelSqDev:
		return "gb_sq_dev"
	case KernelChunkSums:
		return "gb_chunk_sums"
	case KernelGHMCInitial:
		return "gb_ghmc_initial"
	case KernelRWMH:
		return "gb_rwmh"
	case KernelNUTS:
		return "gb_nuts"
	}
	return fmt.Sprintf("kernel %d", int(k))
}

// SumChunk is accel.SumChunk, chees.cu's GB_SUM_CHUNK.
const SumChunk = accel.SumChunk

// device commands of GCCCompiled (host.inc).
func (c *GCCCompiled) Alloc(id, n int) error {
	c.ints(20, int64(id), int64(n))
	return c.flushErr()
}

func (c *GCCCompiled) Put(id, off int, v []float64) error {
	c.ints(21, int64(id), int64(off), int64(len(v)))
	c.floats(v)
	return c.flushErr()
}

func (c *GCCCompiled) Get(id, off int, v []float64) error {
	c.ints(22, int64(id), int64(off), int64(len(v)))
	c.read(v)
	return c.flushErr()
}

func (c *GCCCompiled) Launch(k Kernel, threads int, args ...any) error {
	c.ints(23, int64(k), int64(threads), int64(len(args)))
	for _, a := range args {
		switch v := a.(type) {
		case Buf:
			c.ints(1, int64(v))
		case int64:
			c.ints(0, v)
		case int:
			c.ints(0, int64(v))
		case float64:
			c.ints(0, int64(math.Float64bits(v)))
		default:
			return fmt.Errorf("cgen: %s: argument of type %T", k.Name(), a)
		}
	}
	return c.flushErr()
}

func (c *GCCCompiled) flushErr() error {
	if c.err == nil {
		c.err = c.w.Flush()
	}
	if c.err != nil {
		return fmt.Errorf("cgen: generated program: %v", c.err)
	}
	return nil
}
