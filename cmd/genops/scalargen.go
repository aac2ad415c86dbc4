package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"strings"
)

// scalarFile writes accel/opdef/term's terms_gen.go: for each definition
// with Scalar set, its value and its partials as small Go functions of
// one element, for the hand-fused kernels (accel/fuse, accel/vec's fused
// loops) that must not spell the formulas again. The costly calls on
// parameters alone (log σ, 1/σ: the row calls of the lockstep kernels)
// are arguments, so that a caller computes them once per scale, as the
// generated loops do; the functions are small enough to inline.
func scalarFile(ps []*parsed, _ map[string]bool) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("package term\n\nimport (\n\t\"math\"\n\n\t\"github.com/gobayes/gobayes/accel/opdef\"\n)\n\nvar (\n\t_ = math.Log\n\t_ = opdef.Inv\n)\n")
	for _, p := range ps {
		if !p.d.Scalar {
			continue
		}
		if err := scalarValue(&b, p); err != nil {
			return nil, err
		}
		if err := scalarGrad(&b, p); err != nil {
			return nil, err
		}
	}
	return goFile("terms_gen.go", &b)
}

// scalarParams are the parameters of a function of es: the arguments
// they read outside the row calls, by name, then the row calls', named
// after the call (logSigma for log(sigma)); and the scope that spells
// them so. A row call here is one on parameters alone: one that reads
// the variate (the first argument; the gamma's log(y)) changes with each
// element, and the function computes it.
func (p *parsed) scalarParams(es ...ast.Expr) ([]string, *scope) {
	var rows []rowCall
	for _, r := range p.rowCalls(es...) {
		if r.args[0] != 0 {
			rows = append(rows, r)
		}
	}
	s := p.scope()
	s.argVar = func(i int) string { return p.args[i] }
	s.letVar = func(k int) string { return p.d.Let[k].Name }
	s.nw = new(int)
	s.cached = map[string]string{}
	var rowNames []string
	isRow := map[string]bool{} // by the key rowCalls spells
	for _, r := range rows {
		name := r.expr.(*ast.CallExpr).Fun.(*ast.Ident).Name
		for _, a := range r.args {
			name += strings.ToUpper(p.args[a][:1]) + p.args[a][1:]
		}
		// The key as this scope's printer looks it up.
		key, err := s.plain().print(r.expr, goLang)
		if err != nil {
			continue
		}
		s.cached[key] = name
		isRow[r.key] = true
		rowNames = append(rowNames, name)
	}
	// The arguments read outside the row calls.
	read := map[int]bool{}
	for _, e := range es {
		ast.Inspect(e, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if key, err := p.scope().print(c, goLang); err == nil && isRow[key] {
					return false
				}
			}
			if id, ok := n.(*ast.Ident); ok {
				if i, ok := p.names[id.Name]; ok {
					read[i] = true
				}
			}
			return true
		})
	}
	var params []string
	for i, a := range p.args {
		if read[i] {
			params = append(params, a)
		}
	}
	return append(params, rowNames...), s
}

// scalarLets writes the lets es need (a where as an if/else).
func scalarLets(b *bytes.Buffer, p *parsed, s *scope, es ...ast.Expr) error {
	for _, k := range p.letsNeeded(es...) {
		line, err := goLine(s, p.lets[k], p.d.Let[k].Name+" := %s")
		if err != nil {
			return err
		}
		b.WriteString(line)
	}
	return nil
}

// scalarCode checks that a generated function uses nothing beside math
// and accel/opdef (accel/ir's Exp is not reachable from package term:
// accel/ir imports it through the fused kernels' packages).
func scalarCode(p *parsed, code string) (string, error) {
	if strings.Contains(code, "ir.") {
		return "", fmt.Errorf("opdef %s: Scalar: the formulas call a function outside math and accel/opdef", p.d.Family)
	}
	return code, nil
}

func scalarValue(b *bytes.Buffer, p *parsed) error {
	es := []ast.Expr{p.value}
	for _, k := range p.letsNeeded(p.value) {
		es = append(es, p.lets[k])
	}
	params, s := p.scalarParams(es...)
	var body bytes.Buffer
	if err := scalarLets(&body, p, s, p.value); err != nil {
		return err
	}
	line, err := goLine(s, p.value, "return %s")
	if err != nil {
		return err
	}
	body.WriteString(line)
	code, err := scalarCode(p, body.String())
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "\n// %sValue is %s's term where %s holds (%s).\n", p.d.Family, p.d.Name, p.d.Valid, scalarRowDoc(params, p))
	fmt.Fprintf(b, "func %sValue(%s float64) float64 {\n%s}\n", p.d.Family, strings.Join(params, ", "), code)
	return nil
}

func scalarGrad(b *bytes.Buffer, p *parsed) error {
	var gs []ast.Expr
	var outs []string
	for i, g := range p.grads {
		if g != nil {
			gs = append(gs, g)
			outs = append(outs, "d"+p.args[i])
		}
	}
	if len(gs) == 0 {
		return nil
	}
	es := append([]ast.Expr(nil), gs...)
	for _, k := range p.letsNeeded(gs...) {
		es = append(es, p.lets[k])
	}
	params, s := p.scalarParams(es...)
	var body bytes.Buffer
	if err := scalarLets(&body, p, s, gs...); err != nil {
		return err
	}
	for j, g := range gs {
		line, err := goLine(s, g, outs[j]+" = %s")
		if err != nil {
			return err
		}
		body.WriteString(line)
	}
	fmt.Fprintf(&body, "return %s\n", strings.Join(outs, ", "))
	code, err := scalarCode(p, body.String())
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "\n// %sGrad is %s's partials by %s where %s holds (%s).\n", p.d.Family, p.d.Name, strings.Join(argNames(p), ", "), p.d.Valid, scalarRowDoc(params, p))
	fmt.Fprintf(b, "func %sGrad(%s float64) (%s float64) {\n%s}\n", p.d.Family, strings.Join(params, ", "), strings.Join(outs, ", "), code)
	return nil
}

// argNames are the arguments that carry a partial.
func argNames(p *parsed) []string {
	var out []string
	for i, g := range p.grads {
		if g != nil {
			out = append(out, p.args[i])
		}
	}
	return out
}

// scalarRowDoc says what the row-call parameters are: "logSigma =
// log(sigma)".
func scalarRowDoc(params []string, p *parsed) string {
	var out []string
	for _, name := range params {
		if _, ok := p.names[name]; ok {
			continue
		}
		for i, a := range p.args {
			if j := strings.Index(name, strings.ToUpper(a[:1])+a[1:]); j > 0 && j+len(a) == len(name) {
				out = append(out, fmt.Sprintf("%s = %s(%s)", name, name[:j], p.args[i]))
			}
		}
	}
	if len(out) == 0 {
		return "no precomputed calls"
	}
	return "given " + strings.Join(out, ", ")
}
