package vec

// FallbackOps lists the instructions of b that run per chain through
// package ir (op names, in program order).
func FallbackOps(b *Batch) []string {
	var ops []string
	for k := range b.P.Instrs {
		if b.plan[k].k == kFallback {
			ops = append(ops, b.P.Instrs[k].Op.String())
		}
	}
	return ops
}
