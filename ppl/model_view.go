package ppl

import (
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Graph is the model drawn as a graph, as PyMC's model_to_graphviz draws
// it: a node per data container, random variable, deterministic quantity
// and log-density term, an arrow from each to what is computed from it,
// observed variables shaded, and plates around the nodes that share a
// dimension (named by Dims, or by its length). A notebook shows it as SVG;
// String lists the edges.
func (m *Model) Graph() *ModelGraph { return &ModelGraph{view: m.view()} }

// ModelGraph is a model's graph (Model.Graph).
type ModelGraph struct{ view modelView }

// Edges lists the graph's arrows as "parent -> child", in order.
func (g *ModelGraph) Edges() []string {
	var out []string
	for _, n := range g.view.nodes {
		for _, p := range n.parents {
			out = append(out, g.view.nodes[p].name+" -> "+n.name)
		}
	}
	return out
}

// String is the model's name and its edges, one per line.
func (g *ModelGraph) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model %s: %d nodes\n", g.view.name, len(g.view.nodes))
	for _, e := range g.Edges() {
		b.WriteString("  " + e + "\n")
	}
	return b.String()
}

// viewNode is one node of the drawing.
type viewNode struct {
	name, kind, label string // kind: parameter, observed, deterministic, data, term
	plate             string // "" for a scalar
	parents           []int
	layer             int
	x, y              float64 // the node's centre
}

type modelView struct {
	name  string
	nodes []viewNode
}

// view collects the nodes and arrows of the model.
func (m *Model) view() modelView {
	v := modelView{name: m.g.Name}
	index := map[*graph.Node]int{}
	add := func(n *graph.Node, vn viewNode) {
		index[n] = len(v.nodes)
		v.nodes = append(v.nodes, vn)
	}
	for _, d := range m.g.Data {
		add(d, viewNode{name: d.Container, kind: "data", label: "data", plate: plateOf(d.Dims, m.g.DataDims[d.Container])})
	}
	for _, r := range m.g.RVs {
		kind := "parameter"
		if r.Observed {
			kind = "observed"
		}
		add(r.Value, viewNode{name: r.Name, kind: kind, label: "~ " + r.FamName(), plate: plateOf(r.Value.Dims, r.Dims)})
	}
	for _, d := range m.g.Dets {
		add(d, viewNode{name: d.Det, kind: "deterministic", label: "= " + d.Args[0].FnName(), plate: plateOf(d.Dims, m.g.DetDims[d.Det])})
	}
	terms := make([]*graph.Node, len(m.g.Terms))
	for i, t := range m.g.Terms {
		// A term's node may be shared; a placeholder keys it.
		terms[i] = &graph.Node{Args: []*graph.Node{t.Value}}
		add(terms[i], viewNode{name: t.Name, kind: "term", label: "target +="})
	}
	// parents of node self: the named nodes reached from its inputs.
	parents := func(self int, ins ...*graph.Node) []int {
		var out []int
		seen := map[*graph.Node]bool{}
		var walk func(n *graph.Node)
		walk = func(n *graph.Node) {
			if n == nil || seen[n] {
				return
			}
			seen[n] = true
			if i, ok := index[n]; ok && i != self {
				if !slices.Contains(out, i) {
					out = append(out, i)
				}
				return
			}
			for _, a := range n.Args {
				walk(a)
			}
		}
		for _, n := range ins {
			walk(n)
		}
		slices.Sort(out)
		return out
	}
	for _, r := range m.g.RVs {
		i := index[r.Value]
		ins := append(slices.Clone(r.Params), r.Lower, r.Upper, r.DataOf)
		if r.Mix != nil {
			ins = append(ins, r.Mix.Weights)
			for _, c := range r.Mix.Comps {
				ins = append(ins, c.Params...)
			}
		}
		v.nodes[i].parents = parents(i, ins...)
	}
	for _, d := range m.g.Dets {
		i := index[d]
		v.nodes[i].parents = parents(i, d.Args[0])
	}
	for k, t := range terms {
		i := index[t]
		v.nodes[i].parents = parents(i, m.g.Terms[k].Value)
	}
	// Layers: one below the lowest parent.
	done := make([]bool, len(v.nodes))
	var layer func(i int) int
	layer = func(i int) int {
		if done[i] {
			return v.nodes[i].layer
		}
		done[i] = true
		l := 0
		for _, p := range v.nodes[i].parents {
			l = max(l, layer(p)+1)
		}
		v.nodes[i].layer = l
		return l
	}
	for i := range v.nodes {
		layer(i)
	}
	return v
}

// plateOf names a shape's plate: its dimensions' names and lengths, or its
// lengths alone; "" for a scalar.
func plateOf(shape []int, names []string) string {
	if len(shape) == 0 {
		return ""
	}
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = fmt.Sprint(d)
		if len(names) == len(shape) {
			parts[i] = fmt.Sprintf("%s (%d)", names[i], d)
		}
	}
	return strings.Join(parts, " × ")
}

// Sizes of the drawing, in pixels.
const (
	gvNodeW, gvNodeH = 136.0, 46.0
	gvGapX, gvGapY   = 22.0, 56.0
	gvPad            = 14.0 // inside a plate, around its nodes
	gvMargin         = 16.0
)

// graphLayout is where the drawing puts things, in pixels from the top
// left: SVG and PNG draw the same layout.
type graphLayout struct {
	w, h   float64
	plates []plateBox
	nodes  []viewNode // with x, y set
}

// plateBox is a plate's rectangle and its label.
type plateBox struct {
	x, y, w, h float64
	label      string
}

// layout places the graph: layers top to bottom, each plate a column band
// of its own so that plates never overlap.
func (g *ModelGraph) layout() graphLayout {
	v := g.view
	nodes := slices.Clone(v.nodes)
	// Plates in order of first appearance, the scalars' (no plate) first.
	var plates []string
	for _, n := range nodes {
		if n.plate != "" && !slices.Contains(plates, n.plate) {
			plates = append(plates, n.plate)
		}
	}
	plates = append([]string{""}, plates...)
	layers := 0
	for _, n := range nodes {
		layers = max(layers, n.layer+1)
	}
	// A band is as wide as its plate's largest layer.
	width := map[string]int{}
	count := map[[2]any]int{}
	for _, n := range nodes {
		k := [2]any{n.plate, n.layer}
		count[k]++
		width[n.plate] = max(width[n.plate], count[k])
	}
	bandX := map[string]float64{}
	x := gvMargin
	for _, p := range plates {
		if width[p] == 0 {
			continue
		}
		if p != "" {
			x += gvPad
		}
		bandX[p] = x
		x += float64(width[p])*(gvNodeW+gvGapX) - gvGapX
		if p != "" {
			x += gvPad
		}
		x += gvGapX
	}
	l := graphLayout{
		w:     x - gvGapX + gvMargin,
		h:     gvMargin*2 + float64(layers)*(gvNodeH+gvGapY) - gvGapY + gvPad*2 + 14,
		nodes: nodes,
	}
	placed := map[[2]any]int{}
	for i := range nodes {
		n := &nodes[i]
		k := [2]any{n.plate, n.layer}
		n.x = bandX[n.plate] + float64(placed[k])*(gvNodeW+gvGapX) + gvNodeW/2
		n.y = gvMargin + gvPad + float64(n.layer)*(gvNodeH+gvGapY) + gvNodeH/2
		placed[k]++
	}
	for _, p := range plates[1:] {
		lo, hi := layers, -1
		for _, n := range nodes {
			if n.plate == p {
				lo, hi = min(lo, n.layer), max(hi, n.layer)
			}
		}
		l.plates = append(l.plates, plateBox{
			x:     bandX[p] - gvPad,
			y:     gvMargin + float64(lo)*(gvNodeH+gvGapY),
			w:     float64(width[p])*(gvNodeW+gvGapX) - gvGapX + 2*gvPad,
			h:     float64(hi-lo)*(gvNodeH+gvGapY) + gvNodeH + 2*gvPad + 12,
			label: p,
		})
	}
	return l
}

// The drawing's colours, as SVG writes them.
const (
	gvInk       = "#2f3b52" // node outlines
	gvEdge      = "#444444"
	gvPlateFill = "#f4f6fa"
	gvPlateLine = "#8a94a6"
	gvSubtle    = "#4a5468" // labels under names, plate labels
)

// nodeFill is a node's fill colour by its kind.
func nodeFill(kind string) string {
	switch kind {
	case "observed":
		return "#c9ced8"
	case "data":
		return "#e8eaee"
	}
	return "#ffffff"
}

// SVG draws the graph (layout's placement). A notebook shows it; the PNG
// is the same drawing for where SVG is not shown (an untrusted notebook).
func (g *ModelGraph) SVG() string {
	l := g.layout()
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="13">`, l.w, l.h, l.w, l.h)
	fmt.Fprintf(&b, `<defs><marker id="gb-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker></defs>`, gvEdge)
	fmt.Fprintf(&b, `<title>model %s</title>`, html.EscapeString(g.view.name))
	// Plates behind everything.
	for _, p := range l.plates {
		fmt.Fprintf(&b, `<g class="plate"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="8" fill="%s" stroke="%s"/>`, p.x, p.y, p.w, p.h, gvPlateFill, gvPlateLine)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end" font-size="11" fill="%s">%s</text></g>`, p.x+p.w-6, p.y+p.h-6, gvSubtle, html.EscapeString(p.label))
	}
	for _, n := range l.nodes {
		for _, p := range n.parents {
			a := l.nodes[p]
			fmt.Fprintf(&b, `<line class="edge" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.2" marker-end="url(#gb-arrow)"><title>%s → %s</title></line>`,
				a.x, a.y+gvNodeH/2, n.x, n.y-gvNodeH/2, gvEdge, html.EscapeString(a.name), html.EscapeString(n.name))
		}
	}
	for _, n := range l.nodes {
		fill := nodeFill(n.kind)
		var shape string
		switch n.kind {
		case "observed", "parameter":
			shape = fmt.Sprintf(`<ellipse cx="%.1f" cy="%.1f" rx="%.1f" ry="%.1f" fill="%s" stroke="%s" stroke-width="1.4"/>`, n.x, n.y, gvNodeW/2, gvNodeH/2, fill, gvInk)
		case "data":
			shape = fmt.Sprintf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="14" fill="%s" stroke="%s" stroke-dasharray="4 2"/>`, n.x-gvNodeW/2, n.y-gvNodeH/2, gvNodeW, gvNodeH, fill, gvInk)
		default: // deterministic, term
			shape = fmt.Sprintf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="3" fill="%s" stroke="%s" stroke-width="1.4"/>`, n.x-gvNodeW/2, n.y-gvNodeH/2, gvNodeW, gvNodeH, fill, gvInk)
		}
		fmt.Fprintf(&b, `<g class="node %s">%s`, n.kind, shape)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-weight="bold">%s</text>`, n.x, n.y-3, html.EscapeString(clip(n.name, 18)))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="11" fill="%s">%s</text></g>`, n.x, n.y+13, gvSubtle, html.EscapeString(clip(n.label, 22)))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// clip shortens s to n runes with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// LaTeX is the model written as mathematics, one statement per line, as
// PyMC shows a model: μ ~ Normal(0, 5), θ = μ + τ·θ̃, the observed
// variables marked. A notebook shows it typeset (Markdown with MathJax);
// String is the LaTeX source.
func (m *Model) LaTeX() *ModelMaths {
	var rows [][4]string
	for _, d := range m.g.Data {
		rows = append(rows, latexRow(latexName(d.Container), `\sim`, `\operatorname{Data}`, latexShape(d.Dims, m.g.DataDims[d.Container])))
	}
	for _, r := range m.g.RVs {
		var dist string
		if r.Mix != nil {
			comps := make([]string, len(r.Mix.Comps))
			for k, c := range r.Mix.Comps {
				comps[k] = latexCall(`\operatorname{`+c.Fam.Name+`}`, c.Params, 4)
			}
			dist = `\operatorname{Mixture}\left(` + latexExpr(r.Mix.Weights, 4) + `;\ ` + strings.Join(comps, `,\ `) + `\right)`
		} else if r.Shown != nil {
			dist = latexCall(`\operatorname{`+r.Shown.Fn+`}`, r.Shown.Args, 4)
		} else {
			dist = latexCall(`\operatorname{`+r.Fam.Name+`}`, r.Params, 4)
		}
		note := latexShape(r.Value.Dims, r.Dims)
		if r.Observed {
			note = strings.TrimPrefix(note+`,\ \text{observed}`, `,\ `)
		}
		if r.Censor != nil {
			note += `,\ \text{censored}`
		}
		if r.Truncated {
			note = strings.TrimPrefix(note+`,\ \text{truncated}`, `,\ `)
		}
		if r.Lower != nil || r.Upper != nil {
			lo, hi := `-\infty`, `\infty`
			if r.Lower != nil {
				lo = latexExpr(r.Lower, 3)
			}
			if r.Upper != nil {
				hi = latexExpr(r.Upper, 3)
			}
			dist += `\ \text{on}\ \left(` + lo + `,\ ` + hi + `\right)`
		}
		rows = append(rows, latexRow(latexName(r.Name), `\sim`, dist, note))
	}
	for _, d := range m.g.Dets {
		rows = append(rows, latexRow(latexName(d.Det), `=`, latexExpr(d.Args[0], 5), latexShape(d.Dims, m.g.DetDims[d.Det])))
	}
	for _, t := range m.g.Terms {
		rows = append(rows, latexRow(`\text{target}`, `\mathrel{+}=`, latexExpr(t.Value, 5), `\text{`+latexText(t.Name)+`}`))
	}
	return &ModelMaths{name: m.g.Name, rows: rows}
}

// ModelMaths is a model as LaTeX (Model.LaTeX).
type ModelMaths struct {
	name string
	rows [][4]string // lhs, relation, rhs, note
}

// String is the LaTeX source: an array of the model's statements, one
// per row, aligned on the relations.
func (x *ModelMaths) String() string {
	lines := make([]string, len(x.rows))
	for i, r := range x.rows {
		note := r[3]
		if note != "" {
			note = `\quad ` + note
		}
		lines[i] = r[0] + ` & ` + r[1] + ` & ` + r[2] + ` & ` + note
	}
	return `\begin{array}{rcll}` + "\n" + strings.Join(lines, " \\\\\n") + "\n" + `\end{array}`
}

// Markdown is the statements as display maths, one block each, which
// Jupyter typesets. (Notebook 6 typesets no maths holding & or \\ in an
// output, so the aligned array is String's alone.)
func (x *ModelMaths) Markdown() string {
	blocks := make([]string, len(x.rows))
	for i, r := range x.rows {
		b := r[0] + ` ` + r[1] + ` ` + r[2]
		if r[3] != "" {
			b += `\qquad ` + r[3]
		}
		blocks[i] = "$$" + b + "$$"
	}
	return strings.Join(blocks, "\n\n")
}

// LaTeX is the statements as Markdown has them, for text/latex: an
// untrusted notebook shows no Markdown but typesets LaTeX.
func (x *ModelMaths) LaTeX() string { return x.Markdown() }

func latexRow(lhs, rel, rhs, note string) [4]string {
	return [4]string{lhs, rel, rhs, note}
}

// latexShape notes a shape: "school = 8", or its lengths in brackets.
func latexShape(shape []int, names []string) string {
	if len(shape) == 0 {
		return ""
	}
	if len(names) != len(shape) {
		return `\text{` + shapeSuffix(shape) + `}`
	}
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = fmt.Sprint(d)
		if len(names) == len(shape) {
			parts[i] = `\text{` + latexText(names[i]) + `} = ` + fmt.Sprint(d)
		}
	}
	return strings.Join(parts, `,\ `)
}

var greek = map[string]bool{
	"alpha": true, "beta": true, "gamma": true, "delta": true, "epsilon": true, "zeta": true, "eta": true,
	"theta": true, "iota": true, "kappa": true, "lambda": true, "mu": true, "nu": true, "xi": true, "pi": true,
	"rho": true, "sigma": true, "tau": true, "upsilon": true, "phi": true, "chi": true, "psi": true, "omega": true,
	"Gamma": true, "Delta": true, "Theta": true, "Lambda": true, "Xi": true, "Pi": true, "Sigma": true,
	"Upsilon": true, "Phi": true, "Psi": true, "Omega": true,
}

// latexName writes a name: Greek letters as letters (theta_tilde as θ̃,
// sigma_y as σ with subscript y), others upright.
func latexName(name string) string {
	if greek[name] {
		return `\` + name
	}
	if g, rest, ok := strings.Cut(name, "_"); ok && greek[g] && rest != "" {
		switch rest {
		case "tilde", "raw":
			return `\tilde{\` + g + `}`
		case "hat":
			return `\hat{\` + g + `}`
		case "bar":
			return `\bar{\` + g + `}`
		}
		return `\` + g + `_{\text{` + latexText(rest) + `}}`
	}
	return `\text{` + latexText(name) + `}`
}

// latexText escapes text for \text{…}.
func latexText(s string) string {
	r := strings.NewReplacer(`\`, `\backslash `, "_", `\_`, "{", `\{`, "}", `\}`, "$", `\$`, "&", `\&`, "#", `\#`, "%", `\%`, "^", `\^{}`, "~", `\~{}`)
	return r.Replace(s)
}

func latexCall(fn string, args []*graph.Node, depth int) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = latexExpr(a, depth)
	}
	return fn + `\left(` + strings.Join(parts, `,\ `) + `\right)`
}

// latexExpr writes an expression as mathematics, eliding below depth.
func latexExpr(n *graph.Node, depth int) string {
	switch {
	case n == nil:
		return ""
	case n.Container != "":
		return latexName(n.Container)
	case n.Kind == graph.KRV:
		return latexName(n.RV.Name)
	case n.Det != "":
		return latexName(n.Det)
	case n.Kind == graph.KConst && n.Label != "":
		return latexName(n.Label)
	case n.Kind == graph.KConst && len(n.Data) == 1:
		return fmt.Sprintf("%g", n.Data[0])
	case n.Kind == graph.KConst:
		return `\text{data}_{` + strings.ReplaceAll(shapeSuffix(n.Dims), ",", `\times `) + `}`
	case n.Kind == graph.KInput:
		return fmt.Sprintf(`x_{%d}`, n.Input)
	case depth == 0:
		return `\ldots`
	case n.Kind == graph.KReshape && n.Fn == "Take":
		if x, idx, ok := takeArgs(n); ok {
			return `{` + latexExpr(x, depth-1) + `}_{` + latexExpr(idx, depth-1) + `}`
		}
		return latexExpr(n.Args[0], depth)
	case n.Kind == graph.KReshape:
		return latexExpr(n.Args[0], depth)
	case n.Fn == "Where" && n.Kind == graph.KOp:
		if c, a, b, ok := whereVarArgs(n); ok {
			return latexCall(`\operatorname{where}`, []*graph.Node{c, a, b}, depth-1)
		}
	}
	arg := func(i int) string { return latexExpr(n.Args[i], depth-1) }
	// paren wraps a sum or difference that is the operand of a product.
	paren := func(i int) string {
		a := n.Args[i]
		for a.Kind == graph.KReshape && a.Det == "" && len(a.Args) == 1 {
			a = a.Args[0]
		}
		if a.Kind == graph.KOp && a.Det == "" && a.Container == "" && (a.Fn == "Add" || a.Fn == "Sub" || a.Fn == "Neg") {
			return `\left(` + latexExpr(n.Args[i], depth-1) + `\right)`
		}
		return latexExpr(n.Args[i], depth-1)
	}
	switch n.Fn {
	case "Add":
		return arg(0) + " + " + arg(1)
	case "Sub":
		return arg(0) + " - " + paren(1)
	case "Mul":
		return paren(0) + ` \cdot ` + paren(1)
	case "Div", "Mean":
		if n.Fn == "Mean" {
			return `\operatorname{mean}\left(` + latexExpr(n.Args[0].Args[0], depth-1) + `\right)`
		}
		return `\frac{` + arg(0) + `}{` + arg(1) + `}`
	case "Pow":
		return `{` + paren(0) + `}^{` + arg(1) + `}`
	case "Neg":
		return "-" + paren(0)
	case "Square":
		return `{` + paren(0) + `}^{2}`
	case "Sqrt":
		return `\sqrt{` + arg(0) + `}`
	case "Exp", "Log", "Tanh":
		return `\` + strings.ToLower(n.Fn) + `\left(` + arg(0) + `\right)`
	case "Logistic":
		return `\operatorname{logit}^{-1}\left(` + arg(0) + `\right)`
	case "Sum":
		return `\sum ` + paren(0)
	case "Dot":
		return paren(0) + ` \cdot ` + paren(1)
	case "MatVec", "MatMul":
		return paren(0) + `\,` + paren(1)
	case "Index", "Col":
		return `{` + arg(0) + `}_{[\,\cdot\,]}`
	case "At", "Slice":
		if len(n.Ints) == 2 && n.Ints[1] == 1 {
			return `{` + arg(0) + fmt.Sprintf(`}_{%d}`, n.Ints[0])
		}
	case "LogPDF":
		ps := make([]string, len(n.Args)-1)
		for i := range ps {
			ps[i] = arg(i + 1)
		}
		return `\log p\left(` + arg(0) + ` \mid ` + strings.Join(ps, `,\ `) + `\right)`
	}
	return latexCall(`\operatorname{`+latexText(n.FnName())+`}`, n.Args, depth-1)
}
