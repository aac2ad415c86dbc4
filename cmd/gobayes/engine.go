package main

import (
	"context"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp"
)

// pendingEngine is an interp.Engine that is being started in the
// background, so that the kernel binds its sockets and answers
// kernel_info without waiting for the interpreter's process: a client that
// connects before the sockets are bound waits for its reconnect interval
// (100 ms in libzmq). Every call waits until the engine is there; when it
// could not start, cells fail with the reason.
type pendingEngine struct {
	ready chan struct{}
	eng   interp.Engine
	err   *interp.Error
}

var _ interp.Engine = (*pendingEngine)(nil)

func startEngine(start func() (interp.Engine, error)) *pendingEngine {
	p := &pendingEngine{ready: make(chan struct{})}
	go func() {
		defer close(p.ready)
		eng, err := start()
		if err != nil {
			p.err = &interp.Error{Name: "InterpreterUnavailable", Value: err.Error(),
				Traceback: []string{"the interpreter could not start: " + err.Error()}}
			return
		}
		p.eng = eng
	}()
	return p
}

func (p *pendingEngine) get() (interp.Engine, *interp.Error) {
	<-p.ready
	return p.eng, p.err
}

func (p *pendingEngine) Execute(ctx context.Context, code string, ev interp.Events) interp.Result {
	e, err := p.get()
	if err != nil {
		return interp.Result{Err: err}
	}
	return e.Execute(ctx, code, ev)
}

func (p *pendingEngine) Evaluate(ctx context.Context, expr string) (display.Bundle, *interp.Error) {
	e, err := p.get()
	if err != nil {
		return display.Bundle{}, err
	}
	return e.Evaluate(ctx, expr)
}

func (p *pendingEngine) Complete(code string, cursor int) interp.Completion {
	e, err := p.get()
	if err != nil {
		return interp.Completion{Start: cursor, End: cursor}
	}
	return e.Complete(code, cursor)
}

func (p *pendingEngine) Inspect(code string, cursor, detail int) (display.Bundle, bool) {
	e, err := p.get()
	if err != nil {
		return display.Bundle{}, false
	}
	return e.Inspect(code, cursor, detail)
}

func (p *pendingEngine) IsComplete(code string) (string, string) {
	e, err := p.get()
	if err != nil {
		return "unknown", ""
	}
	return e.IsComplete(code)
}

func (p *pendingEngine) Comm(ctx context.Context, m comm.Message, ev interp.Events) *interp.Error {
	e, err := p.get()
	if err != nil {
		return err
	}
	return e.Comm(ctx, m, ev)
}

func (p *pendingEngine) CommInfo(target string) map[string]string {
	e, err := p.get()
	if err != nil {
		return map[string]string{}
	}
	return e.CommInfo(target)
}

func (p *pendingEngine) Reset() error {
	e, err := p.get()
	if err != nil {
		return err
	}
	return e.Reset()
}

func (p *pendingEngine) Close() error {
	e, err := p.get()
	if err != nil {
		return nil
	}
	return e.Close()
}
