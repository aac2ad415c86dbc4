package ir

import "math"

// NewFrame allocates the memory to evaluate p: every later call on the
// frame runs without allocating. A frame is not safe for concurrent use;
// give each goroutine its own.
func NewFrame(p *Program) *Frame {
	f := &Frame{P: p, V: make([]float64, p.Size), Adj: make([]float64, p.Size)}
	copy(f.V, p.Init)
	return f
}

// Forward evaluates the program at position x and returns the log density
// (-Inf where it is not finite). Outputs can be read with Val afterwards.
func (f *Frame) Forward(x []float64) float64 {
	p := f.P
	copy(f.V[:p.Dim], x)
	for i := range p.Instrs {
		in := &p.Instrs[i]
		defs[in.Op].Forward(f, in)
	}
	if p.Target == None {
		return 0
	}
	lp := f.V[p.Values[p.Target].Off]
	if math.IsNaN(lp) {
		return math.Inf(-1)
	}
	return lp
}

// Gradient evaluates the log density at x and writes its gradient with
// respect to x into grad (len Dim).
func (f *Frame) Gradient(x, grad []float64) float64 {
	lp := f.Forward(x)
	p := f.P
	clear(f.Adj)
	if p.Target != None {
		f.Adj[p.Values[p.Target].Off] = 1
		for i := len(p.Instrs) - 1; i >= 0; i-- {
			in := &p.Instrs[i]
			if p.Values[in.Out].Grad {
				defs[in.Op].Backward(f, in)
			}
		}
	}
	copy(grad, f.Adj[:p.Dim])
	return lp
}
