package ppl

import (
	"slices"

	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// centred lists the latent variables written in centred hierarchical
// form: a location–scale family whose scale is an expression of other
// parameters (theta ~ Normal(mu, tau)). The warnings advise the
// non-centred form for these, and for no other model.
func (m *Model) centred() []string {
	var out []string
	for _, r := range m.g.RVs {
		if r.Observed || r.Fam == nil {
			continue
		}
		if scale := scaleParam(r); scale != nil && dependsOnParams(scale) {
			out = append(out, r.Name)
		}
	}
	return out
}

// scaleParam is the scale parameter of a location–scale family, nil for
// other families.
func scaleParam(r *graph.RV) *graph.Node {
	switch r.Fam.Name {
	case "Normal", "StudentT", "Cauchy", "Laplace", "LogNormal", "Logistic":
		for i, p := range r.Fam.Params {
			if slices.Contains([]string{"sigma", "b", "s"}, p) && i < len(r.Params) {
				return r.Params[i]
			}
		}
	}
	return nil
}

// dependsOnParams reports whether n is computed from a random variable.
func dependsOnParams(n *graph.Node) bool {
	return n != nil && n.Model != nil
}
