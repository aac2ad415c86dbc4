package graph

// Scan is a traced recurrence (ppl.Scan): the placeholders (KInput nodes)
// the step function was called with, what it returned, and the outer
// values it used. Its node (Op ir.OpScan) has as arguments the initial
// carries, the sequences, then Statics.
type Scan struct {
	Steps   int
	NCarry  int
	NSeq    int
	CarryPh []*Node
	SeqPh   []*Node
	Next    []*Node // the next carries
	Emit    *Node   // the value emitted at each step
	Statics []*Node // outer values the body uses
}
