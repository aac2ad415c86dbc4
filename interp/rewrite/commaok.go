package rewrite

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// yaegi v0.16 cannot compile the two-value ("comma ok") forms of a map
// index, a type assertion or a channel receive at the top level of a cell
// (it panics with "nil type"; the assignment form silently keeps old
// values), although it compiles them inside functions. These rewrites
// move them into function literals, keeping the cell's line numbers.

// CommaOk rewrites a top-level "a, ok := m[k]", "a, ok = m[k]" or
// "a, ok := x.(T)" statement item into single-value statements; ok reports
// whether the item had that form. A channel receive is refused instead,
// since it cannot be evaluated twice.
func CommaOk(cell string, at Item) (src string, ok bool, refused *Unsupported) {
	text := cell[at.Start:at.End]
	as, exprOff := parseStmt(text)
	assign, isAssign := as.(*ast.AssignStmt)
	if !isAssign || len(assign.Lhs) != 2 || len(assign.Rhs) != 1 || (assign.Tok != token.DEFINE && assign.Tok != token.ASSIGN) {
		return "", false, nil
	}
	piece := func(n ast.Node) string { return text[int(n.Pos())-exprOff : int(n.End())-exprOff] }
	a, b := piece(assign.Lhs[0]), piece(assign.Lhs[1])
	op := assign.Tok.String()
	var first, second string
	switch rhs := ast.Unparen(assign.Rhs[0]).(type) {
	case *ast.IndexExpr:
		first = piece(rhs)
		second = "func() bool { _, _gobayesOK := " + piece(rhs) + "; return _gobayesOK }()"
	case *ast.TypeAssertExpr:
		if rhs.Type == nil {
			return "", false, nil
		}
		t := piece(rhs.Type)
		first = "func() " + t + " { _gobayesV, _ := " + piece(rhs) + "; return _gobayesV }()"
		second = "func() bool { _, _gobayesOK := " + piece(rhs) + "; return _gobayesOK }()"
	case *ast.UnaryExpr:
		if rhs.Op != token.ARROW {
			return "", false, nil
		}
		line, col := at.Pos(cell)
		return "", true, &Unsupported{Line: line, Col: col, Msg: "the interpreter cannot receive with \", ok\" at the top level of a cell; do it inside a function: func() { v, ok := <-ch; ... }()"}
	default:
		return "", false, nil
	}
	var parts []string
	if a != "_" {
		parts = append(parts, a+" "+op+" "+first)
	}
	if b != "_" {
		parts = append(parts, b+" "+op+" "+second)
	}
	if len(parts) == 0 {
		return "", false, nil
	}
	return StmtAt(cell, at, strings.Join(parts, "; ")), true, nil
}

// WrapInFunc makes a compound statement item (if, for, switch, select,
// block) the body of a function literal called at once: the same meaning,
// since the names it declares are its own, and a form yaegi compiles.
func WrapInFunc(cell string, at Item) (string, bool) {
	st, _ := parseStmt(cell[at.Start:at.End])
	switch st.(type) {
	case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.BlockStmt:
	default:
		return "", false
	}
	// The opening sits on the line yaegi's wrapper takes, so the cell's
	// line numbers do not move.
	return StmtPrefix + "(func() {" + at.Source(cell)[len(StmtPrefix):] + "\n})()", true
}

// parseStmt parses one statement; offsets of its nodes minus exprOff index
// text.
func parseStmt(text string) (ast.Stmt, int) {
	const prefix = "package main; func main() {"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", prefix+text+"\n}", parser.SkipObjectResolution)
	if err != nil || len(f.Decls) != 1 {
		return nil, 0
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	if len(body.List) != 1 {
		return nil, 0
	}
	base := fset.File(f.Pos()).Base()
	return body.List[0], base + len(prefix)
}
