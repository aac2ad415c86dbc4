package compile

import (
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// emitScan compiles a scan's body into its own program and emits the
// scan instruction over the outer values.
func (e *emitter) emitScan(n *graph.Node) ir.ID {
	d := n.Scan
	if r := asRecurrence(d, n.Args); r != nil {
		return e.emit(r)
	}
	in := make([]ir.ID, len(n.Args))
	for i, a := range n.Args {
		in[i] = e.emit(a)
	}
	b := ir.NewBuilder(0)
	be := &emitter{c: e.c, b: b, ids: map[*graph.Node]ir.ID{}, latentOf: e.latentOf, inputs: map[*graph.Node]ir.ID{}, outer: e, ctx: e.ctx}
	for _, p := range d.CarryPh {
		be.inputs[p] = b.Input(p.Dims)
	}
	for _, p := range d.SeqPh {
		be.inputs[p] = b.Input(p.Dims)
	}
	for _, s := range d.Statics {
		be.ids[s] = b.Input(s.Dims)
	}
	for _, nx := range d.Next {
		b.AddOutput("carry", be.emit(nx))
	}
	b.AddOutput("emit", be.emit(d.Emit))
	body, err := b.Finalize(ir.None)
	e.check(err)
	id, err := e.b.EmitBody(ir.OpScan, in, []int{d.Steps, d.NCarry, d.NSeq}, -1, body)
	e.check(err)
	return id
}
