package ppl

import (
	"fmt"
	"html"
	"strings"

	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// formula writes n as the calls that built it, "Add(mu, Mul(tau,
// theta_tilde))", eliding below depth levels.
func formula(n *graph.Node, depth int) string {
	switch {
	case n.Kind == graph.KRV || n.Det != "" || n.Kind == graph.KConst || n.Kind == graph.KInput:
		return n.String()
	case depth == 0:
		return "…"
	case depth > 0 && n.Fn == "Take" && n.Kind == graph.KReshape:
		if x, idx, ok := takeArgs(n); ok {
			return fmt.Sprintf("Take(%s, %s)", formula(x, depth-1), formula(idx, depth-1))
		}
	case depth > 0 && n.Fn == "Where" && n.Kind == graph.KOp:
		if c, a, b, ok := whereVarArgs(n); ok {
			return fmt.Sprintf("Where(%s, %s, %s)", formula(c, depth-1), formula(a, depth-1), formula(b, depth-1))
		}
	}
	switch {
	case n.Kind == graph.KReshape && n.Fn == "Reshape":
		return fmt.Sprintf("Reshape(%s, %v)", formula(n.Args[0], depth-1), n.Dims)
	case n.Kind == graph.KReshape:
		return formula(n.Args[0], depth)
	case n.Op == 0:
		return n.Fn
	}
	switch n.Fn {
	case "At":
		return fmt.Sprintf("%s[%d]", formula(n.Args[0], depth-1), n.Ints[0])
	case "Slice":
		return fmt.Sprintf("%s[%d:%d]", formula(n.Args[0], depth-1), n.Ints[0], n.Ints[0]+n.Ints[1])
	case "Row":
		return fmt.Sprintf("%s[%d,:]", formula(n.Args[0], depth-1), n.Ints[0]/n.Ints[1])
	case "Index":
		if n.TableOf != nil {
			return fmt.Sprintf("Index(%s, %s)", formula(n.Args[0], depth-1), n.TableOf.Container)
		}
	}
	args := n.Args
	if n.Scan != nil {
		args = args[:n.Scan.NCarry+n.Scan.NSeq]
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = formula(a, depth-1)
	}
	return n.Fn + "(" + strings.Join(parts, ", ") + ")"
}

func shapeSuffix(s []int) string {
	if len(s) == 0 {
		return ""
	}
	return strings.ReplaceAll(fmt.Sprint(s), " ", ",")
}

// dimsSuffix is shapeSuffix with the dimensions' names where Dims gave
// them: [school=8].
func dimsSuffix(s []int, names []string) string {
	if len(names) != len(s) || len(s) == 0 {
		return shapeSuffix(s)
	}
	parts := make([]string, len(s))
	for i, n := range s {
		parts[i] = fmt.Sprintf("%s=%d", names[i], n)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// lines describes the model one statement per line, in declaration order.
func (m *Model) lines() (rows [][4]string) {
	for _, d := range m.g.Data {
		rows = append(rows, [4]string{d.Container + dimsSuffix(d.Dims, m.g.DataDims[d.Container]), "=", "data", "data container"})
	}
	for _, r := range m.g.RVs {
		rows = append(rows, line(r))
	}
	for _, d := range m.g.Dets {
		rows = append(rows, [4]string{d.Det + dimsSuffix(d.Dims, m.g.DetDims[d.Det]), "=", formula(d.Args[0], 4), "deterministic"})
	}
	for _, t := range m.g.Terms {
		rows = append(rows, [4]string{"target", "+=", formula(t.Value, 4), t.Name})
	}
	return rows
}

// line describes one random variable: name, "~", distribution, role.
func line(r *graph.RV) [4]string {
	var dist string
	if r.Mix != nil {
		comps := make([]string, len(r.Mix.Comps))
		for k, c := range r.Mix.Comps {
			ps := make([]string, len(c.Params))
			for i, p := range c.Params {
				ps[i] = formula(p, 3)
			}
			comps[k] = c.Fam.Name + "(" + strings.Join(ps, ", ") + ")"
		}
		dist = fmt.Sprintf("Mixture(%s; %s)", formula(r.Mix.Weights, 3), strings.Join(comps, ", "))
	} else {
		fn, args := r.Fam.Name, r.Params
		if r.Shown != nil {
			fn, args = r.Shown.Fn, r.Shown.Args
		}
		ps := make([]string, len(args))
		for i, p := range args {
			ps[i] = formula(p, 3)
		}
		dist = fn + "(" + strings.Join(ps, ", ") + ")"
	}
	var notes []string
	if r.Lower != nil {
		notes = append(notes, "lower "+formula(r.Lower, 3))
	}
	if r.Upper != nil {
		notes = append(notes, "upper "+formula(r.Upper, 3))
	}
	switch r.Order {
	case graph.Ordered:
		notes = append(notes, "ordered")
	case graph.PositiveOrdered:
		notes = append(notes, "positive ordered")
	}
	role := "parameter"
	switch {
	case r.Observed && r.NoData:
		role = "observed, no data of this shape: SetData"
	case r.Observed && r.DataOf != nil:
		role = "observed: " + r.DataOf.Container
	case r.Observed:
		role = "observed"
	default:
		if k, _ := enumSupport(r); k > 0 {
			role = "summed out: " + r.Name + "_probs" // enumerate.go
		}
	}
	if r.Censor != nil {
		notes = append(notes, "censored")
	}
	if r.Truncated {
		notes = append(notes, "truncated")
	}
	if len(notes) > 0 {
		role += ", " + strings.Join(notes, ", ")
	}
	return [4]string{r.Name + dimsSuffix(r.Value.Dims, r.Dims), "~", dist, role}
}

// String describes the model one variable per line, as a notebook shows
// it in text form.
func (m *Model) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model %s\n", m.g.Name)
	if m.glm != nil {
		fmt.Fprintf(&b, "  %s\n", m.glm.about())
	}
	for _, r := range m.lines() {
		fmt.Fprintf(&b, "  %s %s %s  (%s)\n", r[0], r[1], r[2], r[3])
	}
	if m.cerr != nil { // the last compilation's mistake
		fmt.Fprintf(&b, "  error: %v\n", m.cerr)
	}
	return b.String()
}

// HTML renders the model as a table (the notebook shows it when a model
// is a cell's last expression).
func (m *Model) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<div><b>model %s</b>", html.EscapeString(m.g.Name))
	if m.glm != nil {
		fmt.Fprintf(&b, "<br><small>%s</small>", html.EscapeString(m.glm.about()))
	}
	b.WriteString("<table><tbody>")
	for _, r := range m.lines() {
		fmt.Fprintf(&b, "<tr><td><code>%s</code></td><td>%s</td><td><code>%s</code></td><td><i>%s</i></td></tr>",
			html.EscapeString(r[0]), html.EscapeString(r[1]), html.EscapeString(r[2]), html.EscapeString(r[3]))
	}
	b.WriteString("</tbody></table>")
	if m.cerr != nil {
		fmt.Fprintf(&b, "<p style=\"color:#b00\">%s</p>", html.EscapeString(m.cerr.Error()))
	}
	b.WriteString("</div>")
	return b.String()
}
