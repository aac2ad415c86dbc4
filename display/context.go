package display

import (
	"context"
	"sync"
)

var (
	cellCtxMu sync.Mutex
	cellCtx   context.Context
)

// SetContext makes ctx the context of the running cell, cancelled when the
// user interrupts it, and returns the previous one. The kernel's
// interpreter sets it around every cell.
func SetContext(ctx context.Context) (previous context.Context) {
	cellCtxMu.Lock()
	defer cellCtxMu.Unlock()
	previous, cellCtx = cellCtx, ctx
	return previous
}

// Context is the running cell's context: long computations started from a
// cell (samplers) watch it so an interrupt stops them. Outside a kernel it
// is context.Background().
func Context() context.Context {
	cellCtxMu.Lock()
	defer cellCtxMu.Unlock()
	if cellCtx == nil {
		return context.Background()
	}
	return cellCtx
}

// Active reports whether a publisher is set, that is whether rich output
// reaches a notebook rather than standard output.
func Active() bool { return currentPublisher() != nil }
