package mpi

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cpu"
	"github.com/gobayes/gobayes/accel/filerows"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/remote"
)

// Comm is what a rank needs of MPI: collectives over every rank of the
// job, rank 0 the root. accel/mpi/ompi implements it over Open MPI
// (build tag mpi); every rank must make the same calls in the same order.
type Comm interface {
	Rank() int
	Size() int
	BcastInts(v []int64)
	BcastFloats(v []float64)
	BcastBytes(v []byte)
	// ScattervFloats sends counts[r] values of the root's send, in rank
	// order, to rank r's recv (len counts[r]); send is ignored off the root.
	ScattervFloats(send []float64, counts []int, recv []float64)
	// GathervFloats is the reverse: rank r's send (counts[r] values) into
	// the root's recv, in rank order.
	GathervFloats(send, recv []float64, counts []int)
	ScattervBytes(send []byte, counts []int, recv []byte)
	GathervBytes(send, recv []byte, counts []int)
}

// The commands rank 0 broadcasts to the others, as the first value of a
// header; every rank then takes part in the same collectives.
const (
	cmdQuit = iota
	cmdCompileChains
	cmdCompileData
	cmdEval
	cmdLeapfrog
	cmdClose
)

// header is one command: [cmd, handle, a, b, c].
type header [5]int64

// Rank is one process of the job: its programs by handle. Its methods are
// called from one goroutine (MPI_THREAD_SERIALIZED).
type Rank struct {
	comm    Comm
	threads int
	chunk   int // bytes of one scatter (DefaultScatterChunk)
	progs   map[int64]*rankProgram
	next    int64
	// The other ranks' encoded blocks and their byte counts, for the
	// scatter of the next data-mode compile (rank 0 only).
	scatter       []byte
	scatterCounts []int64
}

// rankProgram is one compiled program on one rank.
type rankProgram struct {
	dim  int
	data bool
	// Chains mode: the whole program on accel/cpu; each rank evaluates its
	// share of the chains.
	acc accel.Compiled
	// Data mode: the rank's blocks of rows (and, on rank 0, the main
	// program); every rank evaluates every position.
	main   *ir.Frame
	blocks []*ir.Frame
	tmp    []float64
}

// NewRank is this process's part of the job: threads is the number of
// goroutines accel/cpu evaluates a rank's chains on (0: GOMAXPROCS).
func NewRank(c Comm, threads int) *Rank {
	return &Rank{comm: c, threads: threads, chunk: DefaultScatterChunk, progs: map[int64]*rankProgram{}}
}

// SetScatterChunk sets the bytes of one scatter round (tests make it
// small, so that the rounds of a multi-gigabyte placement are exercised).
func (r *Rank) SetScatterChunk(n int) { r.chunk = max(n, 1) }

// Follow runs a rank other than 0: it carries out rank 0's commands until
// the quit command.
func (r *Rank) Follow() error {
	for {
		var h header
		r.comm.BcastInts(h[:])
		switch h[0] {
		case cmdQuit:
			return nil
		case cmdCompileChains:
			r.agree(r.compileChains(h, nil))
		case cmdCompileData:
			r.agree(r.compileData(h, nil, nil))
		case cmdEval:
			r.eval(h, nil, nil, nil)
		case cmdLeapfrog:
			r.leapfrog(h, nil)
		case cmdClose:
			delete(r.progs, h[1])
		default:
			return fmt.Errorf("rank %d: unknown command %d from rank 0", r.comm.Rank(), h[0])
		}
	}
}

// Lead runs rank 0: it serves the accel/remote protocol on conn (the
// control link to the kernel) with the job as its backend, described by
// info in the hello, then tells the other ranks to quit.
func (r *Rank) Lead(conn io.ReadWriter, info string) error {
	err := remote.Serve(conn, conn, &Backend{r: r}, info)
	r.comm.BcastInts((&header{cmdQuit})[:])
	return err
}

// Hosts describes where the ranks run ("2 ranks on node1, 2 on node2"):
// every rank calls it with its host name, in the same order as the other
// collectives; the answer is rank 0's.
func (r *Rank) Hosts(host string) string {
	n := r.comm.Size()
	all := r.gatherStrings(host)
	if r.comm.Rank() != 0 {
		return ""
	}
	var order []string
	per := map[string]int{}
	for _, h := range all {
		if per[h] == 0 {
			order = append(order, h)
		}
		per[h]++
	}
	parts := make([]string, len(order))
	for i, h := range order {
		parts[i] = fmt.Sprintf("%d on %s", per[h], h)
	}
	return fmt.Sprintf("%d ranks: %s", n, strings.Join(parts, ", "))
}

// gatherStrings collects every rank's s on rank 0, in rank order (nil on
// the other ranks): the lengths first, then the bytes.
func (r *Rank) gatherStrings(s string) []string {
	n := r.comm.Size()
	lens := make([]float64, n)
	r.comm.GathervFloats([]float64{float64(len(s))}, lens, ones(n))
	counts := make([]int, n)
	total := 0
	for i, l := range lens {
		counts[i] = int(l)
		total += counts[i]
	}
	var all []byte
	if r.comm.Rank() == 0 {
		all = make([]byte, total)
	}
	r.comm.GathervBytes([]byte(s), all, counts)
	if r.comm.Rank() != 0 {
		return nil
	}
	out := make([]string, n)
	off := 0
	for i, c := range counts {
		out[i] = string(all[off : off+c])
		off += c
	}
	return out
}

func ones(n int) []int {
	c := make([]int, n)
	for i := range c {
		c[i] = 1
	}
	return c
}

// split is the contiguous share [lo, hi) of n items of rank r of size.
func split(n, r, size int) (lo, hi int) { return r * n / size, (r + 1) * n / size }

// shares is every rank's count of n items (times per).
func shares(n, size, per int) []int {
	c := make([]int, size)
	for r := range c {
		lo, hi := split(n, r, size)
		c[r] = (hi - lo) * per
	}
	return c
}

// agree gathers every rank's error on rank 0: nil when all succeeded,
// otherwise one error naming the ranks that failed (rank 0's return).
func (r *Rank) agree(err error) error {
	msg := ""
	if err != nil {
		msg = err.Error()
		if msg == "" {
			msg = "failed"
		}
	}
	var errs []string
	for i, m := range r.gatherStrings(msg) {
		if m != "" {
			errs = append(errs, fmt.Sprintf("rank %d: %s", i, m))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(errs, "; "))
}

// compileChains: h = [cmd, handle, bytes]; prog is the root's encoded
// program, broadcast to every rank, which compiles it whole.
func (r *Rank) compileChains(h header, prog []byte) error {
	if r.comm.Rank() != 0 {
		prog = make([]byte, h[2])
	}
	r.comm.BcastBytes(prog)
	var p ir.Program
	if err := gob.NewDecoder(bytes.NewReader(prog)).Decode(&p); err != nil {
		return fmt.Errorf("decoding the program: %v", err)
	}
	acc, err := cpu.New(r.threads).Compile(&p)
	if err != nil {
		return err
	}
	r.progs[h[1]] = &rankProgram{dim: acc.Dim(), acc: acc}
	return nil
}

// compileData: h = [cmd, handle, dim]; then every rank's byte count, then
// each rank's encoded blocks scattered (rank 0 sends none to itself: main
// and own are its programs, already decoded).
func (r *Rank) compileData(h header, main *ir.Program, own []*ir.Program) error {
	n := r.comm.Size()
	counts := make([]int64, n)
	var parts []byte
	if r.comm.Rank() == 0 {
		// The root has encoded the others' blocks into r.scatter.
		parts = r.scatter
		copy(counts, r.scatterCounts)
		r.scatter, r.scatterCounts = nil, nil
	}
	r.comm.BcastInts(counts)
	ic := make([]int, n)
	for i, c := range counts {
		ic[i] = int(c)
	}
	mine := r.scatterBytes(parts, ic)
	progs := own
	if r.comm.Rank() != 0 {
		if err := gob.NewDecoder(bytes.NewReader(mine)).Decode(&progs); err != nil {
			return fmt.Errorf("decoding its blocks: %v", err)
		}
	}
	dim := int(h[2])
	rp := &rankProgram{dim: dim, data: true, tmp: make([]float64, dim)}
	if main != nil {
		rp.main = ir.NewFrame(main)
	}
	for _, p := range progs {
		if err := filerows.Fill(p); err != nil {
			return err
		}
		if p.Dim != dim {
			return fmt.Errorf("a block of %d parameters in a model of %d", p.Dim, dim)
		}
		rp.blocks = append(rp.blocks, ir.NewFrame(p))
	}
	r.progs[h[1]] = rp
	return nil
}

// DefaultScatterChunk bounds the bytes of one scatter: MPI counts and
// offsets are C ints, so a larger transfer goes in rounds.
const DefaultScatterChunk = 1 << 30

// scatterBytes sends counts[k] bytes of the root's all, in rank order, to
// rank k, in rounds of at most the rank's chunk of bytes in all.
func (r *Rank) scatterBytes(all []byte, counts []int) []byte {
	n, me := len(counts), r.comm.Rank()
	mine := make([]byte, 0, counts[me])
	per := max(1, r.chunk/n)
	sent := make([]int, n) // bytes of each rank's part sent so far
	offs := make([]int, n) // where each rank's part starts in all
	for k := 1; k < n; k++ {
		offs[k] = offs[k-1] + counts[k-1]
	}
	for {
		round, total := make([]int, n), 0
		for k := range n {
			round[k] = min(per, counts[k]-sent[k])
			total += round[k]
		}
		if total == 0 {
			return mine
		}
		var buf []byte
		if me == 0 {
			buf = make([]byte, 0, total)
			for k := range n {
				buf = append(buf, all[offs[k]+sent[k]:offs[k]+sent[k]+round[k]]...)
			}
		}
		got := make([]byte, round[me])
		r.comm.ScattervBytes(buf, round, got)
		mine = append(mine, got...)
		for k := range n {
			sent[k] += round[k]
		}
	}
}

// eval: h = [cmd, handle, B, grad]. The root's xs, lps and grads are the
// call's; the other ranks pass nil.
func (r *Rank) eval(h header, xs, lps, grads []float64) {
	p := r.progs[h[1]]
	b, withGrad := int(h[2]), h[3] != 0
	d, n, root := p.dim, r.comm.Size(), r.comm.Rank() == 0
	if p.data {
		// Every rank: every position, its own rows.
		if !root {
			xs = make([]float64, b*d)
		}
		r.comm.BcastFloats(xs)
		per := 1
		if withGrad {
			per += d
		}
		part := make([]float64, b*per) // [lps B][grads B×D]
		for i := range b {
			x := xs[i*d : (i+1)*d]
			var g []float64
			if withGrad {
				g = part[b+i*d : b+(i+1)*d]
			}
			part[i] = p.density(x, g)
		}
		var all []float64
		if root {
			all = make([]float64, n*b*per)
		}
		r.comm.GathervFloats(part, all, equal(n, b*per))
		if !root {
			return
		}
		// Rank order: rank 0's sum (the main program, then its blocks in
		// row order), then rank 1's, … — each rank's blocks in row order.
		for i := range lps {
			lps[i] = 0
		}
		if withGrad {
			clear(grads)
		}
		for k := range n {
			q := all[k*b*per : (k+1)*b*per]
			for i := range b {
				lps[i] += q[i]
			}
			if withGrad {
				for j, g := range q[b:] {
					grads[j] += g
				}
			}
		}
		for i := range lps {
			lps[i] = accel.Finite(lps[i])
		}
		return
	}
	// Chains mode: each rank its contiguous share of the positions.
	lo, hi := split(b, r.comm.Rank(), n)
	m := hi - lo
	myX, myLp := make([]float64, m*d), make([]float64, m)
	var myG []float64
	if withGrad {
		myG = make([]float64, m*d)
	}
	r.comm.ScattervFloats(xs, shares(b, n, d), myX)
	if err := p.acc.LogDensityGrad(myX, myLp, myG); err != nil {
		panic(err)
	}
	r.comm.GathervFloats(myLp, lps, shares(b, n, 1))
	if withGrad {
		r.comm.GathervFloats(myG, grads, shares(b, n, d))
	}
}

// density is this rank's part of the log density at x (the main program
// on rank 0, then its blocks in row order), its gradient added into g
// when g is not nil.
func (p *rankProgram) density(x, g []float64) float64 {
	lp := 0.0
	if p.main != nil {
		if g != nil {
			lp = p.main.Gradient(x, g)
		} else {
			lp = p.main.Forward(x)
		}
	}
	for _, f := range p.blocks {
		if g == nil {
			lp += f.Forward(x)
			continue
		}
		lp += f.Gradient(x, p.tmp)
		for j, v := range p.tmp {
			g[j] += v
		}
	}
	return lp
}

func equal(n, c int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = c
	}
	return s
}

// leapfrog: h = [cmd, handle, B, steps, shared metric]; chains mode only:
// each rank runs its share of the trajectories on accel/cpu.
func (r *Rank) leapfrog(h header, t *accel.Trajectories) {
	p := r.progs[h[1]]
	b, d, n := int(h[2]), p.dim, r.comm.Size()
	lo, hi := split(b, r.comm.Rank(), n)
	m := hi - lo
	if t == nil {
		t = &accel.Trajectories{}
	}
	my := &accel.Trajectories{
		Q: make([]float64, m*d), P: make([]float64, m*d), Grad: make([]float64, m*d),
		LogDensity: make([]float64, m), StepSize: make([]float64, m), Steps: make([]int, m), N: int(h[3]),
	}
	rows, ones := shares(b, n, d), shares(b, n, 1)
	r.comm.ScattervFloats(t.Q, rows, my.Q)
	r.comm.ScattervFloats(t.P, rows, my.P)
	r.comm.ScattervFloats(t.Grad, rows, my.Grad)
	r.comm.ScattervFloats(t.LogDensity, ones, my.LogDensity)
	r.comm.ScattervFloats(t.StepSize, ones, my.StepSize)
	if h[4] != 0 {
		my.InvMetric = make([]float64, d)
		copy(my.InvMetric, t.InvMetric)
		r.comm.BcastFloats(my.InvMetric)
	} else {
		my.InvMetric = make([]float64, m*d)
		r.comm.ScattervFloats(t.InvMetric, rows, my.InvMetric)
	}
	if err := p.acc.Leapfrog(my); err != nil {
		panic(err)
	}
	steps := make([]float64, m)
	for i, s := range my.Steps {
		steps[i] = float64(s)
	}
	var allSteps []float64
	if r.comm.Rank() == 0 {
		allSteps = make([]float64, b)
	}
	r.comm.GathervFloats(my.Q, t.Q, rows)
	r.comm.GathervFloats(my.P, t.P, rows)
	r.comm.GathervFloats(my.Grad, t.Grad, rows)
	r.comm.GathervFloats(my.LogDensity, t.LogDensity, ones)
	r.comm.GathervFloats(steps, allSteps, ones)
	for i, s := range allSteps {
		t.Steps[i] = int(s)
	}
}

// Backend is the job seen from rank 0: the accel backend that remote.Serve
// hands the kernel's requests to.
type Backend struct{ r *Rank }

var (
	_ accel.ShardedBackend = (*Backend)(nil)
	_ accel.Compiled       = (*program)(nil)
)

// Name is "mpi".
func (b *Backend) Name() string { return "mpi" }

// Compile places the whole program on every rank: a batch of positions
// (many chains) is spread over the ranks.
func (b *Backend) Compile(p *ir.Program) (accel.Compiled, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(p); err != nil {
		return nil, err
	}
	r := b.r
	r.next++
	h := header{cmdCompileChains, r.next, int64(buf.Len())}
	r.comm.BcastInts(h[:])
	if err := r.agree(r.compileChains(h, buf.Bytes())); err != nil {
		r.closeProgram(r.next)
		return nil, err
	}
	return &program{r: r, h: r.next, dim: p.Dim}, nil
}

// CompileSharded places the blocks on the ranks, contiguous in row order
// (rank k takes blocks [k·K/n, (k+1)·K/n)), and main on rank 0: each
// block's data is sent once, here; a position then goes to every rank and
// the log densities and gradients come back summed.
func (b *Backend) CompileSharded(main *ir.Program, blocks []*ir.Program) (accel.Compiled, error) {
	r := b.r
	n := r.comm.Size()
	r.scatterCounts = make([]int64, n)
	var all bytes.Buffer
	for k := 1; k < n; k++ {
		lo, hi := split(len(blocks), k, n)
		before := all.Len()
		if err := gob.NewEncoder(&all).Encode(blocks[lo:hi]); err != nil {
			return nil, err
		}
		r.scatterCounts[k] = int64(all.Len() - before)
	}
	r.scatter = all.Bytes()
	r.next++
	h := header{cmdCompileData, r.next, int64(main.Dim)}
	r.comm.BcastInts(h[:])
	_, hi := split(len(blocks), 0, n)
	if err := r.agree(r.compileData(h, main, blocks[:hi])); err != nil {
		r.closeProgram(r.next)
		return nil, err
	}
	return &program{r: r, h: r.next, dim: main.Dim, data: true}, nil
}

func (r *Rank) closeProgram(h int64) {
	r.comm.BcastInts((&header{cmdClose, h})[:])
	delete(r.progs, h)
}

// program is a compiled program seen from rank 0.
type program struct {
	r    *Rank
	h    int64
	dim  int
	data bool
}

func (p *program) Dim() int { return p.dim }

func (p *program) LogDensityGrad(xs, lps, grads []float64) error {
	if err := accel.CheckBatch(p.dim, xs, lps, grads); err != nil {
		return err
	}
	g := int64(0)
	if grads != nil {
		g = 1
	}
	h := header{cmdEval, p.h, int64(len(lps)), g}
	p.r.comm.BcastInts(h[:])
	p.r.eval(h, xs, lps, grads)
	return nil
}

// Leapfrog spreads the chains over the ranks; a sharded program runs the
// steps here, each step's gradients one collective evaluation.
func (p *program) Leapfrog(t *accel.Trajectories) error {
	if err := t.Check(p.dim); err != nil {
		return err
	}
	if p.data {
		return accel.LeapfrogBy(p, t)
	}
	shared := int64(0)
	if len(t.InvMetric) == p.dim {
		shared = 1
	}
	h := header{cmdLeapfrog, p.h, int64(len(t.LogDensity)), int64(t.N), shared}
	p.r.comm.BcastInts(h[:])
	p.r.leapfrog(h, t)
	return nil
}

func (p *program) Close() error {
	p.r.closeProgram(p.h)
	return nil
}
