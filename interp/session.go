package interp

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	yaegi "github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp/rewrite"
	"github.com/gobayes/gobayes/interp/symbols"
	"github.com/gobayes/gobayes/ppl"
)

// Options configures a Session. The zero value is ready to use.
type Options struct {
	// Symbols are symbol tables to offer besides the standard library and
	// the tables in interp/symbols (yaegi's Exports shape: import path
	// "/" package name → symbol → value).
	Symbols []map[string]map[string]reflect.Value
	// Env is the environment cells see through os.Getenv; nil means the
	// process's environment.
	Env []string
	// MemoryLimit is the memory limit of the process in bytes (a worker's
	// cap); 0 means none. With one, a single request of a cell (make,
	// append, new of an array, a gonum matrix) that would take the heap
	// past three quarters of it is refused with a MemoryLimit error before
	// it is made, instead of ending the process. See alloc.go.
	MemoryLimit int64
}

// Session is a yaegi interpreter that keeps its state across cells. It is
// safe for concurrent use: cells run one at a time, and Complete, Inspect
// and IsComplete may run while a cell does.
type Session struct {
	opts Options
	out  *output
	in   *cellInput

	cell sync.Mutex // held while a cell runs

	mu            sync.Mutex // guards the fields below
	it            *yaegi.Interpreter
	imports       map[string]string // local name → import path, as the cells imported them
	defs          map[string]string // identifier defined by a cell → "var", "func", "type", "const"
	types         map[string]string // type name → the source of its definition
	index         *packageIndex     // importable packages when Options.Symbols adds any
	defSrc        map[string]string // func or type name → its declaration (signature and doc), for Inspect
	probeDeclared bool              // renderProbe is declared in it
	funcResults   map[string]int    // cell function → number of results
	dotImport     bool              // a cell imported a package with "."
	methods       map[string]bool   // names of methods declared in cells
	methodSrc     map[string]string // method name → its latest declaration, for Inspect
	tmpSeq        int               // numbers typedDefine's hidden variables

	// models is the ppl.Session of the cells' models (their hooks, their
	// last run), made anew with each interpreter; live counts its live
	// progress tables; ctx is the running cell's context (cellContext).
	models *ppl.Session
	live   *runCounter
	ctx    atomic.Pointer[context.Context]
}

var _ Engine = (*Session)(nil)

// specialStdio must be set before any interpreter exists: with it yaegi
// sends os.Stdout and os.Stderr writes of a cell to the interpreter's
// writers instead of the process's file descriptors.
func init() { os.Setenv("YAEGI_SPECIAL_STDIO", "1") }

// NewSession returns a session with the standard library and the symbol
// tables of interp/symbols importable.
func NewSession(opts Options) (*Session, error) {
	out := &output{}
	s := &Session{opts: opts, out: out, in: &cellInput{out: out}, live: &runCounter{}}
	if err := s.reset(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Session) reset() error {
	env := s.opts.Env
	if env == nil {
		env = os.Environ()
	}
	it := yaegi.New(yaegi.Options{
		Stdout: streamWriter{s.out, "stdout"},
		Stderr: streamWriter{s.out, "stderr"},
		Stdin:  s.in,
		Env:    env,
		Args:   []string{"gobayes"},
	})
	comm.Reset() // the widgets of the last interpreter are gone with it
	if err := it.Use(stdlib.Symbols); err != nil {
		return fmt.Errorf("interp: loading the standard library: %w", err)
	}
	if err := it.Use(exitSymbols(it)); err != nil {
		return fmt.Errorf("interp: replacing os.Exit and log.Fatal: %w", err)
	}
	if err := it.Use(symbols.Symbols); err != nil {
		return fmt.Errorf("interp: loading generated symbols: %w", err)
	}
	models := ppl.NewSession(cellHooks{s})
	if err := it.Use(pplSymbols(models)); err != nil {
		return fmt.Errorf("interp: binding ppl to the session: %w", err)
	}
	for _, syms := range s.opts.Symbols {
		if err := it.Use(syms); err != nil {
			return fmt.Errorf("interp: loading symbols: %w", err)
		}
	}
	if s.opts.MemoryLimit > 0 {
		c := newAllocChecker(s.opts.MemoryLimit)
		if err := it.Use(allocSymbols(c)); err != nil {
			return fmt.Errorf("interp: loading the allocation checks: %w", err)
		}
		if err := it.Use(matSymbols(c)); err != nil {
			return fmt.Errorf("interp: loading the allocation checks: %w", err)
		}
		if err := it.Use(repeatSymbols(c)); err != nil {
			return fmt.Errorf("interp: loading the allocation checks: %w", err)
		}
		if _, err := it.Eval("import " + allocPkg + " " + strconv.Quote(allocPath)); err != nil {
			return fmt.Errorf("interp: importing the allocation checks: %w", err)
		}
	}
	s.mu.Lock()
	s.it = it
	s.models = models
	s.imports = map[string]string{}
	s.defs = map[string]string{}
	s.types = map[string]string{}
	s.defSrc = map[string]string{}
	s.probeDeclared = false
	s.funcResults = map[string]int{}
	s.dotImport = false
	s.methods = map[string]bool{}
	s.methodSrc = map[string]string{}
	s.mu.Unlock()
	return nil
}

// Reset drops every variable, function, type and import.
func (s *Session) Reset() error {
	s.cell.Lock()
	defer s.cell.Unlock()
	return s.reset()
}

// Close releases the session. A running cell is not stopped; cancel its
// context first.
func (s *Session) Close() error { return nil }

// Execute runs one cell. See Engine.
func (s *Session) Execute(ctx context.Context, code string, ev Events) (res Result) {
	s.cell.Lock()
	defer s.cell.Unlock()
	it, base := s.it, s.it.FileSet().Base()
	defer func() {
		releaseRoots(s.it)
		if s.it == it { // not after a %reset
			forgetCell(it, code, base)
		}
	}()
	defer func() {
		// yaegi panics outside the cell's own code (in its compiler or in
		// reflection) must not end the kernel; the cell reports them.
		if r := recover(); r != nil {
			msg := fmt.Sprintf("interp: the interpreter failed on this cell (%v); variables may be inconsistent, %%reset starts afresh", r)
			res = Result{Err: &Error{Name: "InternalError", Value: msg, Traceback: []string{msg}}}
		}
	}()
	if ev == nil {
		ev = discardEvents{}
	}
	defer s.attach(ctx, ev)()
	return runMagics(ctx, s, code)
}

// attach connects the cell's (or comm handler's) output, input, context,
// comms and request id to ev, and returns the function that detaches them.
func (s *Session) attach(ctx context.Context, ev Events) (detach func()) {
	s.out.setEvents(ev)
	s.in.begin(ctx, ev)
	display.SetPublisher(s.out)
	prevCtx := s.ctx.Swap(&ctx)
	comm.SetSender(s.out)
	msgID := ""
	if ce, ok := ev.(CommEvents); ok {
		msgID = ce.MsgID()
	}
	prevReq := comm.SetRequest(msgID)
	// The output, the display publisher and the comm sender stay connected
	// to ev after the cell: what a goroutine the cell started prints,
	// displays or sends later goes to the latest cell's Events, as IPython
	// sends a thread's output to the latest cell.
	return func() {
		s.in.end()
		s.out.flush()
		s.ctx.Store(prevCtx)
		comm.SetRequest(prevReq)
	}
}

// Comm delivers a client's comm message to its handlers. See Engine.
func (s *Session) Comm(ctx context.Context, m comm.Message, ev Events) (e *Error) {
	s.cell.Lock()
	defer s.cell.Unlock()
	if ev == nil {
		ev = discardEvents{}
	}
	defer s.attach(ctx, ev)()
	defer func() {
		// A handler is cell code: its panic is reported, the session stays.
		if r := recover(); r != nil {
			msg := fmt.Sprintf("a %s handler panicked: %v", m.Type, r)
			s.out.write("stderr", []byte(msg+"\n"))
			e = &Error{Name: "panic", Value: msg, Traceback: []string{msg}}
		}
	}()
	if err := comm.Deliver(m); err != nil {
		return &Error{Name: "CommError", Value: err.Error()}
	}
	return nil
}

// CommInfo lists the open comms. See Engine.
func (s *Session) CommInfo(target string) map[string]string { return comm.Info(target) }

// Evaluate computes one expression (user_expressions). Printed output is
// dropped.
func (s *Session) Evaluate(ctx context.Context, expr string) (display.Bundle, *Error) {
	if _, err := parser.ParseExpr(expr); err != nil {
		return display.Bundle{}, &Error{Name: "SyntaxError", Value: "interp: not an expression: " + err.Error()}
	}
	s.cell.Lock()
	defer s.cell.Unlock()
	it, base := s.it, s.it.FileSet().Base()
	defer func() {
		releaseRoots(it)
		forgetCell(it, expr, base)
	}()
	// Output goes on to the latest cell's Events: its goroutines may be
	// printing, and what the expression itself prints goes there too, as
	// IPython sends a user expression's output to the request's parent.
	s.in.begin(ctx, discardEvents{}) // an expression asks nobody for input
	defer s.in.end()
	r := s.execute(ctx, expr)
	if r.Err != nil {
		return display.Bundle{}, r.Err
	}
	if r.Value == nil {
		return display.Render(nil), nil
	}
	return *r.Value, nil
}

// execute runs a cell without magics. A cell that fails keeps its
// imports (keepImports).
func (s *Session) execute(ctx context.Context, code string) Result {
	runs := rewrite.Runs(code)
	res := s.executeRuns(ctx, code, runs)
	if res.Err != nil {
		s.keepImports(code, runs)
	}
	return res
}

// keepImports evaluates, one at a time, the imports of a cell that failed
// and did not reach them (an undefined name or a refused form stops a cell
// before any of it runs; a syntax error stops it where it is). In Go an
// import belongs to the whole file, not to the place it is written, so the
// cell's imports stand whatever stopped the cell, and the next cell does
// not fail with "undefined: fmt". An import runs no cell code (the
// compiled packages are initialised already). One that fails (an unknown
// path) is skipped: it is the cell's own error, or will be once the cell
// is fixed.
func (s *Session) keepImports(cell string, runs []rewrite.Run) {
	for _, r := range runs {
		if r.Kind != rewrite.Import {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package main;"+cell[r.Start:r.End], parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, spec := range f.Imports {
			src := "import " + spec.Path.Value
			if spec.Name != nil {
				src = "import " + spec.Name.Name + " " + spec.Path.Value
			}
			if src = s.dropReimports(src); strings.TrimSpace(src) == "" {
				continue
			}
			prog, err := s.compile(cell, src)
			if path, _ := strconv.Unquote(spec.Path.Value); err != nil && strings.Contains(err.Value, path+"/_.go redeclared in this block") {
				// yaegi bound the package while compiling the failed
				// import run (its other path was unknown); only the
				// session's record is missing.
				s.record(src, rewrite.Import)
				continue
			}
			if err != nil {
				continue
			}
			// Not the cell's context: an interrupted cell keeps its
			// imports too.
			if _, err := s.run(context.Background(), cell, prog, r.Items[0]); err != nil {
				continue
			}
			s.record(src, rewrite.Import)
		}
	}
}

// executeRuns runs a cell's runs in order, stopping at the first error.
func (s *Session) executeRuns(ctx context.Context, code string, runs []rewrite.Run) Result {
	if u := rewrite.CheckSupportedRuns(code, runs); u != nil {
		return Result{Err: unsupportedError(code, u)}
	}
	if err := s.precheckUndefined(code, runs); err != nil {
		return Result{Err: err} // nothing runs when a name is undefined
	}
	var res Result
	for i, r := range runs {
		last := i == len(runs)-1
		if r.Kind != rewrite.Stmt {
			src := r.Source(code)
			if r.Kind == rewrite.Import {
				if src = s.dropReimports(src); strings.TrimSpace(src) == "" {
					continue
				}
			}
			if r.Kind == rewrite.Decl {
				if err := s.checkTypeRedefinition(code, src); err != nil {
					return Result{Err: err}
				}
			}
			prog, err := s.compile(code, src)
			if err != nil {
				return Result{Err: err}
			}
			if _, err := s.run(ctx, code, prog, r.Items[0]); err != nil {
				return Result{Err: err}
			}
			s.record(src, r.Kind)
			continue
		}
		// Statements compile and run one by one, as a notebook user expects
		// (what ran before an error keeps its effect), and so that a panic
		// names its statement's line: yaegi reports runtime panics at the
		// start of the code it was given. Compiling one statement ahead
		// would be worse: a failed compile leaves the names the compiled
		// statements declared without values.
		for j, at := range r.Items {
			src := at.Source(code)
			if arg, ok := s.showCall(code[at.Start:at.End]); ok {
				shown, err := s.show(ctx, code, at, arg)
				if err != nil {
					return Result{Err: err}
				}
				if shown {
					continue
				}
			}
			if rewritten, ok, u := rewrite.CommaOk(code, at); u != nil {
				return Result{Err: unsupportedError(code, u)}
			} else if ok {
				src = rewritten
			}
			prog, err := s.compile(code, src)
			if err != nil && (strings.Contains(err.Value, "definition loop") || strings.Contains(err.Value, cannotCompile)) {
				if handled, derr := s.typedDefine(ctx, code, at); handled {
					if derr != nil {
						return Result{Err: derr}
					}
					s.record(src, rewrite.Stmt)
					continue
				}
			}
			// yaegi also loses the names of a multi-value define (n, err :=
			// strconv.Atoi(s); v, ok := m[k]) inside a compound statement at
			// the top level ("undefined: n"; var n, err = … too), but not
			// inside a function: the same statement as a function's body.
			if err != nil && (strings.Contains(err.Value, "nil type") || strings.Contains(err.Value, cannotCompile) || strings.Contains(err.Value, "undefined: ")) {
				if wrapped, ok := rewrite.WrapInFunc(code, at); ok {
					if p, werr := s.compile(code, wrapped); werr == nil {
						prog, err = p, nil
					}
				}
			}
			if err != nil {
				return Result{Err: err}
			}
			final := last && j == len(r.Items)-1
			expr := code[at.Start:at.End]
			wantValue := final && isValueExpr(expr, s.importedAs("fmt")) && s.hasValue(expr)
			v, err := s.run(ctx, code, prog, at)
			if err != nil {
				return Result{Err: err}
			}
			s.record(src, rewrite.Stmt)
			if wantValue {
				b, rerr := renderValue(v)
				if rerr != nil {
					return Result{Err: displayError(code, at, rerr)}
				}
				res.Value = b
				if res.Value != nil && s.mayBeCellType(v) {
					s.renderCellType(ctx, expr, res.Value)
				}
			}
		}
	}
	return res
}

// compile compiles one run or item, mapping errors to cell lines.
func (s *Session) compile(cell, src string) (*yaegi.Program, *Error) {
	s.mu.Lock()
	it := s.it
	s.mu.Unlock()
	guarded := rewrite.GuardCompositeLits(src)
	if s.opts.MemoryLimit > 0 {
		// The allocation checks' form compiles wherever the cell does;
		// where it does not, the cell as written gives Go's error.
		if checked := rewrite.CheckAllocs(guarded, allocPkg); checked != guarded {
			if prog, err := compile(it, checked); err == nil {
				return prog, nil
			}
		}
	}
	prog, err := compile(it, guarded)
	if err == nil {
		return prog, nil
	}
	if strings.Contains(err.Error(), "constant definition loop") {
		// yaegi's message for an undefined name in a statement.
		if e := s.undefinedError(cell, src); e != nil {
			return nil, e
		}
	}
	if strings.Contains(err.Error(), cannotCompile) && strings.Contains(src, "range") {
		const msg = "interp: the interpreter cannot compile this cell; if it ranges over an integer (for i := range n) write for i := 0; i < n; i++ { ... }, and over a function (Go 1.23 iterators) call the function with a callback instead"
		return nil, &Error{Name: "UnsupportedSyntax", Value: msg, Traceback: []string{msg}}
	}
	return nil, compileError(cell, err)
}

// run executes a compiled run or item; a panic is reported at the
// position of the item it happened in (yaegi's own position for the
// top-level frame is the start of the code) and of the cell functions it
// went through.
func (s *Session) run(ctx context.Context, cell string, prog *yaegi.Program, at rewrite.Item) (reflect.Value, *Error) {
	s.mu.Lock()
	it := s.it
	s.mu.Unlock()
	s.out.takeFrames()
	interrupted := interruptedError("the cell was interrupted; variables keep the values they had when it stopped")
	if ctx.Err() != nil {
		return reflect.Value{}, interrupted
	}
	tables := s.live.count()
	v, err := it.ExecuteWithContext(ctx, prog)
	if err == nil {
		return v, nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		settle(it)
		// A sampler's table says "interrupted" before the cell ends.
		s.live.waitLive(2 * time.Second)
		if s.live.count() > tables { // the cell was sampling
			return v, interruptedError("the cell was interrupted while sampling; variables keep the values they had when it stopped, and the draws made so far are kept: fit := ppl.LastRun() (its summary says how many)")
		}
		return v, interrupted
	}
	var p yaegi.Panic
	if errors.As(err, &p) {
		line := 1 + strings.Count(cell[:at.Start], "\n")
		col := at.Start - (strings.LastIndex(cell[:at.Start], "\n") + 1) + 1
		if r, ok := p.Value.(*allocRefused); ok {
			s.out.takeFrames()
			return v, memoryLimitError(cell, r, line, col)
		}
		if e, ok := exitError(cell, p.Value, line, col); ok {
			s.out.takeFrames()
			return v, e
		}
		value := goPanic(p.Value, cell[at.Start:at.End], func() map[string]reflect.Value { return globals(it) })
		return v, panicError(cell, value, s.out.takeFrames(), line, col)
	}
	return v, compileError(cell, err)
}

// interruptedError is an interrupted cell's error, in red as every error.
func interruptedError(msg string) *Error {
	return &Error{Name: "Interrupted", Value: "interp: " + msg, Traceback: []string{"\x1b[0;31mInterrupted: " + msg + "\x1b[0m"}}
}

// settleDelay is how long an interrupted run may take to reach yaegi's
// check of the stop signal; see settle.
const settleDelay = 10 * time.Millisecond

// settle stops, once more, a program yaegi started after its run was
// cancelled. ExecuteWithContext returns at once on cancel, but when the
// cancel came before its goroutine began, that goroutine still starts the
// program later, stamped with the new run id, and nothing would stop it.
// A second stop after a short delay ends such a straggler.
func settle(it *yaegi.Interpreter) {
	time.Sleep(settleDelay)
	prog, err := it.Compile("_ = 0")
	if err != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = it.ExecuteWithContext(ctx, prog)
}

// globals is it.Globals(), which panics after a failed compile defined
// names it never ran (their frame slots do not exist yet); then it is empty.
func globals(it *yaegi.Interpreter) (g map[string]reflect.Value) {
	defer func() {
		if recover() != nil {
			g = map[string]reflect.Value{}
		}
	}()
	return it.Globals()
}

// compile runs yaegi's compiler, turning a panic inside yaegi (it has a few
// on syntax it does not support) into an error.
// cannotCompile begins the error of a compile that panicked in yaegi; the
// session's fallbacks look for it (it is this package's wording, not
// yaegi's).
const cannotCompile = "the interpreter cannot compile this cell"

func compile(it *yaegi.Interpreter, src string) (prog *yaegi.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf(cannotCompile+" (%v); it may use syntax yaegi does not support (generics with several type parameters, range over an int or a function)", r)
		}
	}()
	return it.Compile(src)
}

// discardEvents drops what a cell produces.
type discardEvents struct{}

func (discardEvents) Stream(string, string)                {}
func (discardEvents) Display(display.Bundle, string, bool) {}
func (discardEvents) Clear(bool)                           {}

// cellContext is the running cell's context, cancelled when the user
// interrupts it; context.Background() between cells.
func (s *Session) cellContext() context.Context {
	if p := s.ctx.Load(); p != nil && *p != nil {
		return *p
	}
	return context.Background()
}
