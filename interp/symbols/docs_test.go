package symbols

import (
	"strings"
	"testing"
)

// TestFormulaGrammarDocumented: %doc m.Let shows Model.Let's entry, which
// states the formula grammar (issue 24), and the package doc carries it
// and the regression formulas of GLM.
func TestFormulaGrammarDocumented(t *testing.T) {
	idx, err := LoadDocIndex()
	if err != nil {
		t.Fatal(err)
	}
	ppl, ok := idx["github.com/gobayes/gobayes/ppl"]
	if !ok {
		t.Fatal("no documentation of package ppl")
	}
	let := ppl.Entries["Model.Let"].Doc
	for _, want := range []string{"^", "power", "pi", "0-based", "x[ids]", "logistic (inv_logit)", "normal_lpdf", "clip(x, lo, hi)", "-x^2 is -(x^2)"} {
		if !strings.Contains(let, want) {
			t.Errorf("%%doc m.Let does not say %q:\n%s", want, let)
		}
	}
	for _, want := range []string{"Formulas.", "Regression formulas.", "GLM(\"y ~ x1 + x2 + (1 + x1 | county)\""} {
		if !strings.Contains(ppl.Doc, want) {
			t.Errorf("the package doc lacks %q", want)
		}
	}
	for _, name := range []string{"GLM", "Model.SetPrior", "Model.SetRows", "Family", "Offset", "Prior"} {
		if ppl.Entries[name].Doc == "" {
			t.Errorf("%%doc %s is empty", name)
		}
	}
	if !strings.Contains(ppl.Entries["GLM"].Doc, "2.5·S/s") {
		t.Errorf("%%doc ppl.GLM does not state the default priors' rule")
	}
}
