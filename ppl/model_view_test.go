package ppl

import (
	"encoding/xml"
	"slices"
	"strings"
	"testing"
)

func schoolsWithCoords() *Model {
	m := NewModel("eight_schools")
	m.Coords("school", "A", "B", "C", "D", "E", "F", "G", "H")
	sigma := m.Data("sigma", []float64{15, 10, 16, 11, 9, 11, 10, 18}, Dims("school"))
	mu := m.Normal("mu", 0, 5)
	tau := m.HalfCauchy("tau", 5)
	z := m.Normal("theta_tilde", 0, 1, Size(8), Dims("school"))
	theta := m.Deterministic("theta", mu.Add(tau.Mul(z)), Dims("school"))
	m.Normal("y", theta, sigma, Observed([]float64{28, 8, -3, 7, -1, 1, 18, 12}), Dims("school"))
	m.LogDensity("soft", tau.Log().Neg())
	return m
}

func TestModelGraph(t *testing.T) {
	g := schoolsWithCoords().Graph()
	want := []string{"tau -> soft", "mu -> theta", "tau -> theta", "theta_tilde -> theta", "sigma -> y", "theta -> y"}
	got := g.Edges()
	for _, e := range want {
		if !slices.Contains(got, e) {
			t.Errorf("edge %q missing from %v", e, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("edges %v; want the %d of %v", got, len(want), want)
	}
	svg := g.SVG()
	// Well-formed XML, one group per node, the observed one shaded, one
	// plate for the school dimension.
	dec := xml.NewDecoder(strings.NewReader(svg))
	nodes, plates, edges := map[string]string{}, 0, 0
	var class string
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("SVG is not well-formed XML: %v", err)
			}
			break
		}
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Local == "class" {
					class = a.Value
					switch {
					case strings.HasPrefix(class, "node "):
						nodes[class] += "|"
					case class == "plate":
						plates++
					case class == "edge":
						edges++
					}
				}
				if a.Name.Local == "fill" && class == "node observed" && se.Name.Local == "ellipse" && a.Value == "#ffffff" {
					t.Errorf("the observed variable is not shaded")
				}
			}
		}
	}
	if plates != 1 || !strings.Contains(svg, "school (8)") {
		t.Errorf("%d plates; want one labelled school (8)", plates)
	}
	if edges != len(want) {
		t.Errorf("%d arrows drawn; want %d", edges, len(want))
	}
	for kind, n := range map[string]int{"node parameter": 3, "node observed": 1, "node deterministic": 1, "node data": 1, "node term": 1} {
		if len(nodes[kind]) != n {
			t.Errorf("%d nodes of class %q; want %d", len(nodes[kind]), kind, n)
		}
	}
}

func TestModelLaTeX(t *testing.T) {
	src := schoolsWithCoords().LaTeX().String()
	for _, want := range []string{
		`\sigma & \sim & \operatorname{Data} & \quad \text{school} = 8`,
		`\mu & \sim & \operatorname{Normal}\left(0,\ 5\right)`,
		`\tau & \sim & \operatorname{HalfCauchy}\left(5\right)`,
		`\tilde{\theta} & \sim & \operatorname{Normal}\left(0,\ 1\right) & \quad \text{school} = 8`,
		`\theta & = & \mu + \tau \cdot \tilde{\theta}`,
		`y & \sim & \operatorname{Normal}\left(\theta,\ \sigma\right) & \quad \text{school} = 8,\ \text{observed}`,
		`\text{target} & \mathrel{+}= & -\log\left(\tau\right)`,
	} {
		want = strings.Replace(want, "y &", `\text{y} &`, 1)
		if !strings.Contains(src, want) {
			t.Errorf("LaTeX lacks %q:\n%s", want, src)
		}
	}
	m := NewModel("p")
	a := m.Normal("a", 0, 1)
	b := m.Normal("sigma_y", 0, 1)
	m.Deterministic("d", Sub(a, Add(b, 1)).Mul(Add(a, 2)).Div(b.Square()))
	if got, want := m.LaTeX().String(), `\frac{\left(\text{a} - \left(\sigma_{\text{y}} + 1\right)\right) \cdot \left(\text{a} + 2\right)}{{\sigma_{\text{y}}}^{2}}`; !strings.Contains(got, want) {
		t.Errorf("parentheses: %s\nwant %s", got, want)
	}
	md := schoolsWithCoords().LaTeX().Markdown()
	blocks := strings.Split(md, "\n\n")
	if len(blocks) != 7 {
		t.Errorf("Markdown has %d blocks; want one per statement (7):\n%s", len(blocks), md)
	}
	for _, b := range blocks {
		if !strings.HasPrefix(b, "$$") || !strings.HasSuffix(b, "$$") || strings.Contains(b, "&") || strings.Contains(b, `\\`) {
			t.Errorf("block %q is not display maths without & and \\\\ (which Notebook 6 cannot typeset in an output)", b)
		}
	}
}
