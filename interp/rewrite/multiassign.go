package rewrite

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

// GuardCompositeLits returns src, a run or item as the session hands it to
// yaegi (declarations, or statements starting with StmtPrefix), with each
// composite literal that is one of several values of an assignment or a
// var declaration put in parentheses. Lines do not move, and columns do
// not either where spaces around the literal leave room for the
// parentheses (a, b := 1, T{2} and a, b := T{1}, 2 do). A source that
// does not parse is returned unchanged, for yaegi to report.
func GuardCompositeLits(src string) string {
	if !strings.Contains(src, "{") || !strings.Contains(src, ",") {
		return src // no composite literal, or no list of values
	}
	prefix, suffix := "package main;", ""
	if strings.HasPrefix(src, StmtPrefix) {
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
	// Columns stay put where the text allows: "(" takes the place of the
	// space before the literal, and ")" with its comma the place of the
	// ", " after it, unless that space is already taken by the next
	// literal's "(". Edits are applied from the end so earlier offsets
	// stay valid; they never overlap (a literal nested in another's
	// elements is edited strictly inside the outer one's braces).
	type edit struct {
		at, n int // replace src[at:at+n]
		text  string
	}
	var edits []edit
	taken := map[int]bool{}
	for _, lit := range lits {
		pos := int(lit.Pos()) - base
		if pos < 1 || int(lit.End())-base > len(src) {
			return src
		}
		if src[pos-1] == ' ' {
			edits = append(edits, edit{pos - 1, 1, "("})
			taken[pos-1] = true
		} else {
			edits = append(edits, edit{pos, 0, "("})
		}
	}
	for _, lit := range lits {
		end := int(lit.End()) - base
		if strings.HasPrefix(src[end:], ", ") && !taken[end+1] {
			edits = append(edits, edit{end, 2, "),"})
		} else {
			edits = append(edits, edit{end, 0, ")"})
		}
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].at > edits[j].at })
	out := src
	for _, e := range edits {
		out = out[:e.at] + e.text + out[e.at+e.n:]
	}
	return out
}
