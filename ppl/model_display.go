package ppl

import (
	"fmt"
	"html"
	"strings"
)

// formula writes n as the calls that built it, "Add(mu, Mul(tau,
// theta_tilde))", eliding below depth levels.
func formula(n *node, depth int) string {
	switch {
	case n.kind == kRV || n.det != "" || n.kind == kConst || n.kind == kInput:
		return n.describe()
	case depth == 0:
		return "…"
	case n.kind == kReshape && n.fn == "Reshape":
		return fmt.Sprintf("Reshape(%s, %v)", formula(n.args[0], depth-1), n.shape)
	case n.kind == kReshape:
		return formula(n.args[0], depth)
	case n.op == 0:
		return n.fn
	}
	switch n.fn {
	case "At":
		return fmt.Sprintf("%s[%d]", formula(n.args[0], depth-1), n.ints[0])
	case "Slice":
		return fmt.Sprintf("%s[%d:%d]", formula(n.args[0], depth-1), n.ints[0], n.ints[0]+n.ints[1])
	case "Row":
		return fmt.Sprintf("%s[%d,:]", formula(n.args[0], depth-1), n.ints[0]/n.ints[1])
	}
	args := n.args
	if n.scan != nil {
		args = args[:n.scan.nCarry+n.scan.nSeq]
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = formula(a, depth-1)
	}
	return n.fn + "(" + strings.Join(parts, ", ") + ")"
}

func shapeSuffix(s []int) string {
	if len(s) == 0 {
		return ""
	}
	return strings.ReplaceAll(fmt.Sprint(s), " ", ",")
}

// lines describes the model one statement per line, in declaration order.
func (m *Model) lines() (rows [][4]string) {
	for _, r := range m.rvs {
		rows = append(rows, m.line(r))
	}
	for _, d := range m.dets {
		rows = append(rows, [4]string{d.det + shapeSuffix(d.shape), "=", formula(d.args[0], 4), "deterministic"})
	}
	for _, t := range m.terms {
		rows = append(rows, [4]string{"target", "+=", formula(t.n, 4), t.name})
	}
	return rows
}

// line describes one random variable: name, "~", distribution, role.
func (m *Model) line(r *RV) [4]string {
	var dist string
	if r.mix != nil {
		comps := make([]string, len(r.mix.comps))
		for k, c := range r.mix.comps {
			ps := make([]string, len(c.params))
			for i, p := range c.params {
				ps[i] = formula(p, 3)
			}
			comps[k] = c.fam.Name + "(" + strings.Join(ps, ", ") + ")"
		}
		dist = fmt.Sprintf("Mixture(%s; %s)", formula(r.mix.weights, 3), strings.Join(comps, ", "))
	} else {
		ps := make([]string, len(r.params))
		for i, p := range r.params {
			ps[i] = formula(p, 3)
		}
		dist = r.fam.Name + "(" + strings.Join(ps, ", ") + ")"
	}
	var notes []string
	if r.lower != nil {
		notes = append(notes, "lower "+formula(r.lower, 3))
	}
	if r.upper != nil {
		notes = append(notes, "upper "+formula(r.upper, 3))
	}
	switch r.order {
	case ordered:
		notes = append(notes, "ordered")
	case positiveOrdered:
		notes = append(notes, "positive ordered")
	}
	role := "parameter"
	if r.observed {
		role = "observed"
	}
	if len(notes) > 0 {
		role += ", " + strings.Join(notes, ", ")
	}
	return [4]string{r.name + shapeSuffix(r.n.shape), "~", dist, role}
}

// String describes the model one variable per line, as a notebook shows
// it in text form.
func (m *Model) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model %s\n", m.name)
	for _, r := range m.lines() {
		fmt.Fprintf(&b, "  %s %s %s  (%s)\n", r[0], r[1], r[2], r[3])
	}
	if m.err != nil {
		fmt.Fprintf(&b, "  error: %v\n", m.err)
	}
	return b.String()
}

// HTML renders the model as a table (the notebook shows it when a model
// is a cell's last expression).
func (m *Model) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<div><b>model %s</b><table><tbody>", html.EscapeString(m.name))
	for _, r := range m.lines() {
		fmt.Fprintf(&b, "<tr><td><code>%s</code></td><td>%s</td><td><code>%s</code></td><td><i>%s</i></td></tr>",
			html.EscapeString(r[0]), html.EscapeString(r[1]), html.EscapeString(r[2]), html.EscapeString(r[3]))
	}
	b.WriteString("</tbody></table>")
	if m.err != nil {
		fmt.Fprintf(&b, "<p style=\"color:#b00\">%s</p>", html.EscapeString(m.err.Error()))
	}
	b.WriteString("</div>")
	return b.String()
}
