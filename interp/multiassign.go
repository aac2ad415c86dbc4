package interp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
)

// yaegi v0.16.1 zeroes the other values of an assignment of several values
// when one of them is a bare composite literal: after
// "a, b := 1.0, []float64{2}" a is 0 (and so for "var a, b = ...", for
// "=", for if, for and switch init statements, at the top level and inside
// function bodies alike). The same literal in parentheses is a different
// node in yaegi's tree and is assigned correctly, so the rewrite below
// parenthesizes every such literal: one statement stays one statement, its
// meaning and the names it declares unchanged, which works in every
// statement position (init statements included) and needs no knowledge of
// which names are new.

// guardCompositeLits returns src, a run or item as the session hands it to
// yaegi (declarations, or statements starting with stmtPrefix), with each
// composite literal that is one of several values of an assignment or a
// var declaration put in parentheses. Lines do not move; columns after a
// rewritten literal on its line shift by two. A source that does not parse
// is returned unchanged, for yaegi to report.
func guardCompositeLits(src string) string {
	if !strings.Contains(src, "{") || !strings.Contains(src, ",") {
		return src // no composite literal, or no list of values
	}
	prefix, suffix := "package main;", ""
	if strings.HasPrefix(src, stmtPrefix) {
		prefix, suffix = "package main; func main() {", "\n}"
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", prefix+src+suffix, parser.SkipObjectResolution)
	if err != nil {
		return src
	}
	base := fset.File(f.Pos()).Base() + len(prefix)
	var lits []*ast.CompositeLit
	guard := func(values []ast.Expr) {
		if len(values) < 2 {
			return
		}
		for _, v := range values {
			if lit, ok := v.(*ast.CompositeLit); ok {
				lits = append(lits, lit)
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			guard(n.Rhs)
		case *ast.ValueSpec:
			guard(n.Values)
		}
		return true
	})
	if len(lits) == 0 {
		return src
	}
	// Insert from the end so earlier offsets stay valid. Literals never
	// overlap as values of one list, and a literal nested in another
	// literal's list gets its own parentheses inside the outer ones.
	type insertion struct {
		at   int
		text string
	}
	var ins []insertion
	for _, lit := range lits {
		ins = append(ins, insertion{int(lit.Pos()) - base, "("}, insertion{int(lit.End()) - base, ")"})
	}
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].at > ins[j].at })
	out := src
	for _, in := range ins {
		if in.at < 0 || in.at > len(out) {
			return src
		}
		out = out[:in.at] + in.text + out[in.at:]
	}
	return out
}
