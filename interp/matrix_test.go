package interp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/display"
)

func TestMatrixRenders(t *testing.T) {
	s := newTestSession(t)
	r := s.Execute(context.Background(), "import \"gonum.org/v1/gonum/mat\"\nm := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})\nm", nil)
	if r.Err != nil || r.Value == nil {
		t.Fatalf("got %+v", r)
	}
	text, _ := r.Value.Data[display.MIMEText].(string)
	html, _ := r.Value.Data[display.MIMEHTML].(string)
	// gonum's Formatted lays out rows between brackets: ⎡1 2 3⎤ / ⎣4 5 6⎦.
	for _, want := range []string{"*mat.Dense 2×3", "⎡1  2  3⎤", "⎣4  5  6⎦"} {
		if !strings.Contains(text, want) {
			t.Errorf("text/plain %q lacks %q", text, want)
		}
	}
	if strings.Count(html, "<tr>") != 2 || strings.Count(html, "<td") != 6 {
		t.Errorf("text/html %q, want 2 rows of 3 cells", html)
	}
	// A large matrix shows its corners: 6 + ellipsis + 6 per dimension.
	r = s.Execute(context.Background(), "big := mat.NewDense(100, 100, nil)\nbig", nil)
	html, _ = r.Value.Data[display.MIMEHTML].(string)
	if strings.Count(html, "<tr>") != 13 {
		t.Errorf("big matrix has %d rows, want 13", strings.Count(html, "<tr>"))
	}
}
