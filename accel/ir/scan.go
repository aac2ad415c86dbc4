package ir

import "fmt"

// OpScan runs a recurrence: a sub-program (the body) applied T times,
// threading carried state from step to step, in compiled code.
//
// Calling convention:
//   - Ints = [T, C, S]: T steps, C carried values, S sequences.
//   - In = [carry inits (C)…, sequences (S)…, statics…]. A sequence has
//     T·n values: its leading axis is the step (row t is step t's slice of
//     n values). Statics are the same at every step (parameters, data).
//   - Body is a Program built with NewBuilder(0) whose Inputs (Builder.Input,
//     in order) match In one for one: [carry values (C)…, the current
//     step's slice of each sequence (S)…, statics…], each with the length
//     of its counterpart (of one row, for a sequence).
//   - Body Outputs[0..C-1] are the new carries (same lengths as the carry
//     inputs) and Outputs[C] is the value emitted at each step (shape E).
//     The body is finalized with target None.
//   - The output is the emitted values stacked, shape [T] ++ E.
//
// The final carries are not an output: emit what a model needs. Step t's
// body frame lives in the instruction's Scratch (T frames of the body's
// size, plus one adjoint frame and the carried adjoints), so the reverse
// sweep walks the steps backwards without recomputing, and propagates into
// carry inits, sequences and statics. Scans nest.

// ScanDims are a scan instruction's immediates: the number of steps, carries
// and sequences.
func ScanDims(in *Instr) (t, c, s int) { return in.Ints[0], in.Ints[1], in.Ints[2] }

func scanShape(p *Program, in *Instr, args [][]int) ([]int, error) {
	body := in.Body
	if body == nil {
		return nil, fmt.Errorf("scan needs a body program")
	}
	if len(in.Ints) != 3 || in.Ints[0] < 0 || in.Ints[1] < 0 || in.Ints[2] < 0 {
		return nil, fmt.Errorf("scan: Ints = %v, want [steps, carries, sequences]", in.Ints)
	}
	t, c, s := ScanDims(in)
	if body.Dim != 0 {
		return nil, fmt.Errorf("scan: the body reads a position of %d slots; build it with NewBuilder(0) and pass parameters as static arguments", body.Dim)
	}
	if len(body.Inputs) != len(args) {
		return nil, fmt.Errorf("scan: body takes %d inputs, scan has %d arguments", len(body.Inputs), len(args))
	}
	if c+s > len(args) {
		return nil, fmt.Errorf("scan: %d carries and %d sequences but %d arguments", c, s, len(args))
	}
	if len(body.Outputs) < c+1 {
		return nil, fmt.Errorf("scan: body has %d outputs, want %d new carries and the emitted value", len(body.Outputs), c)
	}
	for i, a := range args {
		want := body.Values[body.Inputs[i]].Len
		got := ShapeLen(a)
		switch {
		case i < c:
			if got != want {
				return nil, fmt.Errorf("scan: carry %d starts with %d values, body takes %d", i, got, want)
			}
			if out := body.Values[body.Outputs[i].ID].Len; out != want {
				return nil, fmt.Errorf("scan: carry %d has %d values but the body returns %d", i, want, out)
			}
		case i < c+s:
			if got != t*want {
				return nil, fmt.Errorf("scan: sequence %d has shape %v, want %d steps of %d values", i-c, a, t, want)
			}
		default:
			if got != want {
				return nil, fmt.Errorf("scan: static argument %d has %d values, body takes %d", i-c-s, got, want)
			}
		}
	}
	e := body.Values[body.Outputs[c].ID].Shape
	return append([]int{t}, e...), nil
}

func scanScratch(p *Program, in *Instr) int {
	t, c, _ := ScanDims(in)
	body := in.Body
	carry := 0
	for _, id := range body.Inputs[:c] {
		carry += body.Values[id].Len
	}
	return max(1, (t+1)*body.Size+carry) // at least one slot, so Scratch is never None
}

// prepareScratch writes the constants of every scan body into its step
// frames inside buf (a frame of p), recursively for nested scans.
func prepareScratch(p *Program, buf []float64) {
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if in.Op != OpScan {
			continue
		}
		w := p.Val(buf, in.Scratch)
		n := in.Body.Size
		for t := range in.Ints[0] {
			step := w[t*n : (t+1)*n]
			copy(step, in.Body.Init)
			prepareScratch(in.Body, step)
		}
	}
}

// stepViews are a scan's body values as views into each step frame (vals,
// per step) and into its adjoint frame (adjs), so that body ops find their
// slots without recomputing them. Only the scans of a top-level frame get
// them, and only when T × (body values) is moderate; other body frames
// compute their views on the fly.
type stepViews struct {
	vals [][][]float64
	adjs [][]float64
}

// maxStepViews caps T × (body values) for precomputed views (6 MiB of
// slice headers); a variable so that tests can force the other path.
var maxStepViews = 1 << 18

func scanStepViews(p *Program, buf []float64) map[*Instr]*stepViews {
	var m map[*Instr]*stepViews
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if in.Op != OpScan {
			continue
		}
		body, t := in.Body, in.Ints[0]
		nv, n := len(body.Values), body.Size
		if t*nv > maxStepViews {
			continue
		}
		w := p.Val(buf, in.Scratch)
		sv := &stepViews{vals: make([][][]float64, t), adjs: make([][]float64, nv)}
		for k := range t {
			step := w[k*n : (k+1)*n]
			sv.vals[k] = make([][]float64, nv)
			for id := range nv {
				sv.vals[k][id] = body.Val(step, ID(id))
			}
		}
		for id := range nv {
			sv.adjs[id] = body.Val(w[t*n:(t+1)*n], ID(id))
		}
		if m == nil {
			m = map[*Instr]*stepViews{}
		}
		m[in] = sv
	}
	return m
}

func scanForward(f *Frame, in *Instr) {
	if in.Body.scalarBody && len(in.Body.fast) == len(in.Body.Instrs) {
		scanScalarForward(f, in)
		return
	}
	t, c, s := ScanDims(in)
	body := in.Body
	bf := f.sub(body)
	n := body.Size
	w := f.Val(in.Scratch)
	out := f.Val(in.Out)
	ev := &body.Values[body.Outputs[c].ID]
	e := ev.Len
	sv := f.steps[in]
	bf.adjs = nil
	// The outer values of the inputs, resolved once rather than at every
	// step (when there are few enough for the fixed array).
	var outer [maxScalarArgs][]float64
	resolved := len(in.In) <= maxScalarArgs
	if resolved {
		for i, a := range in.In {
			outer[i] = f.Val(a)
		}
	}
	for k := range t {
		step := w[k*n : (k+1)*n]
		bf.V = step
		bf.vals = nil
		if sv != nil {
			bf.vals = sv.vals[k]
		}
		for i, a := range in.In {
			dv := &body.Values[body.Inputs[i]]
			var src []float64
			if i < c && k > 0 {
				ov := &body.Values[body.Outputs[i].ID]
				src = w[(k-1)*n+ov.Off : (k-1)*n+ov.Off+ov.Len]
			} else {
				if resolved {
					src = outer[i]
				} else {
					src = f.Val(a)
				}
				if i >= c && i < c+s {
					src = src[k*dv.Len : (k+1)*dv.Len]
				}
			}
			if dv.Len == 1 {
				step[dv.Off] = src[0]
			} else {
				copy(step[dv.Off:dv.Off+dv.Len], src)
			}
		}
		bf.run()
		if e == 1 {
			out[k] = step[ev.Off]
		} else {
			copy(out[k*e:(k+1)*e], step[ev.Off:ev.Off+e])
		}
	}
}

func scanBackward(f *Frame, in *Instr) {
	if in.Body.scalarBody && len(in.Body.fast) == len(in.Body.Instrs) {
		scanScalarBackward(f, in)
		return
	}
	t, c, s := ScanDims(in)
	body := in.Body
	bf := f.sub(body)
	n := body.Size
	w := f.Val(in.Scratch)
	g := f.AdjOf(in.Out)
	ev := &body.Values[body.Outputs[c].ID]
	e := ev.Len
	ab := w[t*n : (t+1)*n]
	ca := w[(t+1)*n:] // adjoints of the carries entering the later step
	clear(ca)
	sv := f.steps[in]
	bf.vals, bf.adjs = nil, nil
	// The adjoints of the inputs (nil without a gradient), resolved once
	// rather than at every step (when there are few enough).
	var adj [maxScalarArgs][]float64
	resolved := len(in.In) <= maxScalarArgs
	if resolved {
		for i, a := range in.In {
			if i >= c && f.Grad(a) {
				adj[i] = f.AdjOf(a)
			}
		}
	}
	if sv != nil {
		bf.adjs = sv.adjs
	}
	for k := t - 1; k >= 0; k-- {
		bf.V, bf.Adj = w[k*n:(k+1)*n], ab
		if sv != nil {
			bf.vals = sv.vals[k]
		}
		clear(ab)
		off := 0
		for i := range c {
			ov := &body.Values[body.Outputs[i].ID]
			dst := ab[ov.Off : ov.Off+ov.Len]
			for j := range dst {
				dst[j] += ca[off+j]
			}
			off += ov.Len
		}
		if e == 1 {
			ab[ev.Off] += g[k]
		} else {
			ge := ab[ev.Off : ev.Off+e]
			for j, v := range g[k*e : (k+1)*e] {
				ge[j] += v
			}
		}
		bf.reverse()
		off = 0
		for i, a := range in.In {
			dv := &body.Values[body.Inputs[i]]
			src := ab[dv.Off : dv.Off+dv.Len]
			if i < c {
				copy(ca[off:], src)
				off += len(src)
				continue
			}
			var dst []float64
			switch {
			case resolved:
				dst = adj[i]
			case f.Grad(a):
				dst = f.AdjOf(a)
			}
			if dst == nil {
				continue
			}
			if i < c+s {
				dst = dst[k*len(src):]
			}
			if len(src) == 1 {
				dst[0] += src[0]
				continue
			}
			for j, v := range src {
				dst[j] += v
			}
		}
	}
	off := 0
	for _, a := range in.In[:c] {
		l := f.P.Values[a].Len
		if f.Grad(a) {
			dst := f.AdjOf(a)
			for j := range l {
				dst[j] += ca[off+j]
			}
		}
		off += l
	}
}

// maxScalarArgs bounds the inputs and outputs of a scalar body (the fixed
// arrays of scanScalar…).
const maxScalarArgs = 16

// scanScalarForward runs a scan whose body is scalar arithmetic only (an
// AR, ARMA or GARCH step): the same step frames as the general path, but
// one loop over the steps with the slot offsets resolved once.
func scanScalarForward(f *Frame, in *Instr) {
	t, c, s := ScanDims(in)
	body := in.Body
	n := body.Size
	w := f.Val(in.Scratch)
	out := f.Val(in.Out)
	fast := body.fast
	nin := len(in.In)
	var inOff, carryOff [maxScalarArgs]int
	var seqs [maxScalarArgs][]float64
	var vals [maxScalarArgs]float64 // carry inits and statics
	for i, a := range in.In {
		inOff[i] = body.Values[body.Inputs[i]].Off
		if i < c {
			carryOff[i] = body.Values[body.Outputs[i].ID].Off
		}
		if i >= c && i < c+s {
			seqs[i] = f.Val(a)
		} else {
			vals[i] = f.Val(a)[0]
		}
	}
	emitOff := body.Values[body.Outputs[c].ID].Off
	for k := range t {
		step := w[k*n : (k+1)*n]
		for i := range nin {
			switch {
			case i < c && k > 0:
				step[inOff[i]] = w[(k-1)*n+carryOff[i]]
			case i >= c && i < c+s:
				step[inOff[i]] = seqs[i][k]
			default:
				step[inOff[i]] = vals[i]
			}
		}
		for j := range fast {
			fast[j].forward(step)
		}
		out[k] = step[emitOff]
	}
}

func scanScalarBackward(f *Frame, in *Instr) {
	t, c, s := ScanDims(in)
	body := in.Body
	n := body.Size
	w := f.Val(in.Scratch)
	g := f.AdjOf(in.Out)
	fast := body.fast
	nin := len(in.In)
	ab := w[t*n : (t+1)*n]
	var inOff, carryOff [maxScalarArgs]int
	var seqAdj [maxScalarArgs][]float64
	var acc [maxScalarArgs]float64 // carry adjoints
	for i, a := range in.In {
		inOff[i] = body.Values[body.Inputs[i]].Off
		if i < c {
			carryOff[i] = body.Values[body.Outputs[i].ID].Off
		}
		if i >= c && f.Grad(a) {
			seqAdj[i] = f.AdjOf(a) // a sequence's adjoints, or a static's
		}
	}
	emitOff := body.Values[body.Outputs[c].ID].Off
	for k := t - 1; k >= 0; k-- {
		step := w[k*n : (k+1)*n]
		clear(ab)
		for i := range c {
			ab[carryOff[i]] += acc[i]
		}
		ab[emitOff] += g[k]
		for j := len(fast) - 1; j >= 0; j-- {
			if fast[j].gout {
				fast[j].backward(step, ab)
			}
		}
		for i := range nin {
			d := ab[inOff[i]]
			switch {
			case i < c:
				acc[i] = d
			case i < c+s:
				if seqAdj[i] != nil {
					seqAdj[i][k] += d
				}
			default:
				// Into the static's adjoint at every step, as the
				// general path adds them: the same sums in the same
				// order, so the two paths agree bit for bit.
				if seqAdj[i] != nil {
					seqAdj[i][0] += d
				}
			}
		}
	}
	for i, a := range in.In[:c] {
		if f.Grad(a) {
			f.AdjOf(a)[0] += acc[i]
		}
	}
}

func init() {
	register(OpScan, OpDef{
		Name: "scan", Arity: -1, Shape: scanShape, Scratch: scanScratch,
		Forward: scanForward, Backward: scanBackward,
	})
}
