package rewrite

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
)

// Unsupported is syntax of a cell that the interpreter cannot run and no
// rewrite turns into a form it can, with what to write instead.
type Unsupported struct {
	Line, Col int    // where, in the cell (from 1)
	Msg       string // what to write instead
}

// Error is the message a cell shows: "cell:LINE:COL: " and Msg.
func (u *Unsupported) Error() string { return fmt.Sprintf("cell:%d:%d: %s", u.Line, u.Col, u.Msg) }

// CheckSupported refuses syntax yaegi v0.16 mishandles, with what to write
// instead: defer at the top level of a cell, and range over a visible
// integer (Go 1.22). A cell that does not parse is left to yaegi's own
// errors.
func CheckSupported(cell string) *Unsupported {
	return CheckSupportedRuns(cell, Runs(cell))
}

// CheckSupportedRuns is CheckSupported for a cell already split: runs is
// Runs(cell).
func CheckSupportedRuns(cell string, runs []Run) *Unsupported {
	for _, r := range runs {
		if r.Kind != Stmt {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", "package main; func main() {"+r.Source(cell)+"\n}", parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		body := f.Decls[0].(*ast.FuncDecl).Body
		for _, st := range body.List {
			if d, ok := st.(*ast.DeferStmt); ok {
				p := fset.Position(d.Pos())
				return &Unsupported{Line: cellLine(p.Line), Col: p.Column, Msg: "defer at the top level of a cell is not supported by the interpreter; put the cell's code in a function, or call the deferred function at the end of the cell"}
			}
		}
		var found *Unsupported
		ast.Inspect(body, func(n ast.Node) bool {
			if rs, ok := n.(*ast.RangeStmt); ok && found == nil && isIntExpr(rs.X) {
				p := fset.Position(rs.Pos())
				found = &Unsupported{Line: cellLine(p.Line), Col: p.Column, Msg: "range over an integer is not supported by the interpreter; write for i := 0; i < n; i++ { ... } instead"}
			}
			return found == nil
		})
		if found != nil {
			return found
		}
	}
	return nil
}

// cellLine is the cell's line for a line of a source Run.Source made:
// the first line is the wrapper's.
func cellLine(sourceLine int) int { return sourceLine - 1 }

// isIntExpr reports whether e is visibly an integer without type
// information: an integer literal, a len/cap call, int(...) conversion or
// arithmetic on those.
func isIntExpr(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.INT
	case *ast.ParenExpr:
		return isIntExpr(e.X)
	case *ast.BinaryExpr:
		return isIntExpr(e.X) || isIntExpr(e.Y)
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok {
			switch id.Name {
			case "len", "cap", "int", "int64", "int32", "uint", "uint64":
				return true
			}
		}
	}
	return false
}
