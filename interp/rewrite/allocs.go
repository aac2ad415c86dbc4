package rewrite

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// smallLen is the largest literal length CheckAllocs leaves unchecked:
// make([]T, 3) cannot exhaust memory for any T a cell writes.
const smallLen = 1 << 16

// CheckAllocs routes the sizes of the allocations in src (a run or an
// item's source) through the functions of the package the cell knows as
// pkg, so that a request larger than the memory limit allows is refused
// before it is made (the Go runtime ends the process when an allocation
// fails; an allocation cannot be recovered from afterwards):
//
//	make(T, n)        → make(T, pkg.Len(n, (T)(nil)))
//	make(T, n, c)     → make(T, n, pkg.Len(c, (T)(nil)))
//	new([N]E)         → (*[N]E)(make([]E, pkg.New((*[N]E)(nil))))
//	append(s, a, b)   → append(s[:pkg.Grow(s, 2)], a, b)
//	append(s, xs...)  → append(s[:pkg.Grow(s, len(xs))], xs...)
//
// except that an assignment of append in a list of statements
// (s = append(s, x), t := append(s, xs...)) gets a statement before it
// instead, which calls Grow only when the slice must grow:
//
//	if len(s)+1 > cap(s) { pkg.Grow(s, 1) }; s = append(s, x)
//
// Len returns its length, New the array's and Grow len(s) when the request
// fits, and panic otherwise. (new's form makes the array as a slice that
// is converted to the pointer: yaegi would hold a value of the array type
// in its frame for &make([][N]E, 1)[0], allocating it unchecked.) append is rewritten only where s (and xs) are names or
// selectors, which evaluating twice cannot change; make with a small
// literal length is left alone. Len takes a size of any type, so that the
// rewritten source compiles wherever src does (yaegi does not survive a
// second compile of a method whose first failed); a size that is not an
// integer is Len's panic instead of a compile error. The caller compiles
// src as it was when the rewritten source does not compile. Lines stay
// put; columns after an edit on its line move.
//
// It returns src unchanged when there is nothing to check or src does not
// parse.
func CheckAllocs(src, pkg string) string {
	if !strings.Contains(src, "make(") && !strings.Contains(src, "new(") && !strings.Contains(src, "append(") {
		return src
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
	off := func(p token.Pos) int { return int(p) - base }
	text := func(n ast.Node) string { return src[off(n.Pos()):off(n.End())] }

	type edit struct {
		at, n int // replace src[at:at+n]
		text  string
	}
	var edits []edit
	// appendCount is the number of values a call of append adds, as text,
	// and whether its slice (and spread values) are stable.
	appendCount := func(call *ast.CallExpr) (string, bool) {
		if fn, ok := call.Fun.(*ast.Ident); !ok || fn.Name != "append" || len(call.Args) < 2 || !stable(call.Args[0]) {
			return "", false
		}
		if call.Ellipsis == token.NoPos {
			return strconv.Itoa(len(call.Args) - 1), true
		}
		if !stable(call.Args[1]) {
			return "", false
		}
		return "len(" + text(call.Args[1]) + ")", true
	}
	// s = append(s, ...) as a statement of a list is checked by a
	// statement before it, which calls the check only when append will
	// grow the slice: a call into compiled code for every append made a
	// loop that appends element by element 2-4 times slower.
	checked := map[*ast.CallExpr]bool{}
	stmts := func(list []ast.Stmt) {
		for _, st := range list {
			as, ok := st.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 {
				continue
			}
			call, ok := as.Rhs[0].(*ast.CallExpr)
			if !ok {
				continue
			}
			count, ok := appendCount(call)
			if !ok {
				continue
			}
			sl := text(call.Args[0])
			checked[call] = true
			edits = append(edits, edit{off(as.Pos()), 0,
				"if len(" + sl + ")+" + count + " > cap(" + sl + ") { " + pkg + ".Grow(" + sl + ", " + count + ") }; "})
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			stmts(n.List)
		case *ast.CaseClause:
			stmts(n.Body)
		case *ast.CommClause:
			stmts(n.Body)
		}
		return true
	})
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || checked[call] {
			return true
		}
		fn, ok := call.Fun.(*ast.Ident)
		if !ok {
			return true
		}
		switch {
		case fn.Name == "make" && (len(call.Args) == 2 || len(call.Args) == 3) && call.Ellipsis == token.NoPos:
			size := call.Args[len(call.Args)-1]
			if smallLiteral(size) {
				return true
			}
			typ := text(call.Args[0])
			edits = append(edits,
				edit{off(size.Pos()), 0, pkg + ".Len("},
				edit{off(size.End()), 0, ", (" + typ + ")(nil))"})
		case fn.Name == "new" && len(call.Args) == 1:
			arr, ok := call.Args[0].(*ast.ArrayType)
			if !ok || arr.Len == nil {
				return true
			}
			if _, dots := arr.Len.(*ast.Ellipsis); dots {
				return true
			}
			typ := text(arr)
			edits = append(edits, edit{off(call.Pos()), off(call.End()) - off(call.Pos()),
				"(*" + typ + ")(make([]" + text(arr.Elt) + ", " + pkg + ".New((*" + typ + ")(nil))))"})
			return false
		case fn.Name == "append":
			count, ok := appendCount(call)
			if !ok {
				return true
			}
			s := call.Args[0]
			edits = append(edits, edit{off(s.End()), 0, "[:" + pkg + ".Grow(" + text(s) + ", " + count + ")]"})
		}
		return true
	})
	if len(edits) == 0 {
		return src
	}
	// From the end, so earlier offsets stay valid; at one offset, the edits
	// found later (inner calls) go first, which nests them inside the outer
	// call's text.
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].at > edits[j].at })
	b := []byte(src)
	for _, e := range edits {
		if e.at < 0 || e.at+e.n > len(b) {
			return src
		}
		b = append(b[:e.at], append([]byte(e.text), b[e.at+e.n:]...)...)
	}
	return string(b)
}

// smallLiteral reports whether e is an integer literal of at most smallLen.
func smallLiteral(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return false
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(lit.Value, "_", ""), 0, 64)
	return err == nil && v <= smallLen
}

// stable reports whether evaluating e twice gives the same value with no
// effect: a name, or a field of one.
func stable(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name != "_"
	case *ast.SelectorExpr:
		return stable(e.X)
	case *ast.ParenExpr:
		return stable(e.X)
	}
	return false
}
