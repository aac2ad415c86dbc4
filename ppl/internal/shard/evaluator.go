package shard

import (
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/par"
)

// Evaluator is one Density's frames (the main program's and each block's)
// and the state of its current call: not safe for concurrent use (each
// goroutine has its own), never allocating.
type Evaluator struct {
	main   *ir.Frame
	frames []*ir.Frame
	lps    []float64
	grads  [][]float64 // one gradient per block
	loop   *par.Loop
	body   func(w, i int)

	// The current call: iteration 0 is the main program, i the block i-1.
	x, grad  []float64
	mainLP   float64
	withGrad bool
}

// New is an evaluator of main plus blocks (programs over one position of
// dim values, their targets summed) whose calls share the blocks among
// at most workers goroutines, the caller's included.
func New(main *ir.Program, blocks []*ir.Program, workers, dim int) *Evaluator {
	k := len(blocks)
	r := &Evaluator{main: ir.NewFrame(main), frames: make([]*ir.Frame, k), lps: make([]float64, k),
		grads: make([][]float64, k), loop: par.NewLoop(max(workers, 1))}
	for i, p := range blocks {
		r.frames[i] = ir.NewFrame(p)
		r.grads[i] = make([]float64, dim)
	}
	r.body = r.run
	return r
}

// run evaluates the main program (i = 0) or block i-1.
func (r *Evaluator) run(_, i int) {
	if i == 0 {
		if r.withGrad {
			r.mainLP = r.main.Gradient(r.x, r.grad)
		} else {
			r.mainLP = r.main.Forward(r.x)
		}
		return
	}
	i--
	if r.withGrad {
		r.lps[i] = r.frames[i].Gradient(r.x, r.grads[i])
	} else {
		r.lps[i] = r.frames[i].Forward(r.x)
	}
}

// Eval returns the log density at x, summed over the main program and the
// blocks, and with grad non-nil writes the summed gradient into it. A
// panic of a program (a backend failure) is raised again in the caller's
// goroutine once every block has run.
func (r *Evaluator) Eval(x, grad []float64) float64 {
	r.x, r.grad, r.withGrad = x, grad, grad != nil
	p := r.loop.Run(len(r.frames)+1, r.body)
	r.x, r.grad = nil, nil
	if p != nil {
		panic(p)
	}
	lp := r.mainLP
	for i := range r.frames {
		lp += r.lps[i]
		if grad != nil {
			for j, g := range r.grads[i] {
				grad[j] += g
			}
		}
	}
	return lp
}
