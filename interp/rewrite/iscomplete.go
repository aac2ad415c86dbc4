package rewrite

import (
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"
)

// indentUnit is the indent suggested per open bracket.
const indentUnit = "    "

// IsComplete answers is_complete_request for Go code: "incomplete" while
// a bracket, a raw string or a comment is open or the last line ends in an
// operator, "invalid" for a syntax error, "complete" otherwise; indent is
// what the next line may start with.
func IsComplete(code string) (status, indent string) {
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(code))
	var s scanner.Scanner
	var scanErr string
	s.Init(file, []byte(code), func(_ token.Position, msg string) {
		if scanErr == "" {
			scanErr = msg
		}
	}, 0)
	depth := 0
	last := token.ILLEGAL // last token other than an automatic semicolon
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
			if depth < 0 {
				return "invalid", ""
			}
		}
		if !(tok == token.SEMICOLON && lit == "\n") {
			last = tok
		}
	}
	switch {
	case strings.Contains(scanErr, "raw string literal not terminated"), strings.Contains(scanErr, "comment not terminated"):
		return "incomplete", ""
	case scanErr != "":
		return "invalid", ""
	case depth > 0:
		return "incomplete", strings.Repeat(indentUnit, depth)
	}
	switch {
	case last.IsOperator() && last != token.RPAREN && last != token.RBRACE && last != token.RBRACK &&
		last != token.INC && last != token.DEC && last != token.SEMICOLON:
		return "incomplete", ""
	}
	if !parses(code) {
		return "invalid", ""
	}
	return "complete", ""
}

// parses reports whether every run of the cell is syntactically valid Go.
func parses(code string) bool {
	for _, r := range groupRuns(splitCell(code)) {
		src := code[r.Start:r.End]
		var err error
		if r.Kind == Stmt {
			_, err = parser.ParseFile(token.NewFileSet(), "", "package main; func main() {"+src+"\n}", parser.SkipObjectResolution)
		} else {
			_, err = parser.ParseFile(token.NewFileSet(), "", "package main;"+src, parser.SkipObjectResolution)
		}
		if err != nil {
			return false
		}
	}
	return true
}
