package rewrite

import (
	"go/scanner"
	"go/token"
	"strings"
)

// Kind says how yaegi must see one top-level item of a cell.
type Kind int

const (
	Stmt   Kind = iota // a statement, run inside main's body
	Decl               // var, const, type or a named func: a package-level declaration
	Import             // an import declaration
)

func (k Kind) String() string {
	switch k {
	case Decl:
		return "decl"
	case Import:
		return "import"
	}
	return "stmt"
}

// Item is one top-level statement or declaration of a cell.
type Item struct {
	Kind       Kind
	Start, End int // byte offsets in the cell
	lead       int // offset where the comments and space before Start begin
}

// Run is consecutive items of the same kind, evaluated by one yaegi Eval.
type Run struct {
	Kind       Kind
	Start, End int // byte offsets in the cell
	Items      []Item
}

// Runs cuts a cell into runs of items of one kind, in order: what the
// session evaluates one after the other.
func Runs(cell string) []Run { return groupRuns(splitCell(cell)) }

// splitCell cuts a cell into its top-level items. It scans tokens (with Go's
// automatic semicolons) and cuts at semicolons outside brackets; it does not
// parse, so a cell with syntax errors still splits and yaegi reports the
// error at the right line.
func splitCell(src string) []Item {
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), nil, 0) // errors surface when yaegi parses the run

	type tok struct {
		pos int
		tok token.Token
		lit string
	}
	var toks []tok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		toks = append(toks, tok{file.Offset(pos), t, lit})
	}

	var items []Item
	depth := 0
	start := -1 // index in toks of the current item's first token
	end := 0    // byte offset just past the current item's last token
	lead := 0   // byte offset just past the previous separator
	flush := func() {
		if start < 0 {
			return
		}
		first := start
		items = append(items, Item{Kind: classify(func(i int) token.Token { return toks[first+i].tok }, len(toks)-first), Start: toks[first].pos, End: end, lead: lead})
		start = -1
	}
	header := false // inside the header of for, if or switch, whose semicolons do not end the statement
	for i, t := range toks {
		if t.tok == token.SEMICOLON && depth == 0 && !header {
			flush()
			lead = afterSeparator(src, t.pos, t.lit)
			continue
		}
		if depth == 0 {
			switch t.tok {
			case token.FOR, token.IF, token.SWITCH:
				header = true
			case token.LBRACE:
				// Go forbids a composite literal of a bare type name in a
				// header, so a brace outside brackets opens the body unless
				// a slice, array, map or struct type precedes it
				// (if a, b := 1, []int{2}; ok {).
				if !literalBrace(func(k int) token.Token {
					if k > i {
						return token.ILLEGAL
					}
					return toks[i-k].tok
				}) {
					header = false
				}
			}
		}
		if start < 0 {
			start = i
		}
		switch t.tok {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			if depth > 0 {
				depth--
			}
		}
		// min: the semicolon the scanner adds at the end of the text (after
		// an unclosed bracket) has length 1 but no text.
		end = min(t.pos+tokenLen(t.tok, t.lit), len(src))
	}
	flush()
	return items
}

// literalBrace reports whether the "{" at(0) opens a composite literal
// rather than a block, given the tokens before it (at(k) is k tokens back):
// the body of a struct or interface type, the literal after such a body
// (struct{...}{, map[K]struct{}{), or one after a type name that follows
// "]" ([]int{, map[string]T{, []pkg.T{), also through pointers and channel
// directions ([]*T{, map[K]*pkg.T{, []chan int{, []<-chan *T{). An index
// expression before a body ends in "]" itself (range m[k] {), and Go has
// no "]" IDENT sequence outside types; "] *" can be a product
// (switch a[i] * b {), which typeBrackets tells apart.
func literalBrace(at func(k int) token.Token) bool {
	switch at(1) {
	case token.STRUCT, token.INTERFACE:
		return true
	case token.RBRACE:
		// Only a type's body: "range []int{1} {" opens the loop's body.
		depth := 0
		for k := 1; ; k++ {
			switch at(k) {
			case token.RBRACE:
				depth++
			case token.LBRACE:
				depth--
				if depth == 0 {
					t := at(k + 1)
					return t == token.STRUCT || t == token.INTERFACE
				}
			case token.ILLEGAL:
				return false
			}
		}
	case token.IDENT:
		k := 2
		if at(2) == token.PERIOD && at(3) == token.IDENT {
			k = 4
		}
		elem := k
		for at(k) == token.MUL || at(k) == token.CHAN || at(k) == token.ARROW {
			k++
		}
		if at(k) != token.RBRACK {
			return false
		}
		return k == elem || typeBrackets(at, k)
	}
	return false
}

// typeBrackets reports whether the "]" at(k) closes the brackets of a type
// ([], [N], map[K]) rather than an index expression (a[i], f()[0]): the
// brackets of a type are empty, or follow "map", or follow something that
// cannot end an operand (an operator, "(", ",", a keyword), or follow other
// brackets of a type ([3][4]*T).
func typeBrackets(at func(k int) token.Token, k int) bool {
	depth := 0
	for j := k; ; j++ {
		switch at(j) {
		case token.RBRACK:
			depth++
		case token.LBRACK:
			depth--
			if depth > 0 {
				continue
			}
			if j == k+1 {
				return true // []
			}
			switch at(j + 1) {
			case token.MAP:
				return true
			case token.RBRACK:
				return typeBrackets(at, j+1)
			case token.IDENT, token.RPAREN, token.RBRACE, token.INT, token.FLOAT, token.IMAG, token.CHAR, token.STRING:
				return false // an operand, indexed
			}
			return true
		case token.ILLEGAL:
			return false
		}
	}
}

func tokenLen(t token.Token, lit string) int {
	if lit != "" {
		return len(lit)
	}
	return len(t.String())
}

// classify decides an item's kind from its first tokens. A func is a
// declaration when a name follows it (func f) or a receiver and a name
// followed by a parameter list (func (r T) M()); a literal such as
// func() int {...}() is a statement.
func classify(at func(int) token.Token, n int) Kind {
	switch at(0) {
	case token.IMPORT:
		return Import
	case token.VAR, token.CONST, token.TYPE:
		return Decl
	case token.FUNC:
		if n > 1 && at(1) == token.IDENT {
			return Decl
		}
		if n > 1 && at(1) == token.LPAREN {
			depth := 0
			for i := 1; i < n; i++ {
				switch at(i) {
				case token.LPAREN:
					depth++
				case token.RPAREN:
					depth--
					if depth == 0 {
						if i+2 < n && at(i+1) == token.IDENT && at(i+2) == token.LPAREN {
							return Decl
						}
						return Stmt
					}
				}
			}
		}
	}
	return Stmt
}

// groupRuns joins consecutive items of the same kind.
func groupRuns(items []Item) []Run {
	var runs []Run
	for _, it := range items {
		if n := len(runs); n > 0 && runs[n-1].Kind == it.Kind {
			runs[n-1].End = it.End
			runs[n-1].Items = append(runs[n-1].Items, it)
			continue
		}
		// A run starts where the comments before its first item start, so a
		// doc comment stays with its declaration.
		runs = append(runs, Run{Kind: it.Kind, Start: it.lead, End: it.End, Items: []Item{it}})
	}
	return runs
}

// Source is the text yaegi evaluates for r: the run's text placed at
// the same line and column as in the cell, after one leading line that
// yaegi's wrapper ("package main; func main() {") occupies. So a position
// yaegi reports as line L+1 is line L of the cell, column unchanged.
func (r Run) Source(cell string) string {
	line := 1 + strings.Count(cell[:r.Start], "\n")
	col := r.Start - (strings.LastIndex(cell[:r.Start], "\n") + 1)
	return strings.Repeat("\n", line) + strings.Repeat(" ", col) + cell[r.Start:r.End]
}

// StmtPrefix starts the source of every statement item. yaegi decides
// from the first token whether a source holds declarations; a statement
// starting with "func" (a function literal called at once) would be taken
// for a program with a main function, which every later cell runs again.
// An empty statement on the wrapper's line avoids that.
const StmtPrefix = ";"

// Source is the source of a statement item: StmtPrefix, then the item
// placed as Run.Source places a run.
func (it Item) Source(cell string) string {
	return StmtPrefix + Run{Kind: it.Kind, Start: it.Start, End: it.End, Items: []Item{it}}.Source(cell)
}

// StmtAt is the source of the statement text standing in for item at:
// StmtPrefix, then text at the item's line and column.
func StmtAt(cell string, at Item, text string) string {
	line, col := at.Pos(cell)
	return StmtPrefix + strings.Repeat("\n", line) + strings.Repeat(" ", col-1) + text
}

// Pos is the line and column (from 1, in bytes) where the item starts.
func (it Item) Pos(cell string) (line, col int) {
	off := it.Start
	return 1 + strings.Count(cell[:off], "\n"), off - (strings.LastIndex(cell[:off], "\n") + 1) + 1
}

// afterSeparator is the offset just past a statement separator at pos: an
// explicit ";", or an automatic one, which go/scanner places at the end of
// the line or at the start of a comment that ends the line.
func afterSeparator(src string, pos int, lit string) int {
	if lit != "\n" || pos >= len(src) {
		return min(pos+1, len(src))
	}
	rest := src[pos:]
	if strings.HasPrefix(rest, "/*") {
		if end := strings.Index(rest, "*/"); end >= 0 {
			pos += end + 2
			rest = src[pos:]
		}
	}
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		return pos + nl + 1
	}
	return len(src)
}
