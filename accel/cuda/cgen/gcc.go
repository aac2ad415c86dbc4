package cgen

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/ir"
)

var (
	_ accel.Backend    = (*GCC)(nil)
	_ accel.Compiled   = (*GCCCompiled)(nil)
	_ accel.Walker     = (*GCCCompiled)(nil)
	_ accel.Iterator   = (*GCCCompiled)(nil)
	_ accel.NUTSRunner = (*GCCCompiled)(nil)
)

// GCC is an accel backend that runs the generated CUDA C on the CPU:
// it compiles Shim + the source + a pipe server with gcc -O2 and talks to
// the process. It exists to test the generator on machines without a
// GPU; it is slow to start (one compile per program) and not registered.
type GCC struct {
	// CC is the compiler (empty: "gcc"); Dir keeps the sources and
	// binaries (empty: a temporary directory per program).
	CC, Dir string
	// Lanes, when positive, runs the data-parallel kernels (one block of
	// Lanes threads per chain) instead of one thread per chain.
	Lanes int
}

// NewGCC returns the backend with the default compiler.
func NewGCC() *GCC { return &GCC{} }

// Name is "gcc".
func (g *GCC) Name() string { return "gcc" }

// HostSource is the whole C file Compile builds for p.
func HostSource(p *ir.Program) (string, *Source, error) {
	src, err := Generate(p)
	if err != nil {
		return "", nil, err
	}
	return Shim + src.Code + hostMain, src, nil
}

// Compile generates, builds and starts the program.
func (g *GCC) Compile(p *ir.Program) (accel.Compiled, error) {
	code, src, err := HostSource(p)
	if err != nil {
		return nil, err
	}
	cc := g.CC
	if cc == "" {
		cc = "gcc"
	}
	dir := g.Dir
	tmp := ""
	if dir == "" {
		if tmp, err = os.MkdirTemp("", "gobayes-cgen-"); err != nil {
			return nil, fmt.Errorf("cgen: %v", err)
		}
		dir = tmp
	}
	cfile, bin := filepath.Join(dir, "model.c"), filepath.Join(dir, "model")
	if err := os.WriteFile(cfile, []byte(code), 0o644); err != nil {
		return nil, fmt.Errorf("cgen: %v", err)
	}
	// -ffp-contract=off: no fused multiply-add, as Go on amd64 computes.
	out, err := exec.Command(cc, "-O2", "-ffp-contract=off", "-pthread", "-o", bin, cfile, "-lm").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("cgen: %s failed on the generated source %s: %v\n%s", cc, cfile, err, out)
	}
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cgen: starting %s: %v", bin, err)
	}
	c := &GCCCompiled{dim: p.Dim, frame: src.Frame, lanes: g.Lanes, cmd: cmd, in: in, w: bufio.NewWriter(in), r: bufio.NewReader(stdout), tmp: tmp}
	c.ints(int64(len(src.Data)))
	c.floats(src.Data)
	return c, nil
}

// GCCCompiled is a program running in a gcc-built process.
type GCCCompiled struct {
	dim    int
	frame  int
	hmc    *HMC
	lanes  int
	cmd    *exec.Cmd
	in     io.WriteCloser
	w      *bufio.Writer
	r      *bufio.Reader
	tmp    string
	err    error
	walker *Walker
	nuts   *NUTS
}

// Dim is the position length.
func (c *GCCCompiled) Dim() int { return c.dim }

func (c *GCCCompiled) ints(v ...int64) {
	if c.err == nil {
		c.err = binary.Write(c.w, binary.NativeEndian, v)
	}
}

func (c *GCCCompiled) floats(v []float64) {
	if c.err == nil {
		c.err = binary.Write(c.w, binary.NativeEndian, v)
	}
}

func (c *GCCCompiled) read(v any) {
	if c.err == nil {
		c.err = c.w.Flush()
	}
	if c.err == nil {
		c.err = binary.Read(c.r, binary.NativeEndian, v)
	}
}

// LogDensityGrad evaluates a batch in the process.
func (c *GCCCompiled) LogDensityGrad(xs, lps, grads []float64) error {
	if err := accel.CheckBatch(c.dim, xs, lps, grads); err != nil {
		return err
	}
	if len(lps) == 0 {
		return nil
	}
	want := int64(0)
	if grads != nil {
		want = 1
	}
	if c.lanes > 0 {
		c.ints(3, int64(len(lps)), want, int64(c.lanes))
	} else {
		c.ints(1, int64(len(lps)), want)
	}
	c.floats(xs)
	c.read(lps)
	if grads != nil {
		c.read(grads)
	}
	if c.err != nil {
		return fmt.Errorf("cgen: generated program: %v", c.err)
	}
	return nil
}

// Leapfrog runs the fused trajectory kernel in the process.
func (c *GCCCompiled) Leapfrog(t *accel.Trajectories) error {
	if err := t.Check(c.dim); err != nil {
		return err
	}
	b := len(t.LogDensity)
	if b == 0 {
		return nil
	}
	per := int64(0)
	if len(t.InvMetric) != c.dim {
		per = 1
	}
	if c.lanes > 0 {
		c.ints(4, int64(b), int64(t.N), per, int64(c.lanes))
	} else {
		c.ints(2, int64(b), int64(t.N), per)
	}
	for _, v := range [][]float64{t.Q, t.P, t.Grad, t.LogDensity, t.StepSize, t.InvMetric} {
		c.floats(v)
	}
	for _, v := range [][]float64{t.Q, t.P, t.Grad, t.LogDensity} {
		c.read(v)
	}
	steps := make([]int64, b)
	c.read(steps)
	if c.err != nil {
		return fmt.Errorf("cgen: generated program: %v", c.err)
	}
	for i, s := range steps {
		t.Steps[i] = int(s)
	}
	for i, lp := range t.LogDensity {
		t.LogDensity[i] = accel.Finite(lp)
	}
	return nil
}

// Walk runs a segment of random-walk Metropolis by the kernel gb_rwmh,
// driven by Walker through the process's device commands.
func (c *GCCCompiled) Walk(w *accel.Walk) error {
	if c.walker == nil {
		c.walker = NewWalker(c, c.dim, c.frame)
	}
	return c.walker.Walk(w)
}

// grow is s with length n, reusing its memory when it can.
func grow(s []float64, n int) []float64 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float64, n)
}

// Iterate runs one lockstep HMC iteration by the kernels of chees.cu,
// driven by HMC through the process's device commands.
func (c *GCCCompiled) Iterate(it *accel.HMCIteration) error {
	if c.hmc == nil {
		c.hmc = NewHMC(c, c.dim, c.frame)
	}
	return c.hmc.Iterate(it)
}

// RunNUTS runs a segment of lockstep NUTS by the kernel gb_nuts, driven
// by NUTS through the process's device commands.
func (c *GCCCompiled) RunNUTS(s *accel.NUTSSegment) error {
	if c.nuts == nil {
		c.nuts = NewNUTS(c, c.dim, c.frame)
	}
	return c.nuts.Run(s)
}

// RunsNUTS: as Walks.
func (c *GCCCompiled) RunsNUTS(int) bool { return c.lanes == 0 }

// Walks and Iterates: the gcc build runs the samplers' kernels unless it
// was asked for the data-parallel kernels (Lanes).
func (c *GCCCompiled) Walks(int) bool    { return c.lanes == 0 }
func (c *GCCCompiled) Iterates(int) bool { return c.lanes == 0 }

// Close ends the process and removes its temporary directory.
func (c *GCCCompiled) Close() error {
	c.ints(0)
	if c.err == nil {
		c.err = c.w.Flush()
	}
	c.in.Close()
	err := c.cmd.Wait()
	if c.tmp != "" {
		os.RemoveAll(c.tmp)
	}
	return err
}
