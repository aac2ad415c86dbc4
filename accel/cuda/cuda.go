//go:build cuda

package cuda

import (
	"crypto/sha256"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"gorgonia.org/cu"
	"gorgonia.org/cu/nvrtc"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cuda/cgen"
	"github.com/gobayes/gobayes/accel/ir"
)

var (
	_ accel.Backend  = (*Backend)(nil)
	_ accel.Compiled = (*Compiled)(nil)
)

// blockSize is the threads per block of the one-thread-per-chain kernels
// and the lanes per chain of the data-parallel kernel.
const blockSize = 128

// Data-parallel rule: a batch of fewer than DataParallelMaxChains chains
// of a program whose chain frame holds at least DataParallelMinFrame
// slots (large data) runs gb_logdensity_block, one block per chain;
// otherwise one thread per chain. First values, not yet measured on
// hardware (accel/cuda/GPU.md gives the command).
var (
	DataParallelMaxChains = 256
	DataParallelMinFrame  = 4096
)

// Backend is one CUDA device with its context.
type Backend struct {
	dev  cu.Device
	ctx  cu.CUContext
	info string
	arch string
	// ptx keeps NVRTC's output by the source's hash: a program compiled
	// again (a cell run again, each lockstep run of a benchmark) loads
	// its module without NVRTC (about a second for a large program).
	mu  sync.Mutex
	ptx map[[32]byte]string
}

// New opens device number dev and makes its context current on the
// calling OS thread.
func New(dev int) (*Backend, error) {
	n, err := cu.NumDevices()
	if err != nil {
		return nil, fmt.Errorf("cuda: counting devices: %v", err)
	}
	if n == 0 || dev >= n {
		return nil, fmt.Errorf("cuda: no CUDA device %d (found %d)", dev, n)
	}
	d := cu.Device(dev)
	name, err := d.Name()
	if err != nil {
		return nil, fmt.Errorf("cuda: device %d: %v", dev, err)
	}
	mem, _ := d.TotalMem()
	cc, err := d.Attributes(cu.ComputeCapabilityMajor, cu.ComputeCapabilityMinor)
	if err != nil {
		return nil, fmt.Errorf("cuda: device %d: %v", dev, err)
	}
	ctx, err := d.MakeContext(cu.SchedAuto)
	if err != nil {
		return nil, fmt.Errorf("cuda: context on device %d: %v", dev, err)
	}
	return &Backend{
		dev:  d,
		ctx:  ctx,
		info: fmt.Sprintf("%s (compute %d.%d, %.1f GiB)", name, cc[0], cc[1], float64(mem)/(1<<30)),
		arch: fmt.Sprintf("--gpu-architecture=compute_%d%d", cc[0], cc[1]),
	}, nil
}

// Name is "cuda".
func (b *Backend) Name() string { return "cuda" }

// Info describes the device.
func (b *Backend) Info() string { return b.info }

// bind makes the backend's context current on the calling goroutine's OS
// thread, locked to it until the returned function runs: a CUDA context
// is current per thread, and callers (tests' subtests, the samplers) may
// call from any goroutine.
func (b *Backend) bind() (func(), error) {
	runtime.LockOSThread()
	if err := cu.SetCurrentContext(b.ctx); err != nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("cuda: making the context current: %v", err)
	}
	return runtime.UnlockOSThread, nil
}

// Compile generates the program's CUDA C, compiles it with NVRTC, loads
// the module and copies the data to the device.
func (b *Backend) Compile(p *ir.Program) (accel.Compiled, error) {
	unbind, err := b.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	src, err := cgen.Generate(p)
	if err != nil {
		return nil, err
	}
	ptx, err := b.compilePTX(src)
	if err != nil {
		return nil, err
	}
	mod, err := cu.LoadData(ptx)
	if err != nil {
		return nil, fmt.Errorf("cuda: loading the module: %v", err)
	}
	c := &Compiled{b: b, src: src, mod: mod}
	if c.eval, err = mod.Function("gb_logdensity"); err == nil {
		if c.leap, err = mod.Function("gb_leapfrog"); err == nil {
			if c.block, err = mod.Function("gb_logdensity_block"); err == nil {
				c.leapBlock, err = mod.Function("gb_leapfrog_block")
			}
		}
	}
	if err != nil {
		mod.Unload()
		return nil, fmt.Errorf("cuda: kernel lookup: %v", err)
	}
	if c.data, err = upload(src.Data); err != nil {
		mod.Unload()
		return nil, err
	}
	return c, nil
}

// compilePTX compiles src with NVRTC, or returns the PTX of the same
// source compiled before.
func (b *Backend) compilePTX(src *cgen.Source) (string, error) {
	key := sha256.Sum256([]byte(src.Code))
	b.mu.Lock()
	defer b.mu.Unlock()
	if ptx, ok := b.ptx[key]; ok {
		return ptx, nil
	}
	prog, err := nvrtc.CreateProgram(cgen.CUDAPrelude+src.Code, "gobayes_model.cu")
	if err != nil {
		return "", fmt.Errorf("cuda: NVRTC: %v", err)
	}
	defer prog.Destroy()
	// No fused multiply-add, so that the device rounds as the CPU does.
	if err := prog.Compile(b.arch, "--fmad=false"); err != nil {
		log, _ := prog.GetLog()
		return "", fmt.Errorf("cuda: NVRTC rejected the generated source: %v\n%s", err, log)
	}
	ptx, err := prog.GetPTX()
	if err != nil {
		return "", fmt.Errorf("cuda: NVRTC: %v", err)
	}
	if b.ptx == nil || len(b.ptx) >= 32 {
		b.ptx = map[[32]byte]string{} // a bound on what a long session keeps
	}
	b.ptx[key] = ptx
	return ptx, nil
}

// buffer is device memory that grows on demand.
type buffer struct {
	ptr   cu.DevicePtr
	bytes int64
}

func (m *buffer) reserve(bytes int64) error {
	if bytes <= m.bytes {
		return nil
	}
	m.free()
	ptr, err := cu.MemAlloc(bytes)
	if err != nil {
		return fmt.Errorf("cuda: allocating %d bytes: %v (fewer chains need less)", bytes, err)
	}
	m.ptr, m.bytes = ptr, bytes
	return nil
}

func (m *buffer) free() {
	if m.bytes > 0 {
		cu.MemFree(m.ptr)
		m.ptr, m.bytes = 0, 0
	}
}

func (m *buffer) put(v []float64) error {
	if err := m.reserve(int64(8 * max(len(v), 1))); err != nil {
		return err
	}
	if len(v) == 0 {
		return nil
	}
	return cu.MemcpyHtoD(m.ptr, unsafe.Pointer(&v[0]), int64(8*len(v)))
}

func (m *buffer) get(v []float64) error {
	if len(v) == 0 {
		return nil
	}
	return cu.MemcpyDtoH(unsafe.Pointer(&v[0]), m.ptr, int64(8*len(v)))
}

func upload(v []float64) (buffer, error) {
	var m buffer
	return m, m.put(v)
}

// Compiled is a program loaded on the device.
type Compiled struct {
	b          *Backend
	src        *cgen.Source
	mod        cu.Module
	eval, leap cu.Function
	block      cu.Function // the data-parallel log density
	leapBlock  cu.Function // the data-parallel leapfrog
	data       buffer      // the program's constants (K)
	// Work buffers, grown to the largest batch seen.
	xs, lps, grads, work, p, eps, invm, steps buffer
	steps64                                   []int64
	// The Device API's buffers and kernels (cgen.HMC's iterations).
	bufs   []buffer
	fns    map[cgen.Kernel]cu.Function
	hmc    *cgen.HMC
	walker *cgen.Walker
	nuts   *cgen.NUTS
	vals   []uint64         // Launch's parameter values
	params []unsafe.Pointer // and pointers to them
}

// Dim is the position length.
func (c *Compiled) Dim() int { return c.src.Dim }

// launch runs fn over b chains with the given kernel parameters: every
// one 8 bytes (device pointers and long long), as cu copies them.
func launch(fn cu.Function, b int, params ...unsafe.Pointer) error {
	grid := (b + blockSize - 1) / blockSize
	return fn.LaunchAndSync(grid, 1, 1, blockSize, 1, 1, 0, cu.NoStream, params)
}

// LogDensityGrad evaluates a batch on the device.
func (c *Compiled) LogDensityGrad(xs, lps, grads []float64) error {
	unbind, err := c.b.bind()
	if err != nil {
		return err
	}
	defer unbind()
	d := c.src.Dim
	if err := accel.CheckBatch(d, xs, lps, grads); err != nil {
		return err
	}
	b := len(lps)
	if b == 0 {
		return nil
	}
	if err := c.reserve(b); err != nil {
		return err
	}
	if err := c.xs.put(xs); err != nil {
		return err
	}
	want := int64(0)
	if grads != nil {
		want = 1
	}
	nb := int64(b)
	if c.dataParallel(b) {
		// One block of blockSize lanes per chain.
		if err := c.block.LaunchAndSync(b, 1, 1, blockSize, 1, 1, 0, cu.NoStream, []unsafe.Pointer{unsafe.Pointer(&c.xs.ptr),
			unsafe.Pointer(&c.lps.ptr), unsafe.Pointer(&c.grads.ptr), unsafe.Pointer(&c.work.ptr), unsafe.Pointer(&c.data.ptr),
			unsafe.Pointer(&nb), unsafe.Pointer(&want)}); err != nil {
			return fmt.Errorf("cuda: gb_logdensity_block: %v", err)
		}
	} else if err := launch(c.eval, b, unsafe.Pointer(&c.xs.ptr), unsafe.Pointer(&c.lps.ptr), unsafe.Pointer(&c.grads.ptr),
		unsafe.Pointer(&c.work.ptr), unsafe.Pointer(&c.data.ptr), unsafe.Pointer(&nb), unsafe.Pointer(&want)); err != nil {
		return fmt.Errorf("cuda: gb_logdensity: %v", err)
	}
	if err := c.lps.get(lps); err != nil {
		return err
	}
	if grads != nil {
		return c.grads.get(grads)
	}
	return nil
}

// dataParallel applies the rule of DataParallelMaxChains and
// DataParallelMinFrame to a batch of b chains.
func (c *Compiled) dataParallel(b int) bool {
	return b < DataParallelMaxChains && c.src.Frame >= DataParallelMinFrame
}

func (c *Compiled) reserve(b int) error {
	d, f := int64(c.src.Dim), int64(c.src.Frame)
	nb := int64(b)
	for _, r := range []struct {
		m     *buffer
		bytes int64
	}{{&c.xs, 8 * nb * d}, {&c.lps, 8 * nb}, {&c.grads, 8 * nb * d}, {&c.work, 8 * nb * 2 * f}} {
		if err := r.m.reserve(max(r.bytes, 8)); err != nil {
			return err
		}
	}
	return nil
}

// Leapfrog runs the fused trajectory kernel.
func (c *Compiled) Leapfrog(t *accel.Trajectories) error {
	unbind, err := c.b.bind()
	if err != nil {
		return err
	}
	defer unbind()
	d := c.src.Dim
	if err := t.Check(d); err != nil {
		return err
	}
	b := len(t.LogDensity)
	if b == 0 {
		return nil
	}
	if err := c.reserve(b); err != nil {
		return err
	}
	for _, u := range []struct {
		m *buffer
		v []float64
	}{{&c.xs, t.Q}, {&c.p, t.P}, {&c.grads, t.Grad}, {&c.lps, t.LogDensity}, {&c.eps, t.StepSize}, {&c.invm, t.InvMetric}} {
		if err := u.m.put(u.v); err != nil {
			return err
		}
	}
	if err := c.steps.reserve(int64(8 * b)); err != nil {
		return err
	}
	per := int64(0)
	if len(t.InvMetric) != d {
		per = 1
	}
	n, nb := int64(t.N), int64(b)
	params := []unsafe.Pointer{unsafe.Pointer(&c.xs.ptr), unsafe.Pointer(&c.p.ptr), unsafe.Pointer(&c.grads.ptr),
		unsafe.Pointer(&c.lps.ptr), unsafe.Pointer(&c.eps.ptr), unsafe.Pointer(&c.invm.ptr), unsafe.Pointer(&per),
		unsafe.Pointer(&n), unsafe.Pointer(&c.steps.ptr), unsafe.Pointer(&c.work.ptr), unsafe.Pointer(&c.data.ptr),
		unsafe.Pointer(&nb)}
	if c.dataParallel(b) {
		if err := c.leapBlock.LaunchAndSync(b, 1, 1, blockSize, 1, 1, 0, cu.NoStream, params); err != nil {
			return fmt.Errorf("cuda: gb_leapfrog_block: %v", err)
		}
	} else if err := launch(c.leap, b, params...); err != nil {
		return fmt.Errorf("cuda: gb_leapfrog: %v", err)
	}
	for _, u := range []struct {
		m *buffer
		v []float64
	}{{&c.xs, t.Q}, {&c.p, t.P}, {&c.grads, t.Grad}, {&c.lps, t.LogDensity}} {
		if err := u.m.get(u.v); err != nil {
			return err
		}
	}
	if cap(c.steps64) < b {
		c.steps64 = make([]int64, b)
	}
	s := c.steps64[:b]
	if err := cu.MemcpyDtoH(unsafe.Pointer(&s[0]), c.steps.ptr, int64(8*b)); err != nil {
		return err
	}
	for i, v := range s {
		t.Steps[i] = int(v)
	}
	for i, lp := range t.LogDensity {
		t.LogDensity[i] = accel.Finite(lp)
	}
	return nil
}

// Close frees the device memory and unloads the module.
func (c *Compiled) Close() error {
	unbind, err := c.b.bind()
	if err != nil {
		return err
	}
	defer unbind()
	for _, m := range []*buffer{&c.data, &c.xs, &c.lps, &c.grads, &c.work, &c.p, &c.eps, &c.invm, &c.steps} {
		m.free()
	}
	for i := range c.bufs {
		c.bufs[i].free()
	}
	return c.mod.Unload()
}
